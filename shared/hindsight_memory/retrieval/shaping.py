"""What recall returns from its ordered candidates: `missing` decided by the most relevant one, the rest of the
answer down to a lower floor, sessions spread for questions about the whole conversation, and the standing
instruction or preference closest to a request for advice kept in view."""

from ..text import STANDING_TAG, asks_for_advice, asks_for_breadth
from .scoring import Candidate

FOLLOWER_FLOOR_SHARE = 1.0  # results after a relevant one need this share of the relevance floor
BREADTH_DECAY = 1.0  # breadth questions: weight of a second result from the same session (1: off)
STANDING_POOL = 0  # standing memories fetched by their own search (0: off)
STANDING_GATE = "always"  # or "advice": only for requests for advice or suggestions
STANDING_RANK = 3  # where the closest one joins the results
STANDING_FLOOR = 0.3  # the least vector relevance it needs


def select(ordered: list[Candidate], query: str, k: int, floor: float) -> list[Candidate]:
    """The results, best first, at most k. None when nothing reaches the floor: the answer is `missing`."""
    if not any(c.factors["relevance"] >= floor for c in ordered):
        return []
    # Once something relevant is known, the rest of the answer may be less so (the second part of an answer,
    # a nearby turn), down to a lower floor; the `missing` decision above is unchanged by it.
    rest_floor = floor * FOLLOWER_FLOOR_SHARE
    relevant = [c for c in ordered if c.factors["relevance"] >= rest_floor]
    if BREADTH_DECAY < 1.0 and asks_for_breadth(query):
        relevant = spread_sessions(relevant, k)
    top = relevant[:k]
    if STANDING_POOL and (STANDING_GATE == "always" or asks_for_advice(query)):
        top = with_standing(ordered, top, k)
    return top


def with_standing(cands: list[Candidate], top: list[Candidate], k: int) -> list[Candidate]:
    """The standing instruction or preference closest to the request joins the results (at STANDING_RANK)
    when none is there already and it is not far from the topic."""
    standing = [c for c in cands if STANDING_TAG in c.memory.tags]
    if not standing or any(STANDING_TAG in c.memory.tags for c in top):
        return top
    best = max(standing, key=lambda c: c.raw.get("cosine", 0.0))
    if best.factors.get("vector_relevance", 0.0) < STANDING_FLOOR:
        return top
    at = min(STANDING_RANK - 1, len(top))
    return [*top[:at], best, *top[at:]][:k]


def spread_sessions(ordered: list[Candidate], k: int) -> list[Candidate]:
    """For a question that spans the conversation ("in what order", "summarize", "how did X change"): pick the
    head greedily, each further result from a session already picked counting BREADTH_DECAY times less, so the
    answer covers the sessions instead of ten near-copies from one."""
    head, rest = list(ordered[: 4 * k]), ordered[4 * k :]
    picked: list[Candidate] = []
    per: dict[str | None, int] = {}
    while head:
        best = max(head, key=lambda c: c.score * BREADTH_DECAY ** per.get(c.memory.session_id, 0))
        head.remove(best)
        picked.append(best)
        per[best.memory.session_id] = per.get(best.memory.session_id, 0) + 1
    return picked + rest
