"""Reflect on one finished task: trajectory -> anomalies -> (skip if trivial) -> episode + candidate lessons ->
scores -> insert / merge / reject -> clear the session's working memory. One LLM call per task (two when the
answer needs a repair); none for trivial tasks or in heuristic mode."""

import logging
import uuid
from typing import Any

from ..errors import BudgetExceeded, InvalidInput
from ..llm import Budget, LLMClient, LLMError, Usage
from ..models import Kind, Memory, MemoryCreate, Source, Status, StoreRequest, utcnow
from ..namespaces import validate_namespace
from ..ports import MemoryPort
from ..storage.filters import Where
from ..text import content_hash
from ..writer.messages import AdjustOp, ClearWorkingOp, WriteOp, idempotency_key, memory_id
from . import anomaly as anomalies_
from .anomaly import Anomaly
from .episode import EpisodeDraft, LessonDraft, ReflectionDraft, episode_text
from .heuristic import heuristic_draft
from .prompts import Prompts
from .runs import RunLog
from .scoring import Verdict, judge
from .trajectory import Trajectory, load, render, store_inline

log = logging.getLogger(__name__)

TRIGGERS = ("task_end", "anomaly", "periodic", "deferred")
HEURISTIC_NOTE = (
    "heuristic mode: no LLM is configured (HINDSIGHT_LLM_MODEL is unset), so no LLM ran; the episode "
    "was built from the events by rules, and lessons come only from explicit evidence: instructions the user "
    "gave, and a failure followed by a fix (a low-confidence candidate)"
)
CONFIRM_STEP, CONTEST_STEP, CONTESTED_START = 0.1, 0.2, 0.5
MAX_SOURCE_EVENTS = 200


