"""What one batch of writes builds up before its commit, the writer as the handlers of its ops see it, and the
shape of a handler. Packages above the writer (lifecycle) register handlers for their ops; the writer imports none
of them."""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from ..embed import Embedder
from ..embed.passages import PassagePlan
from ..models import Kind, Memory
from ..storage.filters import Where
from ..storage.lance import LanceStore
from ..text import key


def working_turns_of(session_id: str) -> Callable[[Where], Where]:
    """The filter of a session's working-memory turns."""
    return lambda w: w.keys_in("session_key", [key(session_id)]).enum_in("kind", [Kind.working])


def leave_working(store: LanceStore, ns: str, rows: list[tuple[Memory, Any]], at: datetime) -> None:
    """Turns leaving working memory (trimmed or cleared) stay recallable: they become episodic memories of their
    session, same id, text and vector, so nothing an agent stored disappears from recall."""
    if rows:
        store.upsert(
            [
                m.model_copy(
                    update={
                        "kind": Kind.episodic,
                        "updated_at": at,
                        "metadata": {**m.metadata, "left_working_at": at.isoformat()},
                    }
                )
                for m, _ in rows
            ],
            [v for _, v in rows],
        )


@dataclass
class Pending:
    """Everything one batch will commit: memories by id (new or changed) with their vectors, and events."""

    memories: dict[str, Memory] = field(default_factory=dict)
    vectors: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)

    def put(self, m: Memory, vector: Any) -> None:
        self.memories[m.id] = m
        self.vectors[m.id] = vector

    def load(self, store: LanceStore, ns: str, ids: list[str]) -> list[Memory]:
        """The memories of `ns` with these ids as this batch will commit them (read once, then kept here)."""
        missing = [i for i in ids if i not in self.memories]
        for m, v in store.get(ns, missing, with_vectors=True):
            self.put(m, v)
        return [self.memories[i] for i in ids if i in self.memories and self.memories[i].namespace == ns]


class WriterState(Protocol):
    """The single writer's tables, embedder and settings, as op handlers use them."""

    store: LanceStore
    embedder: Embedder
    dedup_threshold: float | None
    working_turns: int
    passages: PassagePlan

    def switch_to(self, store: LanceStore, embedder: Embedder) -> None:
        """Write to other tables with another embedder from the next op on (a reindex)."""


@dataclass(frozen=True)
class Handler:
    """How the writer applies one type of op: `run(writer, op, pending)` returns the op's outcome. Ops that change
    memories stage them in `pending`, committed once for the whole batch; `after_commit` ops run after that commit
    and commit on their own (a forget must win over a store of the same batch)."""

    run: Callable[[WriterState, Any, Pending], Any]
    after_commit: bool = False
