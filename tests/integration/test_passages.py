"""Long memories as passages: one memory, several vectors, scored by its best passage when served by the warm
index and by LanceDB alone; kept through dedup, forget and purge, export/import, reindex, compaction and stores
written before passages existed."""

import struct
from datetime import timedelta

import lancedb
import numpy as np
import pyarrow as pa
import pytest

from hindsight_memory.models import RecallQuery
from hindsight_memory.service import build_service
from hindsight_memory.text import normalize
from tests.lifecycle.helpers import raw_files_containing, recall, store
from tests.support.wait import wait_until

NS = "alice/notes"
TOPICS = [
    "raised beds for tomatoes and the watering schedule",
    "the aqueducts that carried water into ancient Rome",
    "adjusting the rear derailleur of a road bicycle",
    "a rye sourdough starter fed twice a day",
    "practising cello scales in the evening",
    "moving a PostgreSQL database to a new server",
    "herons and kingfishers seen along the river delta",
]
FACT = "The launch code for project Nightingale is ZEBRA-4417, kept in the blue vault."


def long_text(fact: str = FACT, chars: int = 16_000, first_topic: int = 0) -> str:
    """About `chars` characters of paragraphs on unrelated topics, the fact in the last one."""
    paragraphs, i = [], 0
    while sum(len(p) + 2 for p in paragraphs) < chars - len(fact) - 200:
        topic = TOPICS[(first_topic + i) % len(TOPICS)]
        paragraphs.append(
            f"Note {i} is about {topic}. " + " ".join(f"Detail {j} on {topic}." for j in range(5))
        )
        i += 1
    paragraphs.append(f"Last of all: {fact}")
    while len(normalize("\n\n".join(paragraphs))) > chars:
        paragraphs.pop(-2)
    return normalize("\n\n".join(paragraphs))


@pytest.fixture
def settings(backend):
    return backend(passage_tokens=128)


@pytest.fixture
def svc(settings):
    s = build_service(settings)
    yield s
    s.close()


def test_a_16000_character_memory_is_stored_as_passages_within_the_budget(svc):
    text = long_text()
    assert len(text) > 15_000
    mid = store(svc, NS, text).ids[0]
    [(m, vectors)] = svc.store.get(NS, [mid], with_vectors=True)
    assert m.content == text
    assert len(m.passages) > 10 and vectors.shape == (len(m.passages), svc.embedder.dim)
    assert all(svc.embedder.token_count(text[a:b]) <= 128 for a, b in m.passages)
    assert m.passages[0][0] == 0 and m.passages[-1][1] == len(text)


@pytest.mark.parametrize("warm", [True, False], ids=["warm index", "LanceDB"])
def test_a_fact_in_the_last_paragraph_is_recalled_and_explain_names_its_passage(settings, warm):
    writer = build_service(settings)
    mid = store(writer, NS, long_text(), "A short note about cello strings and rosin.").ids[0]
    reader = build_service(settings.model_copy(update={"warm_index": warm}))
    try:
        res = recall(reader, NS, "what is the launch code of project Nightingale", explain=True)
        assert res.memories[0].id == mid
        top = res.explain["results"][0]
        assert "ZEBRA-4417" in top["passage"]["text"]
        assert top["passage"]["index"] == top["passage"]["of"] - 1  # the last passage
        # the vector channel ranked it by that passage: its cosine is the best passage's, not the mean's
        [(m, vectors)] = writer.store.get(NS, [mid], with_vectors=True)
        q = reader.embedder.embed_query("what is the launch code of project Nightingale")
        cos = next(c["cosine"] for c in res.explain["channels"]["vector"] if c["id"] == mid)
        assert cos == pytest.approx(float(np.max(vectors @ q)), abs=1e-3)
        assert cos > float(np.dot(vectors.mean(axis=0) / np.linalg.norm(vectors.mean(axis=0)), q))
    finally:
        reader.close()
        writer.close()


def test_the_same_long_text_again_is_a_duplicate_but_one_paragraph_changed_is_not(svc):
    text = long_text()
    first = store(svc, NS, text)
    again = store(svc, NS, {"content": text, "idempotency_key": "another delivery"})
    assert again.deduplicated == 1 and again.duplicates_of[again.ids[0]] == first.ids[0]
    changed = store(svc, NS, long_text(FACT.replace("blue vault", "green safe behind the painting")))
    assert changed.stored == 1 and changed.deduplicated == 0


