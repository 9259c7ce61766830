"""The memory service: validation at the edge, writes through the queue, reads through the retriever.
`build_service(settings)` is the one place where adapters are created and wired."""

from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from .config import Settings
from .counters import Counters
from .embed import Embedder, embedder_for
from .embed.passages import PassagePlan
from .errors import InvalidInput, LimitExceeded, describe
from .intake import prepare_call, store_status, wait_visible
from .llm import make_llm
from .models import RecallQuery, RecallResult, StoreRequest, StoreResult, utcnow
from .namespaces import validate_namespace
from .ordering import ArrivalClock
from .retrieval.recall import Retriever
from .retrieval.rerank import make_reranker
from .storage.lance import LanceStore
from .writer.journal import Journal
from .writer.messages import (
    FeedbackOp,
    ForgetOp,
    RunOp,
    RunRecord,
    StoreOp,
    TouchOp,
    WriteOp,
    new_op_id,
)
from .writer.queue import InProcessQueue, SqsQueue, SqsTriggerQueue, WriteQueue
from .writer.usage import UsageBuffer
from .writer.writer import StoreOutcome, Writer

if TYPE_CHECKING:  # imported on first use: most processes never reflect or export
    from .reflection import Reflector
    from .storage.objects import ObjectStore


class MemoryService:
    def __init__(
        self,
        settings: Settings,
        store: LanceStore,
        embedder: Embedder,
        queue: WriteQueue,
        writer: Writer,
        retriever: Retriever,
    ) -> None:
        self.settings = settings
        self.store = store
        self.embedder = embedder
        self.queue = queue
        self.writer = writer
        self.retriever = retriever
        self.counters = Counters()
        self._clock = ArrivalClock()  # a stamp per stored item, in call order (see ordering.py)
        self.usage = UsageBuffer(queue)
        self.llm: Any = None  # reflection's LLMClient; None = heuristic mode (set by build_service)
        self._reflector: Reflector | None = None
        # Serverless: reflection requests go to the reflect function through its queue (set by build_service).
        self.reflect_queue: SqsTriggerQueue | None = None
        self.exports: ObjectStore | None = None  # where exports too large to answer inline go (serverless)

    @property
    def remote_writer(self) -> bool:
        """Whether another process applies the writes (the store function): then nothing here waits on them."""
        return isinstance(self.queue, SqsQueue)

    # ------------------------------------------------------------------ store
    def store_memories(self, req: StoreRequest, timeout_s: float | None = None) -> StoreResult:
        """Validate, fix ids, enqueue. With `wait`, return once the items are visible to recall, or raise
        TimeoutError (the items stay queued) within the function's own timeout.

        Raises:
            InvalidInput / LimitExceeded: nothing is queued.
        """
        s = self.settings
        timeout_s = s.wait_timeout() if timeout_s is None else timeout_s
        if len(req.items) > s.max_items_per_store:
            raise LimitExceeded(f"at most {s.max_items_per_store} items per store call")
        # Each item its own arrival stamp (ordering.py), so a batch keeps its order; the stamp and the item's place
        # in its call go into the key of an item without key or time, so a real repeat is a new event
        stamps = self._clock.stamps(len(req.items))
        call = new_op_id()
        prepared = prepare_call(s, req.namespace, req.items, stamps, call)
        fut = self.queue.submit(StoreOp(namespace=req.namespace, items=prepared))
        ids = [p.id for p in prepared]
        if not req.wait or fut is None:
            if req.wait:
                wait_visible(self.store, self.settings, req.namespace, ids, timeout_s)
                return StoreResult(ids=ids, status="committed", stored=len(ids))
            return StoreResult(ids=ids, status="queued")
        out: StoreOutcome = fut.result(timeout=timeout_s)
        self.counters.add(stored=out.stored, deduplicated=out.deduplicated, superseded=out.superseded)
        return StoreResult(
            ids=ids,
            status="committed",
            stored=out.stored,
            deduplicated=out.deduplicated,
            superseded=out.superseded,
            duplicates_of=out.duplicates_of,
            supersedes=out.supersedes,
            superseded_by=out.superseded_by,
        )

    def store_status(self, namespace: str, ids: list[str]) -> dict[str, Any]:
        """What became of stored items, by the ids a store returned (see intake.store_status).

        Raises:
            InvalidInput: bad namespace or a malformed id.
        """
        return store_status(self.store, namespace, ids, self.queue.waiting(validate_namespace(namespace)))

    # ------------------------------------------------------------------ recall
    def recall(self, q: RecallQuery) -> RecallResult:
        if q.top_k > self.settings.max_top_k:
            raise LimitExceeded(f"top_k is at most {self.settings.max_top_k}")
        result, ids = self.retriever.recall(q)
        self.counters.add_recall(q.namespace, hit=not result.missing)
        if ids:
            self.usage.add(q.namespace, ids)
        return result

    def flush_usage(self) -> None:
        """Send the buffered usage counts now (serverless handlers call it at the end of every invocation)."""
        self.usage.flush()

    # ------------------------------------------------------------------ feedback, forget
    def feedback(self, namespace: str, memory_id: str, useful: bool) -> dict[str, Any]:
        validate_namespace(namespace)
        res = self.apply_op(FeedbackOp(namespace=namespace, id=memory_id, useful=useful, at=utcnow()))
        self.counters.feedback["useful" if useful else "not_useful"] += 1
        return res or {"queued": True}

    def forget(self, namespace: str, ids: list[str], purge: bool = False) -> dict[str, Any]:
        validate_namespace(namespace)
        if not ids:
            raise InvalidInput("give the ids to forget")
        return self.apply_op(ForgetOp(namespace=namespace, ids=ids, purge=purge, at=utcnow())) or {
            "queued": True
        }

    def apply_op(self, op: WriteOp, timeout_s: float | None = None) -> Any:
        """Send one op to the single writer and wait for its outcome (within the function's own timeout when
        serverless); None when a remote writer will apply it."""
        fut: Future[Any] | None = self.queue.submit(op)
        if fut is None:
            return None
        return fut.result(timeout=self.settings.wait_timeout() if timeout_s is None else timeout_s)

    def follow_writer(self) -> None:
        """Read the tables the in-process writer now writes, with its embedder (after a reindex switched them).
        Each swap is one attribute assignment: a recall in flight finishes on the old retriever and old tables."""
        self.store, self.embedder = self.writer.store, self.writer.embedder
        self.retriever = Retriever(self.store, self.embedder, self.settings, self.retriever.reranker)

    # ------------------------------------------------------------------ stats
    def stats(self, namespace: str) -> dict[str, Any]:
        validate_namespace(namespace)
        return {
            "namespace": namespace,
            "memories": self.store.status_counts(namespace),
            "events": self.store.count(namespace, table="events"),
            "archived": self.store.count(namespace, table="cold"),
            "embedder": self.embedder.model_id,
            "queue_depth": self.queue.depth(),
            "reflection": self.reflection_stats(namespace),
            "tiers": self.store.tier_counts(namespace),
        }

    # ------------------------------------------------------------------ lifecycle (thin: see lifecycle/)
    def forget_matching(
        self,
        namespace: str,
        *,
        where: Any = None,
        everything: bool = False,
        purge: bool = False,
        subtree: bool = False,
    ) -> dict[str, Any]:
        """Forget by filter (a lifecycle.ForgetFilter or its dict) or the whole namespace (with `subtree`, also
        every namespace under it).

        Raises:
            InvalidInput: bad namespace or filter, neither a filter nor everything=True, or subtree without it.
        """
        from .writer.messages import ForgetFilter

        validate_namespace(namespace)
        if where is None and not everything:
            raise InvalidInput("give a filter, or everything=True to forget the whole namespace")
        if subtree and not everything:
            raise InvalidInput("include_subnamespaces needs everything=true")
        try:
            flt = ForgetFilter.model_validate(where) if where is not None else None
        except ValidationError as exc:
            raise InvalidInput(f"bad forget filter: {describe(exc)}") from None
        op = ForgetOp(
            namespace=namespace, filter=flt, everything=everything, subtree=subtree, purge=purge, at=utcnow()
        )
        return self.apply_op(op, timeout_s=3600) or {"queued": True}

    def archive(self, namespace: str, ids: list[str]) -> dict[str, Any]:
        from .writer.messages import ArchiveOp

        validate_namespace(namespace)
        return self.apply_op(ArchiveOp(namespace=namespace, ids=ids, at=utcnow())) or {"queued": True}

    def restore(self, namespace: str, ids: list[str]) -> dict[str, Any]:
        """Bring archived (cold) or soft-forgotten memories back."""
        from .writer.messages import RestoreOp

        validate_namespace(namespace)
        return self.apply_op(RestoreOp(namespace=namespace, ids=ids, at=utcnow())) or {"queued": True}

    def compact(
        self, namespace: str | None = None, max_seconds: float | None = None, max_rows: int | None = None
    ) -> dict[str, Any]:
        """One bounded, resumable compaction run (tiers, archive, merges, histories, table upkeep)."""
        from .lifecycle.compact import compact

        if namespace is not None:
            validate_namespace(namespace)
        return compact(self, namespace, max_seconds=max_seconds, max_rows=max_rows)

    def export_records(
        self, namespace: str | None = None, *, vectors: bool = True
    ) -> Iterator[dict[str, Any]]:
        from .lifecycle.export import export_records

        return export_records(self.store, namespace, vectors=vectors)

    def export_response(self, namespace: str, limit: int) -> dict[str, Any]:
        """Up to `limit` records of a namespace, inline or (large) as a file with a URL; see lifecycle.export."""
        from .lifecycle.export import export_response

        validate_namespace(namespace)
        return export_response(
            self.store, self.exports, namespace, limit, inline_max_bytes=self.settings.export_inline_max_bytes
        )

    def import_records(
        self, namespace: str | None, records: Iterable[dict[str, Any]], *, confidence: float | None = None
    ) -> dict[str, Any]:
        from .lifecycle.export import import_records

        return import_records(self, namespace, records, confidence=confidence)

    def reindex(self, embedder_spec: str) -> dict[str, Any]:
        """Re-embed everything with another model into new tables, then switch; recall keeps working."""
        from .lifecycle.reindex import reindex

        return reindex(self, embedder_spec)

    # ------------------------------------------------------------------ reflection (thin: see reflection/)
    @property
    def reflector(self) -> "Reflector":
        if self._reflector is None:
            from .reflection import Prompts, Reflector, RunLog

            self._reflector = Reflector(
                self,
                self.llm,
                Prompts(self.settings.store_uri, self.settings.storage_options()),
                RunLog(self.store, self._record_runs),
            )
        return self._reflector

    def _record_runs(self, rows: list[RunRecord]) -> None:
        self.apply_op(RunOp(rows=rows))

    def reflect(
        self,
        namespace: str,
        session_id: str | None = None,
        trajectory: list[dict[str, Any]] | None = None,
        trigger: str = "task_end",
        run_id: str | None = None,
    ) -> dict[str, Any]:
        """Distil a finished task into an episode and lessons (recorded under `run_id` when given).

        Raises:
            InvalidInput: bad namespace, trigger or trajectory.
        """
        return self.reflector.reflect(
            namespace, session_id=session_id, trajectory=trajectory, trigger=trigger, run_id=run_id
        )

    def request_reflection(
        self,
        namespace: str,
        session_id: str | None = None,
        trajectory: list[dict[str, Any]] | None = None,
        trigger: str = "task_end",
    ) -> dict[str, Any]:
        """Reflect now (embedded) or, when a reflect queue is configured (serverless), queue the request for the
        reflect function and return its run id at once; `reflection_run` then tells how it went.

        Raises:
            InvalidInput: bad namespace, trigger or trajectory.  LimitExceeded: the request exceeds a message.
        """
        if self.reflect_queue is None:
            return self.reflect(namespace, session_id=session_id, trajectory=trajectory, trigger=trigger)
        from .reflection.requests import queued_request

        payload = queued_request(namespace, session_id, trajectory, trigger)
        self.reflect_queue.send(payload)
        return {k: v for k, v in payload.items() if k != "trajectory"} | {"status": "queued"}

    def reflection_run(self, namespace: str, run_id: str) -> dict[str, Any]:
        """A reflection run by id: its outcome once recorded, else queued."""
        return self.reflector.runs.outcome(validate_namespace(namespace), run_id)

    def induce(self, namespace: str) -> dict[str, Any]:
        """Turn clusters of similar episodes into lessons; decay lessons not confirmed for long."""
        from .reflection import induce

        return induce(self.reflector, validate_namespace(namespace))

    def reflection_stats(self, namespace: str) -> dict[str, Any]:
        """LLM calls, tokens and cost of reflection in this namespace, and deferred work waiting for budget."""
        return {
            "mode": "llm" if self.llm else "heuristic",
            **self.reflector.runs.summary(validate_namespace(namespace)),
        }

    def flush(self) -> None:
        """Block until everything queued so far is applied (embedded mode)."""
        self.flush_usage()
        fut = self.queue.submit(TouchOp(namespace="_flush", ids=[], at=utcnow()))
        if fut is not None:
            fut.result(timeout=300)

    def close(self) -> None:
        self.flush_usage()
        self.queue.close()


