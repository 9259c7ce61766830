"""A task's trajectory: the ordered turns of one session, read from the event log or given inline."""

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import InvalidInput, describe
from ..models import Kind, MemoryCreate, Source, StoreRequest, utcnow
from ..ports import MemoryPort
from ..storage.lance import LanceStore
from ..text import has_cjk, key, normalize

_ROLES = {
    "user": Source.user,
    "human": Source.user,
    "agent": Source.agent,
    "assistant": Source.agent,
    "tool": Source.tool,
    "function": Source.tool,
}

# "user: ...", "Assistant: ...", "工具：..." at the start of a turn's text says who spoke, as `source` would.
_LABEL = re.compile(
    r"^\s*(user|human|agent|assistant|ai|bot|tool|function|observation|用户|助手|智能体|工具)\s*[:：]\s*",
    re.IGNORECASE,
)
_LABEL_ROLES = {
    **{k: v.value for k, v in _ROLES.items()},
    "ai": "agent",
    "bot": "agent",
    "observation": "tool",
    "用户": "user",
    "助手": "agent",
    "智能体": "agent",
    "工具": "tool",
}


def read_role(source: str, content: str) -> tuple[str, str]:
    """The turn's role and its text without a role label. A label overrides only the default source (`user`,
    what a store without `source` records); a source the client set explicitly is kept."""
    m = _LABEL.match(content)
    if not m or not content[m.end() :].strip():
        return source, content
    role = _LABEL_ROLES[m.group(1).lower()]
    return (role if source == Source.user.value else source), content[m.end() :]


@dataclass
class Turn:
    id: str
    source: str  # user | agent | tool
    content: str
    at: datetime
    metadata: dict[str, Any] = field(default_factory=dict)
    entities: list[str] = field(default_factory=list)


@dataclass
class Trajectory:
    namespace: str
    session_id: str
    turns: list[Turn]

    @property
    def chinese(self) -> bool:
        """The conversation's language decides the lessons' language."""
        text = " ".join(t.content for t in self.turns if t.source == "user") or " ".join(
            t.content for t in self.turns
        )
        cjk = sum(1 for ch in text if has_cjk(ch))
        return cjk >= max(2, len(text.replace(" ", "")) // 5)

    @property
    def event_ids(self) -> list[str]:
        return [t.id for t in self.turns]

    def digest(self) -> str:
        """Identifies exactly these turns: reflecting the same turns twice writes the same ids."""
        return hashlib.sha256("|".join(self.event_ids).encode()).hexdigest()[:24]


class InlineTurn(BaseModel):
    """One step of an inline trajectory, as an agent sends it."""

    model_config = ConfigDict(extra="allow")
    role: str = "user"
    content: str = Field(min_length=1, max_length=16_000)
    tool: str | None = None
    status: str | None = None
    at: datetime | None = None


def load(store: LanceStore, namespace: str, session_id: str) -> Trajectory:
    """The session's turns from the event log (working memory keeps only the last few), oldest first."""
    rows = store.find_events(namespace, lambda w: w.keys_in("session_key", [key(session_id)]))
    # Reflection's own output and people's corrections of memories are not steps of the task.
    skip = (Source.reflection.value, Source.user_correction.value)
    rows = [r for r in rows if r.get("source") not in skip and r.get("kind") != Kind.semantic.value]
    # The order they were stored in: each item has its own stamp, in the order of its store call (ordering.py).
    rows.sort(key=lambda r: (r["occurred_at"], r["stored_at"], r["id"]))
    turns = []
    for r in rows:
        source, content = read_role(r.get("source") or "user", normalize(r["content"]))
        turns.append(
            Turn(
                id=r["id"],
                source=source,
                content=content,
                at=r["occurred_at"],
                metadata=_json(r.get("metadata")),
                entities=list(r.get("entities") or []),
            )
        )
    return Trajectory(namespace, session_id, turns)


def inline_items(namespace: str, session_id: str, steps: list[dict[str, Any]]) -> list[MemoryCreate]:
    """An inline trajectory as working-memory items of the session (validated, not stored).

    Raises:
        InvalidInput: a step is malformed, or there is none.
    """
    try:
        turns = [InlineTurn.model_validate(s) for s in steps]
    except ValidationError as exc:
        raise InvalidInput(f"malformed trajectory step: {describe(exc)}") from None
    if not turns:
        raise InvalidInput("the trajectory is empty")
    base = utcnow()
    items = []
    for i, t in enumerate(turns):
        source = _ROLES.get(t.role.lower())
        if source is None:
            raise InvalidInput(f"unknown role in step {i}: use user, agent (assistant) or tool")
        meta = {k: v for k, v in {"role": t.role, "tool": t.tool, "status": t.status}.items() if v}
        items.append(
            MemoryCreate(
                content=t.content,
                kind=Kind.working,
                session_id=session_id,
                source=source,
                metadata=meta,
                occurred_at=t.at or base + timedelta(milliseconds=i),
                idempotency_key=f"trajectory|{session_id}|{i}|{hashlib.sha256(t.content.encode()).hexdigest()[:16]}",
            )
        )
    return items


def store_inline(service: MemoryPort, namespace: str, session_id: str, steps: list[dict[str, Any]]) -> None:
    """Record an inline trajectory as working memory first, so lessons can point at real events.

    Raises:
        InvalidInput: a step is malformed.
    """
    items = inline_items(namespace, session_id, steps)
    service.store_memories(StoreRequest(namespace=namespace, items=items, wait=True))


def render(traj: Trajectory, max_chars: int = 12_000) -> str:
    """The trajectory as numbered lines for a prompt; long tasks keep their start and their end."""
    lines = []
    for i, t in enumerate(traj.turns, 1):
        label = t.source
        if t.metadata.get("tool"):
            label += f":{t.metadata['tool']}"
        if t.metadata.get("status"):
            label += f" [{t.metadata['status']}]"
        lines.append(f"{i}. ({label}) {t.content}")
    text = "\n".join(lines)
    if len(text) <= max_chars:
        return text
    half = max_chars // 2
    return f"{text[:half]}\n… [middle of the trajectory omitted] …\n{text[-half:]}"


def _json(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        out = json.loads(raw or "{}")
    except ValueError:
        return {}
    return out if isinstance(out, dict) else {}
