"""What one batch of writes builds up before its commit, and the writer as the handlers of its ops see it."""

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..embed import Embedder
from ..models import Memory
from ..storage.lance import LanceStore


@dataclass
class _Pending:
    """Everything one batch will commit: memories by id (new or changed) with their vectors, and events."""

    memories: dict[str, Memory] = field(default_factory=dict)
    vectors: dict[str, Any] = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)

    def put(self, m: Memory, vector: Any) -> None:
        self.memories[m.id] = m
        self.vectors[m.id] = vector


class WriterState(Protocol):
    """The single writer's tables, embedder and settings, as op handlers use them."""

    store: LanceStore
    embedder: Embedder
    dedup_threshold: float
    working_turns: int
    embed_batch_size: int
