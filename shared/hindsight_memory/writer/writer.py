"""The single writer. It applies a batch of queued operations with as few commits as possible (group commit):
one embedding pass, one merge into `memories`, one append to `events`. Every step is idempotent, so a batch
that is delivered again (SQS redelivery, a crash between commits) converges to the same state."""

import json
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from ..embed import Embedder
from ..models import Kind, Memory, Source, Status, as_utc, utcnow
from ..storage.filters import Where
from ..storage.lance import LanceStore
from ..text import content_hash, extract_slot, has_cjk, invites_reply, key, normalize, value_tokens
from .correct import apply_correction
from .messages import (
    LIFECYCLE_OPS,
    AdjustOp,
    ClearWorkingOp,
    CorrectOp,
    FeedbackOp,
    ForgetOp,
    PreparedItem,
    StoreOp,
    TouchOp,
    UpdateOp,
    WriteOp,
)

log = logging.getLogger(__name__)

FEEDBACK_STEP = 0.1


@dataclass
class StoreOutcome:
    ids: list[str] = field(default_factory=list)
    stored: int = 0
    deduplicated: int = 0
    superseded: int = 0
    duplicates_of: dict[str, str] = field(default_factory=dict)


@dataclass
class _Pending:
    """Everything one batch will commit: memories by id (new or changed) with their vectors, and events."""

    memories: dict[str, Memory] = field(default_factory=dict)
    vectors: dict[str, Any] = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)

    def put(self, m: Memory, vector: Any) -> None:
        self.memories[m.id] = m
        self.vectors[m.id] = vector


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
            for i, outcome in self._store(stores, pending).items():
                outcomes[i] = outcome
        for i, op in enumerate(ops):
            if isinstance(op, TouchOp):
                outcomes[i] = self._touch(op, pending)
            elif isinstance(op, FeedbackOp):
                outcomes[i] = self._feedback(op, pending)
            elif isinstance(op, UpdateOp):
                outcomes[i] = self._update(op, pending)
            elif isinstance(op, AdjustOp):
                outcomes[i] = self._adjust(op, pending)
        self._commit(pending)
        for i, op in enumerate(ops):
            if isinstance(op, ForgetOp):  # after the commit: a forget must win over a store in the same batch
                outcomes[i] = self._forget(op)
            elif isinstance(op, ClearWorkingOp):
                outcomes[i] = self._clear_working(op)
            elif isinstance(op, CorrectOp):  # writer/correct.py: a new version superseding the old
                outcomes[i] = apply_correction(self.store, self.embedder, op)
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

    # ------------------------------------------------------------------ store
    def _store(self, stores: list[tuple[int, StoreOp]], pending: _Pending) -> dict[int, StoreOutcome]:
        outcomes = {i: StoreOutcome(ids=[it.id for it in op.items]) for i, op in stores}
        by_ns: dict[str, list[tuple[int, PreparedItem]]] = defaultdict(list)
        for i, op in stores:
            for item in op.items:
                by_ns[op.namespace].append((i, item))
        for ns, entries in by_ns.items():
            self._store_namespace(ns, entries, pending, outcomes)
        return outcomes

    def _store_namespace(
        self,
        ns: str,
        entries: list[tuple[int, PreparedItem]],
        pending: _Pending,
        outcomes: dict[int, StoreOutcome],
    ) -> None:
        # 1. idempotency: items whose event exists were written before (retry or redelivery)
        seen = self.store.events_by_idem(ns, {it.idem_key for _, it in entries})
        fresh: list[tuple[int, PreparedItem]] = []
        batch_keys: set[str] = set()
        for i, it in entries:
            if it.idem_key in seen or it.idem_key in batch_keys:
                target = seen[it.idem_key]["memory_id"] if it.idem_key in seen else None
                if target and target != it.id:
                    outcomes[i].duplicates_of[it.id] = target
                outcomes[i].deduplicated += 1
                continue
            batch_keys.add(it.idem_key)
            fresh.append((i, it))
        if not fresh:
            return
        # A crash between the two commits leaves memories without events: finish those, do not redo them.
        done = {m.id for m, _ in self.store.get(ns, [it.id for _, it in fresh])}
        for i, it in fresh:
            if it.id in done:
                pending.events.append(_event(ns, it, it.id))
                outcomes[i].stored += 1
        fresh = [(i, it) for i, it in fresh if it.id not in done]
        if not fresh:
            return

        # 2. one embedding pass for the whole batch; short turns carry the turns before them (see _situate)
        next_seq, tails = self._session_state(ns, {it.session_id for _, it in fresh if it.session_id})
        fresh = _situate(fresh, tails)
        texts = [_embed_text(it) for _, it in fresh]
        vectors = np.concatenate(
            [
                self.embedder.embed_passages(texts[s : s + self.embed_batch_size])
                for s in range(0, len(texts), self.embed_batch_size)
            ]
        )

        # 3. what already exists: near neighbours (dedup), same slots (supersede), session positions (order)
        neighbours = self.store.nearest_many(
            ns, vectors, Where(ns).enum_in("status", [Status.active]), limit=4
        )
        # Reflection's episodes and lessons ("Task: ...", "X is Y") compete by confidence, never supersede by slot.
        slots = {
            it.id: (
                it.slot
                or (
                    extract_slot(it.content)
                    if it.kind != Kind.working and it.source != Source.reflection
                    else None
                )
            )
            for _, it in fresh
        }
        slot_keys = {key(s) for s in slots.values() if s}
        by_slot: dict[str, Memory] = {}
        if slot_keys:
            for m, v in self.store.find(
                ns,
                lambda w: w.enum_in("status", [Status.active]).keys_in("slot_key", slot_keys),
                with_vectors=True,
            ):
                k = key(m.slot) if m.slot else None
                if k and (k not in by_slot or m.occurred_at > by_slot[k].occurred_at):
                    by_slot[k] = m
                    pending.vectors.setdefault(m.id, v)

        # 4. decide per item, in order, so later items see earlier ones of the same batch
        batch: list[tuple[Memory, np.ndarray]] = []
        for (i, it), vec, near in zip(fresh, vectors, neighbours, strict=True):
            now = it.stored_at
            dup = self._find_duplicate(it, vec, near, batch)
            if dup is not None:
                target, target_vec = dup
                merged = pending.memories.get(target.id, target)
                merged = _merge_duplicate(merged, it, now)
                pending.put(merged, pending.vectors.get(target.id, target_vec))
                pending.events.append(_event(ns, it, merged.id))
                outcomes[i].deduplicated += 1
                outcomes[i].duplicates_of[it.id] = merged.id
                continue
            seq = 0
            if it.session_id:
                seq = next_seq[it.session_id]
                next_seq[it.session_id] += 1
            mem = _new_memory(ns, it, seq, self.embedder.model_id, slots[it.id])
            slot_k = key(mem.slot) if mem.slot else None
            old = by_slot.get(slot_k) if slot_k else None
            if (
                old is not None
                and old.id != mem.id
                and old.kind == mem.kind
                and old.occurred_at <= mem.occurred_at
            ):
                old = pending.memories.get(old.id, old)
                pending.put(
                    old.model_copy(
                        update={"status": Status.superseded, "superseded_by": mem.id, "updated_at": now}
                    ),
                    pending.vectors[old.id],
                )
                mem.supersedes = old.id
                outcomes[i].superseded += 1
            if slot_k:
                by_slot[slot_k] = mem
            pending.put(mem, vec)
            pending.events.append(_event(ns, it, mem.id))
            batch.append((mem, vec))
            outcomes[i].stored += 1

    def _find_duplicate(
        self, it: PreparedItem, vec: np.ndarray, near: list, batch: list
    ) -> tuple[Memory, Any] | None:
        """A near-identical active memory of the same kind stating the same values, or None."""
        h = content_hash(it.content)
        values = value_tokens(it.content)
        candidates = [(m, float(np.dot(vec, v)), v) for m, v in reversed(batch)] + near
        for m, cos, v in candidates:
            if m.kind != it.kind or m.status != Status.active:
                continue
            # Turns of a session are events: the same words in another session are another event, not a duplicate.
            if it.kind in (Kind.working, Kind.episodic) and it.session_id and m.session_id != it.session_id:
                continue
            same_text = content_hash(m.content) == h
            if same_text or (cos >= self.dedup_threshold and value_tokens(m.content) == values):
                return m, v
        return None

    def _session_state(self, ns: str, sessions: set[str]) -> tuple[dict[str, int], dict[str, list[str]]]:
        """Per session: the next position, and the last turns stored so far (oldest first)."""
        nxt = {s: 0 for s in sessions}
        tails: dict[str, list[str]] = {s: [] for s in sessions}
        if sessions:
            rows = self.store.find(ns, lambda w: w.keys_in("session_key", [key(s) for s in sessions]))
            rows.sort(key=lambda r: r[0].seq)
            for m, _ in rows:
                if m.session_id in nxt:
                    nxt[m.session_id] = max(nxt[m.session_id], m.seq + 1)
                    tails[m.session_id] = [*tails[m.session_id][-(CONTEXT_TURNS - 1) :], m.content]
        return nxt, tails

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

    # ------------------------------------------------------------------ other ops
    def _load(self, ns: str, ids: list[str], pending: _Pending) -> list[Memory]:
        missing = [i for i in ids if i not in pending.memories]
        for m, v in self.store.get(ns, missing, with_vectors=True):
            pending.put(m, v)
        return [
            pending.memories[i] for i in ids if i in pending.memories and pending.memories[i].namespace == ns
        ]

    def _touch(self, op: TouchOp, pending: _Pending) -> int:
        mems = self._load(op.namespace, op.ids, pending)
        for m in mems:
            pending.put(
                m.model_copy(
                    update={
                        "access_count": m.access_count + op.counts.get(m.id, 1),
                        "last_accessed_at": as_utc(op.at),
                        "tier": "hot",
                    }
                ),
                pending.vectors[m.id],
            )
        return len(mems)

    def _feedback(self, op: FeedbackOp, pending: _Pending) -> dict:
        mems = self._load(op.namespace, [op.id], pending)
        if not mems:
            return {"found": False}
        m = mems[0]
        step = FEEDBACK_STEP if op.useful else -FEEDBACK_STEP
        meta = dict(m.metadata)
        fb = dict(meta.get("_feedback", {"useful": 0, "not_useful": 0}))
        fb["useful" if op.useful else "not_useful"] += 1
        meta["_feedback"] = fb
        upd = {
            "importance": min(1.0, max(0.0, m.importance + step)),
            "metadata": meta,
            "updated_at": as_utc(op.at),
        }
        if op.useful:
            upd["last_confirmed_at"] = as_utc(op.at)
        pending.put(m.model_copy(update=upd), pending.vectors[m.id])
        return {"found": True, "importance": upd["importance"]}

    def _update(self, op: UpdateOp, pending: _Pending) -> int:
        mems = self._load(op.namespace, list(op.changes), pending)
        for m in mems:
            pending.put(
                m.model_copy(update={**op.changes[m.id], "updated_at": utcnow()}), pending.vectors[m.id]
            )
        return len(mems)

    def _adjust(self, op: AdjustOp, pending: _Pending) -> dict:
        mems = self._load(op.namespace, [op.id], pending)
        if not mems:
            return {"found": False}
        m = mems[0]
        at = as_utc(op.at)
        upd: dict[str, Any] = {
            "confidence": round(min(1.0, max(0.05, m.confidence + op.confidence_delta)), 4),
            "source_ids": m.source_ids + [s for s in op.add_source_ids if s not in m.source_ids],
            "metadata": {**m.metadata, **op.metadata},
            "updated_at": at,
        }
        if op.confirmed:
            upd.update(last_confirmed_at=at, seen_count=m.seen_count + 1, last_seen_at=at)
        pending.put(m.model_copy(update=upd), pending.vectors[m.id])
        return {"found": True, "confidence": upd["confidence"]}

    def _clear_working(self, op: ClearWorkingOp) -> int:
        ns, sid = op.namespace, op.session_id
        rows = self.store.find(
            ns, lambda w: w.keys_in("session_key", [key(sid)]).enum_in("kind", [Kind.working])
        )
        if rows:
            self.store.delete(ns, [m.id for m, _ in rows])
        return len(rows)

    def _forget(self, op: ForgetOp) -> dict:
        from ..lifecycle.forget import forget

        return forget(self.store, op)

    def _lifecycle(self, op: Any) -> dict:
        from ..lifecycle.ops import apply_lifecycle

        return apply_lifecycle(self, op)


