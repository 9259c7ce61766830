"""An on-disk embedding cache for benchmarks only: (model id, exact text) -> the vector the model gave it.

Ingesting a long benchmark conversation set costs an hour of embedding; after a writer-side change most texts are
the same, so a re-ingest embeds only the texts not seen before. Vectors are stored as the model's float32 bytes,
so a hit returns exactly what the embedder would. Never used by the service itself."""

import hashlib
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..embed import Embedder
from ..embed.base import R, T

DEFAULT_CACHE_DIR = Path.home() / ".cache" / "hindsight-bench"


class EmbeddingCache:
    """A sqlite file of vectors keyed by a digest of (model id, role, text); safe to share between processes."""

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        if path.suffix != ".sqlite":
            path = path / "embeddings.sqlite"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False, timeout=60)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, dim INTEGER, vec BLOB)")
        self._lock = threading.Lock()

    @staticmethod
    def key(model_id: str, role: str, text: str) -> bytes:
        return hashlib.sha256(f"{model_id}\x00{role}\x00{text}".encode()).digest()

    def get_many(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        out: dict[bytes, np.ndarray] = {}
        with self._lock:
            for k in keys:
                row = self._db.execute("SELECT dim, vec FROM vectors WHERE key = ?", (k,)).fetchone()
                if row is not None:
                    out[k] = np.frombuffer(row[1], dtype=np.float32, count=row[0]).copy()
        return out

    def put_many(self, items: list[tuple[bytes, np.ndarray]]) -> None:
        rows = [(k, int(v.shape[-1]), np.ascontiguousarray(v, dtype=np.float32).tobytes()) for k, v in items]
        with self._lock, self._db:
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class CachedEmbedder(Embedder):
    """Wraps an embedder: passages come from the cache when their exact text was embedded before by the same
    model. Queries always go to the model, so recall latency measured through it stays honest."""

    def __init__(self, inner: Embedder, cache: EmbeddingCache) -> None:
        self.inner = inner
        self.cache = cache
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.calibration = inner.calibration
        self.window_tokens = inner.window_tokens
        self.hits = 0
        self.misses = 0

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return self.inner.embed_passages([])
        keys = [EmbeddingCache.key(self.model_id, "passage", t) for t in texts]
        found = self.cache.get_many(list(dict.fromkeys(keys)))
        todo = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in found))
        if todo:
            fresh = self.inner.embed_passages(todo)
            new = [
                (EmbeddingCache.key(self.model_id, "passage", t), v) for t, v in zip(todo, fresh, strict=True)
            ]
            self.cache.put_many(new)
            found.update(new)
        self.hits += len(texts) - len(todo)
        self.misses += len(todo)
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)

    # Passages are cut where the model's own tokenizer says, on its workers: the same texts as without the cache.
    def token_count(self, text: str) -> int:
        return self.inner.token_count(text)

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        return self.inner.map(fn, items)
