"""Hybrid recall: vector + BM25 channels under the same hard filters, each candidate scored (scoring.py) and
lent score by its session neighbours, then the answer shaped (shaping.py). Says `missing` rather than padding
the answer with noise."""

from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import Any

import numpy as np

from ..config import Settings
from ..embed import Embedder
from ..embed.passages import whole
from ..models import (
    APPLIED_OPS,
    SERVER_SOURCES,
    MemoryPublic,
    RecallQuery,
    RecallResult,
    Status,
    utcnow,
)
from ..standing import STANDING_TAG
from ..storage.filters import Where
from ..storage.lance import COLD, LanceStore
from ..text import ROLES, fts_text, invites_reply, key, terms
from ..timeparse import TimeWindow, parse_time_window
from . import affinity, shaping
from .asked import raised_by, topic_of
from .conditions import CONDITION_POOL, Conditions
from .replaced import REPLACEMENT_HOPS, current_of, hand_over, through_replaced
from .rerank import Reranker, rerank
from .scoring import HISTORY_PRIOR, Candidate, Scorer, Signals, phatic
from .trace import trace

NEIGHBOUR_SEEDS = 8  # best candidates whose next turn (the answer) is fetched when they ask something
ANSWER_SHARE = 0.6  # score a turn inherits from the question right before it (0.7 until 2026-12-03)
CONTEXT_SHARE = 0.3  # score a turn inherits from any other adjacent turn


