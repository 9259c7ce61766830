"""How recall scores a candidate: its match to the query (the vector and BM25 channels' own scores, fused on
calibrated scales), then priors (time decay, importance, usage, whose turn it is, phatic turns, history).
Relevance, the `missing` floor, is kept apart from the ranking score: it reads only what the query asked."""

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from ..config import Settings
from ..embed import Embedder
from ..embed.passages import best_passage
from ..models import Memory, RecallQuery, Status
from ..text import (
    ROLES,
    has_cjk,
    mostly_cjk,
    script_of,
    side_of_turn,
    speaker_label,
    speaker_of,
    terms,
)
from ..writer.products import kinds_asked, names_one_of
from .asked import asks_the_other, named_in, side_asked_about, without_name
from .coverage import QueryTerms

Hit = tuple[Memory, float, Any]  # a channel's hit: the memory, its score there, its vector(s)


@dataclass
class Candidate:
    memory: Memory
    vector: Any
    ranks: dict[str, int] = field(default_factory=dict)
    raw: dict[str, float] = field(default_factory=dict)
    factors: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    passage: int = 0  # the best-matching passage of a memory split into passages
    # Fetched by the standing search past the ones that join the candidates: never ranked itself, only a standing
    # pick when its own condition names the request's topic (shaping.with_standing).
    reserve: bool = False
    via: str | None = None  # found through the words of this memory, which it replaced


@dataclass
class Signals:
    """What one recall's candidates are scored against: the query vector, the best BM25 score (BM25 is read
    relative to it) and whose turns the question is about."""

    qvec: np.ndarray
    bm_max: float
    side: str = ""  # "user", "agent", a speaker's name, or ""
    # A question naming a speaker ("What did Caroline say about X?") over turns labelled with that name: the name
    # matches every one of their turns, lifting them all, so the `missing` decision also reads it without the name.
    rel_qvec: np.ndarray | None = None
    rel_query: str | None = None


# Match: weights of the channels' own scores. The vector channel's cosine on the model's calibrated scale
# (unbounded: a closer match than the typical one keeps counting), BM25 relative to this query's best hit, the
# share of query words a BM25 hit contains, and the bounded relevance; reciprocal rank fusion (RRF) is kept for
# comparison. Fitted on the dev conversations and the generator together (docs/benchmarks.md, retrieval quality).
FUSION = {"rrf": 0.0, "rel": 0.2, "vec": 0.5, "bm25": 0.15, "cov": 0.15}
DECAY_WEIGHT = (
    0.05  # the share of a result's score that time decay can take away (months-old talk still counts)
)
OTHER_SIDE_PRIOR = 0.5  # "what did I say..." is about the user's turns; the assistant's rank lower
NAMED_SIDE = True  # a question naming one speaker ("What did Caroline...") prefers that speaker's turns
# ... and their questions to the other ("Caleb: How's work at the clinic?") rank as the other's turns: they are about
# the other (written conversations held-out R@10 0.758 -> 0.765, tune 0.769 -> 0.772; docs/benchmarks.md)
ASKING_IS_OTHER = True
# The `missing` decision for a question naming a speaker reads this share of its relevance without the name
# (fitted on the generator between named speakers, seeds 7 and 11: never-said questions answered `missing` 12% ->
# 54% and 17% -> 50%, answerable ones unchanged)
NAMELESS_SHARE = 0.4
# ... and its vector match reads this share without the name: the name matches the speaker label of every one of
# that speaker's turns, so "Priya: Oh my god, what's the ring like?" outranked her turns about birds for "Would
# Priya enjoy a birdwatching trip?" (the side prior still prefers her turns). See docs/benchmarks.md, recall on conversations.
NAMELESS_RANK_SHARE = 0.7
PHATIC_PRIOR = (
    0.7  # "Ah, okay.", "Thanks!": short turns that say nothing score high on cosine with any question
)
PHATIC_MAX_CHARS = 160  # longer than this, a turn says something whatever its words
HISTORY_PRIOR = 0.8  # history is shown when asked for, below the current value
# A memory naming one of the kind a question asks for ("which phone...?" / "I switched to a Pixel.") is about it
# however far e5 reads the two (0.45 there, under the default floor of 0.55): it reads as this relevant.
KIND_RELEVANCE = 0.6


