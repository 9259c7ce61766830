"""What recall returns from its ordered candidates: `missing` decided by the most relevant one, the rest of the
answer down to a lower floor, and the standing instructions and preferences that apply to a request for advice
kept in view."""

from ..standing import STANDING_TAG, asks_for_advice, condition_of, standing_kind, trigger_share
from ..text import side_of_turn
from .asked import raised_by
from .scoring import Candidate

# Results after a relevant one need this share of the relevance floor: in conversation the rest of an answer reads
# far from the question ("The Music Man. Seventy-six trombones..." after "Ooh, which show?"), unrelated memories
# at 0-0.18 (0.8 left 55 of 160 answers on the written conversations short; docs/benchmarks.md).
FOLLOWER_FLOOR_SHARE = 0.3
STANDING_POOL = 3  # standing memories of their own search that join the candidates (0: off)
# ... and how many it fetches in all: those past the pool only join through their condition ("when I ask about
# movie options"), since more standing statements among the candidates crowd out the answer (BEAM, docs/benchmarks.md).
STANDING_RESERVE = 8
STANDING_GATE = "advice"  # "advice": only for requests for advice or suggestions; "always": every query
STANDING_RANK = 3  # where the closest ones join the results
# A standing statement already this high needs no move; one further down (a client asking for 50 results) is
# moved up as if absent, so where it lands does not depend on top_k.
STANDING_VIEW = 10
# How many of each kind join: one instruction (how to answer), two preferences (what the user likes: several can
# bear on one request, and the closest by a hair is often not the one meant).
STANDING_PICKS = {"instruction": 1, "preference": 2}
STANDING_FLOOR = 0.6  # the least vector relevance it needs


def select(ordered: list[Candidate], query: str, k: int, floor: float) -> list[Candidate]:
    """The results, best first, at most k. None when nothing reaches the floor: the answer is `missing`."""
    ordered_all, ordered = ordered, [c for c in ordered if not c.reserve]
    # "the order in which I brought up...": the items are the user's own turns; the assistant's replies still lift
    # the turn they answer (neighbours), but only repeat what it raised and would take an item's place.
    raised = raised_by(query)
    if raised:
        ordered = [c for c in ordered if not other_side(c, raised)]
    if not any(c.factors.get("gate", c.factors["relevance"]) >= floor for c in ordered):
        return []
    # Once something relevant is known, the rest of the answer may be less so (the second part of an answer,
    # a nearby turn), down to a lower floor; the `missing` decision above is unchanged by it.
    rest_floor = floor * FOLLOWER_FLOOR_SHARE
    top = [c for c in ordered if c.factors["relevance"] >= rest_floor][:k]
    if wants_standing(query):
        return with_standing(ordered_all, top, k, query)
    # the instruction made for the question's topic (retrieval/conditions.py) takes the last place, or two
    # instructions on how to give dates the last two
    applies = [c for c in ordered_all if c.factors.get("condition") and all(c is not t for t in top)]
    n = min(len(applies), k - 1)
    return [*top[: k - n], *applies[:n]] if n > 0 else top


def other_side(c: Candidate, raised: str) -> bool:
    """Whether a candidate is the other side's turn for a question listing what `raised` brought up."""
    return side_of_turn(c.memory.content) not in ("", raised)


def wants_standing(query: str) -> bool:
    """Whether a query is one a standing instruction or preference applies to (its search runs only then)."""
    return bool(STANDING_POOL) and (STANDING_GATE == "always" or asks_for_advice(query))


def with_standing(cands: list[Candidate], top: list[Candidate], k: int, query: str = "") -> list[Candidate]:
    """The standing instruction and the two standing preferences closest to the request join the results (from
    STANDING_RANK on) when not there already and not far from the topic; an instruction whose own condition names
    the request's topic comes first, however far its other words read. An instruction (how to answer) and a
    preference (what the user likes) both apply to one request: "Always suggest literary events when I ask about
    book series" does not stand in for "I prefer e-books for their portability". Nor does another statement of the
    same kind already in the results stand in for the closest: "Always suggest literary events when I ask about
    book series" is not the one that applies to "what books should I check out?" when "Always describe the genre
    when I ask for book recommendations" is closer."""
    chosen: list[Candidate] = []
    standing = [c for c in cands if STANDING_TAG in c.memory.tags]
    for kind, n in STANDING_PICKS.items():
        # An instruction that names the request's topic ("when I ask about movie options" for "what movies would
        # you recommend?") applies before one that only reads closer ("... when I ask about family-friendly
        # options"), however far the rest of its words ("platform availability details") take it: the model weighs
        # the whole sentence, the instruction's own condition is the topic.
        of_kind = [c for c in standing if standing_kind(c.memory.content) == kind]
        share = {id(c): trigger_share(c.memory.content, query) for c in of_kind}
        named = {id(c) for c in of_kind if c.factors.get("condition") or share[id(c)] >= 0.5}
        mine = [c for c in of_kind if not c.reserve or id(c) in named]
        # among those naming it, the one naming more of it, then the one whose condition reads closest
        mine.sort(
            key=lambda c: (
                id(c) in named,
                share[id(c)],
                c.factors.get("condition", 0.0),
                c.raw.get("cosine", 0.0),
            ),
            reverse=True,
        )
        best_n = [
            best
            for best in mine[:n]
            if id(best) in named or best.factors.get("vector_relevance", 0.0) >= STANDING_FLOOR
        ]
        # Two instructions for the same topic ("when I ask about sneaker features") both apply to it.
        topics = {condition_of(c.memory.content).casefold() for c in best_n} - {""}
        chosen += best_n + [
            c for c in mine[n:] if id(c) in named and condition_of(c.memory.content).casefold() in topics
        ]
    shown = {id(c): i for i, c in enumerate(top[:STANDING_VIEW])}
    picks = [c for c in chosen if id(c) not in shown]
    # one already shown stays where it is, unless the others moving up above it would push it out of the answer
    picks += [c for c in chosen if id(c) in shown and shown[id(c)] + len(picks) >= k]
    if not picks:
        return top
    picks.sort(key=lambda c: c.raw.get("cosine", 0.0), reverse=True)
    rest = [c for c in top if not any(c is p for p in picks)]
    at = min(STANDING_RANK - 1, len(rest))
    return [*rest[:at], *picks, *rest[at:]][:k]
