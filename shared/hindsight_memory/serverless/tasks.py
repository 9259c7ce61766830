"""Recall, reflect and compact as invoked by Lambda: direct calls, reflect-queue batches and schedules.

The reflection and lifecycle code is looked up when first used, so these functions import only what
their own task needs (the LLM client stays out of every other function)."""

import json
import logging
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from ..errors import HindsightError, InvalidInput
from ..models import RecallQuery
from .edge import invocation_error
from .events import BatchResponse, CompactTask, is_sqs_event, parse_sqs, schedule_payload

log = logging.getLogger(__name__)

Trigger = Callable[[Any, dict[str, Any]], dict[str, Any]]


def recall(service: Any, event: Any) -> dict[str, Any]:
    """Direct invocation: a RecallQuery as JSON in, a RecallResult (or an error body) out."""
    try:
        result: dict[str, Any] = service.recall(RecallQuery.model_validate(event)).model_dump(mode="json")
        return result
    except (HindsightError, ValidationError) as exc:
        return invocation_error(exc)


def reflection_trigger() -> Trigger:
    """`reflection.run_trigger`, imported on first use (only the reflect function needs it)."""
    from ..reflection import run_trigger

    return run_trigger


def reflect(service: Any, event: Any, run_trigger: Trigger | None = None) -> dict[str, Any]:
    """Reflect-queue batch (task-end, anomaly) or a scheduled trigger ({"trigger": "periodic" | "induction"})."""
    run = run_trigger or reflection_trigger()
    if not is_sqs_event(event):
        return run(service, schedule_payload(event))
    failed = []
    for rec in parse_sqs(event).records:
        try:
            payload = json.loads(rec.body)
            if not isinstance(payload, dict):
                raise InvalidInput("a reflect trigger must be a JSON object")
            run(service, payload)
        except Exception:  # noqa: BLE001 - only this trigger returns to the queue (then to the DLQ)
            log.exception(
                "reflect trigger failed",
                extra={"message_id": rec.message_id, "receive_count": rec.receive_count},
            )
            failed.append(rec.message_id)
    return BatchResponse(failed=failed).to_lambda()


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
