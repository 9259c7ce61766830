"""Commits are retried only when another writer committed first (a real Lance commit conflict, provoked here);
any other error is raised at once instead of hiding behind seconds of retries."""

import logging
from datetime import timedelta

import pytest

from hindsight_memory.embed.hashing import HashingEmbedder
from hindsight_memory.errors import StorageConflict
from hindsight_memory.models import Kind, Memory, utcnow
from hindsight_memory.storage.conflicts import is_commit_conflict
from hindsight_memory.storage.lance import LanceStore

NS = "alice/conflicts"
EMB = HashingEmbedder()
NO_INDEXES = {"scalar_min_rows": 10**9, "vector_min_rows": 10**9}


def _stale_store(uri: str, **kw) -> LanceStore:
    """A store whose view of the tables never refreshes by itself: the next commit of another writer is unseen."""
    return LanceStore(uri, model_id=EMB.model_id, dim=EMB.dim, read_consistency=None, **kw)


def _fragmented(store: LanceStore, n: int = 5) -> list[str]:
    """`n` memories written by `n` commits (one fragment each), so compaction has work to do."""
    now = utcnow()
    ids = []
    for i in range(n):
        m = Memory(
            id=f"{i:032x}",
            namespace=NS,
            kind=Kind.semantic,
            content=f"fact {i}",
            occurred_at=now,
            stored_at=now,
            updated_at=now,
        )
        store.append([m], EMB.embed_passages([m.content]))
        ids.append(m.id)
    return ids


def _retry_warnings(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage() == "commit conflict, retrying"]


def test_a_compaction_that_loses_to_another_writers_delete_is_retried_on_the_latest_version(tmp_path, caplog):
    # GIVEN a store whose view of the memories table is stale: another writer deleted a row since
    uri = str(tmp_path / "data")
    store = _stale_store(uri)
    ids = _fragmented(store)
    other = LanceStore(uri, model_id=EMB.model_id, dim=EMB.dim)
    other.delete(NS, [ids[1]])

    # WHEN the stale store compacts the table (Lance: "this Rewrite was preempted by a concurrent Delete")
    with caplog.at_level(logging.WARNING, logger="hindsight_memory.storage.tables"):
        out = store.upkeep(retention=timedelta(hours=1), **NO_INDEXES)

    # THEN it retried after the conflict and compacted the latest version: the other writer's delete holds
    assert len(_retry_warnings(caplog)) >= 1
    assert out["after"]["memories"]["fragments"] == 1
    assert sorted(m.id for m, _ in store.get(NS, ids)) == sorted(set(ids) - {ids[1]})
    assert other.count(NS) == 4


def test_lance_reports_that_conflict_as_a_commit_conflict_and_a_store_without_retries_gives_up_with_it(
    tmp_path,
):
    uri = str(tmp_path / "data")
    store = _stale_store(uri, commit_retries=0)
    ids = _fragmented(store)
    LanceStore(uri, model_id=EMB.model_id, dim=EMB.dim).delete(NS, [ids[0]])

    with pytest.raises(StorageConflict) as raised:
        store.upkeep(retention=timedelta(hours=1), **NO_INDEXES)

    cause = raised.value.__cause__
    assert isinstance(cause, RuntimeError) and is_commit_conflict(cause)
    assert "Retryable commit conflict" in str(cause)


def test_an_error_that_is_not_a_conflict_fails_at_once_without_a_retry(tmp_path, caplog):
    store = LanceStore(str(tmp_path / "data"), model_id=EMB.model_id, dim=EMB.dim)
    _fragmented(store, 1)
    attempts = []

    def bad_delete():
        attempts.append(1)
        return store.memories.delete("no_such_column = 1")  # LanceDB rejects the filter

    with (
        caplog.at_level(logging.WARNING, logger="hindsight_memory.storage.tables"),
        pytest.raises((ValueError, RuntimeError)) as raised,
    ):
        store._retry(bad_delete)

    assert not isinstance(raised.value, StorageConflict) and not is_commit_conflict(raised.value)
    assert attempts == [1] and not _retry_warnings(caplog)


def test_a_plain_value_error_is_not_retried_either(tmp_path):
    store = LanceStore(str(tmp_path / "data"), model_id=EMB.model_id, dim=EMB.dim)
    attempts = []

    def bug():
        attempts.append(1)
        raise ValueError("a bug in the caller")

    with pytest.raises(ValueError, match="a bug in the caller"):
        store._retry(bug)
    assert attempts == [1]


@pytest.mark.parametrize(
    "message",
    [
        "lance error: Retryable commit conflict for version 7: This Rewrite transaction was preempted by "
        "concurrent transaction Delete at version 7. Please retry., conflict_resolver.rs:1288:34",
        "lance error: Too many concurrent writers. Attempted 7 times, but failed on retry_timeout of 30.000 "
        "seconds., commit.rs:128:5",
    ],
)
def test_the_messages_seen_from_lance_on_a_folder_and_on_s3_count_as_conflicts(message):
    assert is_commit_conflict(RuntimeError(message))
    assert not is_commit_conflict(ValueError(message))  # the type is part of the signal
    assert not is_commit_conflict(RuntimeError("lance error: No field named no_such_column"))
