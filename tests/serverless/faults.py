"""Faults injected through constructors: an embedder that fails on marked texts, a store whose commits fail."""

from typing import Any

from hindsight_memory.embed.hashing import HashingEmbedder


class EmbedderDown(RuntimeError):
    pass


class MarkerFailingEmbedder(HashingEmbedder):
    """Fails any batch containing `marker` while `broken` (a model server that chokes on one input)."""

    def __init__(self, marker: str) -> None:
        super().__init__(256)
        self.marker = marker
        self.broken = True

    def embed_passages(self, texts: list[str]):
        if self.broken and any(self.marker in t for t in texts):
            raise EmbedderDown(f"embedding failed for a text containing {self.marker!r}")
        return super().embed_passages(texts)


class CommitFailingStore:
    """A real LanceStore whose next `failures` memory commits fail (an object store outage mid-batch)."""

    def __init__(self, store: Any, failures: int) -> None:
        self._store = store
        self.failures = failures

    def upsert(self, *args: Any, **kwargs: Any) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise OSError("injected: object store unavailable")
        self._store.upsert(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)
