"""The warm-process vector cache: the same answers as LanceDB under every recall filter, this process's writes
seen at once, another process's commits seen after the read-consistency interval, and no stale, forgotten or
foreign row ever returned from memory."""

import random
import time
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from hindsight_memory.config import Settings
from hindsight_memory.errors import InvalidInput
from hindsight_memory.models import Kind, Memory, RecallQuery, Source, Status, StoreRequest
from hindsight_memory.retrieval.recall import Retriever
from hindsight_memory.service import build_service
from hindsight_memory.storage.filters import Where
from hindsight_memory.storage.lance import LanceStore
from hindsight_memory.text import key
from hindsight_memory.writer.messages import memory_id
from tests.support.wait import wait_until

pytestmark = pytest.mark.xdist_group("vector_cache")

NS = "alice/proj"
BASE = datetime(2026, 1, 1, tzinfo=UTC)
HOSTILE = ["x' OR '1'='1", "a'; DROP TABLE memories; --", "') OR true OR ('", "\\' OR 1=1 --", "*", "%"]


def second_store(svc, *, warm_rows=2_000_000, consistency=timedelta(0)) -> LanceStore:
    """Another LanceStore on the same tables: what another process would open."""
    return LanceStore(
        svc.settings.store_uri,
        model_id=svc.embedder.model_id,
        dim=svc.embedder.dim,
        read_consistency=consistency,
        warm_rows=warm_rows,
    )


def vsearch(store, ns, vector, where=None, limit=20):
    return [
        m.id
        for m, _, _ in store.vector_search(
            ns, vector, where or Where(ns).enum_in("status", [Status.active]), limit
        )
    ]


def store(svc, ns, *items):
    return svc.store_memories(
        StoreRequest(
            namespace=ns, items=[i if isinstance(i, dict) else {"content": i} for i in items], wait=True
        )
    )


@pytest.fixture
def svc(tmp_path):
    s = build_service(
        Settings(
            store_uri=str(tmp_path / "data"), embedder="hashing", read_consistency_s=0.2, warm_index=True
        )
    )
    yield s
    s.close()


@pytest.fixture
def corpus(svc):
    """Three thousand memories with random wording, tags, entities, sessions, kinds, times and some
    superseded history, written straight through the storage adapter."""
    rng = random.Random(5)
    vocab = [f"w{i}" for i in range(1500)]
    texts = [" ".join(rng.sample(vocab, 9)) for _ in range(3000)]
    # A little noise on top of the hashing vectors: no two cosines tie, so both paths must agree on every rank.
    noise = np.random.default_rng(5).normal(0, 0.02, (len(texts), svc.embedder.dim)).astype(np.float32)
    vecs = svc.embedder.embed_passages(texts) + noise
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    mems = []
    for i, text in enumerate(texts):
        at = BASE + timedelta(hours=5 * i)
        mems.append(
            Memory(
                id=memory_id(f"c-{i}"),
                namespace=NS if i % 7 else "alice/other",
                kind=list(Kind)[i % 3],
                status=Status.superseded if i % 11 == 0 else Status.active,
                content=text,
                occurred_at=at,
                stored_at=at,
                updated_at=at,
                source=Source.import_,
                embed_model=svc.embedder.model_id,
                tags=[f"t{i % 13}", f"u{i % 5}"],
                entities=[f"e{i % 17}"],
                session_id=f"s{i // 50}",
                seq=i % 50,
            )
        )
    svc.store.upsert(mems, list(vecs))
    svc.store.ensure_fts_index()
    return [t for i, t in enumerate(texts) if i % 7]


FILTERS = [
    {},
    {"tags": ["t3"]},
    {"tags": ["t3", "u2"]},
    {"entities": ["e4"]},
    {"kinds": [Kind.semantic, Kind.working]},
    {"session_id": "s12"},
    {"since": BASE + timedelta(days=100), "until": BASE + timedelta(days=300)},
    {"include_history": True},
    {"tags": ["t1"], "include_history": True, "kinds": [Kind.episodic]},
    {"tags": ["never-used"]},
]


