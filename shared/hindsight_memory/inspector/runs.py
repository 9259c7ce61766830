"""Reflection runs as the inspector shows them: what each cost and decided, its episode and lessons with their
scores, and deferred work with the run that completed it."""

import json
from typing import Any

from ..errors import NotFound
from ..storage.browse import Cursor
from ..storage.lance import LanceStore
from .models import LessonView, RunDetail, RunPage, RunSummary
from .views import ID_RE, brief, check_id, decode_cursor, encode_cursor


def run_page(store: LanceStore, ns: str, limit: int, cursor: str | None, pending_deferred: int) -> RunPage:
    """Runs of a namespace, newest first, from after `cursor`."""
    rows = store.runs(ns)
    resolved_by = {r["resolves"]: r["id"] for r in rows if r.get("resolves")}
    rows.sort(key=lambda r: (r["at"], r["id"]), reverse=True)
    after = decode_cursor(cursor)
    if after is not None:
        rows = [r for r in rows if (r["at"], r["id"]) < (after.at, after.id)]
    page, more = rows[:limit], len(rows) > limit
    nxt = Cursor(page[-1]["at"], page[-1]["id"]) if more and page else None
    return RunPage(
        items=[_summary(r, resolved_by) for r in page],
        next_cursor=encode_cursor(nxt),
        pending_deferred=pending_deferred,
    )


def run_detail(store: LanceStore, ns: str, run_id: str) -> RunDetail:
    """One run with its episode and lessons, each lesson with the memory it became (as it is now).

    Raises:
        InvalidInput: not a run id.  NotFound: no such run in this namespace.
    """
    check_id(run_id, "run id")
    rows = store.runs(ns)
    row = next((r for r in rows if r["id"] == run_id), None)
    if row is None:
        raise NotFound("no reflection run with this id in this namespace")
    resolved_by = {r["resolves"]: r["id"] for r in rows if r.get("resolves")}
    detail = _detail(row)
    lessons = [_lesson(x) for x in detail.get("lessons") or [] if isinstance(x, dict)]
    ids = [x.id for x in lessons if x.id and ID_RE.fullmatch(x.id)]
    episode_id = detail.get("episode_id")
    if isinstance(episode_id, str) and ID_RE.fullmatch(episode_id):
        ids.append(episode_id)
    found = store.find_anywhere(ns, ids) if ids else {}
    for x in lessons:
        if x.id in found:
            x.memory = brief(*found[x.id])
    episode = detail.get("episode")
    return RunDetail(
        **_summary(row, resolved_by).model_dump(),
        episode=episode if isinstance(episode, dict) else None,
        episode_memory=brief(*found[episode_id]) if episode_id in found else None,
        lessons=lessons,
        extra={k: v for k, v in detail.items() if k not in ("lessons", "episode", "episode_id")},
    )


def _detail(row: dict[str, Any]) -> dict[str, Any]:
    try:
        out = json.loads(row.get("detail") or "{}")
    except ValueError:
        return {}
    return out if isinstance(out, dict) else {}


def _summary(r: dict[str, Any], resolved_by: dict[str, str]) -> RunSummary:
    d = _detail(r)
    lessons = [x for x in d.get("lessons") or [] if isinstance(x, dict)]
    kept = sum(1 for x in lessons if x.get("decision", "insert") in ("insert", "merge"))
    return RunSummary(
        id=r["id"],
        at=r["at"],
        trigger=r.get("trigger") or "",
        session_id=r.get("session_id") or None,
        status=r.get("status") or "",
        mode=r.get("mode") or "",
        reason=r.get("reason") or "",
        llm_calls=int(r.get("calls") or 0),
        prompt_tokens=int(r.get("prompt_tokens") or 0),
        completion_tokens=int(r.get("completion_tokens") or 0),
        cost_usd=float(r.get("cost_usd") or 0.0),
        resolves=r.get("resolves") or None,
        resolved_by=resolved_by.get(r["id"]),
        episode_id=d.get("episode_id") if isinstance(d.get("episode_id"), str) else None,
        lessons_kept=kept,
    )


def _lesson(x: dict[str, Any]) -> LessonView:
    """A lesson decision of a reflection run, or a lesson written by induction (content + merged_into)."""
    raw = x.get("scores")
    scores: dict[str, Any] = raw if isinstance(raw, dict) else {}
    merged_into = x.get("merged_into")
    return LessonView(
        text=str(x.get("text") or x.get("content") or ""),
        decision=str(x.get("decision") or ("merge" if merged_into else "insert")),
        reason=str(
            x.get("reason") or ("induced from a cluster of similar episodes" if "content" in x else "")
        ),
        scores={k: float(v) for k, v in scores.items() if isinstance(v, int | float)},
        id=x.get("id") or merged_into,
        contradicts=x.get("contradicts"),
    )