class Scorer:
    def __init__(self, embedder: Embedder, settings: Settings) -> None:
        self.embedder = embedder
        self.settings = settings

    def signals(
        self,
        query: str,
        qvec: np.ndarray,
        fts_hits: list[Hit],
        cands: Iterable[Candidate],
        asked_as: str = "",
    ) -> Signals:
        """`asked_as`: the question as asked, when `query` is its topic alone (whose turns it is about)."""
        side = question_side(asked_as or query, cands)
        sig = Signals(qvec, max((s for _, s, _ in fts_hits), default=0.0), side)
        if side and side not in ROLES:
            rest = without_name(query, side)
            if rest:
                sig.rel_query, sig.rel_qvec = rest, self.embedder.embed_query(rest)
        return sig

    def by_calibrated_cosine(self, query: str, hits: list[Hit]) -> list[Hit]:
        """Vector hits ordered by cosine on their pair of scripts' scale: a Chinese question scores every Chinese
        text ~0.07 higher than English ones, which would bury the English memory that answers it."""
        cal, q_cjk = self.embedder.calibration, mostly_cjk(query)
        if not hits or not (cal.cjk_shift or cal.cross_shift):
            return hits
        return sorted(hits, key=lambda h: -(h[1] - cal.shift(q_cjk, doc_cjk(h[0], q_cjk))))

    def score(self, cands: list[Candidate], q: RecallQuery, sig: Signals, now: datetime) -> None:
        qterms = QueryTerms(q.query)
        nameless_terms = QueryTerms(sig.rel_query) if sig.rel_query else None
        cjk = mostly_cjk(q.query)
        kinds = kinds_asked(q.query)
        k = self.settings.rrf_k
        vector_on = "vector" in q.channels
        for c in cands:
            m = c.memory
            rrf = sum(1.0 / (k + r) for r in c.ranks.values())
            rrf_norm = rrf / (len(q.channels) / (k + 1))
            # A memory split into passages reads as close as its best passage (max-sim).
            cos, c.passage = best_passage(sig.qvec, c.vector) if c.vector is not None else (0.0, 0)
            # Coverage only counts for BM25's own hits; matching it on every candidate's text is what a recall
            # over long memories spent most of its time on. Whether it is about the question at all (`lex_rel`)
            # counts a word in any form ("move" in "moved"); the ranking keeps the words as asked (inflected
            # forms in the match cost BEAM's knowledge-update MRR).
            lexical = "fts" in c.ranks
            text = f"{m.content} {m.context}"
            coverage, lex_rel = qterms.both(text) if lexical else (0.0, 0.0)
            d_cjk = doc_cjk(m, cjk)
            vec_rel = self.embedder.relevance(cos, cjk, d_cjk) if vector_on else 0.0
            vec_u = self.embedder.relevance_unclipped(cos, cjk, d_cjk) if vector_on else 0.0
            relevance = _relevance(vec_rel, lex_rel)
            if (
                kinds and relevance < KIND_RELEVANCE and names_one_of(m.content, kinds)
            ):  # "I switched to a Pixel."
                relevance = max(relevance, KIND_RELEVANCE)
            gate = None  # what the `missing` decision reads instead of relevance, if anything
            if sig.rel_qvec is not None and nameless_terms is not None and c.vector is not None:
                cos_n = best_passage(sig.rel_qvec, c.vector)[0]
                vec_n = self.embedder.relevance(cos_n, cjk, d_cjk) if vector_on else 0.0
                lex_n = nameless_terms.coverage(text, inflected=True) if lexical else 0.0
                nameless = _relevance(vec_n, lex_n)
                gate = min(relevance, NAMELESS_SHARE * nameless + (1 - NAMELESS_SHARE) * relevance)
                vec_un = self.embedder.relevance_unclipped(cos_n, cjk, d_cjk) if vector_on else 0.0
                vec_u = NAMELESS_RANK_SHARE * vec_un + (1 - NAMELESS_RANK_SHARE) * vec_u
            bm_n = c.raw.get("fts", 0.0) / sig.bm_max if sig.bm_max > 0 else 0.0
            w = FUSION
            match = (
                w["rrf"] * rrf_norm
                + w["rel"] * relevance
                + w["vec"] * vec_u
                + w["bm25"] * bm_n
                + w["cov"] * coverage
            )
            age_days = max(0.0, (now - m.occurred_at).total_seconds() / 86400)
            exempt = m.importance >= self.settings.decay_exempt_importance or m.kind == "semantic"
            decay = 1.0 if exempt else 0.5 ** (age_days / self.settings.half_life_days)
            importance = 0.85 + 0.3 * m.importance  # 0.85 .. 1.15
            usage = 1.0 + 0.05 * math.log1p(m.access_count)
            score = match * (1 - DECAY_WEIGHT + DECAY_WEIGHT * decay) * importance * usage
            if phatic(m):
                score *= PHATIC_PRIOR
            if sig.side and not_by_side(m.content, sig.side):
                score *= OTHER_SIDE_PRIOR
            if m.status != Status.active and q.history and not current_at(m, q.as_of):
                score *= HISTORY_PRIOR
            c.raw["cosine"] = cos
            c.factors = {
                "match": match,
                "rrf": rrf_norm,
                "relevance": relevance,
                "vector_relevance": vec_rel,
                "term_coverage": coverage,
                "bm25_share": bm_n,
                "decay": decay,
                "importance": importance,
                "usage": usage,
            }
            if gate is not None:
                c.factors["gate"] = gate
            c.score = score


