"""The store function's core: the single writer consuming SQS batches.

A batch is decoded record by record (an undecodable record is poison and fails alone), the valid ops are
group-committed in one `Writer.apply`, and if that commit fails every op is retried alone so that only the
ops that fail by themselves return to the queue. The writer is idempotent, so redelivery writes nothing twice."""

import logging
from typing import Any

from pydantic import ValidationError

from ..config import Settings
from ..writer.messages import WriteOp
from ..writer.queue import decode
from ..writer.writer import Writer
from .events import BatchResponse, SqsRecord, parse_sqs

log = logging.getLogger(__name__)


class StoreConsumer:
    def __init__(self, writer: Writer) -> None:
        self.writer = writer

    @classmethod
    def from_settings(cls, settings: Settings) -> "StoreConsumer":
        """Build only what writing needs (storage + embedder): no retriever, no LLM, no web stack."""
        from ..embed import embedder_for
        from ..service import build_store, build_writer

        embedder = embedder_for(settings)
        return cls(build_writer(settings, build_store(settings, embedder), embedder))

    def handle(self, event: Any) -> dict[str, Any]:
        """Lambda entry: an SQS batch in, a partial batch response out.

        Raises:
            InvalidInput: the event is not an SQS batch (Lambda then retries the whole invocation).
        """
        return self.process(parse_sqs(event).records).to_lambda()

    def process(self, records: list[SqsRecord]) -> BatchResponse:
        failed: list[str] = []
        ops: list[tuple[str, WriteOp]] = []
        for rec in records:
            try:
                ops.append((rec.message_id, decode(rec.body)))
            except ValidationError as exc:
                # Poison: returned alone; after maxReceiveCount the redrive policy moves it to the DLQ.
                log.error(
                    "undecodable store message",
                    extra={
                        "message_id": rec.message_id,
                        "receive_count": rec.receive_count,
                        "errors": exc.error_count(),
                    },
                )
                failed.append(rec.message_id)
        poison = len(failed)
        if ops:
            failed += self._apply(ops)
        log.info(
            "store batch", extra={"records": len(records), "poison": poison, "failed": len(failed) - poison}
        )
        return BatchResponse(failed=failed)

    def _apply(self, ops: list[tuple[str, WriteOp]]) -> list[str]:
        """Group commit; on failure isolate the failing ops. Returns the message ids that failed."""
        try:
            self.writer.apply([op for _, op in ops])
            return []
        except Exception:  # noqa: BLE001 - any commit failure is retried op by op, then reported per message
            log.exception("group commit failed; applying the batch one message at a time")
        failed = []
        for message_id, op in ops:
            try:
                self.writer.apply([op])
            except Exception:  # noqa: BLE001 - this message returns to the queue; the others are committed
                log.exception("store message failed", extra={"message_id": message_id})
                failed.append(message_id)
        return failed
