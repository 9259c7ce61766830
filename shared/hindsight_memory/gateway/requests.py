"""Typed requests of every gateway operation, shared by the MCP tools and the REST routes: one model per
operation, validated the same way whichever edge it came through (namespaces and ids by their shared types)."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import InvalidInput, describe
from ..inspector.models import MAX_PAGE, EventQuery, MemoryQuery
from ..lifecycle.export import parse_record
from ..models import MemoryCorrection, MemoryId, RecallQuery, RunId, StoreRequest
from ..namespaces import Namespace
from ..writer.messages import ForgetFilter

MAX_EXPORT = 10_000

__all__ = [
    "CompactRequest",
    "CorrectRequest",
    "EventQuery",
    "ExportRequest",
    "FeedbackRequest",
    "ForgetMemoryRequest",
    "ForgetRequest",
    "ImportRequest",
    "MemoryQuery",
    "MemoryRequest",
    "NamespaceRequest",
    "NamespacesRequest",
    "PromptRequest",
    "RecallQuery",
    "ReflectRequest",
    "RunRequest",
    "RunsRequest",
    "StatsRequest",
    "StatusRequest",
    "StoreRequest",
]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ForgetRequest(_Request):
    """Exactly one of: ids, a filter, or everything=true (the whole namespace)."""

    namespace: Namespace
    ids: list[MemoryId] = Field(default_factory=list, max_length=500)
    filter: ForgetFilter | None = None
    everything: bool = False
    include_subnamespaces: bool = Field(
        default=False,
        description="With everything: also every namespace under this one (alice/... for alice)",
    )
    purge: bool = False


class FeedbackRequest(_Request):
    namespace: Namespace
    id: MemoryId
    useful: bool


class StatusRequest(_Request):
    """Ids returned by a store call, to learn what became of them."""

    namespace: Namespace
    ids: list[MemoryId] = Field(min_length=1, max_length=500)


class ReflectRequest(_Request):
    namespace: Namespace
    session_id: str | None = Field(default=None, max_length=256)
    trajectory: list[dict[str, Any]] | None = Field(default=None, max_length=500)
    trigger: Literal["task_end", "anomaly", "periodic"] = "task_end"
    run_id: RunId | None = Field(
        default=None, description="Only to ask how a queued reflection went: the run_id it returned, alone"
    )


class StatsRequest(_Request):
    namespace: Namespace


class ExportRequest(_Request):
    namespace: Namespace
    limit: int = Field(default=1000, ge=1, le=MAX_EXPORT)


class ImportRequest(_Request):
    namespace: Namespace
    records: list[dict[str, Any]] = Field(max_length=MAX_EXPORT)

    @field_validator("records")
    @classmethod
    def _every_record(cls, records: list[dict[str, Any]], info: Any) -> list[dict[str, Any]]:
        # Every record is checked here, before the first batch is queued: a malformed one (a bad id, a bad
        # namespace) is refused at the gateway instead of failing inside the writer halfway through.
        namespace = info.data.get("namespace")
        if namespace is None:
            return records
        for n, rec in enumerate(records, start=1):
            try:
                parse_record(rec, n, namespace, None)
            except InvalidInput as exc:
                # Our own messages name no value; those of a parser underneath might, so only their fields.
                cause = exc.__cause__
                if cause is None:
                    raise ValueError(str(exc).replace(f"record {n}", f"record {n - 1}", 1)) from None
                detail = describe(cause) if isinstance(cause, ValidationError) else "malformed record"
                raise ValueError(f"record {n - 1}: {detail}") from None
        return records


class CompactRequest(_Request):
    namespace: Namespace | None = Field(default=None, description="One namespace, or all (needs scope '*')")


class PromptRequest(_Request):
    namespace: Namespace = "default"


# ---------------------------------------------------------------------- the inspector (MemoryQuery, EventQuery too)
class NamespacesRequest(_Request):
    """No parameters: the answer is every namespace holding data that the token covers."""


class NamespaceRequest(_Request):
    namespace: Namespace


class MemoryRequest(_Request):
    namespace: Namespace
    id: MemoryId


class ForgetMemoryRequest(MemoryRequest):
    purge: bool = Field(default=False, description="Erase from every table and version")


class CorrectRequest(MemoryRequest):
    fix: MemoryCorrection


class RunsRequest(_Request):
    namespace: Namespace
    limit: int = Field(default=50, ge=1, le=MAX_PAGE)
    cursor: str | None = Field(default=None, max_length=300)


class RunRequest(_Request):
    namespace: Namespace
    id: RunId
