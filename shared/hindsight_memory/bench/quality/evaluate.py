"""The quality harness: store the synthetic turns through any store, ask the questions, score per type and mode."""

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from .dataset import QUESTION_TYPES, Conversation, Dataset, Question
from .generator import generate


@dataclass(frozen=True)
class RecallOutcome:
    """What a recall returned, mapped back to turn ids (best first), and whether it said "nothing relevant"."""

    turn_ids: list[str]
    missing: bool = False


StoreTurns = Callable[[str, list[dict[str, Any]]], None]
Recall = Callable[[str, str, int, datetime, str], RecallOutcome]  # (namespace, query, top_k, now, mode)


@dataclass(frozen=True)
class QuestionResult:
    question_id: str
    type: str
    lang: str
    mode: str
    answer_ranks: tuple[int | None, ...]  # 1-based rank of each labelled turn, None when not returned
    stale_rank: int | None  # best rank of a stale turn (`update` only)
    missing: bool
    seconds: float


@dataclass(frozen=True)
class Score:
    """One cell of the report: a retrieval mode on one question type (or on all answerable ones)."""

    mode: str
    group: str  # a question type, "answerable", or "answerable/<lang>"
    n: int
    recall: dict[int, float]  # mean fraction of labelled turns in the top k
    all_in: dict[int, float]  # fraction of questions with every labelled turn in the top k
    mrr: float  # mean reciprocal rank of the first labelled turn
    missing_rate: float  # `absent`: how often it said missing (higher is right); otherwise false alarms
    stale_first: float | None = None  # `update`: how often a stale turn ranked above the current one


@dataclass
class QualityReport:
    lang: str
    seed: int
    ks: tuple[int, ...]
    modes: tuple[str, ...]
    n_conversations: int
    n_turns: int
    n_questions: int
    store_seconds: float
    scores: list[Score]
    results: list[QuestionResult]
    crosslingual: dict[str, Any] | None = None  # bench/quality/crosslingual.py, when measured

    def score(self, mode: str, group: str) -> Score:
        return next(s for s in self.scores if s.mode == mode and s.group == group)

    def latency_ms(self, mode: str) -> float:
        times = [r.seconds for r in self.results if r.mode == mode]
        return 1000 * sum(times) / max(1, len(times))

    def table(self) -> str:
        head = (
            f"retrieval quality  lang={self.lang} seed={self.seed}  conversations={self.n_conversations} "
            f"turns={self.n_turns} questions={self.n_questions}  store {self.store_seconds:.1f}s"
        )
        cols = [f"R@{k}" for k in self.ks] + [f"all@{k}" for k in self.ks] + ["MRR"]
        lines = [head, f"{'mode':<8} {'type':<18} {'n':>4} " + " ".join(f"{c:>6}" for c in cols) + "  other"]
        for mode in self.modes:
            for s in (s for s in self.scores if s.mode == mode):
                if s.group == "absent":
                    nums = " ".join(f"{'-':>6}" for _ in cols)
                    other = f"said missing {s.missing_rate:.2f}"
                else:
                    vals = [s.recall[k] for k in self.ks] + [s.all_in[k] for k in self.ks] + [s.mrr]
                    nums = " ".join(f"{v:>6.3f}" for v in vals)
                    other = f"stale first {s.stale_first:.2f}" if s.stale_first is not None else ""
                    if s.group.startswith("answerable") and s.missing_rate:
                        other = f"false missing {s.missing_rate:.2f}"
                lines.append(f"{mode:<8} {s.group:<18} {s.n:>4} {nums}  {other}".rstrip())
            lines.append(f"{mode:<8} {'(mean latency)':<18} {'':>4} {self.latency_ms(mode):>6.1f} ms")
        if self.crosslingual:
            x = self.crosslingual
            lines.append(
                f"cross-lingual EN<->ZH: {x['found_at_5']:.3f} of {x['pairs']} pairs found in the top 5 "
                f"(English question, Chinese fact {x['en_question_zh_fact']:.2f}; Chinese question, English fact "
                f"{x['zh_question_en_fact']:.2f}); never said, answered missing {x['never_said_missing']:.2f}"
            )
        return "\n".join(lines)

    def to_dict(self, with_results: bool = False) -> dict[str, Any]:
        d = {k: v for k, v in asdict(self).items() if k != "results"}
        d["latency_ms"] = {m: round(self.latency_ms(m), 2) for m in self.modes}
        if with_results:
            d["results"] = [asdict(r) for r in self.results]
        return d


