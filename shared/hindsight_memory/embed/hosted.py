"""Any hosted embedding model through litellm (OpenAI, Bedrock, Cohere, Voyage, Ollama, ...)."""

import numpy as np

from ..llm.lazy import litellm
from .base import Calibration, Embedder, unit


class LiteLLMEmbedder(Embedder):
    # Hosted models differ; these are conservative values for modern text-embedding models.
    calibration = Calibration(unrelated=0.2, related=0.6, duplicate=0.96)

    def __init__(self, model: str, dim: int | None = None, timeout_s: float = 30.0) -> None:
        self.model = model
        self.model_id = f"litellm/{model}"
        self._timeout = timeout_s
        self.dim = dim or len(self.embed_passages(["dimension probe"])[0])

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        resp = litellm().embedding(model=self.model, input=list(texts), timeout=self._timeout)
        return unit(np.array([d["embedding"] for d in resp.data], dtype=np.float32))
