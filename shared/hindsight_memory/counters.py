"""Process-local operational counters of one service, read by /metrics and stats."""

import threading
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Counters:
    recalls: int = 0
    recall_hits: int = 0
    stored: int = 0
    deduplicated: int = 0
    superseded: int = 0
    feedback: Counter[str] = field(default_factory=Counter)
    reflections: int = 0
    llm_calls: int = 0
    llm_tokens: int = 0
    by_namespace: Counter[tuple[str, str]] = field(default_factory=Counter)  # (namespace, "recalls" | "hits")
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, **kw: int) -> None:
        with self.lock:
            for k, v in kw.items():
                setattr(self, k, getattr(self, k) + v)

    def add_recall(self, namespace: str, hit: bool) -> None:
        with self.lock:
            self.recalls += 1
            self.recall_hits += int(hit)
            self.by_namespace[(namespace, "recalls")] += 1
            self.by_namespace[(namespace, "hits")] += int(hit)

    def recall_counts(self, namespace: str) -> tuple[int, int]:
        """Recalls of one namespace served by this process, and how many found something."""
        with self.lock:
            return self.by_namespace[(namespace, "recalls")], self.by_namespace[(namespace, "hits")]
