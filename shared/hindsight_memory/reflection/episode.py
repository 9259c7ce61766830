"""The structured episode a task is compressed into, the LLM's answer shapes, and the heuristic episode builder."""

import re
from collections import Counter
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .anomaly import Anomaly, tool_failed
from .trajectory import Trajectory

Outcome = Literal["success", "failure", "partial", "unknown"]


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)


class EpisodeDraft(_Lenient):
    intent: str = Field(min_length=1, max_length=500)
    steps: list[str] = Field(default_factory=list, max_length=20)
    tools: list[str] = Field(default_factory=list, max_length=20)
    obstacles: list[str] = Field(default_factory=list, max_length=10)
    outcome: Outcome = "unknown"
    entities: list[str] = Field(default_factory=list, max_length=20)


class LessonDraft(_Lenient):
    text: str = Field(min_length=8, max_length=600)
    reusability: float = Field(ge=0.0, le=1.0)
    causal_relevance: float = Field(ge=0.0, le=1.0)
    rationale: str = Field(default="", max_length=600)
    contradicts: str | None = Field(
        default=None, description="Ref (e.g. 'K2') of an existing lesson it contradicts"
    )


class ReflectionDraft(_Lenient):
    """What one reflection call returns: the episode and up to five candidate lessons."""

    episode: EpisodeDraft
    lessons: list[LessonDraft] = Field(default_factory=list, max_length=5)


class InductionDraft(_Lenient):
    """What one induction call returns for a cluster of similar episodes."""

    lesson: str = Field(min_length=8, max_length=600)
    consistent: bool = True


_SUCCESS = re.compile(
    r"\b(thanks|thank you|works|worked|perfect|great|done|passed|fixed|solved)\b|谢谢|好了|成功|可以了|解决了",
    re.IGNORECASE,
)
_CAPITALISED = re.compile(r"\b[A-Z][a-zA-Z0-9_.-]{2,}\b")


def heuristic_episode(traj: Trajectory, anomalies: list[Anomaly]) -> EpisodeDraft:
    """An episode built from the events alone, by rules (no LLM)."""
    users = [t for t in traj.turns if t.source == "user"]
    tools = [t for t in traj.turns if t.source == "tool"]
    intent = (users[0] if users else traj.turns[0]).content[:300]
    tool_names = list(dict.fromkeys(str(t.metadata["tool"]) for t in tools if t.metadata.get("tool")))
    steps = [t.content[:160] for t in traj.turns if t.source == "agent"][:8]
    last_tool_failed = bool(tools) and tool_failed(tools[-1])
    last_user_ok = bool(users[1:]) and bool(_SUCCESS.search(users[-1].content))
    if last_tool_failed:
        outcome: Outcome = "failure"
    elif last_user_ok or (tools and not last_tool_failed and any(tool_failed(t) for t in tools)):
        outcome = "success"
    elif tools:
        outcome = "partial" if anomalies else "success"
    else:
        outcome = "unknown"
    entities = Counter(e for t in traj.turns for e in t.entities)
    for t in traj.turns:
        entities.update(_CAPITALISED.findall(t.content))
    return EpisodeDraft(
        intent=intent,
        steps=steps,
        tools=tool_names,
        obstacles=[a.excerpt for a in anomalies][:5],
        outcome=outcome,
        entities=[e for e, _ in entities.most_common(8)],
    )


_OUTCOME_ZH = {"success": "成功", "failure": "失败", "partial": "部分完成", "unknown": "未知"}


def episode_text(ep: EpisodeDraft, chinese: bool) -> str:
    """The episode as a memory's content: what recall embeds and returns."""
    if chinese:
        parts = [f"任务：{ep.intent}"]
        if ep.steps:
            parts.append("步骤：" + "；".join(ep.steps))
        if ep.tools:
            parts.append("工具：" + "、".join(ep.tools))
        if ep.obstacles:
            parts.append("障碍：" + "；".join(ep.obstacles))
        parts.append(f"结果：{_OUTCOME_ZH[ep.outcome]}")
        return "。".join(p.rstrip("。") for p in parts) + "。"
    parts = [f"Task: {ep.intent}"]
    if ep.steps:
        parts.append("Steps: " + "; ".join(ep.steps))
    if ep.tools:
        parts.append("Tools: " + ", ".join(ep.tools))
    if ep.obstacles:
        parts.append("Obstacles: " + "; ".join(ep.obstacles))
    parts.append(f"Outcome: {ep.outcome}")
    return ". ".join(p.rstrip(".") for p in parts) + "."
