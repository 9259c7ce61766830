"""Who says a statement, and whose words two statements are: a statement with no speaker is the user's; a named
speaker's own words and a note about that person are one person's (writer/facts.py decides with them, the sharper
reading in writer/reading.py reads them so)."""

import re

from ..text import ROLES, has_cjk
from .statements import Statement, _read, statement


def mentions(text: str, name: str) -> bool:
    """Whether `text` names `name` (a speaker's name as read: casefolded)."""
    if has_cjk(name):
        return name in text
    return re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE) is not None


def _the_speaker(speaker_a: str, speaker_b: str, text_b: str, text_a: str) -> str | None:
    """The name of the one side's speaker when only that side has one, it is a person (no role) and the other side's
    text names them; else None. `text_b` is read when `a` speaks, `text_a` when `b` does."""
    if bool(speaker_a) == bool(speaker_b):
        return None
    name, note = (speaker_a, text_b) if speaker_a else (speaker_b, text_a)
    return None if name in ROLES or not mentions(note, name) else name


def one_person(a: str, b: str) -> tuple[str, str]:
    """A named speaker's words beside a note that names them ("Hana: my favourite film is Spirited Away" / "Hana's
    all-time favourite movie is Spirited Away", 小林：我每周六去做义工 / 小林周六当志愿者): told by one person, as
    the user's words and a note about the user are (English: the note in the first person; Chinese: the speaker's
    我 as their name). Any other pair as it was."""
    (_, sa, body_a, _), (_, sb, body_b, _) = _read(a), _read(b)
    if _the_speaker(sa, sb, b, a) is None:
        return a, b
    name, spoken, note = (sa, body_a, b) if sa else (sb, body_b, a)
    if has_cjk(name):
        spoken = re.sub(r"我(?!们)", name, spoken)
    else:
        n = re.escape(name)
        for pattern, repl in (
            (rf"\b{n}(?:'s|’s)", "my"),
            (rf"\b{n} is\b", "I am"),
            (rf"\b{n} has\b", "I have"),
        ):
            note = re.sub(pattern, repl, note, flags=re.IGNORECASE)
        note = re.sub(rf"\b{n}\b", "I", note, flags=re.IGNORECASE)
    return (spoken, note) if sa else (note, spoken)


def about_the_speaker(old: Statement, new: Statement) -> tuple[Statement, Statement] | None:
    """A named speaker's own words and a note about that person ("Melanie: I've been painting sunsets lately" /
    "Melanie paints sunsets to relax"): both are about one person. The speaker's words are read with the name
    in front, as the note says them; None for anyone else's words."""
    name = _the_speaker(old.speaker, new.speaker, new.body, old.body)
    if name is None:
        return None
    spoken = old if old.speaker else new
    restated = statement(f"{name.title()} {spoken.body}", list(spoken.entities), spoken.slot)
    return (restated, new) if spoken is old else (old, restated)


def same_speaker(a: str, b: str) -> bool:
    """A statement with no speaker is the user's: "user: I like tea" and "I like tea" are one person's."""
    return a == b or {a, b} <= {"", "user", "用户"}
