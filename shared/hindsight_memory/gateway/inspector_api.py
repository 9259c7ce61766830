"""REST for the memory inspector (/v1): list, read, correct, forget and restore memories one by one, the raw
event log, a namespace overview and reflection runs. Same tokens, validation and scope check as every other
route: each handler is one call, `ops.execute(who, name, request)`, with a typed request whose namespace and
ids have the shared types (`Namespace`, `MemoryId`, `RunId`)."""

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from ..inspector.models import (
    CorrectionResult,
    EventPage,
    EventQuery,
    ForgetResult,
    MemoryDetail,
    MemoryPage,
    MemoryQuery,
    NamespaceList,
    Overview,
    RestoreResult,
    RunDetail,
    RunPage,
)
from ..models import MemoryCorrection
from ..models import MemoryId as MemoryIdType
from ..models import RunId as RunIdType
from ..namespaces import Namespace as NamespaceType
from .operations import Operations
from .requests import RunsRequest
from .rest import ERRORS, Who

MemoryId = Annotated[MemoryIdType, Path(description="A memory id (32 lowercase hex digits)")]
RunId = Annotated[RunIdType, Path(description="A reflection run id (32 lowercase hex digits)")]
Namespace = Annotated[NamespaceType, Query(description="The namespace the memory lives in")]


def build_inspector_router(ops: Operations) -> APIRouter:
    r = APIRouter(prefix="/v1", tags=["inspector"], responses=ERRORS)

    @r.get("/namespaces", response_model=NamespaceList, summary="Namespaces holding data this token may read")
    def namespaces(who: Who) -> Any:
        return ops.execute(who, "namespaces", {})

    @r.get("/overview", response_model=Overview, summary="Counts, growth, recall hit rate, reflection cost")
    def overview(namespace: Namespace, who: Who) -> Any:
        return ops.execute(who, "overview", {"namespace": namespace})

    @r.get("/memories", response_model=MemoryPage, summary="List memories (filters, newest first, cursor)")
    def list_memories(q: Annotated[MemoryQuery, Query()], who: Who) -> Any:
        return ops.execute(who, "memories", q)

    @r.get("/events", response_model=EventPage, summary="List raw events (filters, newest first, cursor)")
    def list_events(q: Annotated[EventQuery, Query()], who: Who) -> Any:
        return ops.execute(who, "events", q)

    @r.get("/memories/{memory_id}", response_model=MemoryDetail, summary="One memory with its provenance")
    def get_memory(memory_id: MemoryId, namespace: Namespace, who: Who) -> Any:
        return ops.execute(who, "memory", {"namespace": namespace, "id": memory_id})

    @r.patch(
        "/memories/{memory_id}",
        response_model=CorrectionResult,
        summary="Correct a memory: a new version supersedes it (history kept, source user-correction)",
    )
    def correct_memory(memory_id: MemoryId, namespace: Namespace, body: MemoryCorrection, who: Who) -> Any:
        return ops.execute(who, "correct", {"namespace": namespace, "id": memory_id, "fix": body})

    @r.delete(
        "/memories/{memory_id}", response_model=ForgetResult, summary="Forget one memory (purge: erase it)"
    )
    def forget_memory(
        memory_id: MemoryId,
        namespace: Namespace,
        who: Who,
        purge: Annotated[bool, Query(description="Erase from every table and version")] = False,
    ) -> Any:
        request = {"namespace": namespace, "id": memory_id, "purge": purge}
        return ops.execute(who, "forget_memory", request)

    @r.post(
        "/memories/{memory_id}/restore",
        response_model=RestoreResult,
        summary="Undo a soft forget or an archive",
    )
    def restore_memory(memory_id: MemoryId, namespace: Namespace, who: Who) -> Any:
        return ops.execute(who, "restore", {"namespace": namespace, "id": memory_id})

    @r.get("/reflection/runs", response_model=RunPage, summary="Reflection runs, newest first")
    def list_runs(q: Annotated[RunsRequest, Query()], who: Who) -> Any:
        return ops.execute(who, "runs", q)

    @r.get(
        "/reflection/runs/{run_id}", response_model=RunDetail, summary="One reflection run and its lessons"
    )
    def get_run(run_id: RunId, namespace: Namespace, who: Who) -> Any:
        return ops.execute(who, "run", {"namespace": namespace, "id": run_id})

    return r