def test_warm_and_lancedb_recall_return_the_same_memories_under_every_filter(svc, corpus):
    """The vector channel must agree rank for rank. BM25 statistics differ a little (the warm index counts one
    namespace, LanceDB the whole table) and this corpus is full of exact ties, so the full-text channel must
    match the same rows with scores within 15%."""
    lance = Retriever(second_store(svc, warm_rows=0), svc.embedder, svc.settings)
    rng = random.Random(9)
    for text in rng.sample(corpus, 12):
        query = " ".join(text.split()[:4])
        for flt in FILTERS:
            q = RecallQuery(namespace=NS, query=query, top_k=10, min_score=0.0, channels=["vector"], **flt)
            warm, _ = svc.retriever.recall(q)
            cold, _ = lance.recall(q)
            assert [m.id for m in warm.memories] == [m.id for m in cold.memories], (query, flt)
            where = svc.retriever._where(q, None)
            qvec = svc.embedder.embed_query(query)
            assert vsearch(svc.store, NS, qvec, where, 60) == vsearch(lance.store, NS, qvec, where, 60), flt
            warm_fts = {m.id: s for m, s, _ in svc.store.fts_search(NS, query, where, 3000)}
            cold_fts = {m.id: s for m, s, _ in lance.store.fts_search(NS, query, where, 3000)}
            assert warm_fts.keys() == cold_fts.keys(), (query, flt)
            for i, s in warm_fts.items():
                assert s == pytest.approx(cold_fts[i], rel=0.15), (query, flt)
    assert svc.store.warm.describe()[NS]["full_text"]  # answered from memory, not by falling back


def test_int8_preselection_in_large_namespaces_returns_the_exact_top_k(svc, corpus):
    """Above `exact_rows` candidates the warm index ranks by int8 codes first and scores the best few times
    `limit` exactly; forced on for this 2,600-row namespace, it must still agree with LanceDB rank for rank."""
    lance = second_store(svc, warm_rows=0)
    svc.store.warm.exact_rows = 0
    rng = random.Random(4)
    for text in rng.sample(corpus, 15):
        qvec = svc.embedder.embed_query(" ".join(text.split()[:3]))
        for flt in FILTERS[:7]:
            where = svc.retriever._where(RecallQuery(namespace=NS, query="x", **flt), None)
            warm = svc.store.vector_search(NS, qvec, where, 60)
            cold = lance.vector_search(NS, qvec, where, 60)
            # the same rows with the same cosines in the same order (exact ties may come in either order)
            assert {m.id for m, _, _ in warm} == {m.id for m, _, _ in cold}, flt
            assert [c for _, c, _ in warm] == pytest.approx([c for _, c, _ in cold], abs=1e-5), flt


def test_neighbour_lookups_are_answered_from_memory_with_the_same_rows(svc, corpus):
    lance = second_store(svc, warm_rows=0)
    ranges = {(key("s12"), 3, 5), (key("s40"), 0, 1), (key("s-none"), 0, 9)}

    def build(w):
        return w.enum_in("status", [Status.active]).session_ranges(ranges)

    warm = svc.store.neighbours(NS, build, limit=50)
    cold = lance.neighbours(NS, build, limit=50)
    assert sorted(m.id for m, _ in warm) == sorted(m.id for m, _ in cold)
    assert {(m.session_id, m.seq) for m, _ in warm} <= {
        ("s12", 3),
        ("s12", 4),
        ("s12", 5),
        ("s40", 0),
        ("s40", 1),
    }
    assert len(warm) >= 3
    assert NS in svc.store.warm.namespaces()


def test_filters_the_cache_cannot_read_exactly_are_answered_by_lancedb(svc, corpus):
    qvec = svc.embedder.embed_query(corpus[0])
    plain = second_store(svc, warm_rows=0)
    where = lambda: Where(NS).ids([memory_id("c-1"), memory_id("c-2")])  # noqa: E731
    assert sorted(vsearch(svc.store, NS, qvec, where())) == sorted(vsearch(plain, NS, qvec, where()))
    assert len(vsearch(svc.store, NS, qvec, where())) == 2


def test_a_namespace_over_the_row_budget_is_still_searched_correctly(svc, corpus):
    small = second_store(svc, warm_rows=100)
    qvec = svc.embedder.embed_query(corpus[3])
    assert vsearch(small, NS, qvec) == vsearch(second_store(svc, warm_rows=0), NS, qvec)
    assert small.warm.namespaces() == []


def test_a_write_is_visible_to_the_next_recall_at_once(svc, corpus):
    before = recall_ids(svc, "zebra quartz lighthouse")
    res = store(svc, NS, {"content": "zebra quartz lighthouse keeper", "tags": ["fresh"]})
    assert res.ids[0] not in before
    assert recall_ids(svc, "zebra quartz lighthouse")[:1] == res.ids
    assert recall_ids(svc, "zebra quartz lighthouse", tags=["fresh"]) == res.ids


def recall_ids(svc, query, **kw):
    return [m.id for m in svc.recall(RecallQuery(namespace=NS, query=query, **kw)).memories]


