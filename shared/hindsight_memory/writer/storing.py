"""The store path of the single writer: idempotency (an item whose event exists is not written again, and a
retry without a key is told from a real repeat), one embedding pass per batch (short turns situated by the turns
before them), then per item what it does to what is stored: merge into a duplicate, supersede an older value of
the same fact (which records when it stopped being true), or stand on its own (writer/facts.py decides).
Conversation turns are events: they are never merged into or superseded by one another. A long memory (split into
passages) is a duplicate only passage by passage too, and replaces another only through the same slot."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import numpy as np

from ..embed.passages import Embedded, alike, embed_memories, whole
from ..models import Kind, Memory, Source, Status
from ..storage.filters import Where
from ..text import content_hash, extract_slot, key, normalize
from .context import Pending, WriterState
from .facts import Statement, Verdict, relate, statement, thresholds_for
from .learned import one_fact
from .messages import PreparedItem, StoreOp
from .preceding import session_state, with_preceding_turns
from .reading import readings
from .rows import event_row, merged_duplicate, new_memory

# A call without idempotency key or time, repeated within this window with the same words and nothing said in
# between, is the client retrying, not the user repeating themselves.
RETRY_WINDOW = timedelta(minutes=5)
NEIGHBOURS = 4  # stored memories compared with each new item


@dataclass
class StoreOutcome:
    ids: list[str] = field(default_factory=list)
    stored: int = 0
    deduplicated: int = 0
    superseded: int = 0
    duplicates_of: dict[str, str] = field(default_factory=dict)
    supersedes: dict[str, str] = field(default_factory=dict)  # item id -> the memory it replaced
    superseded_by: dict[str, str] = field(default_factory=dict)  # item id -> a newer memory it is history of


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


def is_turn(m: Memory | PreparedItem) -> bool:
    """A conversation turn (episodic or working, in a session): an event of its own, never merged or replaced."""
    return m.kind in (Kind.working, Kind.episodic) and bool(m.session_id)


class _Batch:
    """What one namespace's batch knows while deciding, item by item."""

    def __init__(self, writer: WriterState, ns: str, pending: Pending) -> None:
        self.writer, self.ns, self.pending = writer, ns, pending
        self.th = thresholds_for(writer.embedder, writer.dedup_threshold)
        self.new: list[tuple[Memory, np.ndarray]] = []  # memories this batch created, in order, as stored
        # the store call each new turn came in: a client does not retry inside its own call ("Yes." "Yes.")
        self.call_of: dict[str, str] = {}
        self._statements: dict[str, Statement] = {}
        self._queries: dict[str, np.ndarray] = {}

    def statement(self, text: str, entities: list[str], slot: str | None) -> Statement:
        k = f"{text}\x00{'|'.join(entities)}\x00{slot or ''}"
        if k not in self._statements:
            self._statements[k] = statement(text, entities, slot)
        return self._statements[k]

    def _read(self, a: str, b: str) -> tuple[np.ndarray, np.ndarray]:
        """The two texts' query-side embeddings (the model's symmetric reading) of what the writer reads of them
        side by side (`readings`), computed on demand."""
        read = readings(a, b)
        for t in read:
            if t not in self._queries:
                self._queries[t] = self.writer.embedder.embed_query(t)
        return self._queries[read[0]], self._queries[read[1]]

    def sharper(self, a: str, b: str) -> float:
        return float(np.dot(*self._read(a, b)))

    def learned(self, a: str, b: str, va: Any, vb: Any) -> float:
        return one_fact(self.writer.embedder.model_id, (a, b), va, vb, lambda: self._read(a, b))

    def current(self, m: Memory) -> Memory:
        return self.pending.memories.get(m.id, m)


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
            pending.events.append(event_row(ns, it, it.id))
            outcomes[i].stored += 1
    fresh = [(i, it) for i, it in fresh if it.id not in done]
    if not fresh:
        return

    # 2. one embedding pass for the whole batch, long content passage by passage (embed/passages.py); short
    # turns carry the turns before them (see with_preceding_turns)
    last_turns, tails = session_state(writer, ns, {it.session_id for _, it in fresh if it.session_id})
    next_seq = {s: (m.seq + 1 if m else 0) for s, m in last_turns.items()}
    fresh = with_preceding_turns(fresh, tails, writer.passages)
    embedded = embed_memories(writer.embedder, [(it.content, it.context) for _, it in fresh], writer.passages)

    # 3. what already exists: near neighbours (by the memory as a whole), and memories of the same fact slots
    facts = [(i, it) for i, it in fresh if not is_turn(it)]
    fact_vectors = [e.vector for (_, it), e in zip(fresh, embedded, strict=True) if not is_turn(it)]
    near: dict[str, list[tuple[Memory, float, Any]]] = {}
    if facts:
        found = writer.store.nearest_many(
            ns, np.stack(fact_vectors), Where(ns).enum_in("status", [Status.active]), limit=NEIGHBOURS
        )
        near = {it.id: hits for (_, it), hits in zip(facts, found, strict=True)}
    slots = {it.id: _slot(it) for _, it in facts}
    by_slot = _same_slots(writer, ns, {key(s) for s in slots.values() if s}, pending)

    # 4. decide per item, in order, so later items see earlier ones of the same batch
    b = _Batch(writer, ns, pending)
    for (i, it), emb in zip(fresh, embedded, strict=True):
        out = outcomes[i]
        if is_turn(it):
            last = last_turns.get(it.session_id or "")
            said_again = last is not None and bool(it.call) and b.call_of.get(last.id) == it.call
            if last is not None and not said_again and _is_retry(it, last):
                _record_retry(b, ns, it, last, out)
                continue
            seq = next_seq[it.session_id or ""]
            next_seq[it.session_id or ""] = seq + 1
            mem = new_memory(ns, it, seq, writer.embedder.model_id, None, emb.spans)
            last_turns[it.session_id or ""] = mem
            b.call_of[mem.id] = it.call
            _keep(b, mem, emb, it, out)
            continue
        slot = slots[it.id]
        candidates = _candidates(b, it, emb, near.get(it.id, []), by_slot.get(key(slot)) if slot else None)
        retried = next((m for m, _, _ in candidates if _is_retry(it, m)), None)
        if retried is not None:
            _record_retry(b, ns, it, retried, out)
            continue
        verdicts = _judge(b, it, emb, candidates)
        dup = next(
            ((m, v, verdict) for m, _, v, verdict in verdicts if verdict.relation == "duplicate"), None
        )
        if dup is not None:
            target, target_vec, verdict = dup
            merged = merged_duplicate(b.current(target), it, it.stored_at)
            vector = pending.vectors.get(target.id, target_vec)
            if (
                verdict.fuller
                and merged.source == it.source
                and np.ndim(vector) == 1
                and np.ndim(emb.stored) == 1
            ):
                # "Atlas uses Postgres" then "Atlas uses Postgres for billing": one memory, in the words that say
                # more (the shorter text stays in the event log); never a client's words in a memory the server wrote
                merged = merged.model_copy(
                    update={
                        "content": normalize(it.content),
                        "original": it.original,
                        "slot": slot or merged.slot,
                        "passages": emb.spans,
                    }
                )
                vector = emb.stored
            pending.put(merged, vector)
            pending.events.append(event_row(ns, it, merged.id))
            out.deduplicated += 1
            out.duplicates_of[it.id] = merged.id
            continue
        seq = 0
        if it.session_id:
            seq = next_seq[it.session_id]
            next_seq[it.session_id] = seq + 1
        mem = new_memory(ns, it, seq, writer.embedder.model_id, slot, emb.spans)
        old = next(((m, v) for m, _, v, verdict in verdicts if verdict.relation == "update"), None)
        if old is not None and it.source != Source.reflection:
            _supersede(b, mem, old, out)
        if mem.slot and mem.status == Status.active:
            by_slot.setdefault(key(mem.slot), []).insert(0, (mem, emb.stored))
        _keep(b, mem, emb, it, out)