def test_purge_removes_the_passage_vectors_from_every_file(svc, settings):
    mid = store(svc, NS, long_text()).ids[0]
    store(svc, NS, "an unrelated note about lunch")
    [(_, vectors)] = svc.store.get(NS, [mid], with_vectors=True)
    last = struct.pack(f"<{vectors.shape[1]}f", *vectors[-1])  # the bytes LanceDB stores for that passage
    svc.flush()
    assert raw_files_containing(settings, last), "the raw scan must see the passage vector first"
    assert svc.forget(NS, [mid], purge=True)["purged"] == 1
    assert raw_files_containing(settings, last) == []
    assert raw_files_containing(settings, "ZEBRA-4417") == []


def test_export_and_import_keep_the_passages_without_embedding_again(svc, settings, tmp_path):
    mid = store(svc, NS, long_text()).ids[0]
    records = list(svc.export_records(NS))
    [rec] = [r for r in records if r["type"] == "memory"]
    assert np.asarray(rec["vector"]).shape == (len(rec["memory"]["passages"]), svc.embedder.dim)
    dst = build_service(
        settings.model_copy(update={"store_uri": str(tmp_path / "copy"), "s3_endpoint": None})
    )
    try:
        out = dst.import_records(None, records)
        assert out["memories"] == 1 and out["re_embedded"] == 0
        assert recall(dst, NS, "launch code of project Nightingale").memories[0].id == mid
        again = dst.import_records(None, records)  # a re-run after an interruption skips what is in
        assert again["memories"] == 0 and again["skipped"] == 1
        # a file without vectors is embedded again, passage by passage
        plain = [{k: v for k, v in r.items() if k != "vector"} for r in records]
        other = build_service(
            settings.model_copy(update={"store_uri": str(tmp_path / "c2"), "s3_endpoint": None})
        )
        try:
            assert other.import_records(None, plain)["re_embedded"] == 1
            [(m, v)] = other.store.get(NS, [mid], with_vectors=True)
            assert len(m.passages) > 10 and v.shape[0] == len(m.passages)
        finally:
            other.close()
    finally:
        dst.close()


def test_reindex_splits_long_memories_for_the_new_model(svc):
    mid = store(svc, NS, long_text()).ids[0]
    svc.reindex("hashing-384")
    [(m, vectors)] = svc.store.get(NS, [mid], with_vectors=True)
    assert vectors.shape == (len(m.passages), 384)
    assert recall(svc, NS, "launch code of project Nightingale").memories[0].id == mid


def test_compaction_and_table_upkeep_keep_the_passages(svc):
    mid = store(svc, NS, long_text()).ids[0]
    for i in range(5):
        store(svc, NS, f"short note {i} about the weekly standup")
    svc.compact(NS)
    svc.store.upkeep(retention=timedelta(0), scalar_min_rows=0, vector_min_rows=10**9)
    [(m, vectors)] = svc.store.get(NS, [mid], with_vectors=True)
    assert vectors.shape[0] == len(m.passages) > 10
    assert recall(svc, NS, "launch code of project Nightingale").memories[0].id == mid


def test_the_warm_index_keeps_passages_right_through_deletes_and_rebuilds(settings):
    writer = build_service(settings)
    warm = build_service(settings)
    lance = build_service(settings.model_copy(update={"warm_index": False}))
    try:
        ids = []
        for k in range(12):
            fact = f"The locker code for crew member {k} is {4000 + k}."
            ids.append(store(writer, NS, long_text(fact, chars=1500, first_topic=k)).ids[0])
        notes = store(writer, NS, *[f"a short note number {k} about lunch" for k in range(300)]).ids
        assert recall(warm, NS, "locker code crew member 3").memories  # the namespace is now held in memory
        # forgetting rewrites rows: once many are dead, the warm entry is rebuilt from the live ones
        writer.forget(NS, ids[:8] + notes, purge=False)
        # Another process's reader sees a commit within its read-consistency interval (1 s): read the latest now,
        # since what this test checks is the rebuild, not that interval.
        warm.store.refresh()
        lance.store.refresh()
        for k in (9, 11):
            q = f"what is the locker code for crew member {k}"
            from_memory, from_lance = recall(warm, NS, q, explain=True), recall(lance, NS, q, explain=True)
            # the same max-sim cosines, in the same order, after the rebuild moved every passage
            vector_channel = from_memory.explain["channels"]["vector"]
            assert vector_channel == from_lance.explain["channels"]["vector"]
            assert {c["id"] for c in vector_channel} == set(ids[8:])
            assert ids[k] in [m.id for m in from_memory.memories]
        assert warm.store.warm.describe()[NS]["rows"] == 312  # the forgotten rows, rewritten, stay filtered
    finally:
        for s in (lance, warm, writer):
            s.close()


