"""Under CI=true a skipped test fails: CI provides every prerequisite (node, terraform and its provider mirror,
LocalStack) or the run fails, never passes by skipping. Loaded by tests/conftest.py."""

import os

import pytest

# Tests allowed to skip under CI, by node id. Keep it empty.
SKIPS_ALLOWED_IN_CI: frozenset[str] = frozenset()


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and in_ci() and item.nodeid not in SKIPS_ALLOWED_IN_CI:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, where every prerequisite must be present: {reason}"