def test_forgotten_purged_superseded_and_archived_memories_never_come_back_from_the_cache(svc):
    a = store(
        svc,
        NS,
        "the vault code is ruby falcon",
        "the boat name is silver otter",
        "the garage door opener is blue kestrel",
        "the printer password is amber lynx",
    ).ids
    qv = {
        t: svc.embedder.embed_query(t) for t in ("vault code", "boat name", "garage door", "printer password")
    }
    for v in qv.values():
        assert vsearch(svc.store, NS, v)  # warm the cache
    svc.forget(NS, [a[0]])
    svc.forget(NS, [a[1]], purge=True)
    svc.archive(NS, [a[3]])
    svc.flush()
    for v in qv.values():
        assert {a[0], a[1], a[3]}.isdisjoint(vsearch(svc.store, NS, v))
    assert a[1] not in vsearch(svc.store, NS, qv["boat name"], Where(NS).enum_in("status", list(Status)))
    assert a[0] not in recall_ids(svc, "vault code", include_history=True)
    old = store(svc, NS, "My favourite colour is green.").ids[0]
    new = store(svc, NS, "My favourite colour is purple.").ids[0]
    hits = vsearch(svc.store, NS, svc.embedder.embed_query("favourite colour"))
    assert new in hits and old not in hits
    assert old in vsearch(
        svc.store,
        NS,
        svc.embedder.embed_query("favourite colour"),
        Where(NS).enum_in("status", [Status.active, Status.superseded]),
    )


def test_a_forget_is_never_missed_by_either_channel_of_the_next_recall(svc):
    """Recall asks both channels at once from two threads; neither may serve the table as it was before a
    commit that had already returned (a race on the cached table version once let a forgotten memory back)."""
    for i in range(25):
        mid = store(svc, NS, f"the locker {i} combination is {1000 + i}").ids[0]
        query = f"locker {i} combination"
        assert recall_ids(svc, query, min_score=0.0)[:1] == [mid]
        assert svc.forget(NS, [mid])["forgotten"] == 1
        assert mid not in recall_ids(svc, query, min_score=0.0, include_history=True), i


