"""Recall, reflect and compact as invoked by Lambda: direct calls, reflect-queue batches and schedules.

The reflection and lifecycle code is looked up when first used, so these functions import only what
their own task needs (the LLM client stays out of every other function)."""

import json
import logging
import time
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from ..errors import HindsightError, InvalidInput
from ..models import RecallQuery
from .edge import invocation_error
from .events import BatchResponse, CompactTask, is_sqs_event, parse_sqs, schedule_payload

log = logging.getLogger(__name__)

Trigger = Callable[[Any, dict[str, Any]], dict[str, Any]]
REFLECT_RESERVE_S = 60.0


def recall(service: Any, event: Any) -> dict[str, Any]:
    """Direct invocation: a RecallQuery as JSON in, a RecallResult (or an error body) out."""
    try:
        result: dict[str, Any] = service.recall(RecallQuery.model_validate(event)).model_dump(mode="json")
        return result
    except (HindsightError, ValidationError) as exc:
        return invocation_error(exc)
    finally:
        service.flush_usage()  # the sandbox may be frozen or recycled before another recall


def reflection_trigger() -> Trigger:
    """`reflection.run_trigger`, imported on first use (only the reflect function needs it)."""
    from ..reflection import run_trigger

    return run_trigger


def reflect(
    service: Any, event: Any, run_trigger: Trigger | None = None, context: Any = None
) -> dict[str, Any]:
    """Reflect-queue batch (task-end, anomaly) or a scheduled trigger ({"trigger": "periodic" | "induction"});
    the context's remaining time bounds how many triggers of a batch are started."""
    run = run_trigger or reflection_trigger()
    if not is_sqs_event(event):
        return run(service, schedule_payload(event))
    records = parse_sqs(event).records
    deadline = _deadline(context)
    failed = []
    for n, rec in enumerate(records):
        if deadline is not None and time.monotonic() > deadline:
            # Out of time: the triggers not reached go back to the queue untouched.
            failed += [r.message_id for r in records[n:]]
            break
        payload: Any = None
        try:
            payload = json.loads(rec.body)
            if not isinstance(payload, dict):
                raise InvalidInput("a reflect trigger must be a JSON object")
            run(service, payload)
        except Exception as exc:  # noqa: BLE001 - only this trigger returns to the queue (then to the DLQ)
            log.exception(
                "reflect trigger failed",
                extra={"message_id": rec.message_id, "receive_count": rec.receive_count},
            )
            _record_failure(service, payload, rec.receive_count, exc)
            failed.append(rec.message_id)
    return BatchResponse(failed=failed).to_lambda()


def _deadline(context: Any) -> float | None:
    """When to stop starting triggers: a reflection takes up to a minute (an LLM call and a commit)."""
    if context is None or not hasattr(context, "get_remaining_time_in_millis"):
        return None
    remaining_s = float(context.get_remaining_time_in_millis()) / 1000
    return time.monotonic() + remaining_s - REFLECT_RESERVE_S


def _record_failure(service: Any, payload: Any, attempt: int, exc: Exception) -> None:
    """A queued reflection a client waits on (it has a run_id) says it failed, and that it is retried; a later
    success replaces this record."""
    if not isinstance(payload, dict) or not isinstance(payload.get("run_id"), str):
        return
    try:
        service.reflector.runs.record(
            payload.get("namespace") or "",
            trigger=str(payload.get("trigger") or ""),
            status="failed",
            mode=service.reflector.mode,
            session_id=payload.get("session_id"),
            reason=f"attempt {attempt}: {type(exc).__name__}: {exc}; retried from the queue",
            run_id=payload["run_id"],
        )
    except Exception:  # noqa: BLE001 - the trigger is retried anyway; this record is a courtesy
        log.exception("could not record the failed reflection")


def compact(service: Any, event: Any) -> dict[str, Any]:
    """Scheduled compaction ({"task": "compact"}), for every namespace or the listed ones.

    Raises:
        InvalidInput: the payload is not a compaction task.
    """
    try:
        task = CompactTask.model_validate(schedule_payload(event))
    except ValidationError as exc:
        raise InvalidInput('expected {"task": "compact"}') from exc
    run = service.compact
    if task.namespaces is None:
        return {"task": "compact", "result": _jsonable(run(None))}  # None: every namespace of the tenant
    return {"task": "compact", "result": {ns: _jsonable(run(ns)) for ns in task.namespaces}}


def _jsonable(value: Any) -> Any:
    return value.model_dump(mode="json") if hasattr(value, "model_dump") else value