class Retriever:
    def __init__(
        self, store: LanceStore, embedder: Embedder, settings: Settings, reranker: Reranker | None = None
    ):
        self.store = store
        self.embedder = embedder
        self.settings = settings
        self.reranker = reranker
        self.scorer = Scorer(embedder, settings)
        self.conditions = Conditions(embedder)
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="recall")

    def recall(self, q: RecallQuery) -> tuple[RecallResult, list[str]]:
        """The result, and the ids it returned (for usage accounting by the caller)."""
        # As of a past time, "now" is then, and time words in the query do not narrow it further: "what was my
        # budget in March" asks for the value valid then, which may have been stated in January.
        now = q.now or q.as_of or utcnow()
        window: TimeWindow | None = None
        if not (q.since or q.until or q.as_of):
            window = parse_time_window(q.query, now)
        # Once a time expression has become a filter, its words only add noise to matching ("yesterday").
        text = _without(q.query, window.expression) if window is not None else q.query
        # A question asking for breadth is matched on its topic, without the words that frame the answer ("Can you
        # give me a summary of..."); whose turns it asks about and whether it asks for advice read it as asked.
        asked_as, text = text, topic_of(text)
        q = q.model_copy(update={"query": text})
        # The query embedding (tens of ms) runs while BM25 searches; a fallback search reuses it.
        qvec = self._pool.submit(self.embedder.embed_query, text)
        cands, info = self._search(q, now, window, qvec, asked_as)
        if not info.pop("matched") and window is not None:
            # Nothing at all in the window: the expression may have misled us ("in March" of a plan, not of an
            # event). Search everything rather than answer "missing" on a misreading.
            cands, info2 = self._search(q, now, None, qvec, asked_as)
            info["time_window_fallback"] = True
            info["channels"] = info2["channels"]
        # A time expression that matched is itself evidence: in-window candidates need less textual relevance.
        floor = self._min_rel(q) * (
            0.5 if window is not None and not info.get("time_window_fallback") else 1.0
        )
        top = shaping.select(cands, asked_as, q.top_k, floor)
        memories = [_public(c) for c in top]
        explain = None
        if q.explain:
            ranked = [c for c in cands if not c.reserve]
            below = [c for c in ranked if c.factors["relevance"] < floor]
            kept = {id(c) for c in top}
            raised = raised_by(asked_as)
            unpicked = [c for c in ranked if id(c) not in kept and c.factors["relevance"] >= floor]
            other = {id(c) for c in unpicked if raised and shaping.other_side(c, raised)}
            explain = {
                **info,
                "min_relevance": floor,
                "results": [trace(c) for c in top],
                "dropped_below_min_relevance": [c.memory.id for c in below][:20],
                # The same trace for candidates that did not make it, with the reason (for the inspector).
                "dropped": [
                    {**trace(c), "content": c.memory.content[:300], "dropped": reason}
                    for reason, group in (
                        (f"relevance below {floor:.2f}", below[:20]),
                        (f"ranked below top_k={q.top_k}", [c for c in unpicked if id(c) not in other][:20]),
                        (
                            f"not {raised}'s turn: the question lists what {raised} brought up",
                            [c for c in unpicked if id(c) in other][:20],
                        ),
                    )
                    for c in group
                ],
            }
        return RecallResult(memories=memories, missing=not memories, explain=explain), [
            m.id for m in memories
        ]

    def _min_rel(self, q: RecallQuery) -> float:
        return self.settings.min_relevance if q.min_score is None else q.min_score

    # ------------------------------------------------------------------ channels
    def _where(
        self, q: RecallQuery, window: TimeWindow | None, w: Where | None = None, replaced: bool = False
    ) -> Where:
        """Every hard filter of the request, on `w` (a fresh namespace filter by default); `replaced`: superseded
        memories too, whose words may find the value that replaced them."""
        w = w if w is not None else Where(q.namespace)
        statuses = [Status.active, Status.superseded] if q.history or replaced else [Status.active]
        if q.include_archived:
            statuses.append(Status.archived)
        w.enum_in("status", statuses)
        if q.as_of is not None:
            # Valid then: happened by then and not yet replaced (with include_history: every version until then).
            if q.include_history:
                w.time("occurred_at", "<=", q.as_of)
            else:
                w.valid_at(q.as_of)
        return w.labels(
            kinds=q.kinds,
            tags=q.tags,
            entities=q.entities,
            session_id=q.session_id,
            since=q.since or (window.since if window else None),
            until=q.until or (window.until if window else None),
        )

    def _search(
        self,
        q: RecallQuery,
        now: datetime,
        window: TimeWindow | None,
        qvec_future: Future[np.ndarray],
        asked_as: str,
    ) -> tuple[list[Candidate], dict[str, Any]]:
        where = self._where(q, window, replaced=True)
        n = max(self.settings.candidate_pool, q.top_k * 4)
        fts_future = (
            self._pool.submit(self.store.fts_search, q.namespace, fts_text(q.query), where, n)
            if "fts" in q.channels
            else None
        )
        qvec = qvec_future.result()
        vec_hits = self.store.vector_search(q.namespace, qvec, where, n) if "vector" in q.channels else []
        fts_hits = fts_future.result() if fts_future else []
        if q.include_archived:
            vec_hits += (
                self.store.vector_search(q.namespace, qvec, where, n, table=COLD)
                if "vector" in q.channels
                else []
            )
        vec_hits = self.scorer.by_calibrated_cosine(q.query, vec_hits)
        matched = bool(vec_hits or fts_hits)  # before standing statements, which ignore the window, join
        applies: set[str] = set()
        # Standing instructions and preferences are searched over any time: "tips for this month", "this year" in a
        # question narrow what it asks about, not which instructions and preferences hold.
        standing = self._where(q, None).any_key("tag_keys", [key(STANDING_TAG)])
        if "vector" in q.channels and shaping.wants_standing(asked_as):
            # They apply to requests on other topics: their own small search.
            have = {m.id for m, _, _ in vec_hits}
            extra = self.store.vector_search(
                q.namespace, qvec, standing, max(shaping.STANDING_RESERVE, CONDITION_POOL)
            )
            # the instruction whose condition reads closest to the request applies as one naming its topic does,
            # however far down the rest of its words put it
            applies = {m.id for m in self.conditions.applying([m for m, _, _ in extra], qvec, asked_as)}
            vec_hits = vec_hits + [h for h in extra[: shaping.STANDING_POOL] if h[0].id not in have]
            reserve = [
                h
                for i, h in enumerate(extra)
                if i >= shaping.STANDING_POOL
                and h[0].id not in have
                and (i < shaping.STANDING_RESERVE or h[0].id in applies)
            ]
        elif "vector" in q.channels:
            # Any other question: the standing instruction made for its topic, if one reads close enough.
            hits = self.store.vector_search(q.namespace, qvec, standing, CONDITION_POOL)
            found = {m.id for m in self.conditions.applying([m for m, _, _ in hits], qvec, asked_as)}
            reserve = [h for h in hits if h[0].id in found]
            applies = {h[0].id for h in reserve}
        else:
            reserve = []

        cands: dict[str, Candidate] = {}
        for channel, hits in (("vector", vec_hits), ("fts", fts_hits)):
            for rank, (m, score, vec) in enumerate(hits, start=1):
                c = cands.setdefault(m.id, Candidate(m, vec))
                c.ranks[channel] = rank
                c.raw[channel] = score
        sig = self.scorer.signals(q.query, qvec, fts_hits, cands.values(), asked_as)
        self.scorer.score(list(cands.values()), q, sig, now)
        if not q.history:
            # A replaced memory's words still find the value that replaced it, if that one passes every filter.
            current = current_of(
                self.store,
                q.namespace,
                [c.memory for c in cands.values() if c.memory.status == Status.superseded],
                lambda w_: self._where(q, window, w_),
            )
            for m, vec in through_replaced(cands, current):
                cands[m.id] = Candidate(m, vec)
                self.scorer.score([cands[m.id]], q, sig, now)
            hand_over(cands, current)
        self._expand_neighbours(cands, q, sig, now, window)
        ordered = sorted(cands.values(), key=lambda c: c.score, reverse=True)
        ordered = self._prefer_newer(_dedup(ordered))
        weight = self.settings.affinity_weight * (
            affinity.NAMED if sig.side and sig.side not in ROLES else 1.0
        )
        ordered = affinity.reorder(self.embedder.model_id, weight, q.query, sig.qvec, ordered)
        reranked = rerank(self.reranker, q.query, ordered) if self.reranker and ordered else None
        kept = [Candidate(m, vec, reserve=True) for m, _, vec in reserve if m.id not in cands]
        self.scorer.score(kept, q, sig, now)
        for c in [*ordered, *kept]:
            if c.memory.id in applies:
                c.factors["condition"] = 1.0
        ordered += kept
        info = {
            "matched": matched,
            "rerank": reranked,
            "query_terms": terms(q.query),
            "topic": q.query if q.query != asked_as else None,
            "filter": {
                "kinds": q.kinds,
                "tags": q.tags,
                "entities": q.entities,
                "session_id": q.session_id,
                "since": str(q.since or (window.since if window else "")) or None,
                "until": str(q.until or (window.until if window else "")) or None,
            },
            "time_window": {
                "expression": window.expression,
                "since": window.since.isoformat(),
                "until": window.until.isoformat(),
            }
            if window
            else None,
            "channels": {
                "vector": [
                    {"id": m.id, "rank": i, "cosine": round(s, 4)}
                    for i, (m, s, _) in enumerate(vec_hits[:20], 1)
                ],
                "fts": [
                    {"id": m.id, "rank": i, "bm25": round(s, 4)}
                    for i, (m, s, _) in enumerate(fts_hits[:20], 1)
                ],
            },
        }
        return ordered, info

    def _expand_neighbours(
        self,
        cands: dict[str, Candidate],
        q: RecallQuery,
        sig: Signals,
        now: datetime,
        window: TimeWindow | None,
    ) -> None:
        """A turn's meaning often lives next to it: the answer follows the question that names the topic
        ("What's your dog called?" / "Biscuit."). Fetch the turns adjacent to the best candidates, then let
        adjacent turns lend each other score."""
        w = self.settings.neighbour_weight
        if not w or q.session_id:
            return
        best = sorted(cands.values(), key=lambda c: c.score, reverse=True)[:NEIGHBOUR_SEEDS]
        # Only a question or request has an answer after it worth fetching; statements stand on their own (and
        # short replies already carry their prompt from write time), so most recalls skip this round trip.
        seeds = [c.memory for c in best if c.memory.session_id and invites_reply(c.memory.content)]
        if seeds:
            have = {(c.memory.session_id, c.memory.seq) for c in cands.values()}
            ranges = {(key(m.session_id), m.seq + 1, m.seq + 1) for m in seeds if m.session_id}
            for m, vec in self.store.neighbours(
                q.namespace,
                lambda w_: self._where(q, window, w_).session_ranges(ranges),
                limit=len(ranges) * 3,
            ):
                if m.id not in cands and (m.session_id, m.seq) not in have:
                    cands[m.id] = Candidate(m, vec)
                    self.scorer.score([cands[m.id]], q, sig, now)
        pos = {(c.memory.session_id, c.memory.seq): c for c in cands.values() if c.memory.session_id}
        base = {id(c): (c.score, c.factors["relevance"]) for c in cands.values()}
        for c in cands.values():
            m = c.memory
            if not m.session_id:
                continue
            prev, nxt = pos.get((m.session_id, m.seq - 1)), pos.get((m.session_id, m.seq + 1))
            lent = []
            # Phatic turns ("Anything else?", "听起来不错。") match everything a little and lend nothing; the turn
            # before lends most when it asked what this turn answers.
            if prev is not None and not phatic(prev.memory):
                lent.append(((ANSWER_SHARE if invites_reply(prev.memory.content) else CONTEXT_SHARE), prev))
            if nxt is not None and not phatic(nxt.memory):
                lent.append((CONTEXT_SHARE, nxt))
            if not lent:
                continue
            share, src = max(lent, key=lambda p: p[0] * base[id(p[1])][0])
            inherited = share * base[id(src)][0]
            c.factors["neighbour"] = inherited
            c.score = max(c.score, inherited) + w * inherited
            c.factors["relevance"] = max(c.factors["relevance"], share * base[id(src)][1])

    def _prefer_newer(self, ordered: list[Candidate]) -> list[Candidate]:
        """Two results about the same thing ("my budget is 5000" then, later, "my budget is 8000") where the
        older ranks first: a changed fact the writer could not pair as a supersede. The older one steps down."""
        c = self.embedder.calibration
        same = c.related + 0.5 * (c.duplicate - c.related)
        head = ordered[:SAME_TOPIC_WINDOW]
        vecs = [whole(x.vector) if x.vector is not None else None for x in head]
        for i, a in enumerate(head):
            for j in range(i + 1, len(head)):
                b = head[j]
                va, vb = vecs[i], vecs[j]
                if va is None or vb is None or b.memory.occurred_at <= a.memory.occurred_at:
                    continue
                if float(np.dot(va, vb)) >= same:
                    a.factors["newer_alike"] = 1.0
                    a.score *= OLDER_ALIKE_PRIOR
                    break
        # History, when asked for, stays under the value that replaced it however closely its words match.
        by_id = {x.memory.id: x for x in ordered}
        for _ in range(REPLACEMENT_HOPS):  # along a chain of versions, each below the one after it
            for x in ordered:
                successor = by_id.get(x.memory.superseded_by or "")
                if successor is not None:  # below it also when scores run negative (an unclipped cosine)
                    below = successor.score - (1 - HISTORY_PRIOR) * abs(successor.score) - 1e-9
                    x.score = min(x.score, below)
        return sorted(ordered, key=lambda x: x.score, reverse=True)


