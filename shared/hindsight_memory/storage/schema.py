"""Arrow schemas of the LanceDB tables and the conversions between rows and models. Nothing outside
the storage package sees these column names."""

import json
from datetime import datetime
from typing import Any

import numpy as np
import pyarrow as pa

from ..embed.passages import whole
from ..models import Kind, Memory, Source, Status, as_utc
from ..text import content_hash, fts_text, key

TS = pa.timestamp("us", tz="UTC")
STR_LIST = pa.list_(pa.string())

MODEL_KEY = b"hindsight.embed_model"
DIM_KEY = b"hindsight.embed_dim"


def added_columns(dim: int) -> list[pa.Field]:
    """Columns added after tables were first written: added (all null) when such a table is opened by a process
    that may write it; a process that may only read treats a missing one as null (see Tables)."""
    return [
        # When a superseded memory stopped being true (null: still true, or unknown).
        pa.field("valid_until", TS),
        # A memory split into passages (embed/passages.py): one vector per passage, and each passage's
        # [start, end) in `content`, flattened; both null for a memory embedded as one text.
        pa.field("passages", pa.list_(pa.list_(pa.float32(), dim))),
        pa.field("passage_spans", pa.list_(pa.int32())),
        # The text as sent, where normalising changed it (null: `content` is what was sent).
        pa.field("original", pa.string()),
    ]


def memory_schema(dim: int, model_id: str) -> pa.Schema:
    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False),
            pa.field("namespace", pa.string(), nullable=False),
            pa.field("kind", pa.string()),
            pa.field("status", pa.string()),
            pa.field("content", pa.string()),
            pa.field("context", pa.string()),
            pa.field("search_text", pa.string()),  # content + context, Chinese segmented: the FTS column
            pa.field("vector", pa.list_(pa.float32(), dim)),  # the whole memory (passages: added_columns)
            pa.field("occurred_at", TS),
            pa.field("stored_at", TS),
            pa.field("updated_at", TS),
            pa.field("session_id", pa.string()),
            pa.field("session_key", pa.string()),
            pa.field("seq", pa.int64()),
            pa.field("tags", STR_LIST),
            pa.field("tag_keys", STR_LIST),
            pa.field("entities", STR_LIST),
            pa.field("entity_keys", STR_LIST),
            pa.field("importance", pa.float32()),
            pa.field("confidence", pa.float32()),
            pa.field("source", pa.string()),
            pa.field("supersedes", pa.string()),
            pa.field("superseded_by", pa.string()),
            pa.field("access_count", pa.int64()),
            pa.field("last_accessed_at", TS),
            pa.field("seen_count", pa.int64()),
            pa.field("last_seen_at", TS),
            pa.field("last_confirmed_at", TS),
            pa.field("metadata", pa.string()),
            pa.field("source_ids", STR_LIST),
            pa.field("slot", pa.string()),
            pa.field("slot_key", pa.string()),
            pa.field("content_hash", pa.string()),
            pa.field("embed_model", pa.string()),
            pa.field("tier", pa.string()),
            *added_columns(dim),
        ],
        metadata={MODEL_KEY: model_id.encode(), DIM_KEY: str(dim).encode()},
    )


EVENT_SCHEMA = pa.schema(
    [
        pa.field("id", pa.string(), nullable=False),
        pa.field("namespace", pa.string(), nullable=False),
        pa.field("session_id", pa.string()),
        pa.field("session_key", pa.string()),
        pa.field("kind", pa.string()),
        pa.field("content", pa.string()),
        pa.field("context", pa.string()),
        pa.field("occurred_at", TS),
        pa.field("stored_at", TS),
        pa.field("source", pa.string()),
        pa.field("tags", STR_LIST),
        pa.field("entities", STR_LIST),
        pa.field("importance", pa.float32()),
        pa.field("metadata", pa.string()),
        pa.field("idem_key", pa.string()),
        pa.field("memory_id", pa.string()),  # the memory this event became or was merged into
    ]
)


# One row per reflection or induction run: what it cost, what it decided, and work it deferred.
RUN_SCHEMA = pa.schema(
    [
        pa.field("id", pa.string(), nullable=False),
        pa.field("namespace", pa.string(), nullable=False),
        pa.field("at", TS),
        pa.field("trigger", pa.string()),
        pa.field("session_id", pa.string()),
        pa.field("status", pa.string()),  # done | skipped | deferred | failed
        pa.field("mode", pa.string()),  # llm | heuristic
        pa.field("reason", pa.string()),
        pa.field("calls", pa.int64()),
        pa.field("prompt_tokens", pa.int64()),
        pa.field("completion_tokens", pa.int64()),
        pa.field("cost_usd", pa.float64()),
        pa.field("resolves", pa.string()),  # the deferred run this run completed
        pa.field("detail", pa.string()),  # JSON: lesson decisions, written ids
    ]
)

