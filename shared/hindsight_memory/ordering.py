"""Arrival stamps that keep the order items were stored in.

Turns sent in one store call used to share one timestamp, so any sort by time (the event log, a session's
trajectory, reflection's prompt) put them in an arbitrary order. Each item now gets its own stamp: the arrival time,
one microsecond apart in the order of the call, and never earlier than a stamp this process gave before. Sorting by
(occurred_at, stored_at) then gives the order of the calls and, within a call, the order of its items."""

import threading
from datetime import datetime, timedelta

from .models import utcnow

TICK = timedelta(microseconds=1)  # the storage's timestamp resolution


class ArrivalClock:
    def __init__(self) -> None:
        self._last: datetime | None = None
        self._lock = threading.Lock()

    def stamps(self, n: int) -> list[datetime]:
        """`n` increasing stamps, all later than any given before by this clock."""
        with self._lock:
            start = utcnow()
            if self._last is not None and start <= self._last:
                start = self._last + TICK
            out = [start + i * TICK for i in range(n)]
            if out:
                self._last = out[-1]
            return out
