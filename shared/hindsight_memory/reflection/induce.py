"""Induction across episodes: clusters of >= 3 similar recent episodes become one semantic lesson whose confidence
comes from cluster size, time span and consistency of outcomes. Lessons not confirmed for a long time lose
confidence. Nothing is deleted here."""

import hashlib
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from ..embed.passages import whole
from ..errors import BudgetExceeded
from ..llm import Budget, LLMError
from ..models import Kind, Memory, MemoryCreate, Source, Status, StoreRequest, utcnow
from ..ports import MemoryPort
from ..writer.messages import AdjustOp, idempotency_key, memory_id
from .reflect import Reflector
from .scoring import merge_cosine, nearest_lessons

MIN_CLUSTER = 3
LOOKBACK_DAYS = 90
STALE_DAYS, DECAY_STEP, DECAY_EVERY_DAYS = 90, 0.1, 30
HEURISTIC_CAP = 0.4  # patterns found without an LLM stay low-confidence candidates


def induce(reflector: Reflector, namespace: str, now: datetime | None = None) -> dict[str, Any]:
    """Cluster un-induced episodes, write one lesson per cluster, decay stale lessons; record the run."""
    svc, now = reflector.service, now or utcnow()
    episodes = [
        (m, whole(v))  # an episode long enough to be split is clustered by its mean
        for m, v in svc.store.find(
            namespace,
            lambda w: (
                w.enum_in("status", [Status.active])
                .enum_in("kind", [Kind.episodic])
                .time("occurred_at", ">=", now - timedelta(days=LOOKBACK_DAYS))
            ),
            with_vectors=True,
        )
        if m.source == Source.reflection and "episode" in m.metadata and not m.metadata.get("induced_into")
    ]
    clusters = [c for c in _cluster(episodes, svc.embedder.calibration.related) if len(c) >= MIN_CLUSTER]
    budget = Budget(reflector.settings.max_llm_calls_per_run, reflector.settings.max_tokens_per_run)
    written, deferred, ops = [], 0, []
    for cluster in clusters:
        try:
            lesson = _lesson(reflector, namespace, cluster, budget)
        except BudgetExceeded:
            deferred += 1  # the episodes stay un-induced: the next periodic run picks them up
            continue
        except LLMError:
            continue
        written.append(lesson)
    ops += _decay(svc, namespace, now)
    for item, members, match in written:
        new_id = match.id if match else memory_id(idempotency_key(namespace, item))
        if match:  # the cluster restates a lesson we have: confirm it rather than store it twice
            ops.append(
                AdjustOp(
                    namespace=namespace,
                    id=match.id,
                    confidence_delta=0.1,
                    confirmed=True,
                    add_source_ids=[m.id for m in members][:20],
                    at=now,
                )
            )
        ops += [
            AdjustOp(namespace=namespace, id=m.id, metadata={"induced_into": new_id}, at=now) for m in members
        ]
    items = [item for item, _, match in written if match is None]
    if items:
        svc.store_memories(StoreRequest(namespace=namespace, items=items, wait=True))
    for op in ops:
        svc.apply_op(op)
    detail = {
        "clusters": len(clusters),
        "lessons": [
            {"content": i.content, "confidence": i.confidence, "merged_into": m.id if m else None}
            for i, _, m in written
        ],
        "deferred_clusters": deferred,
        "episodes_seen": len(episodes),
    }
    run = reflector.runs.record(
        namespace,
        trigger="induce",
        status="deferred" if deferred else "done",
        mode=reflector.mode,
        usage=budget.usage,
        detail=detail,
        reason="budget" if deferred else "",
    )
    return {
        "namespace": namespace,
        "mode": reflector.mode,
        "run_id": run,
        "usage": budget.usage.as_dict(),
        **detail,
    }


def _cluster(episodes: list[tuple[Memory, np.ndarray]], min_cos: float) -> list[list[Memory]]:
    """Greedy single pass, oldest first: join the cluster whose centroid is closest, if close enough."""
    clusters: list[tuple[list[Memory], np.ndarray]] = []
    for m, v in sorted(episodes, key=lambda e: e[0].occurred_at):
        best, best_cos = None, min_cos
        for members, centroid in clusters:
            cos = float(np.dot(v, centroid / max(np.linalg.norm(centroid), 1e-12)))
            if cos >= best_cos:
                best, best_cos = (members, centroid), cos
        if best is None:
            clusters.append(([m], v.copy()))
        else:
            best[0].append(m)
            best[1][:] += v
    return [members for members, _ in clusters]


