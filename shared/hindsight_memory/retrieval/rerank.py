"""Optional reranker stage. Off by default (no PyPI package ships cross-encoder weights); a hosted reranker
(Cohere, Voyage, Jina, Bedrock ...) plugs in through litellm."""

from abc import ABC, abstractmethod


class Reranker(ABC):
    @abstractmethod
    def scores(self, query: str, documents: list[str]) -> list[float]:
        """Relevance of each document to the query, 0..1, in input order."""


class LiteLLMReranker(Reranker):
    def __init__(self, model: str, timeout_s: float = 10.0) -> None:
        self.model = model
        self.timeout = timeout_s

    def scores(self, query: str, documents: list[str]) -> list[float]:
        import litellm  # lazy: importing litellm costs seconds

        resp = litellm.rerank(model=self.model, query=query, documents=documents, timeout=self.timeout)
        out = [0.0] * len(documents)
        for r in resp.results:
            out[r["index"]] = float(r["relevance_score"])
        return out


def make_reranker(spec: str | None) -> Reranker | None:
    return LiteLLMReranker(spec) if spec else None
