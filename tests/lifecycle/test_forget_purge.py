"""Forget by ids, by filter and whole namespaces; soft forget is restorable, purge is verified on storage."""

import pytest

from hindsight_memory.errors import InvalidInput
from hindsight_memory.service import build_service
from tests.lifecycle.helpers import raw_files_containing, recall, store

NS = "alice/proj"


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
