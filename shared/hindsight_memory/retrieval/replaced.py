"""A replaced memory is history, but its words still find the fact: "where do I live?" matches "I live in Seattle",
which "I moved to Portland last month" replaced, and reads only 0.78 against the question itself. Recall (without
`include_history` or `as_of`) searches superseded memories too; each one found hands its score (THROUGH_PRIOR of
it) and its relevance to the current memory at the end of its chain of replacements, if that one passes every
filter of the request, and leaves the candidates: history is never returned this way."""

from collections.abc import Callable, Iterator
from typing import Any

from ..models import Memory, Status
from ..storage.filters import Where
from ..storage.lance import LanceStore
from .scoring import Candidate

THROUGH_PRIOR = (
    0.9  # a current value found by the words of a version it replaced ranks a little below direct hits
)
REPLACEMENT_HOPS = 3  # a chain of replacements is followed this far to the current value


def current_of(
    store: LanceStore, namespace: str, old: list[Memory], filters: Callable[[Where], Where]
) -> dict[str, tuple[Memory, Any]]:
    """For each replaced memory (by id), the active memory that now holds its fact, with its vector, if that one
    passes `filters` (every filter of the request, active status included)."""
    head = {m.id: nxt for m in old if (nxt := m.superseded_by)}  # replaced id -> the id after it
    if not head:  # the common case: nothing replaced among the candidates, no lookup
        return {}
    for _ in range(REPLACEMENT_HOPS):
        later = set(head.values())

        def replaced_too(w: Where, ids: set[str] = later) -> Where:
            return w.enum_in("status", [Status.superseded]).ids(ids)

        rows = store.neighbours(namespace, replaced_too, len(later))
        step = {m.id: nxt for m, _ in rows if (nxt := m.superseded_by)}
        if not step:
            break
        head = {i: step.get(nxt, nxt) for i, nxt in head.items()}
    ids = set(head.values())
    live = {m.id: (m, v) for m, v in store.neighbours(namespace, lambda w: filters(w).ids(ids), len(ids))}
    return {i: live[nxt] for i, nxt in head.items() if nxt in live}


def through_replaced(
    cands: dict[str, Candidate], current: dict[str, tuple[Memory, Any]]
) -> Iterator[tuple[Memory, Any]]:
    """The current memories not yet among the candidates (the caller scores them on their own words first)."""
    seen: set[str] = set()
    for m, vec in current.values():
        if m.id not in cands and m.id not in seen:
            seen.add(m.id)
            yield m, vec


def hand_over(cands: dict[str, Candidate], current: dict[str, tuple[Memory, Any]]) -> None:
    """Each replaced candidate leaves; the memory that replaced it keeps the better of its own score and
    THROUGH_PRIOR of the replaced one's, with the relevance that came with it."""
    for i in [i for i, c in cands.items() if c.memory.status == Status.superseded]:
        old = cands.pop(i)
        found = current.get(i)
        if found is None:
            continue
        new = cands[found[0].id]
        if THROUGH_PRIOR * old.score > new.score:
            new.score, new.via = THROUGH_PRIOR * old.score, old.memory.id
            for f in ("relevance", "gate"):
                if f in old.factors:
                    new.factors[f] = max(new.factors.get(f, 0.0), THROUGH_PRIOR * old.factors[f])
