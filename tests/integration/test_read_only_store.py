"""A read-only store (create_tables=False, as the serverless gateway, recall and reflect functions run) on a
location the writer has not written yet: it answers "nothing stored", creates nothing, and picks the tables up
once the writer has made them."""

from concurrent.futures import Future
from datetime import timedelta
from pathlib import Path

import boto3
import pytest

from hindsight_memory.errors import ModelMismatch, TablesNotCreated
from hindsight_memory.models import MemoryCreate, RecallQuery, StoreRequest
from hindsight_memory.service import build_service
from hindsight_memory.storage import tables
from hindsight_memory.storage.lance import LanceStore
from hindsight_memory.writer.queue import WriteQueue
from tests.support.wait import wait_until

NS = "alice/project-x"
FACT = "The release train leaves every second Tuesday."


class RecordingQueue(WriteQueue):
    """What a read-only function has: a queue to another process's writer (here it only records)."""

    def __init__(self) -> None:
        self.ops: list = []

    def submit(self, op) -> Future | None:
        self.ops.append(op)
        return None


def stored_objects(settings) -> list[str]:
    """Every file or object at the store location (none: nothing was created)."""
    uri = settings.store_uri
    if not uri.startswith("s3://"):
        return [str(p) for p in Path(uri).rglob("*") if p.is_file()]
    bucket = uri.removeprefix("s3://").split("/", 1)[0]
    s3 = boto3.client("s3", endpoint_url=settings.s3_endpoint, region_name="us-east-1")
    return [o["Key"] for o in s3.list_objects_v2(Bucket=bucket).get("Contents", [])]


@pytest.fixture
def fast_recheck(monkeypatch):
    monkeypatch.setattr(tables, "MISSING_TABLE_RECHECK_S", 0.05)


@pytest.fixture
def read_only(backend, fast_recheck):
    """A read-only service on a fresh location, and the settings a writer on the same location would use."""
    settings = backend()
    svc = build_service(settings.model_copy(update={"create_tables": False}), queue=RecordingQueue())
    yield svc, settings
    svc.close()


def test_a_read_only_service_on_an_empty_location_answers_nothing_stored_and_creates_nothing(read_only):
    svc, settings = read_only

    recalled = svc.recall(RecallQuery(namespace=NS, query="when does the release train leave"))
    stats = svc.stats(NS)
    exported = list(svc.export_records(NS))

    assert recalled.missing is True and recalled.memories == []
    assert stats["memories"] == {} and stats["events"] == 0 and stats["archived"] == 0
    assert [r["type"] for r in exported] == ["header"]
    assert stored_objects(settings) == []
    assert svc.store.waiting_for() == ["cold", "events", "memories"]


def test_a_read_only_service_sees_memories_once_the_writer_has_created_the_tables(read_only):
    svc, settings = read_only
    assert svc.recall(RecallQuery(namespace=NS, query="release train")).missing is True
    writer = build_service(settings)
    try:
        writer.store_memories(StoreRequest(namespace=NS, wait=True, items=[MemoryCreate(content=FACT)]))

        found = wait_until(
            lambda: (
                not svc.recall(RecallQuery(namespace=NS, query="when does the release train leave")).missing
            )
        )

        assert found, "the read-only service never picked up the writer's tables"
        recalled = svc.recall(RecallQuery(namespace=NS, query="when does the release train leave"))
        assert recalled.memories[0].content == FACT
        assert svc.stats(NS)["events"] == 1
        assert svc.store.waiting_for() == [] and svc.store.warm is not None  # warm index back on
    finally:
        writer.close()


def test_a_write_through_a_read_only_store_raises_a_typed_error_and_writes_nothing(tmp_path):
    store = LanceStore(str(tmp_path / "data"), model_id="hashing-8", dim=8, create_tables=False)

    with pytest.raises(TablesNotCreated):
        store.delete(NS, ["0" * 32])
    with pytest.raises(TablesNotCreated):
        store.delete_where(NS, lambda w: w, table="events")
    with pytest.raises(TablesNotCreated):
        store.upkeep(retention=timedelta(0), scalar_min_rows=10**9, vector_min_rows=10**9)

    assert store.count() == 0 and store.count(table="events") == 0
    assert not [p for p in (tmp_path / "data").rglob("*") if p.is_file()]


def test_a_read_only_store_refuses_tables_that_appear_with_another_embedder(tmp_path):
    uri = str(tmp_path / "data")
    reader = LanceStore(uri, model_id="model-a", dim=8, create_tables=False, missing_recheck_s=0.0)
    assert reader.count() == 0

    LanceStore(uri, model_id="model-b", dim=8)  # the writer creates the tables with another embedder

    with pytest.raises(ModelMismatch):
        reader.count()
    with pytest.raises(ModelMismatch):  # and keeps refusing rather than answer from the stand-in
        reader.count()


def test_an_embedded_store_still_creates_its_tables(tmp_path):
    store = LanceStore(str(tmp_path / "data"), model_id="hashing-8", dim=8)

    assert store.waiting_for() == []
    assert {"memories", "events", "cold"} <= set(store.table_names())