def turn_items(conv: Conversation) -> list[dict[str, Any]]:
    """The store payload for one conversation: one episodic memory per turn, with its speaker, tagged with its
    turn id."""
    items = []
    for s in conv.sessions:
        day = s.started_at.date().isoformat()
        context = f"第{s.number}次对话,{day}" if conv.lang == "zh" else f"session {s.number} on {day}"
        for t in s.turns:
            items.append(
                {
                    "content": t.text,
                    "speaker": t.role,  # kept as "role: text" (or "Maya: text"), as a client would give it
                    "occurred_at": t.occurred_at,
                    "session_id": t.session_id,
                    "metadata": {"turn_id": t.turn_id},
                    "kind": "episodic",
                    "context": context,
                }
            )
    return items


def run_quality_benchmark(
    store_turns: StoreTurns,
    recall: Recall,
    *,
    lang: str = "mixed",
    seed: int = 7,
    n_conversations: int | None = None,
    ks: Sequence[int] = (5, 10),
    modes: Sequence[str] = ("bm25", "vector", "hybrid"),
    size: str = "default",
    namespace_prefix: str = "bench",
    dataset: Dataset | None = None,
    progress: Callable[[str], None] | None = None,
) -> QualityReport:
    """Store every conversation in its own namespace, ask every question in every mode, and score the answers.

    `size` is "default" (alias "full": 8 conversations, ~2.9k turns) or "small" (2 conversations, ~600 turns).
    """
    ds = dataset or generate(lang, seed, n_conversations, size)
    ks, modes = tuple(sorted(ks)), tuple(modes)
    top_k = max(ks)
    started = time.perf_counter()
    for conv in ds.conversations:
        store_turns(f"{namespace_prefix}/{conv.conversation_id}", turn_items(conv))
        if progress:
            progress(f"stored {conv.conversation_id}")
    store_seconds = time.perf_counter() - started
    results = []
    for conv in ds.conversations:
        namespace = f"{namespace_prefix}/{conv.conversation_id}"
        for mode in modes:
            for q in conv.questions:
                t0 = time.perf_counter()
                outcome = recall(namespace, q.text, top_k, q.now, mode)
                results.append(_judge(q, mode, outcome, time.perf_counter() - t0))
        if progress:
            progress(f"asked {conv.conversation_id}")
    return QualityReport(
        lang=ds.lang,
        seed=ds.seed,
        ks=ks,
        modes=modes,
        n_conversations=len(ds.conversations),
        n_turns=ds.n_turns,
        n_questions=len(ds.questions),
        store_seconds=store_seconds,
        scores=score_results(results, ks, modes),
        results=results,
    )


def _judge(q: Question, mode: str, outcome: RecallOutcome, seconds: float) -> QuestionResult:
    ranked = list(dict.fromkeys(outcome.turn_ids))  # a turn returned twice counts once, at its best rank
    rank = {tid: i + 1 for i, tid in enumerate(ranked)}
    stale = [rank[t] for t in q.stale_turn_ids if t in rank]
    return QuestionResult(
        q.id,
        q.type,
        q.lang,
        mode,
        tuple(rank.get(t) for t in q.answer_turn_ids),
        min(stale) if stale else None,
        bool(outcome.missing),
        seconds,
    )


def score_results(results: Iterable[QuestionResult], ks: Sequence[int], modes: Sequence[str]) -> list[Score]:
    """Scores per (mode, question type), then per mode over all answerable questions, overall and per language."""
    results = list(results)
    scores = []
    for mode in modes:
        mine = [r for r in results if r.mode == mode]
        groups = [(t, [r for r in mine if r.type == t]) for t in QUESTION_TYPES]
        answerable = [r for r in mine if r.type != "absent"]
        groups.append(("answerable", answerable))
        langs = sorted({r.lang for r in answerable})
        if len(langs) > 1:
            groups += [(f"answerable/{lang}", [r for r in answerable if r.lang == lang]) for lang in langs]
        scores += [_score(mode, g, rs, ks) for g, rs in groups if rs]
    return scores


def _score(mode: str, group: str, rs: list[QuestionResult], ks: Sequence[int]) -> Score:
    n = len(rs)

    def within(r: QuestionResult, k: int) -> int:
        return sum(1 for x in r.answer_ranks if x is not None and x <= k)

    answered = [r for r in rs if r.answer_ranks]
    m = max(1, len(answered))
    recall = {k: sum(within(r, k) / len(r.answer_ranks) for r in answered) / m for k in ks}
    all_in = {k: sum(within(r, k) == len(r.answer_ranks) for r in answered) / m for k in ks}
    mrr = sum(1 / min((x for x in r.answer_ranks if x), default=float("inf")) for r in answered) / m
    stale_first = None
    if group == "update":
        stale_first = sum(_stale_above(r) for r in rs) / n
    return Score(mode, group, n, recall, all_in, mrr, sum(r.missing for r in rs) / n, stale_first)


def _stale_above(r: QuestionResult) -> bool:
    current = r.answer_ranks[0] if r.answer_ranks and r.answer_ranks[0] else None
    return r.stale_rank is not None and (current is None or r.stale_rank < current)
