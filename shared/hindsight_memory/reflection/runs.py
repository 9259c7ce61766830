"""The reflection run log (table `reflection_runs`): per-run usage and cost, the namespace's daily token use,
and deferred work waiting for budget. Records go through the write queue like every other write (the single
writer appends them); read here for budgets, stats, retries and a queued run's outcome."""

import json
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from ..llm import Usage
from ..models import utcnow
from ..storage.lance import LanceStore
from ..writer.messages import RunRecord


def new_run_id() -> str:
    return uuid.uuid4().hex


def day_start(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


class RunLog:
    def __init__(self, store: LanceStore, write: Callable[[list[RunRecord]], None]) -> None:
        self.store = store
        self._write = write  # the write queue (a RunOp): in-process it is applied before this returns

    def record(
        self,
        namespace: str,
        *,
        trigger: str,
        status: str,
        mode: str,
        usage: Usage | None = None,
        session_id: str | None = None,
        reason: str = "",
        resolves: str | None = None,
        detail: dict[str, Any] | None = None,
        at: datetime | None = None,
        run_id: str | None = None,
    ) -> str:
        """Record a run (a new id unless `run_id` names the run a client is waiting for); returns its id."""
        u = usage or Usage()
        run_id = run_id or new_run_id()
        self._write(
            [
                RunRecord(
                    id=run_id,
                    namespace=namespace,
                    at=at or utcnow(),
                    trigger=trigger,
                    session_id=session_id or "",
                    status=status,
                    mode=mode,
                    reason=reason[:500],
                    calls=u.calls,
                    prompt_tokens=u.prompt_tokens,
                    completion_tokens=u.completion_tokens,
                    cost_usd=u.cost_usd,
                    resolves=resolves or "",
                    detail=json.dumps(detail or {}, ensure_ascii=False, default=str),
                )
            ]
        )
        return run_id

    def get(self, namespace: str, run_id: str) -> dict[str, Any] | None:
        """One run of the namespace by id (None until the writer has recorded it)."""
        found = [r for r in self.store.runs(namespace) if r["id"] == run_id]
        return found[-1] if found else None

    def outcome(self, namespace: str, run_id: str) -> dict[str, Any]:
        """A run as its caller polls it: the outcome once recorded, else `queued`."""
        row = self.get(namespace, run_id)
        if row is None:
            return {"namespace": namespace, "run_id": run_id, "status": "queued"}
        detail = json.loads(row.get("detail") or "{}")
        return {
            "namespace": namespace,
            "run_id": run_id,
            "status": row["status"],
            "trigger": row["trigger"],
            "session_id": row["session_id"] or None,
            "reason": row["reason"] or None,
            "at": row["at"].isoformat() if row.get("at") else None,
            **({"result": detail} if detail else {}),
        }

    def tokens_today(self, namespace: str, now: datetime | None = None) -> int:
        rows = self.store.runs(namespace, since=day_start(now or utcnow()))
        return sum(int(r["prompt_tokens"] or 0) + int(r["completion_tokens"] or 0) for r in rows)

    def deferred(self, namespace: str, lookback_days: int = 30) -> list[dict[str, Any]]:
        """Deferred runs not completed since (oldest first); a session deferred twice counts once."""
        rows = self.store.runs(namespace, since=utcnow() - timedelta(days=lookback_days))
        resolved = {r["resolves"] for r in rows if r["resolves"]}
        done_after: dict[str, datetime] = {}
        for r in rows:
            if r["status"] in ("done", "skipped") and r["session_id"]:
                done_after[r["session_id"]] = r["at"]
        out, seen = [], set()
        for r in rows:
            if r["status"] != "deferred" or r["id"] in resolved or r["session_id"] in seen:
                continue
            if r["session_id"] and done_after.get(r["session_id"], r["at"]) > r["at"]:
                continue  # reflected again later by another trigger
            seen.add(r["session_id"])
            out.append(r)
        return out

    def last(self, namespace: str, trigger: str, lookback_days: int = 30) -> datetime | None:
        rows = [
            r
            for r in self.store.runs(namespace, since=utcnow() - timedelta(days=lookback_days))
            if r["trigger"] == trigger and r["status"] == "done"
        ]
        return rows[-1]["at"] if rows else None

    def summary(self, namespace: str, days: int = 30) -> dict[str, Any]:
        """Usage and cost for stats: today and over the last `days`."""
        rows = self.store.runs(namespace, since=utcnow() - timedelta(days=days))
        today = day_start(utcnow())

        def total(rs: list[dict[str, Any]]) -> dict[str, Any]:
            return {
                "runs": len(rs),
                "llm_calls": sum(r["calls"] or 0 for r in rs),
                "tokens": sum((r["prompt_tokens"] or 0) + (r["completion_tokens"] or 0) for r in rs),
                "cost_usd": round(sum(r["cost_usd"] or 0.0 for r in rs), 6),
                "by_status": {s: sum(1 for r in rs if r["status"] == s) for s in {r["status"] for r in rs}},
            }

        return {
            "today": total([r for r in rows if r["at"] >= today]),
            f"last_{days}_days": total(rows),
            "pending_deferred": len(self.deferred(namespace, days)),
        }
