"""Deterministic feature-hashing embedder. For plumbing tests only: it knows words, not meaning."""

import hashlib
import re

import numpy as np

from ..text import fts_text
from .base import Calibration, Embedder, unit

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


class HashingEmbedder(Embedder):
    calibration = Calibration(unrelated=0.05, related=0.5, duplicate=0.95)

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.model_id = f"hashing-{dim}"

    def _vector(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        words = _TOKEN.findall(fts_text(text).casefold())
        feats = words + [a + " " + b for a, b in zip(words, words[1:], strict=False)]
        for f in feats:
            h = int.from_bytes(hashlib.blake2b(f.encode(), digest_size=8).digest(), "little")
            v[h % self.dim] += 1.0 if (h >> 63) else -1.0
        if not feats:
            v[0] = 1.0
        return v

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return unit(np.stack([self._vector(t) for t in texts]))
