"""Reads a folder of BEAM conversations ("Beyond a Million Tokens"): `N/chat.json` (batches of turns) and
`N/probing_questions/probing_questions.json` (questions by type with their source turn ids). Evaluation data is
read from its path, never copied into the project."""

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ..errors import InvalidInput
from ..timeparse import written_date


@dataclass(frozen=True)
class Turn:
    id: int
    role: str
    content: str
    session: int  # BEAM batch number: one session of the conversation
    position: int  # index of the turn within its session
    occurred_at: datetime


@dataclass(frozen=True)
class Question:
    chat: str
    type: str
    index: int  # position within its type, for stable ids
    text: str
    sources: tuple[int, ...]  # turn ids holding the evidence


@dataclass(frozen=True)
class Conversation:
    chat: str
    turns: list[Turn]
    questions: list[Question]

    @property
    def last_at(self) -> datetime:
        return max(t.occurred_at for t in self.turns)


def flatten_ids(value: Any) -> list[int]:
    """`source_chat_ids` is a list, a dict of lists, or (in a few questions) lists of lists: all turn ids."""
    if isinstance(value, dict):
        return [i for v in value.values() for i in flatten_ids(v)]
    if isinstance(value, list):
        return [i for v in value for i in flatten_ids(v)]
    return [int(value)]


def parse_anchor(text: str) -> datetime:
    """BEAM's time anchors read "March-15-2024" ("Mar-15-2024" taken too).

    Raises:
        InvalidInput: the anchor is no such date.
    """
    when = written_date(text.strip())
    if when is not None:
        return when.replace(tzinfo=UTC)
    raise InvalidInput(f"time anchor {text!r} is not a date like March-15-2024")


SESSION_START_HOUR = 9  # a session starts at 09:00 UTC on its anchor day; turns follow a minute apart


def load_conversation(folder: Path) -> Conversation:
    """Raises:
    InvalidInput: the folder is not shaped like a BEAM conversation.
    """
    chat_file, q_file = folder / "chat.json", folder / "probing_questions" / "probing_questions.json"
    if not chat_file.is_file() or not q_file.is_file():
        raise InvalidInput(f"{folder} has no chat.json and probing_questions/probing_questions.json")
    batches = json.loads(chat_file.read_text(encoding="utf-8"))
    turns: list[Turn] = []
    anchor: datetime | None = None
    for b, batch in enumerate(batches, start=1):
        flat = [t for group in batch["turns"] for t in group]
        # The anchor sits on a session's first turn (sometimes on the batch); a session without one follows
        # the previous session by a day.
        stamp = next((t.get("time_anchor") for t in flat if t.get("time_anchor")), None) or batch.get(
            "time_anchor"
        )
        if stamp and stamp != "None":
            anchor = parse_anchor(stamp)
        elif anchor is not None:
            anchor = anchor + timedelta(days=1)
        else:
            anchor = datetime(2024, 1, 1, tzinfo=UTC)
        start = anchor.replace(hour=SESSION_START_HOUR)
        for pos, t in enumerate(flat):
            turns.append(
                Turn(
                    id=int(t["id"]),
                    role=str(t["role"]),
                    content=str(t["content"]),
                    session=int(batch.get("batch_number") or b),
                    position=pos,
                    occurred_at=start + timedelta(minutes=pos),
                )
            )
    questions: list[Question] = []
    for qtype, items in json.loads(q_file.read_text(encoding="utf-8")).items():
        for i, q in enumerate(items):
            sources = tuple(dict.fromkeys(flatten_ids(q.get("source_chat_ids") or [])))
            if sources:  # abstention questions (and a few others) have no evidence to find
                questions.append(Question(folder.name, qtype, i, str(q["question"]), sources))
    return Conversation(folder.name, turns, questions)


def load_folder(path: str | Path, chats: list[str] | None = None) -> list[Conversation]:
    """Every conversation under `path` (folders holding chat.json), in numeric order, or only `chats`.

    Raises:
        InvalidInput: no conversation found, or a requested chat is missing.
    """
    root = Path(path)
    found = sorted(
        (p for p in root.iterdir() if (p / "chat.json").is_file()) if root.is_dir() else [],
        key=lambda p: (not p.name.isdigit(), int(p.name) if p.name.isdigit() else 0, p.name),
    )
    if chats:
        names = {p.name: p for p in found}
        missing = [c for c in chats if c not in names]
        if missing:
            raise InvalidInput(f"no conversation {', '.join(missing)} under {root}")
        found = [names[c] for c in chats]
    if not found:
        raise InvalidInput(f"no BEAM conversation (N/chat.json) under {root}")
    return [load_conversation(p) for p in found]


def turn_content(t: Turn) -> str:
    """A turn stored as one memory: "role: text", as the judges store it."""
    return f"{t.role}: {t.content}"
