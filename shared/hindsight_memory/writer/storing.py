"""The store path of the single writer: idempotency (an item whose event exists is not written again), one
embedding pass per batch (short turns situated by the turns before them), near-duplicates merged, a new value for a
fact slot superseding the old one, and positions within a session."""

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from ..embed.passages import Embedded, alike, embed_memories
from ..models import Kind, Memory, Source, Status
from ..storage.filters import Where
from ..text import (
    content_hash,
    extract_slot,
    has_cjk,
    invites_reply,
    key,
    normalize,
    value_tokens,
)
from .context import Pending, WriterState
from .messages import PreparedItem, StoreOp


@dataclass
class StoreOutcome:
    ids: list[str] = field(default_factory=list)
    stored: int = 0
    deduplicated: int = 0
    superseded: int = 0
    duplicates_of: dict[str, str] = field(default_factory=dict)


def store_items(
    writer: WriterState, stores: list[tuple[int, StoreOp]], pending: Pending
) -> dict[int, StoreOutcome]:
    outcomes = {i: StoreOutcome(ids=[it.id for it in op.items]) for i, op in stores}
    by_ns: dict[str, list[tuple[int, PreparedItem]]] = defaultdict(list)
    for i, op in stores:
        for item in op.items:
            by_ns[op.namespace].append((i, item))
    for ns, entries in by_ns.items():
        _store_namespace(writer, ns, entries, pending, outcomes)
    return outcomes


def _store_namespace(
    writer: WriterState,
    ns: str,
    entries: list[tuple[int, PreparedItem]],
    pending: Pending,
    outcomes: dict[int, StoreOutcome],
) -> None:
    # 1. idempotency: items whose event exists were written before (retry or redelivery)
    seen = writer.store.events_by_idem(ns, {it.idem_key for _, it in entries})
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
    done = {m.id for m, _ in writer.store.get(ns, [it.id for _, it in fresh])}
    for i, it in fresh:
        if it.id in done:
            pending.events.append(_event(ns, it, it.id))
            outcomes[i].stored += 1
    fresh = [(i, it) for i, it in fresh if it.id not in done]
    if not fresh:
        return

    # 2. one embedding pass for the whole batch, long content passage by passage (embed/passages.py); short
    # turns carry the turns before them (see _with_preceding_turns)
    next_seq, tails = _session_state(writer, ns, {it.session_id for _, it in fresh if it.session_id})
    fresh = _with_preceding_turns(fresh, tails)
    embedded = embed_memories(writer.embedder, [(it.content, it.context) for _, it in fresh], writer.passages)
    vectors = np.stack([e.vector for e in embedded])

    # 3. what already exists: near neighbours (dedup), same slots (supersede), session positions (order)
    neighbours = writer.store.nearest_many(ns, vectors, Where(ns).enum_in("status", [Status.active]), limit=4)
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
        for m, v in writer.store.find(
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
    for (i, it), emb, near in zip(fresh, embedded, neighbours, strict=True):
        now = it.stored_at
        dup = _find_duplicate(writer, it, emb, near, batch)
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
        mem = _new_memory(ns, it, seq, writer.embedder.model_id, slots[it.id], emb.spans)
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
        pending.put(mem, emb.stored)
        pending.events.append(_event(ns, it, mem.id))
        batch.append((mem, emb.stored))
        outcomes[i].stored += 1


def _find_duplicate(
    writer: WriterState,
    it: PreparedItem,
    emb: Embedded,
    near: list[tuple[Memory, float, Any]],
    batch: list[tuple[Memory, np.ndarray]],
) -> tuple[Memory, Any] | None:
    """A near-identical active memory of the same kind stating the same values, or None."""
    h = content_hash(it.content)
    values = value_tokens(it.content)
    candidates = [*reversed(batch), *((m, v) for m, _, v in near)]
    for m, v in candidates:
        if m.kind != it.kind or m.status != Status.active:
            continue
        # Turns of a session are events: the same words in another session are another event, not a duplicate.
        if it.kind in (Kind.working, Kind.episodic) and it.session_id and m.session_id != it.session_id:
            continue
        same_text = content_hash(m.content) == h
        if same_text or (alike(emb.stored, v, writer.dedup_threshold) and value_tokens(m.content) == values):
            return m, v
    return None


def _session_state(
    writer: WriterState, ns: str, sessions: set[str]
) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Per session: the next position, and the last turns stored so far (oldest first)."""
    nxt = {s: 0 for s in sessions}
    tails: dict[str, list[str]] = {s: [] for s in sessions}
    if sessions:
        rows = writer.store.find(ns, lambda w: w.keys_in("session_key", [key(s) for s in sessions]))
        rows.sort(key=lambda r: r[0].seq)
        for m, _ in rows:
            if m.session_id in nxt:
                nxt[m.session_id] = max(nxt[m.session_id], m.seq + 1)
                tails[m.session_id] = [*tails[m.session_id][-(CONTEXT_TURNS - 1) :], m.content]
    return nxt, tails


CONTEXT_TURNS = 2  # turns before a short turn that travel with it into its embedding and its BM25 text
_SHORT_CHARS, _SHORT_CJK_CHARS = 80, 30


def _is_short(text: str) -> bool:
    return len(text) <= (_SHORT_CJK_CHARS if has_cjk(text) else _SHORT_CHARS)


def _with_preceding_turns(
    fresh: list[tuple[int, PreparedItem]], tails: dict[str, list[str]]
) -> list[tuple[int, PreparedItem]]:
    """A short turn ("14 June.", "Her name is Ottilie.") means little alone: its meaning lives in the turns
    before it. Append those to its context, which is embedded and indexed with it but never returned."""
    out = []
    for i, it in fresh:
        sid = it.session_id
        if sid and it.kind != Kind.working:
            before = tails.setdefault(sid, [])
            # Only a reply needs its prompt: "14 June." after "When is it?"; not "Ah, okay." after a statement,
            # which would otherwise borrow the statement's meaning and crowd it out of results.
            if before and _is_short(it.content) and invites_reply(before[-1]):
                ctx = "\n".join([*([it.context] if it.context else []), *before])
                it = it.model_copy(update={"context": ctx})
            tails[sid] = [*before[-(CONTEXT_TURNS - 1) :], it.content]
        out.append((i, it))
    return out


def _new_memory(
    ns: str, it: PreparedItem, seq: int, model_id: str, slot: str | None, passages: list[tuple[int, int]]
) -> Memory:
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
        passages=passages,
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


def _event(ns: str, it: PreparedItem, memory_id: str) -> dict[str, Any]:
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
