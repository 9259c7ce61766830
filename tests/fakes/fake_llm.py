"""The fake OpenAI-compatible LLM server lives with the bench (`hindsight bench --reflection` uses it too)."""

from hindsight_memory.bench.fake_llm import FakeLLM, Reply, estimate_tokens

__all__ = ["FakeLLM", "Reply", "estimate_tokens"]