def _relevance(vec_rel: float, lex_rel: float) -> float:
    return max(vec_rel, lex_rel, 0.5 * vec_rel + 0.5 * lex_rel + 0.15 * min(vec_rel, lex_rel))


def current_at(m: Memory, as_of: datetime | None) -> bool:
    """Whether a replaced memory was still the current value at `as_of` (a recall of the past): then it is no
    history there, and ranks like an active memory."""
    return as_of is not None and m.valid_until is not None and m.valid_until > as_of


def question_side(query: str, cands: Iterable[Candidate]) -> str:
    """ "user" / "agent" for a question in the first / second person; else the one speaker it names among the
    candidates' labels ("What did Caroline research?" over turns labelled "Caroline:" and "Melanie:")."""
    side = side_asked_about(query)
    if side or not NAMED_SIDE:
        return side
    return named_in(query, {speaker_label(c.memory.content) for c in cands})


def not_by_side(content: str, side: str) -> bool:
    """Whether a turn is not about the side a question asks about: the other side's, or, between named speakers,
    that speaker's question about the other ("Caleb: How's work at Desert Paws?" for "How did Caleb's work
    change?")."""
    said_by = turn_side(content, side)
    if said_by not in ("", side):
        return True
    return (
        ASKING_IS_OTHER and said_by == side and side not in ROLES and asks_the_other(speaker_of(content)[1])
    )


def turn_side(content: str, side: str) -> str:
    """The side of a turn in the terms `side` is in: a role side, or a speaker's name."""
    return side_of_turn(content) if side in ("user", "agent") else speaker_label(content)


def doc_cjk(m: Memory, query_cjk: bool) -> bool:
    """Whether a memory is read on the CJK scale: its opening's script, or the query's when too short or mixed
    to say (short texts score high against anything; a cross-lingual discount would lift them further)."""
    opening = m.content[:300]
    if not query_cjk and not has_cjk(opening):
        return False  # English over English: the common case, without counting letters
    script = script_of(opening)
    return query_cjk if not script else script == "cjk"


def phatic(m: Memory) -> bool:
    """Two content words or fewer, no number, and no prompt attached at write time (a reply like "14 June."
    carries the question it answers in its context, so it is not phatic)."""
    if len(m.content) > PHATIC_MAX_CHARS:
        return False
    words = [t for t in terms(m.content) if t not in ROLES]
    return len(words) <= 2 and not any(ch.isdigit() for ch in m.content) and "\n" not in m.context
