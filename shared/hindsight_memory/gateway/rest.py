"""REST mirror of the agent tools for non-MCP callers, documented by the app's OpenAPI document."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ..errors import Unauthorized
from ..models import RecallQuery, StoreRequest, StoreResult
from ..writer.messages import ForgetFilter
from .auth import Principal
from .operations import Operations


class ForgetRequest(BaseModel):
    """Exactly one of: ids, a filter, or everything=true (the whole namespace)."""

    model_config = ConfigDict(extra="forbid")
    namespace: str
    ids: list[str] = Field(default_factory=list, max_length=500)
    filter: ForgetFilter | None = None
    everything: bool = False
    include_subnamespaces: bool = False  # with everything: also alice/... when forgetting alice
    purge: bool = False


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    namespace: str
    id: str = Field(min_length=1, max_length=128)
    useful: bool


class StatusRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    namespace: str
    ids: list[str] = Field(min_length=1, max_length=500)


class ErrorBody(BaseModel):
    error: dict[str, str] = Field(description="{'code': ..., 'message': ...}")


def principal(request: Request) -> Principal:
    """The caller, authenticated by the gateway middleware before the body was even parsed."""
    who = request.scope.get("state", {}).get("principal")
    if not isinstance(who, Principal):  # fail closed; the middleware authenticates every /v1 request
        raise Unauthorized("not authenticated")
    return who


Who = Annotated[Principal, Depends(principal)]
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 429, 501, 503)
}


def build_router(ops: Operations) -> APIRouter:
    r = APIRouter(prefix="/v1", tags=["memories"], responses=_ERRORS)

    @r.post("/memories/store", response_model=StoreResult, summary="Store memories")
    def store(body: StoreRequest, who: Who) -> dict[str, Any]:
        return ops.store(who, body.namespace, list(body.items), body.wait)

    @r.post("/memories/status", summary="What became of stored items: pending, stored, superseded or merged")
    def status(body: StatusRequest, who: Who) -> dict[str, Any]:
        return ops.status(who, body.namespace, body.ids)

    @r.post("/memories/recall", summary="Recall memories (returned as data with provenance)")
    def recall(body: RecallQuery, who: Who) -> dict[str, Any]:
        return ops.recall(who, body)

    @r.post("/memories/forget", summary="Forget by ids, a filter or the whole namespace")
    def forget(body: ForgetRequest, who: Who) -> dict[str, Any]:
        return ops.forget(
            who,
            body.namespace,
            body.ids,
            body.purge,
            body.filter,
            body.everything,
            body.include_subnamespaces,
        )

    @r.post("/memories/feedback", summary="Rate a recalled memory as useful or not")
    def feedback(body: FeedbackRequest, who: Who) -> dict[str, Any]:
        return ops.feedback(who, body.namespace, body.id, body.useful)

    @r.get("/stats", summary="Counts for a namespace (admin)")
    def stats(namespace: Annotated[str, Query(max_length=300)], who: Who) -> dict[str, Any]:
        return ops.stats(who, namespace)

    return r
