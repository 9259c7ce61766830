"""Forget by ids, by filter and whole namespaces; soft forget is restorable, purge is verified on storage:
every file of a local folder, and every version of every object of a versioned bucket (as the tenant module
creates it), so no copy of purged text survives anywhere the store keeps bytes."""

import pytest

from hindsight_memory.config import Settings
from hindsight_memory.errors import InvalidInput
from hindsight_memory.models import utcnow
from hindsight_memory.service import build_service
from hindsight_memory.writer.messages import ArchiveOp
from tests.lifecycle.helpers import object_versions, raw_files_containing, recall, store
from tests.reflection.conftest import FAILED_THEN_RETRIED
from tests.support.moto import new_bucket

NS = "alice/proj"


@pytest.fixture(params=["local", "s3-versioned"])
def backend(request, tmp_path):
    """Settings on a local folder, or on a versioned bucket of the S3 emulator (the tenant module's setup)."""

    def make(**overrides) -> Settings:
        if request.param == "local":
            return Settings(store_uri=str(tmp_path / "data"), embedder="hashing", **overrides)
        endpoint = request.getfixturevalue("s3_endpoint")
        uri = f"s3://{new_bucket(endpoint, versioned=True)}/tables"
        return Settings(store_uri=uri, embedder="hashing", s3_endpoint=endpoint, **overrides)

    make.kind = request.param
    return make


@pytest.fixture
def svc_and_settings(backend):
    settings = backend()
    svc = build_service(settings)
    yield svc, settings
    svc.close()


def test_purge_removes_the_content_from_every_table_file_and_version(svc_and_settings):
    svc, settings = svc_and_settings
    # GIVEN a secret stored, recalled (so it is touched: more versions) and archived copies elsewhere
    secret = store(svc, NS, "the vault passphrase is zebracorn-4711").ids[0]
    store(svc, NS, "an unrelated note about lunch")
    recall(svc, NS, "vault passphrase")
    svc.flush()
    assert raw_files_containing(settings, "zebracorn-4711"), (
        "the raw scan must see the secret before the purge"
    )
    assert svc.store.versions_containing("zebracorn-4711")
    # WHEN it is purged
    out = svc.forget(NS, [secret], purge=True)
    # THEN no file and no table version holds it, and the other memory is untouched
    assert out["purged"] == 1
    assert raw_files_containing(settings, "zebracorn-4711") == []
    assert svc.store.versions_containing("zebracorn-4711") == []
    assert [m.content for m in recall(svc, NS, "lunch").memories] == ["an unrelated note about lunch"]


def test_purge_erases_an_archived_memory_from_the_cold_tier_under_its_own_prefix(s3_endpoint):
    """The serverless layout: tables under tables/, the cold tier under cold/ of the same versioned bucket."""
    bucket = new_bucket(s3_endpoint, versioned=True)
    settings = Settings(
        store_uri=f"s3://{bucket}/tables",
        cold_uri=f"s3://{bucket}/cold",
        embedder="hashing",
        s3_endpoint=s3_endpoint,
    )
    cold = settings.model_copy(update={"store_uri": settings.cold_uri})
    svc = build_service(settings)
    try:
        # GIVEN a secret archived to the cold tier, whose files live under cold/
        secret = store(svc, NS, "the locker code is quokka-5150").ids[0]
        svc.apply_op(ArchiveOp(namespace=NS, ids=[secret], at=utcnow()))
        assert svc.store.count(NS, table="cold") == 1
        assert raw_files_containing(cold, "quokka-5150"), "the raw scan must see the archived secret"
        # WHEN it is purged by id
        assert svc.forget(NS, [secret], purge=True)["purged"] == 1
        # THEN no object version under tables/ or cold/ holds it any more
        assert raw_files_containing(settings, "quokka-5150") == []
        assert raw_files_containing(cold, "quokka-5150") == []
    finally:
        svc.close()


def test_purge_also_removes_derived_memories_whose_only_sources_were_purged(svc_and_settings):
    svc, _ = svc_and_settings
    src = store(svc, NS, "Carol moved to Lisbon in May").ids[0]
    other = store(svc, NS, "Dave lives in Porto").ids[0]
    only = store(
        svc,
        NS,
        {
            "content": "Carol is based in Portugal",
            "kind": "semantic",
            "source": "reflection",
            "source_ids": [src],
        },
    ).ids[0]
    mixed = store(
        svc,
        NS,
        {
            "content": "Two friends live in Portugal",
            "kind": "semantic",
            "source": "reflection",
            "source_ids": [src, other],
        },
    ).ids[0]
    svc.forget(NS, [src], purge=True)
    left = {m.id for m, _ in svc.store.find(NS, lambda w: w)}
    assert src not in left and only not in left
    assert {other, mixed} <= left


def test_forget_by_filter_hides_only_the_matching_memories_until_restored(svc_and_settings):
    svc, _ = svc_and_settings
    ids = store(
        svc,
        NS,
        {"content": "draft plan A for the offsite", "tags": ["draft"]},
        {"content": "final plan for the offsite", "tags": ["final"]},
    ).ids
    out = svc.forget_matching(NS, where={"tags": ["draft"]})
    assert out == {"forgotten": 1, "purged": 0}
    assert [m.content for m in recall(svc, NS, "plan offsite").memories] == ["final plan for the offsite"]
    svc.restore(NS, [ids[0]])
    assert len(recall(svc, NS, "plan offsite").memories) == 2


