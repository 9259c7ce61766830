"""REST for the memory inspector (/v1): list, read, correct, forget and restore memories one by one, the raw
event log, a namespace overview and reflection runs. Same tokens and scope check as every other route; each
handler checks the namespace, then makes one call through Operations (as the agent tools do)."""

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
from .operations import Operations
from .rest import ErrorBody, Who

MemoryId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="A memory id (32 hex characters)")]
RunId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="A reflection run id")]
Namespace = Annotated[str, Query(max_length=300, description="The namespace the memory lives in")]
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422)
}


def build_inspector_router(ops: Operations) -> APIRouter:
    r = APIRouter(prefix="/v1", tags=["inspector"], responses=ERRORS)

    @r.get("/namespaces", response_model=NamespaceList, summary="Namespaces holding data this token may read")
    def namespaces(who: Who) -> NamespaceList:
        return ops.namespaces(who)

    @r.get("/overview", response_model=Overview, summary="Counts, growth, recall hit rate, reflection cost")
    def overview(namespace: Namespace, who: Who) -> Overview:
        return ops.inspector(who, namespace).overview(namespace)

    @r.get("/memories", response_model=MemoryPage, summary="List memories (filters, newest first, cursor)")
    def list_memories(q: Annotated[MemoryQuery, Query()], who: Who) -> MemoryPage:
        return ops.inspector(who, q.namespace).memories(q)

    @r.get("/events", response_model=EventPage, summary="List raw events (filters, newest first, cursor)")
    def list_events(q: Annotated[EventQuery, Query()], who: Who) -> EventPage:
        return ops.inspector(who, q.namespace).events(q)

    @r.get("/memories/{memory_id}", response_model=MemoryDetail, summary="One memory with its provenance")
    def get_memory(memory_id: MemoryId, namespace: Namespace, who: Who) -> MemoryDetail:
        return ops.inspector(who, namespace).detail(namespace, memory_id)

    @r.patch(
        "/memories/{memory_id}",
        response_model=CorrectionResult,
        summary="Correct a memory: a new version supersedes it (history kept, source user-correction)",
    )
    def correct_memory(
        memory_id: MemoryId, namespace: Namespace, body: MemoryCorrection, who: Who
    ) -> dict[str, Any]:
        return ops.correct(who, namespace, memory_id, body)

    @r.delete(
        "/memories/{memory_id}", response_model=ForgetResult, summary="Forget one memory (purge: erase it)"
    )
    def forget_memory(
        memory_id: MemoryId,
        namespace: Namespace,
        who: Who,
        purge: Annotated[bool, Query(description="Erase from every table and version")] = False,
    ) -> dict[str, Any]:
        return ops.inspector(who, namespace).forget(namespace, memory_id, purge)

    @r.post(
        "/memories/{memory_id}/restore",
        response_model=RestoreResult,
        summary="Undo a soft forget or an archive",
    )
    def restore_memory(memory_id: MemoryId, namespace: Namespace, who: Who) -> dict[str, Any]:
        return ops.inspector(who, namespace).restore(namespace, memory_id)

    @r.get("/reflection/runs", response_model=RunPage, summary="Reflection runs, newest first")
    def list_runs(
        namespace: Namespace,
        who: Who,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        cursor: Annotated[str | None, Query(max_length=300)] = None,
    ) -> RunPage:
        return ops.inspector(who, namespace).runs(namespace, limit, cursor)

    @r.get(
        "/reflection/runs/{run_id}", response_model=RunDetail, summary="One reflection run and its lessons"
    )
    def get_run(run_id: RunId, namespace: Namespace, who: Who) -> RunDetail:
        return ops.inspector(who, namespace).run(namespace, run_id)

    return r