# Columns a search needs; the vectors are fetched only where they are used.
VECTOR_COLUMNS = ["vector", "passages"]
SEARCH_COLUMNS = [f.name for f in memory_schema(1, "x") if f.name not in (*VECTOR_COLUMNS, "search_text")]
WITH_VECTOR = [*SEARCH_COLUMNS, *VECTOR_COLUMNS]


def _opt(v: str | None) -> str:
    return v or ""


def memory_to_row(m: Memory, vectors: Any) -> dict[str, Any]:
    """`vectors`: the memory's one vector, or the matrix of its passages' vectors (see embed/passages.py)."""
    v = np.asarray(vectors, dtype=np.float32)
    split = v.ndim == 2 and len(v) > 1
    return {
        "id": m.id,
        "namespace": m.namespace,
        "kind": m.kind.value,
        "status": m.status.value,
        "content": m.content,
        "context": m.context,
        "search_text": fts_text(f"{m.content}\n{m.context}" if m.context else m.content),
        "vector": whole(v) if split else v.reshape(-1),
        "passages": list(v) if split else None,
        "passage_spans": [x for span in m.passages for x in span] if split else None,
        "occurred_at": m.occurred_at,
        "stored_at": m.stored_at,
        "updated_at": m.updated_at,
        "session_id": _opt(m.session_id),
        "session_key": key(m.session_id) if m.session_id else "",
        "seq": m.seq,
        "tags": m.tags,
        "tag_keys": [key(t) for t in m.tags],
        "entities": m.entities,
        "entity_keys": [key(e) for e in m.entities],
        "importance": m.importance,
        "confidence": m.confidence,
        "source": m.source.value,
        "supersedes": _opt(m.supersedes),
        "superseded_by": _opt(m.superseded_by),
        "access_count": m.access_count,
        "last_accessed_at": m.last_accessed_at,
        "seen_count": m.seen_count,
        "last_seen_at": m.last_seen_at,
        "last_confirmed_at": m.last_confirmed_at,
        "metadata": json.dumps(m.metadata, ensure_ascii=False, separators=(",", ":")),
        "source_ids": m.source_ids,
        "slot": _opt(m.slot),
        "slot_key": key(m.slot) if m.slot else "",
        "content_hash": content_hash(m.content),
        "embed_model": m.embed_model,
        "tier": m.tier,
        "valid_until": m.valid_until,
        "original": m.original,
    }


def row_vectors(r: dict[str, Any]) -> Any:
    """A row's vectors as the rest of the code passes them: its passages' matrix when split, else its vector."""
    passages = r.get("passages")
    if passages is not None and len(passages) > 1:
        return np.asarray(passages, dtype=np.float32)
    return r.get("vector")


def _spans(flat: Any) -> list[tuple[int, int]]:
    flat = list(flat or [])
    return list(zip(flat[::2], flat[1::2], strict=True))


def _ts(v: Any) -> datetime | None:
    return as_utc(v) if v is not None else None


def row_to_memory(r: dict[str, Any]) -> Memory:
    return Memory(
        id=r["id"],
        namespace=r["namespace"],
        kind=Kind(r["kind"]),
        status=Status(r["status"]),
        content=r["content"],
        context=r.get("context") or "",
        occurred_at=as_utc(r["occurred_at"]),
        stored_at=as_utc(r["stored_at"]),
        updated_at=as_utc(r["updated_at"]),
        session_id=r.get("session_id") or None,
        seq=r.get("seq") or 0,
        tags=list(r.get("tags") or []),
        entities=list(r.get("entities") or []),
        importance=float(r.get("importance") or 0.0),
        confidence=float(r["confidence"]) if r.get("confidence") is not None else 1.0,
        source=Source(r["source"]),
        supersedes=r.get("supersedes") or None,
        superseded_by=r.get("superseded_by") or None,
        access_count=r.get("access_count") or 0,
        last_accessed_at=_ts(r.get("last_accessed_at")),
        seen_count=r.get("seen_count") or 1,
        last_seen_at=_ts(r.get("last_seen_at")),
        last_confirmed_at=_ts(r.get("last_confirmed_at")),
        metadata=json.loads(r.get("metadata") or "{}"),
        source_ids=list(r.get("source_ids") or []),
        slot=r.get("slot") or None,
        embed_model=r.get("embed_model") or "",
        tier=r.get("tier") or "hot",
        passages=_spans(r.get("passage_spans")),
        valid_until=_ts(r.get("valid_until")),
        original=r.get("original"),
    )
