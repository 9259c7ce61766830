"""The structured episode a task is compressed into, the LLM's answer shapes, and the heuristic episode builder."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Outcome = Literal["success", "failure", "partial", "unknown"]


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)


class EpisodeDraft(_Lenient):
    intent: str = Field(min_length=1, max_length=500)
    steps: list[str] = Field(default_factory=list, max_length=20)
    tools: list[str] = Field(default_factory=list, max_length=20)
    obstacles: list[str] = Field(default_factory=list, max_length=10)
    fixes: list[str] = Field(
        default_factory=list,
        max_length=10,
        description="The step that overcame each obstacle, in order ('' = none)",
    )
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
    # Set by the rules of heuristic mode, never asked of an LLM: where the lesson came from, and a ceiling on the
    # confidence it starts with (a fix seen once is a candidate).
    origin: Literal["llm", "instruction", "fix"] = "llm"
    max_confidence: float = Field(default=0.95, ge=0.0, le=0.95)


class ReflectionDraft(_Lenient):
    """What one reflection call returns: the episode and up to five candidate lessons."""

    episode: EpisodeDraft
    lessons: list[LessonDraft] = Field(default_factory=list, max_length=5)


class InductionDraft(_Lenient):
    """What one induction call returns for a cluster of similar episodes."""

    lesson: str = Field(min_length=8, max_length=600)
    consistent: bool = True


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
            parts.append("障碍：" + "；".join(_with_fixes(ep, "（解决：{}）")))
        parts.append(f"结果：{_OUTCOME_ZH[ep.outcome]}")
        return "。".join(p.rstrip("。") for p in parts) + "。"
    parts = [f"Task: {ep.intent}"]
    if ep.steps:
        parts.append("Steps: " + "; ".join(ep.steps))
    if ep.tools:
        parts.append("Tools: " + ", ".join(ep.tools))
    if ep.obstacles:
        parts.append("Obstacles: " + "; ".join(_with_fixes(ep, " (overcome by: {})")))
    parts.append(f"Outcome: {ep.outcome}")
    return ". ".join(p.rstrip(".") for p in parts) + "."


def _with_fixes(ep: EpisodeDraft, template: str) -> list[str]:
    fixes = [*ep.fixes, *[""] * len(ep.obstacles)]
    return [o + (template.format(f) if f else "") for o, f in zip(ep.obstacles, fixes, strict=False)]
