"""The quality benchmark's generator keeps its promises, and its harness scores a toy keyword store sensibly."""

import json
import math
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from datetime import date, datetime, timedelta

import pytest

from hindsight_memory.bench.quality import QUESTION_TYPES, RecallOutcome, generate, run_quality_benchmark
from hindsight_memory.bench.quality.evaluate import turn_items

CJK = re.compile(r"[\u4e00-\u9fff]")
WHEN_PHRASES = {
    "en": {
        "yesterday": "yesterday",
        "days_ago:2": "two days ago",
        "days_ago:3": "three days ago",
        "days_ago:4": "four days ago",
        "days_ago:5": "five days ago",
        "last_week": "last week",
        "last_weekend": "last weekend",
    },
    "zh": {
        "yesterday": "昨天",
        "days_ago:2": "两天前",
        "days_ago:3": "三天前",
        "days_ago:4": "四天前",
        "days_ago:5": "五天前",
        "last_week": "上周",
        "last_weekend": "上周末",
    },
}
EN_MONTHS = "January February March April May June July August September October November December".split()
ZH_MONTHS = "一 二 三 四 五 六 七 八 九 十 十一 十二".split()


@pytest.fixture(scope="module")
def mixed():
    return generate("mixed", seed=7)


@pytest.fixture(scope="module")
def small():
    return generate("mixed", seed=11, size="small")


def turns_of(conv):
    return {t.turn_id: t for s in conv.sessions for t in s.turns}


def mentions(text: str, term: str) -> bool:
    if CJK.search(term):
        return term in text
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(term)}(?:s|es)?(?![A-Za-z0-9])", text, re.I) is not None


def window(when: str, now: datetime) -> tuple[date, date]:
    """Written apart from the generator on purpose: what each expression means, relative to `now`."""
    today = now.date()
    last_monday = today - timedelta(days=today.weekday() + 7)
    if when == "yesterday":
        return today - timedelta(days=1), today - timedelta(days=1)
    if when.startswith("days_ago:"):
        day = today - timedelta(days=int(when[9:]))
        return day, day
    if when == "last_week":
        return last_monday, last_monday + timedelta(days=6)
    if when == "last_weekend":
        return last_monday + timedelta(days=5), last_monday + timedelta(days=6)
    month = int(when[6:])
    year = today.year - (month > today.month)
    days = [date(year, month, d) for d in range(1, 32) if _valid_day(year, month, d)]
    return days[0], days[-1]


def _valid_day(y: int, m: int, d: int) -> bool:
    try:
        date(y, m, d)
    except ValueError:
        return False
    return True


def test_the_same_seed_gives_the_same_conversations_and_another_seed_does_not():
    # GIVEN two generations with one seed and one with another
    a, b, c = (
        generate("mixed", seed=5, size="small"),
        generate("mixed", seed=5, size="small"),
        generate("mixed", seed=6, size="small"),
    )
    # THEN the first two match exactly and the third differs
    assert a == b
    assert [q.to_dict() for q in a.questions] == [q.to_dict() for q in b.questions]
    assert a.conversations[0].sessions != c.conversations[0].sessions


def test_the_same_seed_gives_the_same_data_in_another_process_with_other_hash_seeds():
    # GIVEN a fingerprint of the small data set computed in fresh interpreters with different hash seeds
    code = (
        "import hashlib; from hindsight_memory.bench.quality import generate; "
        "ds = generate('mixed', seed=3, size='small'); "
        "print(hashlib.sha256(repr([(t.turn_id, t.text, t.occurred_at) for c in ds.conversations "
        "for t in c.turns()] + [q.to_dict() for q in ds.questions]).encode()).hexdigest())"
    )
    prints = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    # THEN both agree
    assert len(prints) == 1


def test_default_size_is_a_few_thousand_turns_and_small_about_six_hundred(mixed, small):
    assert 2000 <= mixed.n_turns <= 5000
    assert 450 <= small.n_turns <= 750
    for conv in mixed.conversations + small.conversations:
        assert 10 <= len(conv.sessions) <= 30
        assert all(18 <= len(s.turns) <= 50 for s in conv.sessions)


