"""The CI guard: under CI=true a test that skips (a missing prerequisite) fails the run; outside CI it skips."""

import pytest

pytest_plugins = ["pytester"]

SKIPPING = """
import shutil
import pytest

@pytest.mark.skipif(shutil.which("no-such-tool-anywhere") is None, reason="no-such-tool-anywhere is missing")
def test_needs_a_tool():
    pass

def test_skips_from_inside():
    pytest.skip("LocalStack is not running")

def test_runs():
    pass
"""


def test_under_ci_a_skipped_test_fails_with_its_reason(pytester, monkeypatch):
    monkeypatch.setenv("CI", "true")
    pytester.makepyfile(SKIPPING)
    result = pytester.runpytest("-p", "tests.support.no_skips_in_ci")
    result.assert_outcomes(passed=1, failed=1, errors=1)  # a skip in setup (skipif) fails as an error
    result.stdout.fnmatch_lines(["*skipped under CI=true*no-such-tool-anywhere is missing*"])


def test_outside_ci_the_same_tests_skip(pytester, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    pytester.makepyfile(SKIPPING)
    result = pytester.runpytest("-p", "tests.support.no_skips_in_ci")
    result.assert_outcomes(passed=1, skipped=2)


@pytest.mark.parametrize("value", ["true", "1"])
def test_ci_is_read_from_the_environment(monkeypatch, value):
    from tests.support.no_skips_in_ci import SKIPS_ALLOWED_IN_CI, in_ci

    monkeypatch.setenv("CI", value)
    assert in_ci() and frozenset() == SKIPS_ALLOWED_IN_CI
