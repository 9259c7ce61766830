"""Shared fixtures: settings on a local folder or on emulated S3, and a service built from them. Under CI=true a
skipped test fails: a missing prerequisite (node, terraform and its provider mirror, LocalStack) must not pass."""

import os

import pytest

from hindsight_memory.config import Settings
from hindsight_memory.service import build_service
from tests.fakes.fake_llm import FakeLLM
from tests.support.moto import moto_server, new_bucket

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

pytest_plugins = ["tests.support.no_skips_in_ci"]

# The longest modules go first, so that each of the two workers (scripts/test.sh, which keeps this order) starts on
# one and the rest fill in around them: collected in place, the pair sets (7 minutes alone) started last and left
# the other worker idle for their last minutes (suite 14.0-14.9 minutes, 2026-12-05).
LONGEST_FIRST = ("tests/integration/test_pair_set.py", "tests/infra/test_terraform.py")


def pytest_collection_modifyitems(config, items):
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


@pytest.fixture(scope="session")
def s3_endpoint():
    with moto_server() as endpoint:
        yield endpoint


@pytest.fixture(params=["local", "s3"])
def backend(request, tmp_path):
    """Settings factory for both storage backends: the same test runs on a folder and on emulated S3."""

    def make(**overrides) -> Settings:
        if request.param == "local":
            uri = str(tmp_path / "data")
            extra = {}
        else:
            endpoint = request.getfixturevalue("s3_endpoint")
            uri = f"s3://{new_bucket(endpoint)}/tables"
            # the journal of an s3:// store lives on local disk: keep the tests' own in their temp folder
            extra = {"s3_endpoint": endpoint, "journal_dir": str(tmp_path / "journal")}
        return Settings(**{"store_uri": uri, "embedder": "hashing", **extra, **overrides})

    make.kind = request.param
    return make


@pytest.fixture
def service(backend):
    svc = build_service(backend())
    yield svc
    svc.close()


@pytest.fixture
def local_service(tmp_path):
    svc = build_service(Settings(store_uri=str(tmp_path / "data"), embedder="hashing"))
    yield svc
    svc.close()


@pytest.fixture
def fake_llm():
    """A fake OpenAI-compatible LLM server on 127.0.0.1 (the only thing tests fake)."""
    server = FakeLLM().start()
    yield server
    server.stop()
