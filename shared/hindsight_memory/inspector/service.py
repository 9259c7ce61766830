"""The inspector's service: read one namespace's memories, events and reflection runs for a person, and apply
their corrections through the single writer. Callers have already checked the namespace against the token."""

import base64
import binascii
import hashlib
import json
import re
import time
from datetime import datetime
from typing import Any, cast

from ..errors import Conflict, InvalidInput, LimitExceeded, NotFound
from ..models import Memory, MemoryCorrection, Status, utcnow
from ..namespaces import validate_namespace
from ..service import MemoryService
from ..storage import browse
from ..storage.lance import COLD, EVENTS, MEMORIES
from ..text import normalize
from ..writer.correct import CORRECTION
from ..writer.messages import CorrectOp, memory_id
from .models import (
    EventPage,
    EventQuery,
    EventView,
    LessonView,
    MemoryBrief,
    MemoryDetail,
    MemoryPage,
    MemoryQuery,
    MemoryView,
    Overview,
    RecallCounters,
    RunDetail,
    RunPage,
    RunSummary,
    Table,
    Usage,
    Version,
)

ID_RE = re.compile(r"^[0-9a-f]{32}$")
MAX_CHAIN = 50  # versions walked each way along a supersede chain
MERGED_FROM = "_merged_from"  # metadata key written by compaction (lifecycle/forget.py)
GROWTH_DAYS = 366


def check_id(value: str, what: str = "memory id") -> str:
    """Raises: InvalidInput: not one of our ids (32 hex characters)."""
    if not isinstance(value, str) or not ID_RE.fullmatch(value):
        raise InvalidInput(f"{what} must be 32 hexadecimal characters")
    return value


