"""Waiting on a condition with a timeout (tests never sleep a fixed time)."""

import time


def wait_until(condition, timeout=15.0):
    """Poll `condition` until it holds or `timeout` passes; returns its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)