def _lesson(
    reflector: Reflector, ns: str, members: list[Memory], budget: Budget
) -> tuple[MemoryCreate, list[Memory], Memory | None]:
    outcomes = Counter(m.metadata["episode"].get("outcome", "unknown") for m in members)
    consistency = outcomes.most_common(1)[0][1] / len(members)
    span_days = (
        max(m.occurred_at for m in members) - min(m.occurred_at for m in members)
    ).total_seconds() / 86400
    chinese = any(_cjk_share(m.content) for m in members)
    if reflector.llm:
        from .episode import InductionDraft

        user = reflector.prompts.render(
            ns,
            "induce_user",
            count=len(members),
            language="Simplified Chinese (简体中文)" if chinese else "English",
            episodes="\n".join(f"- {m.content}" for m in members[:12]),
        )
        draft = reflector.llm.structured(
            reflector.prompts.get(ns, "induce_system"), user, InductionDraft, budget
        )
        text, consistent = draft.lesson, draft.consistent
    else:
        text, consistent = _pattern(members, outcomes, chinese), True
    size_f = min(1.0, (len(members) - MIN_CLUSTER + 1) / 4)
    confidence = (
        0.3
        + 0.25 * size_f
        + 0.15 * min(1.0, span_days / 14)
        + 0.25 * consistency * (1 if consistent else 0.5)
    )
    if not reflector.llm:
        confidence = min(HEURISTIC_CAP, confidence * 0.5)
    vec = reflector.service.embedder.embed_passages([text])
    hits = nearest_lessons(reflector.service.store, ns, vec)[0]
    match = hits[0][0] if hits and hits[0][1] >= merge_cosine(reflector.service.embedder) else None
    ids = sorted(m.id for m in members)
    meta = {
        "induction": {
            "mode": reflector.mode,
            "size": len(members),
            "span_days": round(span_days, 2),
            "outcomes": dict(outcomes),
            "consistency": round(consistency, 3),
            "consistent": consistent,
            **({"model": reflector.llm.model} if reflector.llm else {}),
        }
    }
    entities = [e for e, _ in Counter(e for m in members for e in m.entities).most_common(10)]
    item = MemoryCreate(
        content=text,
        kind=Kind.semantic,
        source=Source.induction,
        confidence=round(confidence, 3),
        importance=0.7 if reflector.llm else 0.5,
        tags=["lesson", "induced"] + ([] if reflector.llm else ["heuristic"]),
        entities=entities,
        source_ids=ids[:256],
        metadata=meta,
        idempotency_key="induction|" + hashlib.sha256("|".join(ids).encode()).hexdigest()[:32],
    )
    return item, members, match


def _pattern(members: list[Memory], outcomes: Counter[str], chinese: bool) -> str:
    """A heuristic summary: the most typical episode's intent, the tools and the outcomes seen."""
    intents = [m.metadata["episode"].get("intent", "") for m in members]
    tools = [
        t
        for t, _ in Counter(t for m in members for t in m.metadata["episode"].get("tools", [])).most_common(4)
    ]
    intent = min(intents, key=len)[:200]
    if chinese:
        tail = f"，常用工具：{'、'.join(tools)}" if tools else ""
        return (
            f"（启发式归纳，{len(members)}个相似任务）重复出现的任务：{intent}{tail}；结果："
            + "，".join(f"{k} {v}次" for k, v in outcomes.items())
            + "。"
        )
    tail = f"; tools usually used: {', '.join(tools)}" if tools else ""
    return (
        f"(heuristic pattern from {len(members)} similar episodes) Recurring task: {intent}{tail}; outcomes: "
        + ", ".join(f"{v} {k}" for k, v in outcomes.items())
        + "."
    )


def _decay(svc: MemoryPort, ns: str, now: datetime) -> list[AdjustOp]:
    """Lessons not confirmed for STALE_DAYS lose a step of confidence, at most once every DECAY_EVERY_DAYS."""
    stale = now - timedelta(days=STALE_DAYS)
    rows = svc.store.find(
        ns,
        lambda w: (
            w.enum_in("status", [Status.active])
            .enum_in("kind", [Kind.semantic])
            .time("last_confirmed_at", "<", stale)
        ),
    )
    ops = []
    for m, _ in rows:
        last = m.metadata.get("_confidence_decayed_at")
        if last and datetime.fromisoformat(last) > now - timedelta(days=DECAY_EVERY_DAYS):
            continue
        ops.append(
            AdjustOp(
                namespace=ns,
                id=m.id,
                confidence_delta=-DECAY_STEP,
                at=now,
                metadata={"_confidence_decayed_at": now.isoformat()},
            )
        )
    return ops


def _cjk_share(text: str) -> bool:
    from ..text import has_cjk

    return sum(1 for ch in text if has_cjk(ch)) >= max(2, len(text) // 5)