def encode_cursor(c: browse.Cursor | None) -> str | None:
    if c is None:
        return None
    raw = json.dumps({"t": c.at.isoformat(), "i": c.id}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(value: str | None) -> browse.Cursor | None:
    """Raises: InvalidInput: not a cursor this API returned."""
    if not value:
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
        return browse.Cursor(datetime.fromisoformat(data["t"]), check_id(data["i"]))
    except (ValueError, KeyError, TypeError, binascii.Error, InvalidInput):
        raise InvalidInput("cursor is not one returned by this API") from None


def _brief(m: Memory, table: str = MEMORIES) -> MemoryBrief:
    return MemoryBrief(
        id=m.id,
        kind=m.kind,
        status=m.status,
        source=m.source.value,
        content=m.content,
        tags=m.tags,
        occurred_at=m.occurred_at,
        stored_at=m.stored_at,
        table=cast(Table, table),
    )


def _view(m: Memory, table: str = MEMORIES) -> MemoryView:
    return MemoryView(**m.model_dump(), table=cast(Table, table))


def _event(r: dict) -> EventView:
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


class Inspector:
    def __init__(self, svc: MemoryService) -> None:
        self.svc = svc
        self.store = svc.store

    # ------------------------------------------------------------------ lists
    def memories(self, q: MemoryQuery) -> MemoryPage:
        def build(w):
            if q.status:
                w.enum_in("status", q.status)
            return w.labels(
                kinds=q.kind,
                tags=q.tag,
                entities=q.entity,
                session_id=q.session_id,
                since=q.since,
                until=q.until,
            )

        got = browse.page(
            self.store,
            q.namespace,
            build,
            tables=(MEMORIES, COLD),
            order=q.order,
            limit=q.limit,
            after=decode_cursor(q.cursor),
            text=q.text or None,
        )
        return MemoryPage(
            items=[_view(m, table) for m, table in got.rows], next_cursor=encode_cursor(got.next)
        )

    def events(self, q: EventQuery) -> EventPage:
        def build(w):
            return w.labels(kinds=q.kind, session_id=q.session_id, since=q.since, until=q.until)

        got = browse.page(
            self.store,
            q.namespace,
            build,
            tables=(EVENTS,),
            limit=q.limit,
            after=decode_cursor(q.cursor),
            text=q.text or None,
        )
        return EventPage(items=[_event(r) for r in got.rows], next_cursor=encode_cursor(got.next))

    # ------------------------------------------------------------------ one memory
    def _get(self, ns: str, mid: str) -> tuple[Memory, str]:
        found = browse.find_anywhere(self.store, validate_namespace(ns), [check_id(mid)])
        if mid not in found:
            raise NotFound("no memory with this id in this namespace")
        return found[mid]

    def detail(self, ns: str, mid: str) -> MemoryDetail:
        m, table = self._get(ns, mid)
        versions = self._versions(ns, m, table)
        ids = [i for i in m.source_ids if ID_RE.fullmatch(i)]
        events = self.store.find_events(ns, lambda w: w.ids(ids)) if ids else []
        merged = [
            e
            for e in self.store.find_events(ns, lambda w: w.ids([m.id], column="memory_id"))
            if e["id"] != m.id
        ]
        merged_ids = {e["id"] for e in merged}
        sources = browse.find_anywhere(self.store, ns, [i for i in ids if i != m.id])
        fb = m.metadata.get("_feedback") or {}
        return MemoryDetail(
            memory=_view(m, table),
            versions=versions,
            source_events=[_event(e) for e in sorted(events, key=_when) if e["id"] not in merged_ids],
            merged_events=[_event(e) for e in sorted(merged, key=_when)],
            source_memories=[_brief(s, t) for s, t in sources.values()],
            derived=[_brief(d, t) for d, t in browse.cite(self.store, ns, m.id)],
            merged_from=list(m.metadata.get(MERGED_FROM) or []),
            usage=Usage(
                access_count=m.access_count,
                last_accessed_at=m.last_accessed_at,
                seen_count=m.seen_count,
                last_seen_at=m.last_seen_at,
                last_confirmed_at=m.last_confirmed_at,
                feedback={k: int(v) for k, v in fb.items()} if isinstance(fb, dict) else {},
            ),
            reflection=m.metadata.get("reflection")
            if isinstance(m.metadata.get("reflection"), dict)
            else None,
        )

    def _versions(self, ns: str, m: Memory, table: str) -> list[Version]:
        """Walk `supersedes` back and `superseded_by` forward; each version was current from when it was
        stored until the next one was."""
        chain: list[tuple[Memory, str]] = [(m, table)]
        for step in ("supersedes", "superseded_by"):
            cur = m
            for _ in range(MAX_CHAIN):
                nxt = getattr(cur, step)
                if not nxt or not ID_RE.fullmatch(nxt) or any(v.id == nxt for v, _ in chain):
                    break
                found = browse.find_anywhere(self.store, ns, [nxt])
                if nxt not in found:
                    break
                cur = found[nxt][0]
                if step == "supersedes":
                    chain.insert(0, found[nxt])
                else:
                    chain.append(found[nxt])
        out = []
        for i, (v, t) in enumerate(chain):
            after = chain[i + 1][0] if i + 1 < len(chain) else None
            until = after.stored_at if after else (v.updated_at if v.status == Status.superseded else None)
            corr = v.metadata.get(CORRECTION)
            out.append(
                Version(
                    **_brief(v, t).model_dump(),
                    valid_from=v.stored_at,
                    valid_until=until,
                    correction=corr if isinstance(corr, dict) else None,
                )
            )
        return out

    # ------------------------------------------------------------------ changes (through the writer)
    def correct(
        self, ns: str, mid: str, fix: MemoryCorrection, *, timeout_s: float = 120.0
    ) -> dict[str, Any]:
        """Write a corrected version that supersedes this one; returns its id once it is visible.

        Raises:
            InvalidInput: nothing to change, or empty content.  LimitExceeded: content too long.
            NotFound: no such memory.  Conflict: not the current version (superseded, forgotten, archived).
        """
        changes = fix.changes()
        if not changes:
            raise InvalidInput("give at least one of: content, tags, entities, importance, confidence")
        if fix.content is not None:
            content = normalize(fix.content)
            if not content:
                raise InvalidInput("content is empty after normalisation")
            if len(content) > self.svc.settings.max_content_chars:
                raise LimitExceeded(f"content longer than {self.svc.settings.max_content_chars} characters")
            fix = fix.model_copy(update={"content": content})
            changes = fix.changes()
        m, table = self._get(ns, mid)
        basis = json.dumps(changes, sort_keys=True, ensure_ascii=False)
        idem = hashlib.sha256(f"correction|{ns}|{mid}|{basis}".encode()).hexdigest()[:40]
        new_id = memory_id(idem)
        result = {"id": new_id, "supersedes": mid, "status": "committed"}
        if m.superseded_by == new_id:  # the same correction again (a retry): already applied
            return result
        if table == COLD:
            raise Conflict("this memory is archived: restore it before correcting it")
        if m.status != Status.active:
            later = f"; the current version is {m.superseded_by}" if m.superseded_by else ""
            raise Conflict(f"this version is {m.status.value}{later}")
        if all(_same(getattr(m, k), v) for k, v in changes.items()):
            raise InvalidInput("the correction changes nothing")
        op = CorrectOp(namespace=ns, id=mid, new_id=new_id, idem_key=idem, correction=fix, at=utcnow())
        fut = self.svc.queue.submit(op)
        if fut is None:  # a remote writer (SQS): wait until the new version can be read
            self._wait_for(ns, new_id, timeout_s)
            return result
        out = fut.result(timeout=timeout_s)
        if not out.get("applied"):
            raise Conflict(f"not corrected: {out.get('reason', 'the memory changed meanwhile')}")
        return result

    def _wait_for(self, ns: str, mid: str, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.store.get(ns, [mid]):
                return
            time.sleep(0.2)
        raise TimeoutError("correction queued; not yet visible")

    def restore(self, ns: str, mid: str) -> dict[str, Any]:
        """Undo a soft forget or an archive.

        Raises:
            NotFound: no such memory (a purged one is gone for good).
        """
        self._get(ns, mid)
        out = self.svc.restore(ns, [mid])
        return {"restored": out.get("restored", 0), "status": "queued" if out.get("queued") else "committed"}

    def forget(self, ns: str, mid: str, purge: bool = False) -> dict[str, Any]:
        """Soft-forget (hidden, restorable) or purge (erased from every table and version) one memory.

        Raises:
            NotFound: no such memory.
        """
        self._get(ns, mid)
        out = self.svc.forget(ns, [mid], purge=purge)
        return {
            "forgotten": out.get("forgotten", 0),
            "purged": out.get("purged", 0),
            "status": "queued" if out.get("queued") else "committed",
        }

    # ------------------------------------------------------------------ overview
    def overview(self, ns: str) -> Overview:
        got = browse.summary(self.store, validate_namespace(ns))
        mem_days, ev_days = got["memories_per_day"], got["events_per_day"]
        days = sorted(set(mem_days) | set(ev_days))[-GROWTH_DAYS:]
        recalls, hits = self.svc.counters.recall_counts(ns)
        return Overview(
            namespace=ns,
            memories=got["memories"],
            tiers=got["tiers"],
            events=got["events"],
            archived=got["archived"],
            growth=[{"day": d, "memories": mem_days.get(d, 0), "events": ev_days.get(d, 0)} for d in days],
            recall=RecallCounters(
                recalls=recalls,
                hits=hits,
                hit_rate=round(hits / recalls, 4) if recalls else None,
                memories_ever_recalled=got["used"],
            ),
            reflection=self.svc.reflection_stats(ns),
        )

    # ------------------------------------------------------------------ reflection runs
    def runs(self, ns: str, limit: int = 50, cursor: str | None = None) -> RunPage:
        rows = self.store.runs(validate_namespace(ns))
        resolved_by = {r["resolves"]: r["id"] for r in rows if r.get("resolves")}
        rows.sort(key=lambda r: (r["at"], r["id"]), reverse=True)
        after = decode_cursor(cursor)
        if after is not None:
            rows = [r for r in rows if (r["at"], r["id"]) < (after.at, after.id)]
        page, more = rows[:limit], len(rows) > limit
        nxt = browse.Cursor(page[-1]["at"], page[-1]["id"]) if more and page else None
        return RunPage(
            items=[_summary(r, resolved_by) for r in page],
            next_cursor=encode_cursor(nxt),
            pending_deferred=self.svc.reflector.runs.summary(ns)["pending_deferred"],
        )

    def run(self, ns: str, run_id: str) -> RunDetail:
        check_id(run_id, "run id")
        rows = self.store.runs(validate_namespace(ns))
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
        found = browse.find_anywhere(self.store, ns, ids) if ids else {}
        for x in lessons:
            if x.id in found:
                x.memory = _brief(*found[x.id])
        episode = detail.get("episode")
        return RunDetail(
            **_summary(row, resolved_by).model_dump(),
            episode=episode if isinstance(episode, dict) else None,
            episode_memory=_brief(*found[episode_id]) if episode_id in found else None,
            lessons=lessons,
            extra={k: v for k, v in detail.items() if k not in ("lessons", "episode", "episode_id")},
        )


def _same(stored: Any, given: Any) -> bool:
    # Scores are stored as float32: 0.9 reads back as 0.8999999761.
    if isinstance(stored, float) and isinstance(given, int | float):
        return abs(stored - given) < 1e-6
    return stored == given


def _when(e: dict) -> tuple:
    return (e["occurred_at"], e["id"])


def _detail(row: dict) -> dict:
    try:
        out = json.loads(row.get("detail") or "{}")
    except ValueError:
        return {}
    return out if isinstance(out, dict) else {}


def _summary(r: dict, resolved_by: dict[str, str]) -> RunSummary:
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


def _lesson(x: dict) -> LessonView:
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