def test_every_question_type_is_asked_in_both_languages(mixed):
    seen = Counter((q.lang, q.type) for q in mixed.questions)
    for lang in ("en", "zh"):
        for qtype in QUESTION_TYPES:
            assert seen[(lang, qtype)] >= 2, (lang, qtype)


def test_turn_ids_are_stable_unique_and_times_run_forward_before_now(mixed):
    for conv in mixed.conversations:
        ids = [t.turn_id for s in conv.sessions for t in s.turns]
        assert len(ids) == len(set(ids))
        last = None
        for s in conv.sessions:
            for t in s.turns:
                assert t.turn_id == f"{conv.conversation_id}:{s.session_id}:{t.index}"
                assert t.role == ("user" if t.index % 2 == 0 else "assistant")
                assert t.occurred_at.tzinfo is not None
                assert last is None or t.occurred_at > last
                last = t.occurred_at
        assert last < conv.now
        span = conv.sessions[-1].started_at - conv.sessions[0].started_at
        assert span >= timedelta(days=60), "sessions spread over months"


def test_labels_point_at_existing_turns_that_hold_the_answer_and_only_those(mixed):
    for conv in mixed.conversations:
        turns = turns_of(conv)
        for q in (q for q in conv.questions if q.type != "absent"):
            assert q.answer_turn_ids and q.expected_answer
            for tid, part in zip(q.answer_turn_ids, q.answer_parts, strict=True):
                assert part in q.expected_answer
                assert mentions(turns[tid].text, part), (q.id, part, turns[tid].text)
                holders = [t for t in turns.values() if mentions(t.text, part)]
                assert [t.turn_id for t in holders] == [tid], (q.id, part)


def test_multi_session_answers_span_two_sessions(mixed):
    for q in (q for q in mixed.questions if q.type == "multi_session"):
        assert len(q.answer_turn_ids) == 2
        assert len({tid.split(":")[1] for tid in q.answer_turn_ids}) == 2


def test_updates_come_after_the_stale_statement_which_holds_another_value(mixed):
    for conv in mixed.conversations:
        turns = turns_of(conv)
        for q in (q for q in conv.questions if q.type == "update"):
            (new,), (old,) = q.answer_turn_ids, q.stale_turn_ids
            assert turns[new].occurred_at > turns[old].occurred_at
            assert turns[new].session_id != turns[old].session_id
            assert not mentions(turns[old].text, q.expected_answer)


def test_neighbour_answers_take_their_meaning_from_the_assistant_question_before_them(mixed):
    for conv in mixed.conversations:
        turns = turns_of(conv)
        for q in (q for q in conv.questions if q.type == "neighbour_context"):
            (ans,), (ctx,) = q.answer_turn_ids, q.context_turn_ids
            assert turns[ans].role == "user" and turns[ctx].role == "assistant"
            assert turns[ctx].session_id == turns[ans].session_id and turns[ctx].index == turns[ans].index - 1


def test_temporal_answers_fall_in_the_window_their_expression_describes(mixed):
    for conv in mixed.conversations:
        turns = turns_of(conv)
        for q in (q for q in conv.questions if q.type == "temporal"):
            phrases = dict(WHEN_PHRASES[q.lang])
            months = EN_MONTHS if q.lang == "en" else ZH_MONTHS
            fmt = "in {}" if q.lang == "en" else "{}月份"
            phrases.update({f"month:{i + 1}": fmt.format(m) for i, m in enumerate(months)})
            assert phrases[q.when] in q.text, (q.when, q.text)
            lo, hi = window(q.when, q.now)
            (ans,) = q.answer_turn_ids
            assert lo <= turns[ans].occurred_at.date() <= hi, (q.id, q.when, q.now)
            assert q.distractor_turn_ids, "the same kind of statement is also made at other times"
            for tid in q.distractor_turn_ids:
                assert not lo <= turns[tid].occurred_at.date() <= hi


def test_absent_questions_ask_about_terms_no_turn_contains(mixed):
    for conv in mixed.conversations:
        texts = [t.text for s in conv.sessions for t in s.turns]
        for q in (q for q in conv.questions if q.type == "absent"):
            assert q.key_terms and not q.answer_turn_ids
            assert q.key_terms[0].lower() in q.text.lower()
            for term in q.key_terms:
                assert not any(mentions(x, term) for x in texts), (q.id, term)


