"""The generated dataset's types: conversations of sessions of turns, the questions asked about them, and what a
question's time expression covers."""

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from functools import cached_property
from typing import Any

QUESTION_TYPES = ("single_fact", "neighbour_context", "update", "temporal", "multi_session", "absent")


@dataclass(frozen=True)
class Turn:
    turn_id: str  # f"{conversation_id}:{session_id}:{index}"
    session_id: str
    index: int
    role: str  # "user" | "assistant"
    text: str
    occurred_at: datetime


@dataclass(frozen=True)
class Session:
    session_id: str
    number: int  # 1-based, in time order
    started_at: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    id: str
    conversation_id: str
    lang: str
    type: str
    text: str
    now: datetime
    answer_turn_ids: tuple[str, ...]
    stale_turn_ids: tuple[str, ...] = ()
    expected_answer: str = ""  # empty for `absent`: the right answer is "nothing relevant"
    answer_parts: tuple[str, ...] = ()  # the part of the answer each answer turn holds, in the same order
    key_terms: tuple[str, ...] = ()  # `absent`: the terms no turn contains
    when: str | None = None  # `temporal`: "yesterday", "days_ago:3", "last_week", "last_weekend", "month:3"
    context_turn_ids: tuple[str, ...] = ()  # `neighbour_context`: the turn that gives the answer its meaning
    distractor_turn_ids: tuple[str, ...] = ()  # `temporal`: the same kind of statement at other times

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["now"] = self.now.isoformat()
        return d


@dataclass(frozen=True)
class Conversation:
    conversation_id: str
    lang: str
    now: datetime  # the reference time of every question, after the last session
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]

    def turns(self) -> Iterator[Turn]:
        for s in self.sessions:
            yield from s.turns

    @cached_property
    def by_id(self) -> dict[str, Turn]:
        return {t.turn_id: t for t in self.turns()}


@dataclass(frozen=True)
class Dataset:
    lang: str
    seed: int
    conversations: tuple[Conversation, ...]

    @property
    def questions(self) -> list[Question]:
        return [q for c in self.conversations for q in c.questions]

    @property
    def n_turns(self) -> int:
        return sum(len(s.turns) for c in self.conversations for s in c.sessions)


def expression_window(when: str, now: datetime) -> tuple[date, date]:
    """The first and last calendar day (inclusive) that a time expression code covers, relative to `now`."""
    today = now.date()
    monday = today - timedelta(days=today.weekday())
    if when == "yesterday":
        return today - timedelta(days=1), today - timedelta(days=1)
    if when.startswith("days_ago:"):
        d = today - timedelta(days=int(when.split(":")[1]))
        return d, d
    if when == "last_week":
        return monday - timedelta(days=7), monday - timedelta(days=1)
    if when == "last_weekend":
        return monday - timedelta(days=2), monday - timedelta(days=1)
    if when.startswith("month:"):
        month = int(when.split(":")[1])
        year = today.year if month <= today.month else today.year - 1
        first = date(year, month, 1)
        nxt = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
        return first, nxt - timedelta(days=1)
    raise ValueError(f"unknown time expression {when!r}")
