"""Small helpers shared by the serverless tests."""

import json
from pathlib import Path

from hindsight_memory.models import MemoryCreate, utcnow
from hindsight_memory.writer.messages import PreparedItem, StoreOp, idempotency_key, memory_id

EVENTS = Path(__file__).parent.parent / "events"


def event(name: str) -> dict:
    return json.loads((EVENTS / name).read_text())


def store_op(namespace: str, *texts: str, **fields) -> StoreOp:
    """A store op as the gateway would queue it: ids and idempotency keys fixed before queueing."""
    now = utcnow()
    items = []
    for text in texts:
        mc = MemoryCreate(content=text, occurred_at=now, **fields)
        key = idempotency_key(namespace, mc)
        items.append(
            PreparedItem(
                **mc.model_dump(exclude={"content", "occurred_at"}),
                content=text,
                occurred_at=now,
                stored_at=now,
                idem_key=key,
                id=memory_id(key),
            )
        )
    return StoreOp(namespace=namespace, items=items)


def queue_counts(sqs, url: str) -> tuple[int, int]:
    """(visible, in flight) messages on a queue."""
    a = sqs.get_queue_attributes(
        QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    )["Attributes"]
    return int(a["ApproximateNumberOfMessages"]), int(a["ApproximateNumberOfMessagesNotVisible"])
