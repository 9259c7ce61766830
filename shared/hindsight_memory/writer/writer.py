"""The single writer. It applies a batch of queued operations with as few commits as possible (group commit):
one embedding pass, one merge into `memories`, one append to `events`. Every step is idempotent, so a batch
that is delivered again (SQS redelivery, a crash between commits) converges to the same state.

Ops reach their code through a registry (op type -> Handler): the writer's own small ops and the correction (correct.py) by default, and those of
the packages above it (lifecycle: forget, archive, merge, import, upkeep, reindex) given by whoever builds the
writer (service.build_writer), so the writer never imports them."""

import logging
from collections.abc import Mapping
from typing import Any

from ..embed import Embedder
from ..embed.passages import PassagePlan
from ..models import Kind, utcnow
from ..storage.lance import LanceStore
from . import correct, small_ops
from .context import Handler, Pending, leave_working, working_turns_of
from .messages import StoreOp, WriteOp
from .storing import StoreOutcome, store_items

__all__ = ["Handler", "StoreOutcome", "Writer"]

log = logging.getLogger(__name__)


class Writer:
    def __init__(
        self,
        store: LanceStore,
        embedder: Embedder,
        *,
        dedup_threshold: float | None = None,
        working_turns: int = 15,
        passages: PassagePlan | None = None,
        handlers: Mapping[type, Handler] | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        # None: what is a duplicate is decided by writer/facts.py on the embedder's scale; a number is a floor
        # (cosine) below which nothing merges, whatever else agrees.
        self.dedup_threshold = dedup_threshold
        self.working_turns = working_turns
        self.passages = passages or PassagePlan()
        self.handlers: dict[type, Handler] = {**small_ops.HANDLERS, **correct.HANDLERS, **(handlers or {})}

    def switch_to(self, store: LanceStore, embedder: Embedder) -> None:
        """Write to `store` with `embedder` from the next op on (a reindex switched tables)."""
        self.store, self.embedder = store, embedder

    # ------------------------------------------------------------------ entry point
    def apply(self, ops: list[WriteOp]) -> list[Any]:
        """Apply ops in order; returns one outcome per op.

        Raises:
            TypeError: an op this writer has no handler for (nothing of the batch is applied).
            StorageConflict and storage errors: a failed commit (the caller retries).
        """
        for op in ops:
            if not isinstance(op, StoreOp) and type(op) not in self.handlers:
                raise TypeError(f"this writer has no handler for {op.op!r} ops (see service.build_writer)")
        pending = Pending()
        outcomes: list[Any] = [None] * len(ops)
        stores = [(i, op) for i, op in enumerate(ops) if isinstance(op, StoreOp)]
        if stores:
            for i, outcome in store_items(self, stores, pending).items():
                outcomes[i] = outcome
        staged = [(i, op) for i, op in enumerate(ops) if not isinstance(op, StoreOp)]
        for i, op in staged:
            handler = self.handlers[type(op)]
            if not handler.after_commit:
                outcomes[i] = handler.run(self, op, pending)
        self._commit(pending)
        for i, op in staged:
            handler = self.handlers[type(op)]
            if handler.after_commit:
                outcomes[i] = handler.run(self, op, Pending())
        return outcomes

    def _commit(self, pending: Pending) -> None:
        ids = list(pending.memories)
        self.store.upsert([pending.memories[i] for i in ids], [pending.vectors[i] for i in ids])
        self.store.append_events(pending.events)
        if pending.memories:
            self.store.ensure_fts_index()
        self._trim_working(pending)

    def _trim_working(self, pending: Pending) -> None:
        """Working memory keeps the last N turns of a session; older turns become episodic (leave_working)."""
        sessions = {
            (m.namespace, m.session_id)
            for m in pending.memories.values()
            if m.kind == Kind.working and m.session_id
        }
        for ns, sid in sessions:
            rows = self.store.find(ns, working_turns_of(sid), with_vectors=True)
            rows.sort(key=lambda r: r[0].seq)
            leave_working(self.store, ns, rows[: max(0, len(rows) - self.working_turns)], utcnow())
