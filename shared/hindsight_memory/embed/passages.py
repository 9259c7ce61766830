"""Long memories as passages: text beyond a passage budget (within the model's window) is split at sentence, list
and heading boundaries, and each passage gets its own vector. Recall scores a memory by its best passage (max-sim);
the memory as a whole keeps one vector too (the unit mean of its passages) for dedup, merges and "the same thing".
A memory that fits the budget is embedded exactly as before: one text, context and content together."""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..config import Settings
from ..text import embedding_text, is_short
from .base import Embedder, unit

# A boundary: after a sentence end (Latin or CJK), or before a markdown heading or a list bullet (stored text has
# its line breaks folded into spaces, so these markers are what is left of the paragraphs).
_BOUNDARY = re.compile(r"(?<=[.!?;:])\s+(?=\S)|(?<=[。！？；])|(?<!\s)\s+(?=#{1,6}\s|[-*•]\s)")

Span = tuple[int, int]


@dataclass(frozen=True)
class PassagePlan:
    """How long memories are cut: `max_tokens` per passage (the model's tokens, its prefix and specials
    included; 0: never cut), `overlap` sentences repeated from the end of one passage at the start of the next, and whether
    every passage (not only the first) carries the memory's context line."""

    max_tokens: int = 256
    overlap: int = 0
    context_each: bool = True
    # content longer than SHORT_CHARS, up to this many characters, with a context: a vector of the content alone
    # and one with its context (0: off)
    reply_chars: int = 0

    @classmethod
    def of(cls, settings: Settings) -> "PassagePlan":
        return cls(
            settings.passage_tokens,
            settings.passage_overlap,
            settings.passage_context_each,
            settings.reply_context_chars,
        )

    def two_vectors(self, content: str, context: str | None) -> bool:
        """Whether a memory is embedded alone and with its context: a reply too long to mean nothing alone and
        short enough to be about what it answers."""
        return bool(context) and not is_short(content) and len(content) <= self.reply_chars


@dataclass
class Embedded:
    """A memory's vectors: `vector` for the memory as a whole; `passages` (p x dim) and their character `spans`
    in the content when it was split, else None and []."""

    vector: np.ndarray
    passages: np.ndarray | None
    spans: list[Span]

    @property
    def stored(self) -> np.ndarray:
        """What the storage adapter keeps: the passage matrix of a split memory, else the one vector."""
        return self.passages if self.passages is not None else self.vector


def whole(vectors: np.ndarray | Sequence[float]) -> np.ndarray:
    """One vector for a memory given as one vector or as its passage matrix (then their unit mean)."""
    v = np.asarray(vectors, dtype=np.float32)
    if v.ndim == 1:
        return v
    out: np.ndarray = unit(v.mean(axis=0))
    return out


def with_context(spans: Sequence[Span], index: int) -> bool:
    """Whether vector `index` of a memory embedded both alone and with its context (`PassagePlan.two_vectors`) is
    the one with its context: a reply read with the question it answers."""
    return len(spans) == 2 and spans[0] == spans[1] and index == 1


def best_passage(query: np.ndarray, vectors: np.ndarray | Sequence[float]) -> tuple[float, int]:
    """Max-sim: the cosine of the passage closest to `query`, and its index (0 for a one-vector memory)."""
    v = np.asarray(vectors, dtype=np.float32)
    if v.ndim == 1:
        return float(np.dot(query, v)), 0
    scores = v @ np.asarray(query, dtype=np.float32)
    j = int(np.argmax(scores))
    return float(scores[j]), j


def alike(a: np.ndarray | Sequence[float], b: np.ndarray | Sequence[float], threshold: float) -> bool:
    """Near-identical as memories: the whole vectors at `threshold` or above and, when either is split, as many
    passages, each at `threshold` or above with its counterpart (a long text with one paragraph changed is
    another memory, though its mean barely moves)."""
    va, vb = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    if float(np.dot(whole(va), whole(vb))) < threshold:
        return False
    if va.ndim == 1 and vb.ndim == 1:
        return True
    if va.ndim != vb.ndim or len(va) != len(vb):
        return False
    return bool(np.all(np.einsum("ij,ij->i", va, vb) >= threshold))