CONTEXT_TURNS = 2  # turns before a short turn that travel with it into its embedding and its BM25 text
_SHORT_CHARS, _SHORT_CJK_CHARS = 80, 30


def _is_short(text: str) -> bool:
    return len(text) <= (_SHORT_CJK_CHARS if has_cjk(text) else _SHORT_CHARS)


def _situate(
    fresh: list[tuple[int, PreparedItem]], tails: dict[str, list[str]]
) -> list[tuple[int, PreparedItem]]:
    """A short turn ("14 June.", "Her name is Ottilie.") means little alone: its meaning lives in the turns
    before it. Append those to its context, which is embedded and indexed with it but never returned."""
    out = []
    for i, it in fresh:
        if it.session_id and it.kind != Kind.working:
            before = tails.setdefault(it.session_id, [])
            # Only a reply needs its prompt: "14 June." after "When is it?"; not "Ah, okay." after a statement,
            # which would otherwise borrow the statement's meaning and crowd it out of results.
            if before and _is_short(it.content) and invites_reply(before[-1]):
                ctx = "\n".join([*([it.context] if it.context else []), *before])
                it = it.model_copy(update={"context": ctx})
            tails[it.session_id] = [*before[-(CONTEXT_TURNS - 1) :], it.content]
        out.append((i, it))
    return out