def _slot(it: PreparedItem) -> str | None:
    # Reflection's episodes and lessons ("Task: ...", "X is Y") compete by confidence, never supersede by slot.
    if it.slot:
        return it.slot
    return extract_slot(it.content) if it.kind != Kind.working and it.source != Source.reflection else None


def _same_slots(
    writer: WriterState, ns: str, slot_keys: set[str], pending: Pending
) -> dict[str, list[tuple[Memory, Any]]]:
    """Active memories of these fact slots, newest first: candidates whatever their cosine."""
    by_slot: dict[str, list[tuple[Memory, Any]]] = {}
    if slot_keys:
        for m, v in writer.store.find(
            ns,
            lambda w: w.enum_in("status", [Status.active]).keys_in("slot_key", slot_keys),
            with_vectors=True,
        ):
            if m.slot and not is_turn(m):
                by_slot.setdefault(key(m.slot), []).append((m, v))
                pending.vectors.setdefault(m.id, v)
    for rows in by_slot.values():
        rows.sort(key=lambda r: r[0].occurred_at, reverse=True)
    return by_slot


def _candidates(
    b: _Batch,
    it: PreparedItem,
    emb: Embedded,
    near: list[tuple[Memory, float, Any]],
    same_slot: list[tuple[Memory, Any]] | None,
) -> list[tuple[Memory, float, Any]]:
    """Stored or same-batch memories of the item's kind this item may duplicate or update, closest first. The
    cosines are of the memories as wholes (a split memory's vector is its passages' mean); `v` is what is stored."""
    seen: set[str] = set()
    out: list[tuple[Memory, float, Any]] = []
    pool = [(m, float(np.dot(emb.vector, whole(v))), v) for m, v in [*reversed(b.new), *(same_slot or [])]]
    pool += near
    for m, cos, v in sorted(pool, key=lambda c: c[1], reverse=True):
        m = b.current(m)
        if m.id in seen or m.id == it.id or m.kind != it.kind or m.status != Status.active or is_turn(m):
            continue
        seen.add(m.id)
        out.append((m, cos, v))
    return out


