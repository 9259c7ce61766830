"""The inspector's service: read one namespace's memories, events and reflection runs for a person, and apply
their corrections through the single writer. Callers have already checked the namespace against the token."""

import hashlib
import json
import time
from typing import Any

from ..errors import Conflict, InvalidInput, LimitExceeded, NotFound
from ..models import Memory, MemoryCorrection, Status, utcnow
from ..namespaces import validate_namespace
from ..service import MemoryService
from ..storage.filters import Where
from ..storage.lance import COLD, EVENTS, MEMORIES
from ..text import normalize
from ..writer.correct import CORRECTION
from ..writer.messages import CorrectOp, memory_id
from .models import (
    EventPage,
    EventQuery,
    MemoryDetail,
    MemoryPage,
    MemoryQuery,
    Overview,
    RecallCounters,
    RunDetail,
    RunPage,
    Usage,
    Version,
)
from .runs import run_detail, run_page
from .views import ID_RE, brief, check_id, decode_cursor, encode_cursor, event, view

MAX_CHAIN = 50  # versions walked each way along a supersede chain
MERGED_FROM = "_merged_from"  # metadata key written by compaction (lifecycle/forget.py)
GROWTH_DAYS = 366


class Inspector:
    def __init__(self, svc: MemoryService) -> None:
        self.svc = svc
        self.store = svc.store

    # ------------------------------------------------------------------ lists
    def memories(self, q: MemoryQuery) -> MemoryPage:
        def build(w: Where) -> Where:
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

        got = self.store.browse_page(
            q.namespace,
            build,
            tables=(MEMORIES, COLD),
            order=q.order,
            limit=q.limit,
            after=decode_cursor(q.cursor),
            text=q.text or None,
        )
        return MemoryPage(
            items=[view(m, table) for m, table in got.rows], next_cursor=encode_cursor(got.next)
        )

    def events(self, q: EventQuery) -> EventPage:
        def build(w: Where) -> Where:
            return w.labels(kinds=q.kind, session_id=q.session_id, since=q.since, until=q.until)

        got = self.store.browse_page(
            q.namespace,
            build,
            tables=(EVENTS,),
            limit=q.limit,
            after=decode_cursor(q.cursor),
            text=q.text or None,
        )
        return EventPage(items=[event(r) for r in got.rows], next_cursor=encode_cursor(got.next))

    # ------------------------------------------------------------------ one memory
    def _get(self, ns: str, mid: str) -> tuple[Memory, str]:
        found = self.store.find_anywhere(validate_namespace(ns), [check_id(mid)])
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
        sources = self.store.find_anywhere(ns, [i for i in ids if i != m.id])
        fb = m.metadata.get("_feedback") or {}
        return MemoryDetail(
            memory=view(m, table),
            versions=versions,
            source_events=[event(e) for e in sorted(events, key=_when) if e["id"] not in merged_ids],
            merged_events=[event(e) for e in sorted(merged, key=_when)],
            source_memories=[brief(s, t) for s, t in sources.values()],
            derived=[brief(d, t) for d, t in self.store.derived_from(ns, m.id)],
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
                found = self.store.find_anywhere(ns, [nxt])
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
                    **brief(v, t).model_dump(),
                    valid_from=v.stored_at,
                    valid_until=until,
                    correction=corr if isinstance(corr, dict) else None,
                )
            )
        return out

    # ------------------------------------------------------------------ changes (through the writer)
    def correct(
        self, ns: str, mid: str, fix: MemoryCorrection, *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        """Write a corrected version that supersedes this one; returns its id once it is visible (waiting at most
        `timeout_s`, by default within the function's own timeout when serverless).

        Raises:
            InvalidInput: nothing to change, or empty content.  LimitExceeded: content too long.
            NotFound: no such memory.  Conflict: not the current version (superseded, forgotten, archived).
        """
        timeout_s = self.svc.settings.wait_timeout() if timeout_s is None else timeout_s
        changes = fix.changes()
        if not changes:
            raise InvalidInput("give at least one of: content, tags, entities, importance, confidence")
        if fix.content is not None:
            content = normalize(fix.content)
            if not content:
                raise InvalidInput("content is empty after normalisation")
            if len(content) > self.svc.settings.max_content_chars:
                raise LimitExceeded(f"content longer than {self.svc.settings.max_content_chars} characters")
            # sent as written: the writer keeps it beside its normalised form (text.as_sent)
            fix = fix.model_copy(update={"content": fix.content.strip()})
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
        if all(_same(m.shown if k == "content" else getattr(m, k), v) for k, v in changes.items()):
            raise InvalidInput("the correction changes nothing")
        op = CorrectOp(namespace=ns, id=mid, new_id=new_id, idem_key=idem, correction=fix, at=utcnow())
        out = self.svc.apply_op(op, timeout_s)
        if out is None:  # a remote writer (SQS): wait until the new version can be read
            self._wait_for(ns, new_id, timeout_s)
            return result
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
        got = self.store.overview_counts(validate_namespace(ns))
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
        pending = self.svc.reflector.runs.summary(validate_namespace(ns))["pending_deferred"]
        return run_page(self.store, ns, limit, cursor, pending)

    def run(self, ns: str, run_id: str) -> RunDetail:
        return run_detail(self.store, validate_namespace(ns), run_id)


def _same(stored: Any, given: Any) -> bool:
    # Scores are stored as float32: 0.9 reads back as 0.8999999761.
    if isinstance(stored, float) and isinstance(given, int | float):
        return abs(stored - given) < 1e-6
    return bool(stored == given)


def _when(e: dict[str, Any]) -> tuple[Any, str]:
    return (e["occurred_at"], e["id"])
