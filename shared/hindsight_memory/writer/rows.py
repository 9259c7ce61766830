"""The rows the store path writes: a new memory, a duplicate merged into the memory it repeats, and the raw event
of every stored item (the append-only log that every memory links back to)."""

import json
from datetime import datetime
from typing import Any

from ..models import Kind, Memory, Source
from ..text import key, normalize
from .messages import PreparedItem


def new_memory(
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
        original=it.original,
    )


def merged_duplicate(m: Memory, it: PreparedItem, now: datetime) -> Memory:
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


def event_row(ns: str, it: PreparedItem, memory_id: str) -> dict[str, Any]:
    return {
        "id": it.id,
        "namespace": ns,
        "session_id": it.session_id or "",
        "session_key": key(it.session_id) if it.session_id else "",
        "kind": it.kind.value,
        "content": it.original or it.content,  # the raw log keeps what was sent
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