def test_chinese_sets_are_chinese_and_english_sets_are_not(mixed):
    for conv in mixed.conversations:
        texts = [t.text for s in conv.sessions for t in s.turns] + [q.text for q in conv.questions]
        cjk_share = sum(bool(CJK.search(x)) for x in texts) / len(texts)
        assert cjk_share > 0.95 if conv.lang == "zh" else cjk_share == 0


def test_filler_is_varied(mixed):
    for conv in mixed.conversations:
        texts = [t.text for s in conv.sessions for t in s.turns if t.role == "user"]
        assert len(set(texts)) / len(texts) > 0.6


def test_generate_rejects_an_unknown_language():
    with pytest.raises(ValueError):
        generate("fr")


# -- the harness, end to end, against a toy keyword store --------------------------------------------------

_STOP = set(
    "a an the and or of to in on at for with is are was were be it i me my you your did do what which who "
    "how say said that this we our".split()
)


def _tokens(text: str) -> list[str]:
    out = []
    for run in re.findall(r"[\u4e00-\u9fff]+|[a-z0-9]+", text.lower()):
        if CJK.match(run):
            out += [run[i : i + 2] for i in range(len(run) - 1)] or [run]
        elif run not in _STOP:
            out.append(run)
    return out


class ToyStore:
    """Token overlap weighted by idf: enough to find turns that share the question's words."""

    def __init__(self):
        self.docs = defaultdict(list)
        self.calls = []

    def store_turns(self, namespace: str, items: list[dict]) -> None:
        self.calls.append((namespace, items))
        for item in items:
            self.docs[namespace].append((item["metadata"]["turn_id"], Counter(_tokens(item["content"]))))

    def recall(self, namespace: str, query: str, top_k: int, now: datetime, mode: str) -> RecallOutcome:
        docs = self.docs[namespace]
        df = Counter(t for _, toks in docs for t in toks)
        q = set(_tokens(query))
        idf = {t: math.log(1 + len(docs) / (1 + df[t])) for t in q}
        scored = sorted(((sum(idf[t] for t in q if t in toks), tid) for tid, toks in docs), reverse=True)
        best = scored[0][0] if scored else 0.0
        return RecallOutcome(
            [tid for s, tid in scored[:top_k] if s > 0], missing=best < 0.4 * sum(idf.values())
        )


def test_harness_scores_a_toy_keyword_store_sensibly(small):
    # GIVEN a toy keyword store
    store = ToyStore()
    # WHEN the small benchmark runs against it
    report = run_quality_benchmark(store.store_turns, store.recall, dataset=small, modes=("bm25",))
    # THEN each conversation went to its own namespace with the documented item shape
    assert len({ns for ns, _ in store.calls}) == len(small.conversations)
    item = store.calls[0][1][0]
    assert set(item) == {"content", "speaker", "occurred_at", "session_id", "metadata", "kind", "context"}
    assert item["speaker"] == "user" and item["kind"] == "episodic"
    assert item["occurred_at"].tzinfo is not None and "turn_id" in item["metadata"]
    # AND keyword overlap finds most single facts, while scores stay probabilities
    assert report.score("bm25", "single_fact").recall[10] >= 0.6
    for s in report.scores:
        assert all(0 <= v <= 1 for v in [*s.recall.values(), *s.all_in.values(), s.mrr, s.missing_rate])
        assert all(s.all_in[k] <= s.recall[k] for k in report.ks)
    assert report.score("bm25", "answerable").n == sum(q.type != "absent" for q in small.questions)
    # AND the table and the JSON both carry every type
    table = report.table()
    for qtype in QUESTION_TYPES:
        assert qtype in table
    assert json.loads(json.dumps(report.to_dict()))["n_questions"] == len(small.questions)


def test_turn_items_situate_each_turn_in_its_session(small):
    conv = small.conversations[0]
    items = turn_items(conv)
    assert len(items) == sum(len(s.turns) for s in conv.sessions)
    assert items[0]["context"].startswith("session 1 on ") or items[0]["context"].startswith("第1次对话")
