"""The LLM adapter: the only package that imports litellm (lazily, only when a call is made)."""

from .budget import Budget, Usage
from .client import LLMClient, LLMError, make_llm

__all__ = ["Budget", "LLMClient", "LLMError", "Usage", "make_llm"]
