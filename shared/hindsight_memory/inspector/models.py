"""Typed models of the inspector's API: queries in, pages and details out (REST /v1 and the /ui page)."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models import Kind, Memory, Status, Time
from ..namespaces import Namespace

MAX_PAGE = 200
Table = Literal["memories", "cold"]


class _Query(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    namespace: Namespace = Field(description="The namespace to read (checked against the token's scopes)")
    session_id: str | None = Field(default=None, max_length=256)
    since: Time | None = Field(default=None, description="Occurred at or after (ISO 8601 or a written date)")
    until: Time | None = Field(default=None, description="Occurred before (ISO 8601 or a written date)")
    text: str | None = Field(
        default=None, max_length=200, description="Case-insensitive substring of the content"
    )
    limit: int = Field(default=50, ge=1, le=MAX_PAGE)
    cursor: str | None = Field(default=None, max_length=300, description="next_cursor of the previous page")


class MemoryQuery(_Query):
    """Filters of GET /v1/memories; every given filter must hold."""

    kind: list[Kind] | None = None
    status: list[Status] | None = None
    tag: list[str] | None = Field(default=None, max_length=20, description="Any of these tags")
    entity: list[str] | None = Field(default=None, max_length=20, description="Any of these entities")
    order: Literal["occurred_at", "stored_at"] = "occurred_at"


class EventQuery(_Query):
    """Filters of GET /v1/events (the raw, append-only event log)."""

    kind: list[Kind] | None = None


class MemoryView(Memory):
    """A memory as the inspector shows it: every field, and which table holds it (the cold tier = archived)."""

    table: Table = "memories"


class MemoryPage(BaseModel):
    items: list[MemoryView]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page")


class EventView(BaseModel):
    """One raw event: what was stored, as it was sent."""

    id: str
    session_id: str | None
    kind: str
    content: str
    occurred_at: datetime
    stored_at: datetime
    source: str
    tags: list[str]
    entities: list[str]
    memory_id: str | None = Field(description="The memory this event became or was merged into")


class EventPage(BaseModel):
    items: list[EventView]
    next_cursor: str | None


class MemoryBrief(BaseModel):
    id: str
    kind: Kind
    status: Status
    source: str
    content: str
    tags: list[str]
    occurred_at: datetime
    stored_at: datetime
    table: Table = "memories"


class Version(MemoryBrief):
    """One version in a supersede chain, with the time it was the current one."""

    valid_from: datetime
    valid_until: datetime | None = Field(description="When a newer version replaced it; null if current")
    correction: dict[str, Any] | None = None


class Usage(BaseModel):
    access_count: int
    last_accessed_at: datetime | None
    seen_count: int
    last_seen_at: datetime | None
    last_confirmed_at: datetime | None
    feedback: dict[str, int] = Field(default_factory=dict)


class MemoryDetail(BaseModel):
    """A memory with its provenance: the events it came from, the memories it was derived from and the ones
    derived from it (episodes, lessons, corrections), its versions, merges and usage."""

    memory: MemoryView
    versions: list[Version] = Field(description="The supersede chain, oldest first (this memory included)")
    source_events: list[EventView]
    merged_events: list[EventView] = Field(description="Later stores merged into it as duplicates")
    source_memories: list[MemoryBrief] = Field(description="Memories among its sources (an episode, ...)")
    derived: list[MemoryBrief] = Field(description="Memories citing it: episodes, lessons, semantic facts")
    merged_from: list[str] = Field(description="Ids compaction folded into it")
    usage: Usage
    reflection: dict[str, Any] | None = Field(description="Scores and reasons, for a reflection's output")


class CorrectionResult(BaseModel):
    id: str = Field(description="The new version")
    supersedes: str
    status: Literal["committed", "queued"]


class ForgetResult(BaseModel):
    forgotten: int = 0
    purged: int = 0
    status: Literal["committed", "queued"] = "committed"


class RestoreResult(BaseModel):
    restored: int
    status: Literal["committed", "queued"] = "committed"


class NamespaceList(BaseModel):
    namespaces: list[str] = Field(description="Namespaces holding data that this token may read")
    tenant: str
    admin: bool


class RecallCounters(BaseModel):
    recalls: int = Field(description="Recalls of this namespace served by this process since it started")
    hits: int
    hit_rate: float | None
    memories_ever_recalled: int = Field(description="Memories recall has returned at least once (stored)")


class Overview(BaseModel):
    namespace: str
    memories: dict[str, dict[str, int]] = Field(description="kind -> status -> count (live table)")
    tiers: dict[str, int]
    events: int
    archived: int
    growth: list[dict[str, Any]] = Field(description="Per UTC day: memories and events stored")
    recall: RecallCounters
    reflection: dict[str, Any]


class LessonView(BaseModel):
    text: str
    decision: str = Field(description="insert, merge or reject")
    reason: str
    scores: dict[str, float] = Field(
        description="novelty, reusability, causal_relevance, score, threshold..."
    )
    id: str | None = None
    memory: MemoryBrief | None = Field(default=None, description="The lesson as stored now, if kept")
    contradicts: str | None = None


class RunSummary(BaseModel):
    id: str
    at: datetime
    trigger: str
    session_id: str | None
    status: str = Field(description="done, skipped, deferred or failed")
    mode: str = Field(description="llm or heuristic")
    reason: str
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    resolves: str | None = Field(description="The deferred run this one completed")
    resolved_by: str | None = Field(default=None, description="For a deferred run: the run that completed it")
    episode_id: str | None = None
    lessons_kept: int = 0


class RunPage(BaseModel):
    items: list[RunSummary]
    next_cursor: str | None
    pending_deferred: int = Field(description="Deferred runs still waiting for budget")


class RunDetail(RunSummary):
    episode: dict[str, Any] | None = Field(description="The episode as reflection drafted it")
    episode_memory: MemoryBrief | None
    lessons: list[LessonView]
    extra: dict[str, Any] = Field(default_factory=dict, description="Anything else the run recorded")
