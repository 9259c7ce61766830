"""Reflection without an LLM: the episode a person would write from the turns (what was asked, what was done and
with which tools, what got in the way and what overcame it, how it ended, what it was about), and lessons only where
the evidence is explicit: an instruction the user gave, and a failure followed by a fix (a low-confidence
candidate until another task confirms it)."""

import re
from collections import Counter
from dataclasses import dataclass

from . import signals
from .anomaly import Anomaly, tool_failed
from .episode import EpisodeDraft, LessonDraft, Outcome, ReflectionDraft
from .trajectory import Trajectory, Turn

_GREETING = re.compile(
    r"^\W*(hi|hello|hey|hi there|hello there|good (morning|afternoon|evening)|你好|您好|嗨|早上好|在吗)\W*$",
    re.IGNORECASE,
)
_POLITE = re.compile(
    r"^\W*((please|can you|could you|would you|i need you to|i want you to|help me)\s+)+|^(请|麻烦你?|帮我)+",
    re.IGNORECASE,
)
# Scores a heuristic lesson is judged on (the LLM rates its own; these are fixed by the kind of evidence).
INSTRUCTION_SCORES = (0.85, 0.6)  # reusability, causal relevance: the user said it should hold next time
FIX_SCORES = (0.5, 0.8)  # this fix made this task work; whether it holds elsewhere is unknown
FIX_MAX_CONFIDENCE = 0.4  # a candidate: confirmations by later tasks raise it


@dataclass
class _Obstacle:
    at: int  # index of the turn
    text: str
    fix: str = ""


def heuristic_draft(traj: Trajectory, anomalies: list[Anomaly]) -> ReflectionDraft:
    """The episode and the explicit lessons of one task, by rules."""
    turns = traj.turns
    start = _request_index(turns)
    intent = _intent(turns[start]) if turns else ""
    outcome = _outcome(turns, start)
    obstacles = _obstacles(turns, anomalies, outcome)
    episode = EpisodeDraft(
        intent=intent or "(no request recorded)",
        steps=_steps(turns)[:20],
        tools=_tools(turns)[:20],
        obstacles=[o.text for o in obstacles][:10],
        fixes=[o.fix for o in obstacles][:10],
        outcome=outcome,
        entities=_entities(turns)[:20],
    )
    return ReflectionDraft(episode=episode, lessons=_lessons(turns, episode, obstacles, traj.chinese)[:5])


def _request_index(turns: list[Turn]) -> int:
    """The first user turn that asks for something (greetings skipped); the first turn when no user spoke."""
    users = [i for i, t in enumerate(turns) if t.source == "user"]
    for i in users:
        if not _GREETING.match(turns[i].content):
            return i
    return users[0] if users else 0


def _intent(turn: Turn) -> str:
    """The request in the user's words, without politeness and without instructions for next time."""
    parts = [s for s in signals.sentences(turn.content) if not signals.instruction(s)] or [turn.content]
    text = _POLITE.sub("", " ".join(parts)).strip() or turn.content
    text = text.rstrip(" .。")
    return (text[:1].upper() + text[1:])[:300]


def _outcome(turns: list[Turn], start: int) -> Outcome:
    """From the end of the task: the user's last word, then the agent's closing report, then the last tool."""
    last_tool = max((i for i, t in enumerate(turns) if t.source == "tool"), default=-1)
    last_agent = max((i for i, t in enumerate(turns) if t.source == "agent"), default=-1)
    last_user = max((i for i, t in enumerate(turns) if t.source == "user"), default=-1)
    weak = False
    if last_user > start and last_user > last_tool:
        said = " ".join(s for s in signals.sentences(turns[last_user].content) if not signals.instruction(s))
        verdict, strong = signals.user_verdict(said)
        if strong:
            return verdict
        weak = verdict == "success"
    if last_agent > last_tool and last_agent > start:
        report = signals.agent_verdict(turns[last_agent].content)
        if report != "success":
            return report
    if weak:
        return "success"
    if last_tool >= 0:
        return "failure" if tool_failed(turns[last_tool]) else "success"
    return "success" if last_agent > start and weak else "unknown"


