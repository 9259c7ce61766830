"""Messages on the write queue. JSON-serialisable, so the same messages travel in-process or over SQS."""

import hashlib
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, TypeAdapter

from ..models import MemoryCreate, as_utc
from ..text import normalize


class PreparedItem(MemoryCreate):
    """A store item after validation at the edge: its id and idempotency key are fixed before queueing."""

    id: str
    idem_key: str
    stored_at: datetime
    occurred_at: datetime  # type: ignore[assignment]  # resolved: never None here


def idempotency_key(namespace: str, item: MemoryCreate) -> str:
    """Client key if given, else namespace + content + occurred_at (+ session): retries write nothing twice."""
    if item.idempotency_key:
        basis = f"client|{namespace}|{item.idempotency_key}"
    else:
        when = as_utc(item.occurred_at).isoformat() if item.occurred_at else ""
        basis = f"derived|{namespace}|{item.kind}|{item.session_id or ''}|{when}|{normalize(item.content)}"
    return hashlib.sha256(basis.encode()).hexdigest()[:40]


def memory_id(idem_key: str) -> str:
    return hashlib.sha256(f"id|{idem_key}".encode()).hexdigest()[:32]


class StoreOp(BaseModel):
    op: Literal["store"] = "store"
    namespace: str
    items: list[PreparedItem]


class TouchOp(BaseModel):
    """Recall used these memories: bump their usage counters (applied in batches, off the read path)."""

    op: Literal["touch"] = "touch"
    namespace: str
    ids: list[str]
    at: datetime


class FeedbackOp(BaseModel):
    op: Literal["feedback"] = "feedback"
    namespace: str
    id: str
    useful: bool
    at: datetime


class ForgetOp(BaseModel):
    op: Literal["forget"] = "forget"
    namespace: str
    ids: list[str]
    purge: bool = False
    at: datetime


class UpdateOp(BaseModel):
    """Field changes computed elsewhere (reflection, compaction), applied by the single writer."""

    op: Literal["update"] = "update"
    namespace: str
    changes: dict[str, dict] = Field(description="memory id -> {field: new value}")


class ClearWorkingOp(BaseModel):
    """A reflected session's working memory is done with: delete it (its turns stay in the event log)."""

    op: Literal["clear_working"] = "clear_working"
    namespace: str
    session_id: str


class AdjustOp(BaseModel):
    """Reflection's verdict on an existing memory: confirmed (confidence up, sources added) or contested (down)."""

    op: Literal["adjust"] = "adjust"
    namespace: str
    id: str
    confidence_delta: float = Field(default=0.0, ge=-1.0, le=1.0)
    add_source_ids: list[str] = Field(default_factory=list)
    confirmed: bool = False
    metadata: dict = Field(default_factory=dict, description="Keys merged into the memory's metadata")
    at: datetime


WriteOp = Annotated[StoreOp | TouchOp | FeedbackOp | ForgetOp | UpdateOp | ClearWorkingOp | AdjustOp,
                    Field(discriminator="op")]
OPS: TypeAdapter[WriteOp] = TypeAdapter(WriteOp)
