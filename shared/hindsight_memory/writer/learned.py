"""A learned second reader of two statements the rules call different facts (writer/facts.py): the probability that
they are one fact said twice, from the embeddings the writer already has. A logistic regression over the two
texts' passage vectors and query-side vectors (their products and absolute differences, the standard head over a
pair of sentence embeddings), the two cosines and a few counts of the words and characters the two texts share
(`lexical`), fitted on labelled pairs (bench/fit_reader.py) for one embedder; an embedder without fitted weights
has no second reader and the rules alone decide. The counts carry what the embeddings blur: how much of each text
the other repeats, and whether what differs is only small words.

It is consulted only where no rule found a sign of another fact or of a change (no number, negation, direction or
change word differs) and the rules found no rewording either: "The production database is PostgreSQL 15." / "We
run Postgres 15 for the prod DB.", 我妈住在成都。/ 用户的母亲住在四川成都。, whose words differ too much for the rules to
call them one fact."""

import re
from collections.abc import Callable

import numpy as np

from ..linear import load
from ..text import has_cjk

USE = "pairs"  # its weights' name (bench/fit_reader.py writes them)

_TOKEN = re.compile(r"[a-z0-9]+|[\u3400-\u4dbf\u4e00-\u9fff]")  # a Latin word or one Chinese character
_DIGITS = re.compile(r"\d+")
_SMALL = frozenset(
    "the a an is are was my i to of in on at for and it be our we 的 了 是 我 在".split()
)  # words whose swap says nothing of the fact
_FIRST_PERSON = re.compile(r"\b(?:i|my|me|i'm)\b|我")


def _grams(text: str, n: int) -> set[str]:
    t = " ".join(text.casefold().split())
    return {t[i : i + n] for i in range(max(1, len(t) - n + 1))}


def _share(a: set[str], b: set[str]) -> float:
    return len(a & b) / max(1, len(a | b))


def lexical(old: str, new: str) -> np.ndarray:
    """What the two texts share, on the surface: words and character 2- and 3-grams in common, how much of each the
    other covers, their length ratio, equal numbers, Chinese, how many words only one holds, how many of those are
    small words, and whether both or neither speak in the first person."""
    wo, wn = set(_TOKEN.findall(old.casefold())), set(_TOKEN.findall(new.casefold()))
    cover_new, cover_old = len(wn & wo) / max(1, len(wn)), len(wo & wn) / max(1, len(wo))
    do, dn = set(_DIGITS.findall(old)), set(_DIGITS.findall(new))
    only = wo ^ wn
    return np.array(
        [
            _share(wo, wn),
            _share(_grams(old, 3), _grams(new, 3)),
            cover_new,
            cover_old,
            min(cover_new, cover_old),
            min(len(old), len(new)) / max(1, len(old), len(new)),
            float(bool(do or dn) and do == dn),
            float(has_cjk(old + new)),
            _share(_grams(old, 2), _grams(new, 2)),
            np.log1p(len(wo - wn)),
            np.log1p(len(wn - wo)),
            sum(w in _SMALL for w in only) / max(1, len(only)),
            float(bool(_FIRST_PERSON.search(old.casefold())) == bool(_FIRST_PERSON.search(new.casefold()))),
        ],
        dtype=np.float32,
    )


def features(
    texts: tuple[str, str], pa: np.ndarray, pb: np.ndarray, qa: np.ndarray, qb: np.ndarray
) -> np.ndarray:
    """The old and new `texts`, their passage vectors `pa`, `pb` and query-side vectors `qa`, `qb`, all unit
    length."""
    cos, sharp = float(np.dot(pa, pb)), float(np.dot(qa, qb))
    return np.concatenate(
        [qa * qb, np.abs(qa - qb), pa * pb, np.abs(pa - pb), [cos, sharp], lexical(*texts)]
    ).astype(np.float32)


def one_fact(
    model_id: str,
    texts: tuple[str, str],
    pa: np.ndarray,
    pb: np.ndarray,
    query_side: Callable[[], tuple[np.ndarray, np.ndarray]],
) -> float:
    """The probability that two statements are one fact; 0 without fitted weights for the model, or where either
    memory is split into passages (the reader was fitted on whole statements). `query_side()` gives the two texts'
    query-side vectors, embedded only when the reader reads them."""
    reader = load(USE, model_id)
    if reader is None or np.ndim(pa) != 1 or np.ndim(pb) != 1:
        return 0.0
    # vectors as a table row holds them (lists, from compaction) or as the writer has them (arrays)
    pa, pb = np.asarray(pa, dtype=np.float32), np.asarray(pb, dtype=np.float32)
    return reader.probability(features(texts, pa, pb, *query_side()))
