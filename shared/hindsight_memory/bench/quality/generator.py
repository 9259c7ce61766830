"""Deterministic synthetic multi-session conversations (English or Chinese) with planted facts and questions
(the types are in dataset.py)."""

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from . import en_facts, en_filler, zh_facts, zh_filler
from .bank import Bank, Slot
from .dataset import Conversation, Dataset, Question, Session, Turn, expression_window

LANGS = ("en", "zh")

BANKS = {
    "en": Bank(
        "en",
        en_facts.SLOTS,
        en_facts.PLANS,
        en_facts.MULTIS,
        en_facts.ABSENTS,
        en_filler.THREADS,
        en_filler.VOCAB,
        en_filler.ACKS,
        en_filler.REPLIES,
        en_filler.OPENERS,
        en_filler.ASIDES,
        en_facts.WHEN,
        " and ",
    ),
    "zh": Bank(
        "zh",
        zh_facts.SLOTS,
        zh_facts.PLANS,
        zh_facts.MULTIS,
        zh_facts.ABSENTS,
        zh_filler.THREADS,
        zh_filler.VOCAB,
        zh_filler.ACKS,
        zh_filler.REPLIES,
        zh_filler.OPENERS,
        zh_filler.ASIDES,
        zh_facts.WHEN,
        "、",
    ),
}


@dataclass(frozen=True)
class Size:
    n_conversations: int
    sessions: tuple[int, int]
    turns: tuple[int, int]  # per session, including the planted ones
    questions: dict[str, int] = field(
        default_factory=lambda: {
            "single_fact": 5,
            "neighbour_context": 3,
            "update": 3,
            "temporal": 4,
            "multi_session": 2,
            "absent": 3,
        }
    )


# default ≈ 8 × 12 × 30 ≈ 2.9k turns, 160 questions; small ≈ 2 × 10 × 30 ≈ 600 turns, 40 questions
SIZES = {
    "default": Size(8, (10, 14), (20, 40)),
    "small": Size(2, (10, 10), (22, 38)),
    # a few seconds of embedding with the real model: the tests' quality check
    "tiny": Size(2, (7, 7), (10, 16)),
}
SIZES["full"] = SIZES["default"]


def generate(
    lang: str = "mixed", seed: int = 7, n_conversations: int | None = None, size: str = "default"
) -> Dataset:
    """Conversations for `lang` ("en", "zh", or "mixed": alternating); the same arguments give the same data.

    Raises:
        ValueError: unknown lang or size.
    """
    if lang not in (*LANGS, "mixed"):
        raise ValueError(f"lang must be 'en', 'zh' or 'mixed', not {lang!r}")
    if size not in SIZES:
        raise ValueError(f"size must be one of {sorted(SIZES)}, not {size!r}")
    sz = SIZES[size]
    n = sz.n_conversations if n_conversations is None else n_conversations
    convs = []
    for i in range(n):
        conv_lang = LANGS[i % 2] if lang == "mixed" else lang
        convs.append(_conversation(i, conv_lang, seed, sz))
    return Dataset(lang, seed, tuple(convs))


def term_pattern(terms: Iterable[str], plural: bool = False) -> re.Pattern[str]:
    """Matches any of `terms` as a whole word (ASCII letters/digits bound words; CJK matches as a substring)."""
    alts = "|".join(re.escape(t) for t in sorted(set(terms), key=len, reverse=True)) or r"(?!x)x"
    suffix = "(?:s|es)?" if plural else ""
    return re.compile(rf"(?<![A-Za-z0-9])(?:{alts}){suffix}(?![A-Za-z0-9])", re.IGNORECASE)


# ----------------------------------------------------------------------------------------------------------
# building one conversation


class _Fills(dict[str, Any]):
    """Fills "{city}", "{city2}" ... from the vocabulary: one draw per key, distinct draws for one base."""

    def __init__(self, rng: random.Random, vocab: dict[str, Any], forbidden: re.Pattern[str]):
        super().__init__()
        self.rng, self.vocab, self.forbidden = rng, vocab, forbidden

    def __missing__(self, key: str) -> str:
        base = key.rstrip("0123456789")
        options = [v for v in self.vocab[base] if v not in self.values() and not self.forbidden.search(v)]
        value: str = self.rng.choice(options or list(self.vocab[base]))
        self[key] = value
        return value


Block = list[tuple[str, str, str | None]]  # (role, text, tag) turns, starting with the user


@dataclass
class _Planted:
    """Turns planted in one session, as blocks of (role, text, tag) that start with the user."""

    blocks: list[Block] = field(default_factory=list)