def test_forgetting_a_whole_namespace_purges_it_and_leaves_other_namespaces_alone(svc_and_settings):
    svc, settings = svc_and_settings
    store(svc, NS, "alice's private okapi-9913 note")
    store(svc, "bob", "bob's okapi note")
    out = svc.forget_matching(NS, everything=True, purge=True)
    assert out["purged"] == 1
    assert recall(svc, NS, "okapi note").missing
    assert [m.content for m in recall(svc, "bob", "okapi note").memories] == ["bob's okapi note"]
    assert raw_files_containing(settings, "okapi-9913") == []


def test_forgetting_a_namespace_with_its_subnamespaces_stops_at_the_prefix_boundary(svc_and_settings):
    """GIVEN alice, alice/p1 and alice/p1/notes (and alicex, bob beside them) WHEN alice is forgotten with its
    sub-namespaces THEN the three are empty (hidden, then purged for good) and alicex and bob are untouched."""
    svc, settings = svc_and_settings
    for ns in ("alice", "alice/p1", "alice/p1/notes", "alicex", "bob"):
        store(svc, ns, f"{ns} keeps the quokka-{len(ns)} key")
    hidden = svc.forget_matching("alice", everything=True, subtree=True)
    assert hidden["forgotten"] == 3 and hidden["namespaces"] == 3
    for ns in ("alice", "alice/p1", "alice/p1/notes"):
        assert recall(svc, ns, "quokka key").missing, ns
    for ns in ("alicex", "bob"):
        assert [m.content for m in recall(svc, ns, "quokka key").memories] == [
            f"{ns} keeps the quokka-{len(ns)} key"
        ]
    purged = svc.forget_matching("alice", everything=True, subtree=True, purge=True)
    assert purged["purged"] == 3
    assert raw_files_containing(settings, "alice/p1/notes keeps") == []
    assert raw_files_containing(settings, "alicex keeps")  # still stored
    with pytest.raises(InvalidInput):
        svc.forget_matching("alice", where={"tags": ["x"]}, subtree=True)


def test_forget_without_a_selection_or_with_a_bad_filter_is_refused(svc_and_settings):
    svc, _ = svc_and_settings
    with pytest.raises(InvalidInput):
        svc.forget_matching(NS)
    with pytest.raises(InvalidInput):
        svc.forget_matching(NS, where={"tags": ["x"], "sql": "1=1"})
    # a filter naming nothing would match the whole namespace (found by probing, 2026-12-06: it purged it)
    store(svc, NS, "still here after the refused forgets")
    for empty in ({}, {"tags": []}, {"tags": [], "entities": []}, {"kinds": [], "session_id": "s1"}):
        with pytest.raises(InvalidInput):
            svc.forget_matching(NS, where=empty, purge=True)
    assert [m.content for m in recall(svc, NS, "still here").memories] == [
        "still here after the refused forgets"
    ]


def test_purge_also_erases_the_reflection_run_log_and_every_old_object_version(svc_and_settings, backend):
    """GIVEN a task reflected on (the run log's detail holds the episode text) and a secret stored beside it
    WHEN the namespace is purged THEN no file, no table version and no object version holds either."""
    svc, settings = svc_and_settings
    store(svc, NS, "the vault passphrase is narwhal-2288")
    out = svc.reflect(NS, trajectory=FAILED_THEN_RETRIED, trigger="anomaly")
    assert out["status"] == "done"
    svc.flush()
    assert raw_files_containing(settings, "invoices_tmp"), "the episode text must be stored before the purge"
    assert [n for n, _ in svc.store.versions_containing("invoices_tmp")].count("reflection_runs") >= 1
    if backend.kind == "s3-versioned":
        before = object_versions(settings)
    purged = svc.forget_matching(NS, everything=True, purge=True)
    assert purged["purged"] >= 2
    assert raw_files_containing(settings, "narwhal-2288") == []
    assert raw_files_containing(settings, "invoices_tmp") == []
    assert svc.store.versions_containing("invoices_tmp") == []
    assert svc.reflection_stats(NS)["last_30_days"]["runs"] == 0
    if backend.kind == "s3-versioned":
        assert object_versions(settings) < before


def test_purging_an_episode_by_id_also_erases_the_runs_that_quote_it(svc_and_settings):
    svc, settings = svc_and_settings
    out = svc.reflect(NS, trajectory=FAILED_THEN_RETRIED, trigger="anomaly")
    other = svc.reflect("alice/other", trajectory=FAILED_THEN_RETRIED, trigger="anomaly")
    svc.flush()
    svc.forget(NS, [out["episode_id"]], purge=True)
    assert [r["id"] for r in svc.store.runs(NS)] == []
    assert [r["id"] for r in svc.store.runs("alice/other")] == [other["run_id"]]
    assert recall(svc, "alice/other", "migration 042 failed").memories