def _embed_text(it: PreparedItem) -> str:
    # The context situates a turn ("session 3, 2026-03-02, talking about travel"); embedding it with the
    # content lets a query match what the turn is about even when the turn itself is short.
    return normalize(f"{it.context}\n{it.content}" if it.context else it.content)


def _new_memory(ns: str, it: PreparedItem, seq: int, model_id: str, slot: str | None) -> Memory:
    return Memory(
        id=it.id,
        namespace=ns,
        kind=it.kind,
        content=normalize(it.content),
        context=it.context or "",
        occurred_at=it.occurred_at,
        stored_at=it.stored_at,
        updated_at=it.stored_at,
        session_id=it.session_id,
        seq=seq,
        tags=it.tags,
        entities=it.entities,
        importance=it.importance,
        confidence=it.confidence,
        source=it.source,
        metadata=it.metadata,
        source_ids=[it.id, *it.source_ids],
        slot=slot,
        embed_model=model_id,
        last_seen_at=it.stored_at,
        last_confirmed_at=it.stored_at if it.kind == Kind.semantic else None,
    )


def _merge_duplicate(m: Memory, it: PreparedItem, now: datetime) -> Memory:
    return m.model_copy(
        update={
            "seen_count": m.seen_count + 1,
            "last_seen_at": now,
            "importance": max(m.importance, it.importance),
            "confidence": max(m.confidence, it.confidence),
            "tags": m.tags + [t for t in it.tags if t not in m.tags],
            "entities": m.entities + [e for e in it.entities if e not in m.entities],
            "source_ids": m.source_ids + [s for s in [it.id, *it.source_ids] if s not in m.source_ids],
            "last_confirmed_at": now if m.kind == Kind.semantic else m.last_confirmed_at,
            "updated_at": now,
        }
    )


def _event(ns: str, it: PreparedItem, memory_id: str) -> dict:
    return {
        "id": it.id,
        "namespace": ns,
        "session_id": it.session_id or "",
        "session_key": key(it.session_id) if it.session_id else "",
        "kind": it.kind.value,
        "content": it.content,
        "context": it.context or "",
        "occurred_at": it.occurred_at,
        "stored_at": it.stored_at,
        "source": Source(it.source).value,
        "tags": it.tags,
        "entities": it.entities,
        "importance": it.importance,
        "metadata": json.dumps(it.metadata, ensure_ascii=False),
        "idem_key": it.idem_key,
        "memory_id": memory_id,
    }
