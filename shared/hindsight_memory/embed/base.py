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
    models place closer together than English."""

    unrelated: float
    related: float
    duplicate: float
    cjk_shift: float = 0.0


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

    def relevance(self, cosine: float, cjk: bool = False) -> float:
        """Cosine mapped to 0..1 on this model's scale (for a CJK query on its CJK scale), so thresholds mean the
        same across models and languages."""
        c = self.calibration
        low = c.unrelated + (c.cjk_shift if cjk else 0.0)
        return float(min(1.0, max(0.0, (cosine - low) / (c.related - c.unrelated))))


def unit(rows: np.ndarray) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    out: np.ndarray = rows / np.maximum(norms, 1e-12)
    return out
