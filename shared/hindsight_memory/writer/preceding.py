"""A short turn ("14 June.", "Her name is Ottilie.") means little alone: the turns before it in its session travel
with it into its embedding and its full-text entry (as context, never returned)."""

from ..embed.passages import PassagePlan
from ..models import Kind, Memory
from ..text import invites_reply, is_short, key
from .context import WriterState
from .messages import PreparedItem

PROMPT_CHARS = 300  # a question up to this long travels with a longer reply to it
CONTEXT_TURNS = 2  # turns before a short turn that travel with it into its embedding and its BM25 text


def session_state(
    writer: WriterState, ns: str, sessions: set[str]
) -> tuple[dict[str, Memory | None], dict[str, list[str]]]:
    """Per session: the last turn stored so far, and the texts of the last turns (oldest first)."""
    last: dict[str, Memory | None] = {s: None for s in sessions}
    tails: dict[str, list[str]] = {s: [] for s in sessions}
    if sessions:
        rows = writer.store.find(ns, lambda w: w.keys_in("session_key", [key(s) for s in sessions]))
        rows.sort(key=lambda r: r[0].seq)
        for m, _ in rows:
            if m.session_id in last:
                prev = last[m.session_id]
                if prev is None or m.seq >= prev.seq:
                    last[m.session_id] = m
                tails[m.session_id] = [*tails[m.session_id][-(CONTEXT_TURNS - 1) :], m.content]
    return last, tails


def with_preceding_turns(
    fresh: list[tuple[int, PreparedItem]], tails: dict[str, list[str]], plan: PassagePlan
) -> list[tuple[int, PreparedItem]]:
    """A short turn ("14 June.", "Her name is Ottilie.") means little alone: its meaning lives in the turns
    before it. Append those to its context, which is embedded and indexed with it but never returned."""
    out = []
    for i, it in fresh:
        sid = it.session_id
        if sid and it.kind != Kind.working:
            before = tails.setdefault(sid, [])
            # Only a reply needs its prompt: "14 June." after "When is it?"; not "Ah, okay." after a statement,
            # which would otherwise borrow the statement's meaning and crowd it out of results.
            if before and invites_reply(before[-1]):
                if is_short(it.content):
                    ctx = "\n".join([*([it.context] if it.context else []), *before])
                    it = it.model_copy(update={"context": ctx})
                elif (
                    not it.context
                    and len(before[-1]) <= PROMPT_CHARS
                    and plan.two_vectors(it.content, before[-1])
                ):
                    # A longer reply to a short question: the question, as its second vector (embed/passages.py).
                    # Not after a long answer that ends asking "Would you like a packing list?" (BEAM's assistant
                    # turns): there the reply is the user's next request, not an answer to be read with it.
                    it = it.model_copy(update={"context": _prompt(before)})
            tails[sid] = [*before[-(CONTEXT_TURNS - 1) :], it.content]
        out.append((i, it))
    return out


def _prompt(before: list[str]) -> str:
    """What a reply answers: the question before it and, when that question is short ("Where?!", "Ooh, which
    show?"), the turn it asks about too: "We drove up to Mendocino..." answers "Where??" about "I proposed to
    Tamsin last weekend!", and only the two together say what was asked."""
    if len(before) > 1 and is_short(before[-1]) and len(before[-2]) <= PROMPT_CHARS:
        return "\n".join(before[-2:])
    return before[-1]
