"""Typed trigger events: SQS batches, EventBridge / Scheduler payloads, direct invocations."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import InvalidInput


class SqsRecord(BaseModel):
    """One message of an SQS batch as Lambda delivers it (only the fields the handlers use are typed)."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    message_id: str = Field(alias="messageId")
    receipt_handle: str = Field(default="", alias="receiptHandle")
    body: str
    attributes: dict[str, Any] = Field(default_factory=dict)
    event_source: Literal["aws:sqs"] = Field(default="aws:sqs", alias="eventSource")
    event_source_arn: str = Field(default="", alias="eventSourceARN")

    @property
    def receive_count(self) -> int:
        return int(self.attributes.get("ApproximateReceiveCount", 1))


class SqsEvent(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="allow")

    records: list[SqsRecord] = Field(alias="Records")


class BatchResponse(BaseModel):
    """Lambda's partial batch response: only the listed messages return to the queue."""

    failed: list[str] = Field(default_factory=list)

    def to_lambda(self) -> dict[str, Any]:
        return {"batchItemFailures": [{"itemIdentifier": m} for m in self.failed]}


def is_sqs_event(event: Any) -> bool:
    recs = event.get("Records") if isinstance(event, dict) else None
    return bool(recs) and isinstance(recs, list) and recs[0].get("eventSource") == "aws:sqs"


def parse_sqs(event: Any) -> SqsEvent:
    """Raises:
    InvalidInput: not an SQS batch event.
    """
    try:
        return SqsEvent.model_validate(event)
    except ValidationError as exc:
        raise InvalidInput(f"not an SQS batch event: {exc.error_count()} errors") from exc


def schedule_payload(event: Any) -> dict[str, Any]:
    """The payload of a scheduled invocation: Scheduler passes its input as the event itself; an EventBridge
    rule without an input transformer wraps it as `detail` of a "Scheduled Event" envelope.

    Raises:
        InvalidInput: the event is not a JSON object.
    """
    if not isinstance(event, dict):
        raise InvalidInput("a scheduled event must be a JSON object")
    if event.get("source") == "aws.events" or "detail-type" in event:
        detail = event.get("detail")
        return detail if isinstance(detail, dict) else {}
    return event


class CompactTask(BaseModel):
    """A scheduled compaction: {"task": "compact"}, optionally limited to some namespaces."""

    model_config = ConfigDict(extra="ignore")

    task: Literal["compact"] = "compact"
    namespaces: list[str] | None = None