def _steps(turns: list[Turn]) -> list[str]:
    """What the agent did, in order, each with the result the tool gave it."""
    out: list[str] = []
    for t in turns:
        if t.source == "agent":
            out.append(_short(t.content, 160))
        elif t.source == "tool" and out:
            label = t.metadata.get("tool")
            out[-1] += f" → {(str(label) + ': ') if label else ''}{_short(t.content, 80)}"
    return out


def _tools(turns: list[Turn]) -> list[str]:
    names: list[str] = []
    for t in turns:
        if t.metadata.get("tool"):
            names.append(str(t.metadata["tool"]))
        if t.source == "agent":
            names += signals.commands(t.content)
        elif t.source == "tool":
            program = signals.tool_output_program(t.content)
            names += [program] if program else []
    return list(dict.fromkeys(names))


def _obstacles(turns: list[Turn], anomalies: list[Anomaly], outcome: Outcome) -> list[_Obstacle]:
    """Tool failures and dissatisfied users; a failure that comes before anything went right again is the same
    obstacle persisting, not a new one. Each with the agent step that overcame it: the last agent turn before the
    next good sign (a tool that worked, a satisfied user)."""
    index = {t.id: i for i, t in enumerate(turns)}
    out: list[_Obstacle] = []
    for a in anomalies:
        if a.kind not in ("tool_failure", "user_dissatisfaction") or a.turn_id not in index:
            continue
        at = index[a.turn_id]
        if out and not any(_good_sign(t) for t in turns[out[-1].at + 1 : at]):
            continue
        out.append(_Obstacle(at, _short(a.excerpt, 200)))
    for o in out:
        o.fix = "" if outcome == "failure" else _fix_after(turns, o.at)
    return out


def _good_sign(t: Turn) -> bool:
    if t.source == "tool":
        return not tool_failed(t)
    return t.source == "user" and signals.user_verdict(t.content) == ("success", True)


def _fix_after(turns: list[Turn], at: int) -> str:
    step = ""
    for t in turns[at + 1 :]:
        if t.source == "agent":
            step = t.content
        elif t.source == "tool":
            if not tool_failed(t) and step:
                return _short(step, 200)
            if tool_failed(t):
                step = ""
        elif t.source == "user":
            verdict, strong = signals.user_verdict(t.content)
            if strong and verdict == "success" and step:
                return _short(step, 200)
            if signals.dissatisfied(t.content):
                return ""
    return ""


def _entities(turns: list[Turn]) -> list[str]:
    """Identifiers, files, services and names the task is about (tool names left out)."""
    tools = {n.lower() for n in _tools(turns)}
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for t in turns:
        found = t.entities + signals.identifiers(t.content) + signals.names(t.content)
        for e in found:
            e = e.strip()
            if e and e.lower() not in tools:
                counts[e] += 1
                first.setdefault(e, len(first))
    return sorted(counts, key=lambda e: (-counts[e], first[e]))


def _lessons(
    turns: list[Turn], ep: EpisodeDraft, obstacles: list[_Obstacle], chinese: bool
) -> list[LessonDraft]:
    out = []
    said = [s for t in turns if t.source == "user" for s in signals.sentences(t.content)]
    for rule in dict.fromkeys(r for r in map(signals.instruction, said) if r):
        text = (
            f"{rule}（用户的要求，任务：{ep.intent}）"
            if chinese
            else f"{rule} (the user's instruction, for: {ep.intent})"
        )
        reuse, causal = INSTRUCTION_SCORES
        out.append(
            LessonDraft(
                text=text[:600],
                reusability=reuse,
                causal_relevance=causal,
                rationale=f"the user said: {rule}"[:600],
                origin="instruction",
            )
        )
    for o in obstacles:
        if not o.fix or not tool_failed_text(turns, o):
            continue
        text = f"{o.fix}（这样解决了：“{o.text}”）" if chinese else f'{o.fix} (this overcame: "{o.text}")'
        reuse, causal = FIX_SCORES
        out.append(
            LessonDraft(
                text=text[:600],
                reusability=reuse,
                causal_relevance=causal,
                rationale="a failure in this task followed by the step that fixed it (one task: low confidence)",
                origin="fix",
                max_confidence=FIX_MAX_CONFIDENCE,
            )
        )
    return out


def tool_failed_text(turns: list[Turn], o: _Obstacle) -> bool:
    """Fix lessons come from failed tool calls; a dissatisfied user's complaint is too particular to generalise."""
    return tool_failed(turns[o.at])


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
