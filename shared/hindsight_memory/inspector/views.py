"""Conversions between stored rows and the inspector's models, ids and cursors checked on the way in."""

import base64
import binascii
import json
from datetime import datetime
from typing import Any, cast

from ..errors import InvalidInput
from ..models import MEMORY_ID, Memory
from ..storage.browse import Cursor
from ..storage.lance import MEMORIES
from .models import EventView, MemoryBrief, MemoryView, Table

ID_RE = MEMORY_ID  # memory, event and run ids share one shape


def check_id(value: str, what: str = "memory id") -> str:
    """Raises: InvalidInput: not one of our ids (32 hex characters)."""
    if not isinstance(value, str) or not ID_RE.fullmatch(value):
        raise InvalidInput(f"{what} must be 32 hexadecimal characters")
    return value


def encode_cursor(c: Cursor | None) -> str | None:
    if c is None:
        return None
    raw = json.dumps({"t": c.at.isoformat(), "i": c.id}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(value: str | None) -> Cursor | None:
    """Raises: InvalidInput: not a cursor this API returned."""
    if not value:
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
        return Cursor(datetime.fromisoformat(data["t"]), check_id(data["i"]))
    except (ValueError, KeyError, TypeError, binascii.Error, InvalidInput):
        raise InvalidInput("cursor is not one returned by this API") from None


def brief(m: Memory, table: str = MEMORIES) -> MemoryBrief:
    return MemoryBrief(
        id=m.id,
        kind=m.kind,
        status=m.status,
        source=m.source.value,
        content=m.shown,
        tags=m.tags,
        occurred_at=m.occurred_at,
        stored_at=m.stored_at,
        table=cast(Table, table),
    )


def view(m: Memory, table: str = MEMORIES) -> MemoryView:
    return MemoryView(**{**m.model_dump(), "content": m.shown, "original": None}, table=cast(Table, table))


def event(r: dict[str, Any]) -> EventView:
    return EventView(
        id=r["id"],
        session_id=r.get("session_id") or None,
        kind=r.get("kind") or "",
        content=r.get("content") or "",
        occurred_at=r["occurred_at"],
        stored_at=r["stored_at"],
        source=r.get("source") or "",
        tags=list(r.get("tags") or []),
        entities=list(r.get("entities") or []),
        memory_id=r.get("memory_id") or None,
    )
