"""The single writer. It applies a batch of queued operations with as few commits as possible (group commit):
one embedding pass, one merge into `memories`, one append to `events`. Every step is idempotent, so a batch
that is delivered again (SQS redelivery, a crash between commits) converges to the same state."""

import logging
from typing import Any

from ..embed import Embedder
from ..models import Kind
from ..storage.lance import LanceStore
from ..text import key
from . import small_ops
from .context import _Pending
from .messages import (
    LIFECYCLE_OPS,
    AdjustOp,
    ClearWorkingOp,
    FeedbackOp,
    ForgetOp,
    StoreOp,
    TouchOp,
    UpdateOp,
    WriteOp,
)
from .storing import StoreOutcome, store_items

__all__ = ["StoreOutcome", "Writer"]

log = logging.getLogger(__name__)


class Writer:
    def __init__(
        self,
        store: LanceStore,
        embedder: Embedder,
        *,
        dedup_threshold: float | None = None,
        working_turns: int = 15,
        embed_batch_size: int = 64,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.dedup_threshold = dedup_threshold or embedder.calibration.duplicate
        self.working_turns = working_turns
        self.embed_batch_size = embed_batch_size

    # ------------------------------------------------------------------ entry point
    def apply(self, ops: list[WriteOp]) -> list[Any]:
        """Apply ops in order; returns one outcome per op. Raises on a failed commit (the caller retries)."""
        pending = _Pending()
        outcomes: list[Any] = [None] * len(ops)
        stores = [(i, op) for i, op in enumerate(ops) if isinstance(op, StoreOp)]
        if stores:
            for i, outcome in store_items(self, stores, pending).items():
                outcomes[i] = outcome
        for i, op in enumerate(ops):
            if isinstance(op, TouchOp):
                outcomes[i] = small_ops.touch(self, op, pending)
            elif isinstance(op, FeedbackOp):
                outcomes[i] = small_ops.feedback(self, op, pending)
            elif isinstance(op, UpdateOp):
                outcomes[i] = small_ops.update(self, op, pending)
            elif isinstance(op, AdjustOp):
                outcomes[i] = small_ops.adjust(self, op, pending)
        self._commit(pending)
        for i, op in enumerate(ops):
            if isinstance(op, ForgetOp):  # after the commit: a forget must win over a store in the same batch
                outcomes[i] = self._forget(op)
            elif isinstance(op, ClearWorkingOp):
                outcomes[i] = small_ops.clear_working(self, op)
            elif isinstance(op, LIFECYCLE_OPS):  # archive, restore, merge, import, upkeep, reindex
                outcomes[i] = self._lifecycle(op)
        return outcomes

    def _commit(self, pending: _Pending) -> None:
        ids = list(pending.memories)
        self.store.upsert([pending.memories[i] for i in ids], [pending.vectors[i] for i in ids])
        self.store.append_events(pending.events)
        if pending.memories:
            self.store.ensure_fts_index()
        self._trim_working(pending)

    def _trim_working(self, pending: _Pending) -> None:
        """Working memory keeps the last N turns of a session; older turns stay in the event log."""
        sessions = {
            (m.namespace, m.session_id)
            for m in pending.memories.values()
            if m.kind == Kind.working and m.session_id
        }
        for ns, sid in sessions:
            rows = self.store.find(
                ns, lambda w, s=sid: w.keys_in("session_key", [key(s)]).enum_in("kind", [Kind.working])
            )
            rows.sort(key=lambda r: r[0].seq)
            excess = [m.id for m, _ in rows[: max(0, len(rows) - self.working_turns)]]
            if excess:
                self.store.delete(ns, excess)

    def _forget(self, op: ForgetOp) -> dict:
        from ..lifecycle.forget import forget

        return forget(self.store, op)

    def _lifecycle(self, op: Any) -> dict:
        from ..lifecycle.write_handlers import apply_lifecycle

        return apply_lifecycle(self, op)