class _Builder:
    def __init__(self, index: int, lang: str, seed: int, size: Size, attempt: int):
        self.rng = random.Random(f"hindsight-quality:{seed}:{index}:{attempt}")
        self.bank = BANKS[lang]
        self.lang, self.size = lang, size
        self.cid = f"conv-{index}-{lang}"
        self.taken: list[str] = []  # every answer value used, to keep values distinct
        self.thread_uses = [0] * len(self.bank.threads)

    # -- values and templates --
    def pick_value(self, values: Iterable[str]) -> str:
        free = [
            v
            for v in values
            if not any(term_pattern([t]).search(v) or term_pattern([v]).search(t) for t in self.taken)
        ]
        value: str = self.rng.choice(free)
        self.taken.append(value)
        return value

    def say(self, templates: Sequence[str], **kw: str) -> str:
        template: str = self.rng.choice(templates)
        return template.format(**kw)

    # -- time --
    def pick_now(self) -> datetime:
        day = date(2024, 1, 8) + timedelta(days=self.rng.randrange(700))
        while day.weekday() not in (
            1,
            2,
            3,
            4,
        ):  # Tue-Fri: "last weekend" and "yesterday" never overlap today
            day += timedelta(days=1)
        return datetime.combine(day, time(self.rng.randint(9, 17), self.rng.choice((0, 15, 30, 45))), UTC)

    def session_dates(self, now: datetime, windows: list[tuple[date, date]], n: int) -> list[date]:
        today = now.date()
        span_start = today - timedelta(days=150)
        dates: set[date] = set()
        for lo, hi in windows:
            if any(lo <= d <= hi for d in dates) and self.rng.random() < 0.5:
                continue
            hi = min(hi, today - timedelta(days=1))
            lo = max(lo, span_start)
            dates.add(lo + timedelta(days=self.rng.randint(0, (hi - lo).days)))
        recent = [today - timedelta(days=k) for k in range(1, 10)]
        dates.add(self.rng.choice(recent))  # recency alone never picks out the anchor of a recent window
        pool = [span_start + timedelta(days=k) for k in range((today - span_start).days)]
        self.rng.shuffle(pool)
        for d in pool:
            if len(dates) >= n:
                break
            dates.add(d)
        return sorted(dates)

    # -- facts --
    def stated(self, slot: Slot, value: str, tag: str, *, aside: bool) -> Block:
        """The block where a slot's value is said, in direct form (the labelled turn carries `tag`)."""
        if slot.speaker == "assistant":
            return [("user", self.say(slot.request), None), ("assistant", self.say(slot.state, v=value), tag)]
        text = self.say(slot.state, v=value)
        if aside and self.rng.random() < 0.5:
            text = self.rng.choice(self.bank.asides) + text
        return [("user", text, tag), ("assistant", self.rng.choice(self.bank.acks), None)]

    def neighbour(self, slot: Slot, value: str, tag: str) -> Block:
        return [
            ("user", self.say(slot.lead), None),
            ("assistant", self.say(slot.ask), "ctx:" + tag),
            ("user", self.say(slot.reply, v=value), tag),
            ("assistant", self.rng.choice(self.bank.acks), None),
        ]

    def simple(self, text: str, tag: str | None) -> Block:
        return [("user", text, tag), ("assistant", self.rng.choice(self.bank.acks), None)]

    def remark(self, text: str) -> Block:
        return [("user", text, None), ("assistant", self.rng.choice(self.bank.replies), None)]

    def filler(self, forbidden: re.Pattern[str], max_turns: int, used_here: set[int]) -> Block:
        """One small-talk or unrelated-task thread, cut to at most `max_turns`, free of forbidden terms.

        Threads already used in this session are skipped, and rarely used ones are preferred.
        """
        for _ in range(200):
            choices = [i for i in range(len(self.bank.threads)) if i not in used_here]
            i = self.rng.choices(choices, weights=[1 / (1 + self.thread_uses[i]) ** 2 for i in choices])[0]
            thread = self.bank.threads[i]
            pick = self.rng.randrange(max(len(alts) for alts in thread))  # alternatives pair up by position
            fills = _Fills(self.rng, self.bank.vocab, forbidden)
            keep = min(len(thread), max_turns - max_turns % 2)
            keep = self.rng.randint(1, keep // 2) * 2 if keep > 2 and self.rng.random() < 0.3 else keep
            texts = [alts[min(pick, len(alts) - 1)].format_map(fills) for alts in thread[:keep]]
            texts = [t[0].upper() + t[1:] for t in texts]
            if not any(forbidden.search(t) for t in texts):
                self.thread_uses[i] += 1
                used_here.add(i)
                return [("user" if i % 2 == 0 else "assistant", t, None) for i, t in enumerate(texts)]
        raise RuntimeError("no filler thread avoids the forbidden terms")  # a bank bug, not bad luck


def _conversation(index: int, lang: str, seed: int, size: Size) -> Conversation:
    for attempt in range(20):
        conv = _build(_Builder(index, lang, seed, size, attempt))
        if conv is not None:
            return conv
    raise RuntimeError(f"could not build a valid conversation {index} ({lang}, seed {seed})")


def _build(b: _Builder) -> Conversation | None:
    rng, bank, q_n = b.rng, b.bank, b.size.questions
    now = b.pick_now()
    n_sessions = rng.randint(*b.size.sessions)

    # temporal expressions first: they decide which days must hold a session
    today = now.date()
    codes = ["yesterday", "days_ago:2", "days_ago:3", "days_ago:4", "days_ago:5", "last_week", "last_weekend"]
    codes += [f"month:{(today.month - k - 1) % 12 + 1}" for k in (2, 3, 4)]
    whens = rng.sample(codes, q_n["temporal"])
    windows = [expression_window(w, now) for w in whens]
    dates = b.session_dates(now, windows, n_sessions)
    n_sessions = len(dates)
    planted = [_Planted() for _ in dates]
    facts: list[dict[str, Any]] = []  # question specs, resolved to turn ids once turns exist

    def put(session: int, block: Block) -> None:
        planted[session].blocks.append(block)

    def later_pair(gap: int = 2) -> tuple[int, int]:
        a = rng.randrange(0, n_sessions - gap)
        return a, rng.randrange(a + gap, n_sessions)

    # slots: updates, neighbour forms, then plain facts, all different
    slots = list(bank.slots)
    rng.shuffle(slots)
    updatable = [s for s in slots if s.update][: q_n["update"]]
    rest = [s for s in slots if s not in updatable]
    neighbours = [s for s in rest if s.has_neighbour_form][: q_n["neighbour_context"]]
    singles = [s for s in rest if s not in neighbours][: q_n["single_fact"]]
    near_slots = []
    for slot in updatable:
        old, new = b.pick_value(slot.values), b.pick_value(slot.values)
        a, c = later_pair()
        put(a, b.stated(slot, old, f"stale:{slot.key}", aside=True))
        put(c, b.simple(b.say(slot.update, v=new), f"ans:{slot.key}"))
        facts.append(dict(type="update", key=slot.key, text=b.say(slot.question), parts=[new]))
        near_slots.append(slot)
    for slot in neighbours:
        v = b.pick_value(slot.values)
        put(rng.randrange(n_sessions), b.neighbour(slot, v, f"ans:{slot.key}"))
        facts.append(dict(type="neighbour_context", key=slot.key, text=b.say(slot.question), parts=[v]))
        near_slots.append(slot)
    for slot in singles:
        v = b.pick_value(slot.values)
        put(rng.randrange(n_sessions), b.stated(slot, v, f"ans:{slot.key}", aside=True))
        facts.append(dict(type="single_fact", key=slot.key, text=b.say(slot.question), parts=[v]))
        near_slots.append(slot)
    for slot in near_slots:
        for line in rng.sample(slot.near, min(len(slot.near), rng.randint(0, 2))):
            put(rng.randrange(n_sessions), b.remark(line))

    # temporal: the same kind of plan at the anchor and, as distractors, well outside the window
    for when, (lo, hi), plan in zip(whens, windows, rng.sample(bank.plans, len(whens)), strict=True):
        inside = [i for i, d in enumerate(dates) if lo <= d <= hi]
        outside = [i for i, d in enumerate(dates) if d < lo - timedelta(days=7) or d > hi + timedelta(days=7)]
        anchor = rng.choice(inside)
        key = f"plan:{plan.key}"
        v = b.pick_value(plan.values)
        put(anchor, b.simple(b.say(plan.state, v=v), f"ans:{key}"))
        for j, s in enumerate(rng.sample(outside, min(len(outside), rng.randint(2, 3)))):
            put(s, b.simple(b.say(plan.state, v=b.pick_value(plan.values)), f"dis:{key}:{j}"))
        text = b.say(plan.question, when=bank.when_words[when])
        facts.append(dict(type="temporal", key=key, text=text[0].upper() + text[1:], parts=[v], when=when))

    # two-session lists
    for multi in rng.sample(bank.multis, q_n["multi_session"]):
        a, c = later_pair()
        parts = [b.pick_value(multi.values), b.pick_value(multi.values)]
        put(a, b.simple(b.say(multi.state, v=parts[0]), f"ans:multi:{multi.key}:0"))
        put(c, b.simple(b.say(multi.state, v=parts[1]), f"ans:multi:{multi.key}:1"))
        facts.append(
            dict(type="multi_session", key=f"multi:{multi.key}", text=b.say(multi.question), parts=parts)
        )

    # absent topics: none of their terms may occur in what is planted; filler then avoids them too
    planted_text = " ".join(t for p in planted for blk in p.blocks for _, t, _ in blk)
    absents = [a for a in bank.absents if not term_pattern(a.terms, plural=True).search(planted_text)]
    absents = rng.sample(absents, min(len(absents), q_n["absent"]))
    absent_terms = [t for a in absents for t in a.terms]
    forbidden = re.compile(
        term_pattern(b.taken).pattern + "|" + term_pattern(absent_terms, plural=True).pattern, re.IGNORECASE
    )

    sessions, tags = _lay_out(b, now, dates, planted, forbidden)
    questions = []
    for k, f in enumerate(facts):
        key = f["key"]
        answer = (
            [tags[f"ans:{key}:{j}"] for j in range(2)]
            if f["type"] == "multi_session"
            else [tags[f"ans:{key}"]]
        )
        questions.append(
            Question(
                id=f"{b.cid}:q{k:02d}",
                conversation_id=b.cid,
                lang=b.lang,
                type=f["type"],
                text=f["text"],
                now=now,
                answer_turn_ids=tuple(answer),
                stale_turn_ids=tuple(v for t, v in tags.items() if t == f"stale:{key}"),
                expected_answer=bank.joiner.join(f["parts"]),
                answer_parts=tuple(f["parts"]),
                when=f.get("when"),
                context_turn_ids=tuple(v for t, v in tags.items() if t == f"ctx:ans:{key}"),
                distractor_turn_ids=tuple(v for t, v in tags.items() if t.startswith(f"dis:{key}:")),
            )
        )
    for absent in absents:
        questions.append(
            Question(
                id=f"{b.cid}:q{len(questions):02d}",
                conversation_id=b.cid,
                lang=b.lang,
                type="absent",
                text=absent.question,
                now=now,
                answer_turn_ids=(),
                key_terms=absent.terms,
            )
        )
    conv = Conversation(b.cid, b.lang, now, tuple(sessions), tuple(questions))
    return conv if _valid(conv) else None


def _lay_out(
    b: _Builder, now: datetime, dates: list[date], planted: list[_Planted], forbidden: re.Pattern[str]
) -> tuple[list[Session], dict[str, str]]:
    """Surround the planted blocks with filler, then number the turns and give them times."""
    rng = b.rng
    sessions: list[Session] = []
    tags: dict[str, str] = {}
    for n, (day, plan) in enumerate(zip(dates, planted, strict=True), start=1):
        sid = f"s{n:02d}"
        blocks = list(plan.blocks)
        target = rng.randint(*b.size.turns)
        used = sum(len(blk) for blk in blocks)
        fillers: list[Block] = []
        used_here: set[int] = set()
        while used < target - 1:
            blk = b.filler(forbidden, target - used, used_here)
            fillers.append(blk)
            used += len(blk)
        for blk in blocks:  # planted blocks land anywhere but first
            fillers.insert(rng.randint(1, len(fillers)) if fillers else 0, blk)
        if fillers and fillers[0][0][2] is None and rng.random() < 0.5:
            role, text, tag = fillers[0][0]
            sep = "" if b.lang == "zh" else " "
            fillers[0] = [(role, f"{rng.choice(b.bank.openers)}{sep}{text}", tag), *fillers[0][1:]]
        at = datetime.combine(day, time(rng.randint(8, 19), rng.randrange(60)), UTC)
        started, turns = at, list[Turn]()
        for role, text, tag in (t for blk in fillers for t in blk):
            tid = f"{b.cid}:{sid}:{len(turns)}"
            turns.append(Turn(tid, sid, len(turns), role, text, at))
            if tag:
                tags[tag] = tid
            at += timedelta(minutes=rng.randint(1, 4))
        assert at < now, "sessions end before the questions are asked"
        sessions.append(Session(sid, n, started, tuple(turns)))
    return sessions, tags


def _valid(conv: Conversation) -> bool:
    """Every answer part sits in its labelled turn and nowhere else; absent terms sit nowhere."""
    texts = {t.turn_id: t.text for t in conv.turns()}
    for q in conv.questions:
        if q.type == "absent":
            pat = term_pattern(q.key_terms, plural=True)
            if any(pat.search(x) for x in texts.values()):
                return False
            continue
        for tid, part in zip(q.answer_turn_ids, q.answer_parts, strict=True):
            pat = term_pattern([part])
            if not pat.search(texts[tid]) or sum(bool(pat.search(x)) for x in texts.values()) != 1:
                return False
    return True