def test_concurrent_recalls_never_see_a_memory_forgotten_before_they_started(svc):
    """Three threads recall while a fourth stores and forgets: no errors, and no recall returns a memory whose
    forget had returned before that recall began (the warm index refreshes under concurrent readers)."""
    import threading

    forgotten: dict[str, float] = {}  # id -> when its forget returned
    errors: list[BaseException] = []
    stop = threading.Event()

    def write() -> None:
        try:
            for i in range(20):
                mid = store(svc, NS, f"the shed {i} padlock code is {2000 + i}").ids[0]
                if i % 2:
                    svc.forget(NS, [mid])
                    forgotten[mid] = time.monotonic()
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)
        finally:
            stop.set()

    def read(k: int) -> None:
        try:
            while not stop.is_set():
                began = time.monotonic()
                gone = {m for m, at in list(forgotten.items()) if at < began}
                got = recall_ids(svc, f"shed {k * 7 % 20} padlock code", min_score=0.0, top_k=20)
                assert gone.isdisjoint(got), gone & set(got)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write)] + [threading.Thread(target=read, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors[:3]
    assert len(forgotten) == 10


def test_another_process_commit_is_seen_after_the_read_consistency_interval(svc, corpus):
    other = second_store(svc, consistency=timedelta(seconds=0.2))
    qvec = svc.embedder.embed_query("walrus tangerine harbour")
    assert memory_id("late") not in vsearch(other, NS, qvec)  # warm: the namespace is cached
    assert NS in other.warm.namespaces()
    late = _mem(svc, "late", "walrus tangerine harbour")
    svc.store.upsert([late], [svc.embedder.embed_passages([late.content])[0]])
    assert wait_until(lambda: vsearch(other, NS, qvec)[:1] == [late.id])
    svc.store.delete(NS, [late.id])
    assert wait_until(lambda: late.id not in vsearch(other, NS, qvec))
    # A compaction moves every row to new fragments: still the same answers.
    svc.store.upkeep(retention=timedelta(hours=1), scalar_min_rows=0, vector_min_rows=10**9)
    probe = svc.embedder.embed_query(corpus[10])
    plain = second_store(svc, warm_rows=0)
    assert wait_until(lambda: vsearch(other, NS, probe) == vsearch(plain, NS, probe))
    assert set(vsearch(other, NS, probe, limit=5000)) == set(vsearch(plain, NS, probe, limit=5000))


def _mem(svc, name, content):
    return Memory(
        id=memory_id(name),
        namespace=NS,
        kind=Kind.semantic,
        content=content,
        occurred_at=BASE,
        stored_at=BASE,
        updated_at=BASE,
        source=Source.user,
        embed_model=svc.embedder.model_id,
    )


def test_own_commits_refresh_from_what_they_wrote_and_a_foreign_commit_between_them_is_still_seen(
    svc, corpus
):
    """This process's commits are noted by version: the warm index takes the rows a recent upsert wrote (no read
    at all), or reads just their ids once those rows are no longer kept; a commit by another process in between
    leaves a gap in the versions, which must force the scan of newer fragments."""
    qvec = svc.embedder.embed_query("walrus tangerine harbour")
    assert memory_id("mine-1") not in vsearch(svc.store, NS, qvec)  # warm
    fetched: list[str] = []
    fetch = svc.store._snapshot.fetch
    svc.store._snapshot.fetch = lambda where, **kw: fetched.append(where) or fetch(where, **kw)
    mine = _mem(svc, "mine-1", "walrus tangerine harbour")
    svc.store.upsert([mine], svc.embedder.embed_passages([mine.content]))
    assert vsearch(svc.store, NS, qvec)[:1] == [mine.id]
    assert fetched == []  # taken from the write itself

    again = _mem(svc, "mine-2", "walrus tangerine harbour at dawn today")
    svc.store.upsert([again], svc.embedder.embed_passages([again.content]))
    svc.store._written.clear()  # as if many commits had passed since
    assert again.id in vsearch(svc.store, NS, qvec)[:2]
    assert fetched and all(" IN (" in w and "_rowid" not in w for w in fetched)  # read by id only

    other = second_store(svc)
    theirs = _mem(svc, "theirs-1", "walrus tangerine harbour lighthouse")
    other.upsert([theirs], svc.embedder.embed_passages([theirs.content]))  # not noted by svc.store
    svc.store.delete(NS, [mine.id])  # noted, after the gap
    fetched.clear()
    hits = vsearch(svc.store, NS, qvec)
    assert theirs.id in hits and mine.id not in hits
    assert any("_rowid" in w for w in fetched)  # the gap made it scan newer fragments
    plain = second_store(svc, warm_rows=0)
    assert hits == vsearch(plain, NS, qvec)
    # the rows taken from writes got their real addresses back from that scan: compaction still agrees
    svc.store.upkeep(retention=timedelta(hours=1), scalar_min_rows=0, vector_min_rows=10**9)
    assert wait_until(lambda: vsearch(svc.store, NS, qvec) == vsearch(plain, NS, qvec))


def test_hostile_labels_stay_inside_their_namespace_and_hostile_namespaces_are_refused(svc):
    store(
        svc,
        "alice",
        *[
            {"content": f"alice secret number {i}", "tags": [h], "entities": [h], "session_id": h}
            for i, h in enumerate(HOSTILE)
        ],
    )
    alice = {m.id for m, _ in svc.store.find("alice", lambda w: w)}
    store(svc, "bob", "bob public note number 1")
    qvec = svc.embedder.embed_query("secret number")
    for h in HOSTILE:
        for where in (
            Where("bob").any_key("tag_keys", [key(h)]),
            Where("bob").any_key("entity_keys", [key(h)]),
            Where("bob").keys_in("session_key", [key(h)]),
            Where("bob"),
        ):
            assert all(m.namespace == "bob" for m, _, _ in svc.store.vector_search("bob", qvec, where, 50))
        bob = svc.recall(RecallQuery(namespace="bob", query="alice secret number", tags=[h], min_score=0.0))
        assert bob.missing and alice.isdisjoint(
            m.id for m in svc.recall(RecallQuery(namespace="bob", query="secret")).memories
        )
        assert [
            m.content
            for m in svc.recall(
                RecallQuery(namespace="alice", query="secret number", tags=[h], min_score=0.0)
            ).memories
        ][:1] == [f"alice secret number {HOSTILE.index(h)}"]
        with pytest.raises(InvalidInput):
            svc.store.vector_search(h, qvec, Where(h), 5)
    assert set(svc.store.warm.namespaces()) >= {"alice", "bob"}


def test_a_column_another_process_adds_reaches_the_rows_this_cache_serves(tmp_path):
    # A reader warmed on a table written before `original` existed kept appending newer rows without it, so
    # recall there showed the normalised text after the writer's upgrade added the column (2026-12-06).
    import lancedb

    settings = Settings(store_uri=str(tmp_path / "data"), embedder="hashing", read_consistency_s=0.2)
    first = build_service(settings)
    store(first, NS, "first note")
    emb = first.embedder
    first.close()
    lancedb.connect(settings.store_uri).open_table("memories").drop_columns(
        ["original"]
    )  # as an older version
    reader = LanceStore(
        settings.store_uri,
        model_id=emb.model_id,
        dim=emb.dim,
        read_consistency=timedelta(seconds=0.2),
        warm_rows=10**6,
        create_tables=False,
        missing_recheck_s=0.2,
    )
    qvec = emb.embed_query("note with lines")
    assert len(vsearch(reader, NS, qvec)) == 1 and NS in reader.warm.namespaces()
    writer = build_service(settings)  # a process that may write adds the column when it opens the store
    try:
        store(writer, NS, "note with lines\n  indented")
    finally:
        writer.close()
    found = lambda: [  # noqa: E731
        m.original
        for m, _, _ in reader.vector_search(NS, qvec, Where(NS).enum_in("status", [Status.active]), 5)
    ]
    assert wait_until(lambda: "note with lines\n  indented" in found()), found()