def test_a_store_written_before_passages_existed_keeps_working(settings):
    # GIVEN a memories table in the schema of an earlier version (no passage columns), holding one memory
    svc = build_service(settings)
    old_id = store(svc, NS, "The staging DB runs on port 5433").ids[0]
    row = svc.store.memories.search().where(f"id = '{old_id}'").limit(1).to_arrow()
    svc.close()
    db = lancedb.connect(settings.store_uri, storage_options=settings.storage_options() or None)
    schema = svc.store.memories.schema
    old_schema = pa.schema([f for f in schema if not f.name.startswith("passage")], metadata=schema.metadata)
    db.drop_table("memories")
    db.create_table("memories", row.select(old_schema.names).cast(old_schema))
    assert "passages" not in db.open_table("memories").schema.names
    # WHEN a read-only process, then the writer, open it
    reader = build_service(settings.model_copy(update={"create_tables": False}))
    assert [x.id for x in recall(reader, NS, "staging DB port").memories] == [old_id]
    svc = build_service(settings)
    try:
        # THEN the writer added the columns, the old memory still reads as one vector, long ones are split
        assert "passages" in db.open_table("memories").schema.names
        assert [x.id for x in recall(svc, NS, "staging DB port").memories] == [old_id]
        mid = store(svc, NS, long_text()).ids[0]
        assert recall(svc, NS, "launch code of project Nightingale").memories[0].id == mid
        assert wait_until(
            lambda: recall(reader, NS, "launch code of project Nightingale").memories[0].id == mid
        )
    finally:
        svc.close()
        reader.close()


def test_int8_preselection_over_passages_agrees_with_lancedb(settings):
    """With the int8 pre-selection forced on (it serves namespaces of over 20,000 candidates), split memories
    come back with LanceDB's max-sim cosines, rank for rank, even when two memories have more good passages
    than the pre-selection picks (memories are picked by their best passage, not passages one by one)."""
    writer = build_service(settings)
    try:
        # GIVEN two memories that say the same thing in every passage, and 20 that each say it once
        crowders = [
            "\n\n".join([f"Crew member 3 keeps locker {4003 + j}, the grey one."] * 160) for j in (0, 1)
        ]
        texts = [
            long_text(f"Crew member {k} keeps locker {4000 + k}.", chars=1500, first_topic=k)
            for k in range(20)
        ]
        notes = [f"short note {k} about the {TOPICS[k % 7]}" for k in range(40)]
        ids = store(writer, NS, *crowders, *texts, *notes).ids
        lance = build_service(settings.model_copy(update={"warm_index": False}))
        try:
            writer.store.warm.exact_rows = 0
            where = writer.retriever._where(RecallQuery(namespace=NS, query="x"), None)
            split = writer.store.get(NS, ids[:2], with_vectors=True)
            assert all(v.shape[0] > 4 * 3 for _, v in split)  # more passages than PRESELECT x limit
            for k, limit in ((3, 3), (3, 10), (17, 3), (17, 10)):
                qvec = writer.embedder.embed_query(f"which locker does crew member {k} keep")
                # WHEN the same search is answered from memory and by LanceDB
                warm = writer.store.vector_search(NS, qvec, where, limit)
                cold = lance.store.vector_search(NS, qvec, where, limit)
                # THEN the same cosines in the same order, from the same rows (but for rows tied with the last
                # place: LanceDB's flat search returns any of them)
                assert [c for _, c, _ in warm] == pytest.approx([c for _, c, _ in cold], abs=1e-5)
                above = sum(c > cold[-1][1] + 1e-5 for _, c, _ in cold)
                assert [m.id for m, _, _ in warm[:above]] == [m.id for m, _, _ in cold[:above]]
                assert len(warm) == limit and np.ndim(warm[0][2]) == 2  # a split memory first
        finally:
            lance.close()
    finally:
        writer.close()
