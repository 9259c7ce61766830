"""The labelled trajectory set (bench/trajectories/*.txt, format in its README): parsing, and scoring an episode
and its kept lessons against the labels, field by field."""

import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ..text import has_cjk

FIELDS = ("intent", "outcome", "tools", "obstacles", "lessons")
_TURN = re.compile(r"^(user|agent|tool|raw)(?:\[([^\]|]+)(?:\|([^\]]+))?\])?:\s?(.*)$")


@dataclass
class Task:
    id: str
    language: str
    kind: str
    turns: list[dict[str, Any]] = field(default_factory=list)  # role, content, tool?, status?, raw?
    intent: str = ""
    outcome: str = "unknown"
    tools: list[str] = field(default_factory=list)
    obstacles: list[tuple[str, str]] = field(default_factory=list)  # (words in it, words in its fix or "-")
    lessons: list[list[str]] = field(default_factory=list)  # each: words that all appear in one kept lesson


def load_set(name: str) -> list[Task]:
    """`dev` or `heldout`.

    Raises:
        ValueError: a malformed line (the file's line number in the message).
    """
    text = (
        resources.files("hindsight_memory")
        .joinpath("bench", "trajectories", f"{name}.txt")
        .read_text("utf-8")
    )
    return parse(text)


def parse(text: str) -> list[Task]:
    tasks: list[Task] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if line.startswith("=== "):
            ident, language, kind = (p.strip() for p in line[4:].split("|", 2))
            tasks.append(Task(ident, language, kind))
        elif not tasks:
            raise ValueError(f"line {n}: text before the first task")
        elif line.startswith("> "):
            _label(tasks[-1], line[2:], n)
        else:
            m = _TURN.match(line)
            if not m:
                raise ValueError(f"line {n}: not a turn: {line!r}")
            role, tool, status, content = m.groups()
            turn: dict[str, Any] = {"role": "user" if role == "raw" else role, "content": content}
            turn.update({"raw": True} if role == "raw" else {})
            turn.update({"tool": tool} if tool else {})
            turn.update({"status": status} if status else {})
            tasks[-1].turns.append(turn)
    return tasks


def _label(task: Task, line: str, n: int) -> None:
    name, _, value = line.partition(":")
    value = value.strip()
    if name == "intent":
        task.intent = value
    elif name == "outcome":
        task.outcome = value
    elif name == "tools":
        task.tools = [t.strip().lower() for t in value.split(",") if t.strip()]
    elif name == "obstacle":
        what, _, fix = value.partition("=>")
        task.obstacles.append((what.strip(), fix.strip() or "-"))
    elif name == "lesson":
        task.lessons.append([w.strip() for w in value.split("+") if w.strip()])
    elif name != "lessons":  # "lessons: none" states the default
        raise ValueError(f"line {n}: unknown label {name!r}")


def _words(text: str) -> list[str]:
    """Words of English text, characters of Chinese text (what a person's intent is compared by)."""
    out: list[str] = []
    for w in re.findall(r"[\w./@+-]+", text.lower()):
        out += list(w) if has_cjk(w) else [w.strip(".")]
    return [w for w in out if w]


def intent_matches(expected: str, got: str) -> bool:
    """At least 80% of the expected words are in the episode's intent, and it is not over 2.5 times as long."""
    want, have = _words(expected), _words(got)
    if not want or not have:
        return False
    covered = sum(1 for w in want if w in set(have)) / len(want)
    return covered >= 0.8 and len(have) <= 2.5 * len(want)


def _has(text: str, words: str) -> bool:
    return words.lower() in text.lower()


def score(task: Task, episode: dict[str, Any] | None, kept_lessons: list[str]) -> dict[str, bool]:
    """Each field right or wrong for one task. No episode (the task was skipped) gets every episode field wrong."""
    ep = episode or {}
    obstacles, fixes = ep.get("obstacles", []), ep.get("fixes", [])
    fixes = [*fixes, *[""] * (len(obstacles) - len(fixes))]
    obstacles_ok = episode is not None and len(obstacles) == len(task.obstacles)
    for what, fix in task.obstacles if obstacles_ok else []:
        hit = [i for i, o in enumerate(obstacles) if _has(o, what)]
        if not hit or not any((fixes[i] == "") if fix == "-" else _has(fixes[i], fix) for i in hit):
            obstacles_ok = False
    if task.lessons:
        lessons_ok = all(any(all(_has(k, w) for w in words) for k in kept_lessons) for words in task.lessons)
    else:
        lessons_ok = not kept_lessons
    return {
        "intent": episode is not None and intent_matches(task.intent, ep.get("intent", "")),
        "outcome": episode is not None and ep.get("outcome") == task.outcome,
        "tools": episode is not None and {t.lower() for t in ep.get("tools", [])} == set(task.tools),
        "obstacles": obstacles_ok,
        "lessons": lessons_ok,
    }
