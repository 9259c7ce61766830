"""Messages on the write queue. JSON-serialisable, so the same messages travel in-process or over SQS."""

import hashlib
import json
import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from ..models import Kind, MemoryCorrection, MemoryCreate, as_utc
from ..text import normalize


class PreparedItem(MemoryCreate):
    """A store item after validation at the edge: its id and idempotency key are fixed before queueing."""

    id: str
    idem_key: str
    stored_at: datetime
    occurred_at: datetime  # resolved: never None here
    # The client gave neither an idempotency key nor a time, so the key holds the arrival: a retry of the same
    # call has another key, and the writer tells it from a real repeat (see storing.RETRY_WINDOW).
    key_from_arrival: bool = False
    call: str = ""  # the store call it came in (one id per call): a repeat inside one call is no retry
    original: str | None = None  # the content as sent, where normalising changed it (text.as_sent)


def idempotency_key(
    namespace: str, item: MemoryCreate, arrival: datetime | None = None, index: int = 0, repeat: int = 0
) -> str:
    """The client's key if given; else namespace + kind + session + occurred_at + content + the client's metadata;
    and without an occurred_at, the arrival time and the item's place in its call instead: "Yes." said twice in a
    session is two turns, not a retry (the writer recognises a true retry by its content and timing). Turns that
    share their session's time (a transcript with one time per session) are told apart by their metadata ("turn":
    "D1:9") or, inside one call, by `repeat`: the how-manieth earlier item of the call had the same key."""
    if item.idempotency_key:
        basis = f"client|{namespace}|{item.idempotency_key}"
    else:
        if item.occurred_at:
            when = as_utc(item.occurred_at).isoformat()
        else:
            when = f"arrived {as_utc(arrival).isoformat()} #{index}" if arrival else ""
        basis = f"derived|{namespace}|{item.kind}|{item.session_id or ''}|{when}|{normalize(item.content)}"
        if item.metadata:  # a retry sends the same metadata; another turn said the same way usually does not
            basis += "|" + json.dumps(item.metadata, sort_keys=True, ensure_ascii=False, default=str)
        if repeat:
            basis += f"|again {repeat}"
    return hashlib.sha256(basis.encode()).hexdigest()[:40]


def memory_id(idem_key: str) -> str:
    return hashlib.sha256(f"id|{idem_key}".encode()).hexdigest()[:32]


class StoreOp(BaseModel):
    op: Literal["store"] = "store"
    namespace: str
    items: list[PreparedItem]


def new_op_id() -> str:
    return uuid.uuid4().hex


def _op_id() -> Any:
    return Field(
        default_factory=new_op_id,
        min_length=1,
        max_length=64,
        description="Increments apply once per op id, so a redelivered message changes nothing twice",
    )


class TouchOp(BaseModel):
    """Recall used these memories: bump their usage counters (applied in batches, off the read path)."""

    op: Literal["touch"] = "touch"
    op_id: str = _op_id()
    namespace: str
    ids: list[str]
    at: datetime
    counts: dict[str, int] = Field(default_factory=dict, description="times each id was recalled (default 1)")


class FeedbackOp(BaseModel):
    op: Literal["feedback"] = "feedback"
    op_id: str = _op_id()
    namespace: str
    id: str
    useful: bool
    at: datetime


class ForgetFilter(BaseModel):
    """Which memories of a namespace to forget, by their labels and times (all given clauses must hold)."""

    model_config = ConfigDict(extra="forbid")
    kinds: list[Kind] | None = None
    tags: list[str] | None = None
    entities: list[str] | None = None
    session_id: str | None = None
    before: datetime | None = Field(default=None, description="occurred before")
    after: datetime | None = Field(default=None, description="occurred at or after")

    @model_validator(mode="after")
    def _narrows(self) -> "ForgetFilter":
        # A filter that names nothing would match the whole namespace: that takes everything=true, said on purpose.
        empty = [k for k in ("kinds", "tags", "entities") if getattr(self, k) == []]
        if empty:
            raise ValueError(f"{empty[0]} is an empty list; leave it out or name at least one")
        if all(v is None for v in self.model_dump().values()):
            raise ValueError(
                "the filter has no clause: give kinds, tags, entities, session_id, before or after "
                "(everything=true forgets the whole namespace)"
            )
        return self


class ForgetOp(BaseModel):
    """Forget by ids, by filter, or (everything=True) the whole namespace."""

    op: Literal["forget"] = "forget"
    namespace: str
    ids: list[str] = Field(default_factory=list)
    filter: ForgetFilter | None = None
    everything: bool = False
    subtree: bool = False  # with everything: also every namespace under this one ("alice/..." for "alice")
    purge: bool = False
    at: datetime