def build_store(settings: Settings, embedder: Embedder) -> LanceStore:
    return LanceStore(
        settings.store_uri,
        model_id=embedder.model_id,
        dim=embedder.dim,
        storage_options=settings.storage_options(),
        commit_retries=settings.commit_retries,
        cold_uri=settings.cold_uri,
        read_consistency=timedelta(seconds=settings.read_consistency()),
        warm_rows=settings.warm_rows(),
        create_tables=settings.create_tables,
    )


def build_writer(settings: Settings, store: LanceStore, embedder: Embedder) -> Writer:
    """The single writer, with the lifecycle's ops registered (forget, archive, restore, merge, import, upkeep,
    reindex): the writer package itself never imports lifecycle."""
    from .lifecycle.write_handlers import HANDLERS

    return Writer(
        store,
        embedder,
        dedup_threshold=settings.dedup_threshold,
        working_turns=settings.working_memory_turns,
        passages=PassagePlan.of(settings),
        handlers=HANDLERS,
    )


def build_service(
    settings: Settings | None = None,
    *,
    queue: WriteQueue | None = None,
    llm: Any = None,
    embedder: Embedder | None = None,
) -> MemoryService:
    """Create every adapter from settings. Tests pass settings (or a queue, or an embedder) in; nothing reads
    globals."""
    settings = settings or Settings()
    embedder = embedder or embedder_for(settings)
    store = build_store(settings, embedder)
    writer = build_writer(settings, store, embedder)
    if queue is None:
        if settings.queue == "sqs":
            if not settings.store_queue_url:
                raise InvalidInput("queue=sqs needs HINDSIGHT_STORE_QUEUE_URL")
            queue = SqsQueue(settings.store_queue_url)
        else:
            journal_dir = settings.journal_path()
            queue = InProcessQueue(
                writer,
                max_items=settings.batch_max_items,
                window_ms=settings.batch_window_ms,
                journal=Journal(journal_dir) if journal_dir is not None else None,
            )
    retriever = Retriever(store, embedder, settings, make_reranker(settings))
    svc = MemoryService(settings, store, embedder, queue, writer, retriever)
    svc.llm = llm if llm is not None else make_llm(settings)  # litellm itself is imported only on a call
    if settings.queue == "sqs" and settings.reflect_queue_url:
        svc.reflect_queue = SqsTriggerQueue(settings.reflect_queue_url)
    if settings.export_uri:
        from .storage.objects import ObjectStore

        svc.exports = ObjectStore(settings.export_uri, settings)
    return svc
