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


class FakeClock:
    """Time that passes only when told to: the store function's budget, measured deterministically."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class ClockedEmbedder(HashingEmbedder):
    """Embeds at `chars_per_s` on a FakeClock (a slow model on a small function)."""

    def __init__(self, clock: FakeClock, chars_per_s: float) -> None:
        super().__init__(256)
        self.clock = clock
        self.chars_per_s = chars_per_s

    def embed_passages(self, texts: list[str]):
        self.clock.now += sum(map(len, texts)) / self.chars_per_s
        return super().embed_passages(texts)


class ClockedContext:
    """Lambda's context object, its remaining time read from a FakeClock."""

    def __init__(self, clock: FakeClock, timeout_s: float) -> None:
        self.clock = clock
        self.ends = clock.now + timeout_s

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self.ends - self.clock.now) * 1000))
