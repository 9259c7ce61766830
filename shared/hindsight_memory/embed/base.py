"""The embedder interface. Vectors are float32 and L2-normalised so a dot product is the cosine."""

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Calibration:
    """Where this model's cosine scores sit: unrelated texts score about `unrelated`, a clear match `related`,
    and near-identical texts at least `duplicate`. Relevance and dedup thresholds are read from here.
    `cjk_shift`: how much higher the whole scale sits for Chinese (and other CJK) text, which some multilingual
    models place closer together than English; `cross_shift`: how much lower it sits between a query and a text in
    different scripts (a Chinese question over an English memory, or the reverse)."""

    unrelated: float
    related: float
    duplicate: float
    cjk_shift: float = 0.0
    cross_shift: float = 0.0

    def shift(self, query_cjk: bool, doc_cjk: bool) -> float:
        """Where the scale sits for this pair of scripts, relative to English over English."""
        if query_cjk != doc_cjk:
            return self.cross_shift
        return self.cjk_shift if query_cjk else 0.0


class Embedder(ABC):
    model_id: str
    dim: int
    calibration: Calibration
    window_tokens: int = (
        512  # the longest input the model attends to as one sequence (prefix and specials included)
    )

    def token_count(self, text: str) -> int:
        """Tokens the model would read for `text` as a passage (prefix and specials included). This estimate
        (a token per CJK character, per four other characters) stands in for models without a tokenizer here."""
        cjk = sum(1 for ch in text if "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff")
        return 2 + cjk + (len(text) - cjk + 3) // 4

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """`fn` over `items`, on the embedder's workers when it has several (tokenizing long text, for one)."""
        return [fn(x) for x in items]

    @abstractmethod
    def embed_passages(self, texts: list[str]) -> np.ndarray:
        """(n, dim) float32 unit vectors for stored text."""

    def embed_query(self, text: str) -> np.ndarray:
        """(dim,) unit vector for a search query (asymmetric models prefix queries differently)."""
        vector: np.ndarray = self.embed_passages([text])[0]
        return vector

    def relevance(self, cosine: float, cjk: bool = False, doc_cjk: bool | None = None) -> float:
        """Cosine mapped to 0..1 on this model's scale for the pair of scripts (a CJK query over CJK text on its
        CJK scale, over English text on the cross-lingual one), so thresholds mean the same across models and
        languages. `doc_cjk` None: the text is in the query's script."""
        return float(min(1.0, max(0.0, self.relevance_unclipped(cosine, cjk, doc_cjk))))

    def relevance_unclipped(self, cosine: float, cjk: bool = False, doc_cjk: bool | None = None) -> float:
        """The same mapping without the bounds: above 1 for a closer match than the model's typical one."""
        c = self.calibration
        low = c.unrelated + c.shift(cjk, cjk if doc_cjk is None else doc_cjk)
        return (cosine - low) / (c.related - c.unrelated)


def unit(rows: np.ndarray) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    out: np.ndarray = rows / np.maximum(norms, 1e-12)
    return out
