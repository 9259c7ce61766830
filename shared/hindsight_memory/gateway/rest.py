"""REST mirror of the agent tools for non-MCP callers, documented by the app's OpenAPI document.

A route is a typed request (body or query model from `requests.py`) plus one call, `ops.execute(who, name,
request)`, which checks the caller's scope for every namespace the operation reaches; the body was already
checked as strict JSON by the gateway middleware. New routes follow the same two steps."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from ..errors import Unauthorized
from ..models import RecallQuery, StoreRequest, StoreResult
from .auth import Principal
from .operations import Operations
from .requests import FeedbackRequest, ForgetRequest, StatsRequest, StatusRequest

__all__ = ["ErrorBody", "FeedbackRequest", "ForgetRequest", "Who", "build_router", "principal"]


class ErrorBody(BaseModel):
    error: dict[str, str] = Field(description="{'code': ..., 'message': ...}")


def principal(request: Request) -> Principal:
    """The caller, authenticated by the gateway middleware before the body was even parsed."""
    who = request.scope.get("state", {}).get("principal")
    if not isinstance(who, Principal):  # fail closed; the middleware authenticates every /v1 request
        raise Unauthorized("not authenticated")
    return who


Who = Annotated[Principal, Depends(principal)]
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422, 429, 501, 503)
}


def build_router(ops: Operations) -> APIRouter:
    r = APIRouter(prefix="/v1", tags=["memories"], responses=ERRORS)

    @r.post("/memories/store", response_model=StoreResult, summary="Store memories")
    def store(body: StoreRequest, who: Who) -> Any:
        return ops.execute(who, "store", body)

    @r.post(
        "/memories/status",
        response_model=dict[str, Any],
        summary="What became of stored items: pending, stored, superseded or merged",
    )
    def status(body: StatusRequest, who: Who) -> Any:
        return ops.execute(who, "status", body)

    @r.post(
        "/memories/recall",
        response_model=dict[str, Any],
        summary="Recall memories (returned as data with provenance)",
    )
    def recall(body: RecallQuery, who: Who) -> Any:
        return ops.execute(who, "recall", body)

    @r.post(
        "/memories/forget",
        response_model=dict[str, Any],
        summary="Forget by ids, a filter or the whole namespace",
    )
    def forget(body: ForgetRequest, who: Who) -> Any:
        return ops.execute(who, "forget", body)

    @r.post(
        "/memories/feedback", response_model=dict[str, Any], summary="Rate a recalled memory as useful or not"
    )
    def feedback(body: FeedbackRequest, who: Who) -> Any:
        return ops.execute(who, "feedback", body)

    @r.get("/stats", response_model=dict[str, Any], summary="Counts for a namespace (admin)")
    def stats(query: Annotated[StatsRequest, Query()], who: Who) -> Any:
        return ops.execute(who, "stats", query)

    return r