SAME_TOPIC_WINDOW = 20  # results compared pairwise for "the same thing said again later"
OLDER_ALIKE_PRIOR = 0.9  # an older result with a newer near-twin below it steps down


def _without(query: str, expression: str) -> str:
    """The query minus the time expression (matched case-insensitively); the original if nothing is left."""
    i = query.casefold().find(expression)
    rest = (query[:i] + query[i + len(expression) :]).strip() if i >= 0 else query
    return rest if len(rest) >= 2 else query


def _dedup(cands: list[Candidate]) -> list[Candidate]:
    seen: set[str] = set()
    out = []
    for c in cands:
        h = c.memory.content.casefold()  # stored content is normalised: the text content_hash digests
        if h not in seen:
            seen.add(h)
            out.append(c)
    return out


def _public(c: Candidate) -> MemoryPublic:
    m = c.memory
    return MemoryPublic(
        id=m.id,
        content=m.shown,
        kind=m.kind,
        score=round(c.score, 4),
        occurred_at=m.occurred_at,
        stored_at=m.stored_at,
        tags=m.tags,
        entities=m.entities,
        importance=m.importance,
        confidence=m.confidence,
        source=m.source,
        session_id=m.session_id,
        metadata={k: v for k, v in m.metadata.items() if k != APPLIED_OPS},
        status=m.status,
        supersedes=m.supersedes,
        superseded_by=m.superseded_by,
        valid_until=m.valid_until,
        source_ids=m.source_ids,
        provenance="server" if m.source in SERVER_SOURCES else "client",
    )