class UpdateOp(BaseModel):
    """Field changes computed elsewhere (reflection, compaction), applied by the single writer."""

    op: Literal["update"] = "update"
    namespace: str
    changes: dict[str, dict[str, Any]] = Field(description="memory id -> {field: new value}")


class ClearWorkingOp(BaseModel):
    """A reflected session's working memory is done with: its turns become episodic memories (context.leave_working)."""

    op: Literal["clear_working"] = "clear_working"
    namespace: str
    session_id: str


class AdjustOp(BaseModel):
    """Reflection's verdict on an existing memory: confirmed (confidence up, sources added) or contested (down)."""

    op: Literal["adjust"] = "adjust"
    op_id: str = _op_id()
    namespace: str
    id: str
    confidence_delta: float = Field(default=0.0, ge=-1.0, le=1.0)
    add_source_ids: list[str] = Field(default_factory=list)
    confirmed: bool = False
    metadata: dict[str, Any] = Field(
        default_factory=dict[str, Any], description="Keys merged into the memory's metadata"
    )
    at: datetime


class CorrectOp(BaseModel):
    """A person corrected a memory: `new_id` (fixed at the edge) becomes a new version superseding `id`."""

    op: Literal["correct"] = "correct"
    namespace: str
    id: str
    new_id: str
    idem_key: str
    correction: MemoryCorrection
    at: datetime


class ArchiveOp(BaseModel):
    """Move memories to the cold tier (their own table), never deleting them."""

    op: Literal["archive"] = "archive"
    namespace: str
    ids: list[str]
    at: datetime


class RestoreOp(BaseModel):
    """Bring memories back: archived ones from the cold tier, soft-forgotten ones to active."""

    op: Literal["restore"] = "restore"
    namespace: str
    ids: list[str]
    at: datetime


class MergeOp(BaseModel):
    """Fold near-duplicates into `keep`, which takes their sources and counts (compaction)."""

    op: Literal["merge"] = "merge"
    namespace: str
    keep: str
    absorb: list[str]
    at: datetime


class ImportedMemory(BaseModel):
    memory: dict[str, Any] = Field(description="A Memory as exported (JSON)")
    table: Literal["memories", "cold"] = "memories"
    vector: list[float] | list[list[float]] | None = Field(
        default=None,
        description="Reused when the exporting model is ours (one per passage for a long memory)",
    )


class ImportOp(BaseModel):
    """Exported memories and events written back as they were (vectors re-embedded when missing)."""

    op: Literal["import"] = "import"
    namespace: str
    memories: list[ImportedMemory] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(default_factory=list)


class UpkeepOp(BaseModel):
    """Table upkeep (fragment compaction, indexes, version pruning, dropping table generations a reindex retired
    longer than retention ago): it commits, so the writer runs it."""

    op: Literal["upkeep"] = "upkeep"
    retention_hours: float = 24.0
    scalar_min_rows: int = 5_000
    vector_min_rows: int = 50_000


class CatalogOp(BaseModel):
    """Small key/value records in the catalog (compaction's cursor), written by the single writer."""

    op: Literal["catalog"] = "catalog"
    entries: dict[str, str]


class RunRecord(BaseModel):
    """One reflection run as the run log (table reflection_runs) keeps it."""

    id: str = Field(min_length=1, max_length=64)
    namespace: str
    at: datetime
    trigger: str
    session_id: str = ""
    status: str  # done | skipped | deferred | failed
    mode: str  # llm | heuristic
    reason: str = ""
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    resolves: str = ""
    detail: str = "{}"  # JSON: lesson decisions, written ids


class RunOp(BaseModel):
    """Reflection run records, appended by the single writer; a record with the id of an earlier one replaces it
    (a retried run's outcome)."""

    op: Literal["run"] = "run"
    rows: list[RunRecord] = Field(min_length=1)


class ReindexOp(BaseModel):
    """Catch up the re-embedded tables with writes made during the copy, then make them current."""

    op: Literal["reindex"] = "reindex"
    embedder: str
    memories_table: str
    cold_table: str


WriteOp = Annotated[
    StoreOp
    | TouchOp
    | FeedbackOp
    | ForgetOp
    | UpdateOp
    | ClearWorkingOp
    | AdjustOp
    | CorrectOp
    | ArchiveOp
    | RestoreOp
    | MergeOp
    | ImportOp
    | UpkeepOp
    | ReindexOp
    | CatalogOp
    | RunOp,
    Field(discriminator="op"),
]
OPS: TypeAdapter[WriteOp] = TypeAdapter(WriteOp)