def _judge(
    b: _Batch, it: PreparedItem, emb: Embedded, candidates: list[tuple[Memory, float, Any]]
) -> list[tuple[Memory, float, Any, Verdict]]:
    new = b.statement(it.content, it.entities, _slot(it))
    out = []
    for m, cos, v in candidates:
        old = b.statement(m.content, m.entities, m.slot)

        def sharper(text: str = m.content) -> float:
            return b.sharper(text, it.content)

        def learned(text: str = m.content, vec: Any = v) -> float:
            return b.learned(text, it.content, vec, emb.stored)

        verdict = relate(old, new, cos, b.th, sharper, learned)
        split = np.ndim(emb.stored) == 2 or np.ndim(v) == 2
        if split and verdict.relation == "duplicate" and content_hash(m.content) != content_hash(it.content):
            if not _passages_agree(b, emb.stored, v):
                verdict = Verdict("distinct", "a passage differs")
        elif split and verdict.relation == "update" and not _same_slot(m.slot, new.slot):
            # A long text is a document, not one fact: a change word anywhere in it ("a new server") says nothing
            # about the other. It replaces another only through the same slot.
            verdict = Verdict("distinct", "a long memory is replaced only through its slot")
        out.append((m, cos, v, verdict))
    return out


def _same_slot(a: str | None, b: str | None) -> bool:
    return bool(a and b and key(a) == key(b))


def _passages_agree(b: _Batch, a: Any, c: Any) -> bool:
    """Where either memory is split, a duplicate also needs as many passages, each near-identical to its
    counterpart: a long text with one paragraph changed is another memory, though its mean barely moves, and a
    long text's whole-text embeddings (`sharper`) see only its beginning."""
    return alike(a, c, b.th.merge_floor or b.writer.embedder.calibration.duplicate)


def _is_retry(it: PreparedItem, m: Memory) -> bool:
    """The same words again, moments later, from a call that had neither a key nor a time: a client retry."""
    return (
        it.key_from_arrival
        and content_hash(m.content) == content_hash(it.content)
        and timedelta(0) <= it.stored_at - (m.last_seen_at or m.stored_at) <= RETRY_WINDOW
    )


def _record_retry(b: _Batch, ns: str, it: PreparedItem, target: Memory, out: StoreOutcome) -> None:
    """Nothing new is stored; the event says which memory the retried call's id stands for."""
    b.pending.events.append(event_row(ns, it, target.id))
    out.deduplicated += 1
    out.duplicates_of[it.id] = target.id


def _supersede(b: _Batch, mem: Memory, old_and_vec: tuple[Memory, Any], out: StoreOutcome) -> None:
    """The newer of the two (by when it happened) is the current value; the other is history that stopped being
    true when the newer one happened."""
    old, old_vec = old_and_vec
    old = b.current(old)
    if old.occurred_at <= mem.occurred_at:
        b.pending.put(
            old.model_copy(
                update={
                    "status": Status.superseded,
                    "superseded_by": mem.id,
                    "valid_until": mem.occurred_at,
                    "updated_at": mem.stored_at,
                }
            ),
            b.pending.vectors.get(old.id, old_vec),
        )
        mem.supersedes = old.id
        out.superseded += 1
        out.supersedes[mem.id] = old.id
    else:
        # A value from before the one stored (a backfill): it is history from the start.
        mem.status, mem.superseded_by, mem.valid_until = Status.superseded, old.id, old.occurred_at
        out.superseded_by[mem.id] = old.id


def _keep(b: _Batch, mem: Memory, emb: Embedded, it: PreparedItem, out: StoreOutcome) -> None:
    b.pending.put(mem, emb.stored)
    b.pending.events.append(event_row(b.ns, it, mem.id))
    if mem.status == Status.active:
        b.new.append((mem, emb.stored))
    out.stored += 1