def split(text: str, count: Callable[[str], int], budget: int, overlap: int = 0) -> list[Span]:
    """Character spans of `text`, each costing at most `budget` tokens by `count` (which includes the model's
    fixed overhead of prefix and specials), cut at sentence, list and heading boundaries; a sentence longer than
    the budget is cut between words. One span covering everything when it fits. Each sentence is counted once,
    and each passage once more, whole (token counts do not add up exactly across boundaries)."""
    overhead = count("")
    room = max(8, budget - overhead)
    if len(text) <= 8 * budget and count(text) <= budget:
        return [(0, len(text))]
    units: list[Span] = []
    costs: list[int] = []
    for a, b in _sentences(text):
        cost = max(1, count(text[a:b]) - overhead)
        cut = [(a, b)] if cost <= room else _cut_words(text, a, b, cost, room)
        units += cut
        costs += [max(1, cost * (y - x) // (b - a)) for x, y in cut]
    spans: list[Span] = []
    i = 0
    while i < len(units):
        j, used = i + 1, costs[i]
        while j < len(units) and used + costs[j] <= room:
            used += costs[j]
            j += 1
        while j - i > 1 and count(text[units[i][0] : units[j - 1][1]]) > budget:
            j -= 1
        spans.append((units[i][0], units[j - 1][1]))
        # The next passage starts with up to `overlap` sentences of this one, if they leave it room.
        nxt = j
        while (
            j < len(units) and nxt - 1 > i and j - nxt < overlap and sum(costs[nxt - 1 : j + 1]) <= room // 2
        ):
            nxt -= 1
        i = nxt
    return spans


def _sentences(text: str) -> list[Span]:
    out, start = [], 0
    for m in _BOUNDARY.finditer(text):
        if m.start() > start:
            out.append((start, m.start()))
        start = m.end()
    if start < len(text):
        out.append((start, len(text)))
    merged: list[Span] = []
    for a, b in ((a, b) for a, b in out if text[a:b].strip()):
        # A list number or a lone word ("3.", "Note:") belongs with what follows it.
        if merged and merged[-1][1] - merged[-1][0] < 12:
            a = merged.pop()[0]
        merged.append((a, b))
    return merged


def _cut_words(text: str, a: int, b: int, cost: int, room: int) -> list[Span]:
    """A run longer than the budget, cut into near-equal pieces at spaces (anywhere, for unspaced scripts)."""
    pieces = -(-cost // room) + 1  # a margin: token density varies along the run
    step = (b - a) / pieces
    out, start = [], a
    for i in range(1, pieces + 1):
        end = b if i == pieces else int(a + i * step)
        if i < pieces:
            space = text.rfind(" ", start + 1, end)
            end = space if space > start + (end - start) // 2 else end
        if end > start:
            out.append((start, end))
        start = end + 1 if end < b and text[end] == " " else end
    return out


def embed_memories(
    embedder: Embedder, items: Sequence[tuple[str, str | None]], plan: PassagePlan
) -> list[Embedded]:
    """Embed (content, context) pairs in one pass over the embedder: memories that fit one passage as one text
    (exactly as before passages existed), longer ones passage by passage. Cutting needs the model's tokenizer,
    which takes time on long text too: it runs on the embedder's workers, beside each other."""
    budget = min(plan.max_tokens, embedder.window_tokens)
    overhead = embedder.token_count("")

    def plan_one(item: tuple[str, str | None]) -> tuple[list[Span], bool]:
        content, context = item
        if plan.max_tokens <= 0:  # splitting is off: one text per memory, whatever its length
            return [], False
        # A short context line travels with every passage; a long one (a reply's preceding turns, a client's
        # paragraph) only with the first, so that it does not crowd out the passages' own words.
        ctx_cost = embedder.token_count(context) - overhead + 1 if context else 0
        each = plan.context_each and ctx_cost <= budget // 4
        spans = split(content, embedder.token_count, budget - (ctx_cost if each else 0), plan.overlap)
        return (spans if len(spans) > 1 else []), each

    texts: list[str] = []
    layout: list[tuple[int, list[Span]]] = []  # first text index, spans
    for (content, context), (spans, each) in zip(items, embedder.map(plan_one, items), strict=True):
        if not spans and plan.two_vectors(content, context):
            spans = [(0, len(content))] * 2  # alone, then with its context (see with_context)
            texts += [embedding_text(content, None), embedding_text(content, context)]
            layout.append((len(texts) - 2, spans))
            continue
        layout.append((len(texts), spans))
        if not spans:
            texts.append(embedding_text(content, context))
        for j, (a, b) in enumerate(spans):
            texts.append(embedding_text(content[a:b], context if j == 0 or each else None))
    vectors = embedder.embed_passages(texts)
    out = []
    for start, spans in layout:
        if not spans:
            out.append(Embedded(vectors[start], None, []))
        else:
            passages = vectors[start : start + len(spans)]
            out.append(Embedded(whole(passages), passages, spans))
    return out