class Reflector:
    def __init__(self, service: MemoryPort, llm: LLMClient | None, prompts: Prompts, runs: RunLog) -> None:
        self.service = service
        self.settings = service.settings
        self.llm = llm
        self.prompts = prompts
        self.runs = runs

    @property
    def mode(self) -> str:
        return "llm" if self.llm else "heuristic"

    def reflect(
        self,
        namespace: str,
        session_id: str | None = None,
        trajectory: list[dict[str, Any]] | None = None,
        trigger: str = "task_end",
        resolves: str | None = None,
        run_id: str | None = None,
    ) -> dict[str, Any]:
        """Reflect on a session (or an inline trajectory, recorded first). Returns what was decided and why;
        its run is recorded under `run_id` when given (the id a queued request returned to its client).

        Raises:
            InvalidInput: bad namespace, trigger or trajectory; neither session nor trajectory given.
        """
        validate_namespace(namespace)
        if trigger not in TRIGGERS:
            raise InvalidInput(f"trigger must be one of {', '.join(TRIGGERS)}")
        if trajectory:
            session_id = session_id or f"reflect-{uuid.uuid4().hex[:16]}"
            store_inline(self.service, namespace, session_id, trajectory)
        if not session_id:
            raise InvalidInput("give a session_id or an inline trajectory")
        traj = load(self.service.store, namespace, session_id)
        found = anomalies_.detect(traj)
        base = {
            "namespace": namespace,
            "session_id": session_id,
            "trigger": trigger,
            "mode": self.mode,
            "anomalies": [a.__dict__ for a in found],
        }
        if self.mode == "heuristic":
            base["note"] = HEURISTIC_NOTE
        reason = anomalies_.trivial_reason(traj, found)
        if reason:
            run = self.runs.record(
                namespace,
                trigger=trigger,
                status="skipped",
                mode=self.mode,
                reason=reason,
                session_id=session_id,
                resolves=resolves,
                run_id=run_id,
            )
            return {**base, "status": "skipped", "reason": reason, "run_id": run, "usage": Usage().as_dict()}
        budget = Budget(self.settings.max_llm_calls_per_run, self.settings.max_tokens_per_run)
        try:
            draft, refs = self._draft(traj, found, budget) if self.llm else (heuristic_draft(traj, found), {})
        except (BudgetExceeded, LLMError) as exc:
            # Over budget: deferred, retried by the periodic run. Rejected by the LLM layer: failed. Either way
            # nothing is written and the session stays as it was.
            status = "deferred" if isinstance(exc, BudgetExceeded) else "failed"
            run = self.runs.record(
                namespace,
                trigger=trigger,
                status=status,
                mode=self.mode,
                usage=budget.usage,
                reason=str(exc),
                session_id=session_id,
                resolves=resolves,
                run_id=run_id,
            )
            return {
                **base,
                "status": status,
                "reason": str(exc),
                "run_id": run,
                "usage": budget.usage.as_dict(),
            }
        result = self._write(traj, found, draft, refs, trigger)
        run = self.runs.record(
            namespace,
            trigger=trigger,
            status="done",
            mode=self.mode,
            usage=budget.usage,
            session_id=session_id,
            resolves=resolves,
            detail=result,
            run_id=run_id,
        )
        self._count(budget.usage)
        return {**base, **result, "status": "done", "run_id": run, "usage": budget.usage.as_dict()}

    # ------------------------------------------------------------------ LLM
    def _draft(
        self, traj: Trajectory, found: list[Anomaly], budget: Budget
    ) -> tuple[ReflectionDraft, dict[str, str]]:
        """The LLM's episode and lessons, and the refs (K1..) of the existing lessons it was shown."""
        ns = traj.namespace
        used = self.runs.tokens_today(ns)
        budget.tokens_left_today = max(0, self.settings.max_tokens_per_namespace_day - used)
        budget.check()  # a spent daily budget defers before any work
        related = self._related(traj)
        refs = {f"K{i}": m.id for i, m in enumerate(related, 1)}
        user = self.prompts.render(
            ns,
            "reflect_user",
            max_lessons=3,
            questions=self.prompts.get(ns, "questions").strip(),
            anomalies="\n".join(f"- {a.kind}: {a.excerpt}" for a in found) or "- none",
            related="\n".join(f"- {ref}: {m.content}" for ref, m in zip(refs, related, strict=True))
            or "- none",
            language="Simplified Chinese (简体中文)" if traj.chinese else "English",
            trajectory=render(traj),
        )
        assert self.llm is not None
        return self.llm.structured(
            self.prompts.get(ns, "reflect_system"), user, ReflectionDraft, budget
        ), refs

    def _related(self, traj: Trajectory) -> list[Memory]:
        text = " ".join(t.content for t in traj.turns if t.source == "user")[:2000] or traj.turns[0].content
        qvec = self.service.embedder.embed_query(text)
        where = Where(traj.namespace).enum_in("status", [Status.active]).enum_in("kind", [Kind.semantic])
        return [m for m, _, _ in self.service.store.vector_search(traj.namespace, qvec, where, 5)]

    # ------------------------------------------------------------------ writing
    def _write(
        self,
        traj: Trajectory,
        found: list[Anomaly],
        draft: ReflectionDraft,
        refs: dict[str, str],
        trigger: str,
    ) -> dict[str, Any]:
        ns, ep = traj.namespace, draft.episode
        weight = anomalies_.weight(found)
        episode = self._episode_item(traj, found, ep, trigger, weight)
        episode_id = memory_id(idempotency_key(ns, episode))
        sources = [episode_id, *traj.event_ids[:MAX_SOURCE_EVENTS]]
        verdicts = judge(
            self.service.store,
            self.service.embedder,
            ns,
            [d.text for d in draft.lessons],
            [d.reusability for d in draft.lessons],
            [d.causal_relevance for d in draft.lessons],
            weight,
            self.settings.lesson_threshold,
            find_opposites=not self.llm,
        )
        items, adjust, decisions = [episode], [], []
        for d, v in zip(draft.lessons, verdicts, strict=True):
            entry = {"text": v.text, "decision": v.decision, "reason": v.reason, "scores": v.scores}
            if v.decision == "merge" and v.match is not None:
                adjust.append(
                    AdjustOp(
                        namespace=ns,
                        id=v.match.id,
                        confidence_delta=CONFIRM_STEP,
                        confirmed=True,
                        add_source_ids=sources[:20],
                        at=utcnow(),
                        metadata={"last_reflection": {"episode_id": episode_id, "scores": v.scores}},
                    )
                )
                entry["id"] = v.match.id
            elif v.decision == "insert":
                item = self._lesson_item(traj, ep, d, v, sources, trigger)
                # An LLM names the lesson it contradicts; a rule lesson is found opposing one by scoring.
                opposed = v.match.id if v.extra.get("opposes") and v.match else None
                contested = refs.get(d.contradicts or "") or opposed
                if contested:
                    item.confidence = CONTESTED_START
                    item.metadata["reflection"]["contradicts"] = contested
                entry["id"] = memory_id(idempotency_key(ns, item))
                if contested:
                    adjust.append(
                        AdjustOp(
                            namespace=ns,
                            id=contested,
                            confidence_delta=-CONTEST_STEP,
                            at=utcnow(),
                            metadata={"contested_by": entry["id"]},
                        )
                    )
                    entry["contradicts"] = contested
                items.append(item)
            decisions.append(entry)
        stored = self.service.store_memories(StoreRequest(namespace=ns, items=items, wait=True))
        ops: list[WriteOp] = [*adjust, ClearWorkingOp(namespace=ns, session_id=traj.session_id)]
        for op in ops:
            self.service.apply_op(op)
        return {
            "episode_id": stored.duplicates_of.get(episode_id, episode_id),
            "episode": ep.model_dump(),
            "lessons": decisions,
            "working_memory_cleared": True,
        }

    def _episode_item(
        self, traj: Trajectory, found: list[Anomaly], ep: EpisodeDraft, trigger: str, weight: float
    ) -> MemoryCreate:
        tags = (
            ["episode", f"outcome:{ep.outcome}"]
            + (["anomaly"] if found else [])
            + (["heuristic"] if self.mode == "heuristic" else [])
        )
        return MemoryCreate(
            content=episode_text(ep, traj.chinese),
            kind=Kind.episodic,
            session_id=traj.session_id,
            occurred_at=traj.turns[-1].at,
            source=Source.reflection,
            tags=tags,
            entities=[e[:128] for e in ep.entities if e.strip()][:20],
            importance=min(1.0, 0.5 + weight),
            source_ids=traj.event_ids[:MAX_SOURCE_EVENTS],
            metadata={"episode": ep.model_dump(), "reflection": self._provenance(trigger, found)},
            idempotency_key=f"reflection-episode|{traj.session_id}|{traj.digest()}",
        )

    def _lesson_item(
        self, traj: Trajectory, ep: EpisodeDraft, d: LessonDraft, v: Verdict, sources: list[str], trigger: str
    ) -> MemoryCreate:
        prov = {
            **self._provenance(trigger, []),
            "scores": v.scores,
            "why": d.rationale,
            "origin": d.origin,
            "episode_id": sources[0],
            "decision": v.reason,
        }
        return MemoryCreate(
            content=v.text,
            kind=Kind.semantic,
            source=Source.reflection,
            tags=["lesson"],
            entities=[e[:128] for e in ep.entities if e.strip()][:20],
            importance=round(min(1.0, 0.6 + 0.3 * v.scores["causal_relevance"]), 3),
            confidence=round(min(d.max_confidence, 0.5 + 0.4 * v.scores["score"]), 3),
            source_ids=sources,
            metadata={"reflection": prov},
            occurred_at=traj.turns[-1].at,
            idempotency_key=f"reflection-lesson|{traj.session_id}|{traj.digest()}|{content_hash(v.text)}",
        )

    def _provenance(self, trigger: str, found: list[Anomaly]) -> dict[str, Any]:
        out: dict[str, Any] = {"mode": self.mode, "trigger": trigger, "at": utcnow().isoformat()}
        if self.llm:
            out["model"] = self.llm.model
        if found:
            out["anomalies"] = sorted({a.kind for a in found})
        return out

    def _count(self, u: Usage) -> None:
        self.service.counters.add(reflections=1, llm_calls=u.calls, llm_tokens=u.tokens)
