"""The memory service as lifecycle and reflection use it: a typed protocol, so those packages drive the service
through these members only (MemoryService provides them) and never import it or reach into its internals."""

from typing import Any, Protocol

from .config import Settings
from .counters import Counters
from .embed import Embedder
from .models import StoreRequest, StoreResult
from .storage.lance import LanceStore
from .writer.messages import WriteOp


class MemoryPort(Protocol):
    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> LanceStore:
        """The tables recall reads (in embedded mode, the very store object the writer commits through)."""

    @property
    def embedder(self) -> Embedder: ...

    @property
    def counters(self) -> Counters: ...

    def store_memories(self, req: StoreRequest, timeout_s: float = 120.0) -> StoreResult: ...

    def apply_op(self, op: WriteOp, timeout_s: float = 120.0) -> Any:
        """Send one op to the single writer and wait for its outcome; None when a remote writer will apply it."""

    def follow_writer(self) -> None:
        """Read the tables the in-process writer now writes, with its embedder (after a reindex switched them)."""
