"""Anomalies (a tool failed, the user was unhappy, the agent contradicted itself) and trivial tasks, found in the
events by rules: both decisions cost no LLM call. Anomalous episodes weigh more; trivial tasks are skipped."""

import re
from dataclasses import dataclass

from . import signals
from .trajectory import Trajectory, Turn

_FAILED_STATUS = {"error", "failed", "failure", "fail", "timeout", "exception", "denied", "crashed"}
_TOOL_FAILURE = re.compile(
    r"\b(err|error|exception|traceback|failed|failure|timed? ?out|not found|denied|refused|exit code [1-9]|unsupported|not supported|merge conflict)\b"
    r"|\b[A-Z]\w*(Error|Exception)\b|失败|错误|异常|超时|拒绝|不存在|不支持",
    re.IGNORECASE,
)
_SELF_CONTRADICTION = re.compile(
    r"\b(i was wrong|i made a mistake|my (earlier|previous) (answer|claim|statement) was (wrong|incorrect)|"
    r"correction:|actually,? (that|this|it) (is|was)n'?t|i apologi[sz]e,? (i|that) (was|is) (wrong|incorrect))\b"
    r"|我之前说错|我搞错了|更正一下|之前的说法不对",
    re.IGNORECASE,
)

ANOMALY_WEIGHT = 0.1  # score bonus per anomaly kind (at most two): what went wrong teaches most


@dataclass
class Anomaly:
    kind: str  # tool_failure | user_dissatisfaction | self_contradiction
    turn_id: str
    excerpt: str


def tool_failed(t: Turn) -> bool:
    if t.source != "tool":
        return False
    status = str(t.metadata.get("status", "")).lower()
    if status:
        return status in _FAILED_STATUS
    if t.metadata.get("ok") is False or t.metadata.get("error"):
        return True
    return bool(_TOOL_FAILURE.search(t.content[:500]))


def detect(traj: Trajectory) -> list[Anomaly]:
    out = []
    for t in traj.turns:
        if tool_failed(t):
            out.append(Anomaly("tool_failure", t.id, t.content[:200]))
        elif t.source == "user" and signals.dissatisfied(t.content):
            out.append(Anomaly("user_dissatisfaction", t.id, t.content[:200]))
        elif t.source == "agent" and _SELF_CONTRADICTION.search(t.content):
            out.append(Anomaly("self_contradiction", t.id, t.content[:200]))
    return out


def weight(anomalies: list[Anomaly]) -> float:
    return ANOMALY_WEIGHT * min(2, len({a.kind for a in anomalies}))


def trivial_reason(traj: Trajectory, anomalies: list[Anomaly]) -> str | None:
    """Why this task holds no non-trivial decision worth a lesson, or None when it may."""
    if not traj.turns:
        return "no events recorded for this session"
    if anomalies:
        return None
    said = [s for t in traj.turns if t.source == "user" for s in signals.sentences(t.content)]
    if any(signals.instruction(s) for s in said):
        return None  # the user said what to do next time: worth keeping however short the task
    tools = [t for t in traj.turns if t.source == "tool"]
    agent = [t for t in traj.turns if t.source == "agent"]
    chars = sum(len(t.content) for t in traj.turns)
    if not tools and len(agent) <= 1 and chars < 400:
        return "short exchange without tool use, anomalies or decisions"
    if len(traj.turns) < 3 and chars < 200:
        return "fewer than three short turns"
    return None
