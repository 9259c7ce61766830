"""Structured LLM calls through litellm: JSON validated by a pydantic model, one repair retry, timeouts,
backoff on rate limits, token and cost accounting. litellm is imported on first use (it costs seconds)."""

import json
import logging
import random
import time
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import HindsightError
from .budget import Budget
from .lazy import litellm

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)


class LLMError(HindsightError):
    """The LLM failed or kept answering with output that does not fit the expected structure."""

    status = 502
    code = "llm_error"


def _provider_error() -> type[Exception]:
    import openai  # litellm maps every provider's errors onto openai's exception classes

    return openai.OpenAIError


class LLMClient:
    """One model, any provider litellm knows ("openai/gpt-4o-mini", "anthropic/...", "ollama/...")."""

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        rate_limit_retries: int = 4,
        backoff_s: float = 1.0,
    ) -> None:
        self.model = model
        self.api_base = api_base
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.rate_limit_retries = rate_limit_retries
        self.backoff_s = backoff_s

    def structured(self, system: str, user: str, schema: type[M], budget: Budget) -> M:
        """Ask for JSON matching `schema`; on invalid output, ask once more with the validation error.

        Raises:
            BudgetExceeded: before a call that the budget does not allow.
            LLMError: the provider failed, or the output was still invalid after the repair.
        """
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        text = self._complete(messages, budget)
        try:
            return _parse(text, schema)
        except (ValueError, ValidationError) as first:
            log.warning("LLM output did not validate; asking for a repair", extra={"error": str(first)[:300]})
            budget.usage.repairs += 1
            messages += [
                {"role": "assistant", "content": text},
                {"role": "user", "content": _repair_request(first, schema)},
            ]
            text = self._complete(messages, budget)
            try:
                return _parse(text, schema)
            except (ValueError, ValidationError) as second:
                raise LLMError(f"LLM output invalid after one repair: {str(second)[:300]}") from second

    def _complete(self, messages: list[dict[str, Any]], budget: Budget) -> str:
        budget.check()
        lit = litellm()
        for attempt in range(self.rate_limit_retries + 1):
            try:
                resp = lit.completion(
                    model=self.model,
                    messages=messages,
                    api_base=self.api_base,
                    api_key=self.api_key,
                    timeout=self.timeout_s,
                    max_retries=0,
                    response_format={"type": "json_object"},
                    temperature=0,
                )
                break
            except lit.RateLimitError as exc:
                if attempt == self.rate_limit_retries:
                    raise LLMError(f"rate limited after {attempt + 1} attempts") from exc
                delay = self.backoff_s * 2**attempt * (0.5 + random.random())
                log.warning(
                    "LLM rate limited, backing off",
                    extra={"attempt": attempt + 1, "delay_s": round(delay, 2)},
                )
                time.sleep(delay)
            except _provider_error() as exc:  # timeouts, 5xx, auth, bad request: report, do not retry blindly
                raise LLMError(f"LLM call failed: {type(exc).__name__}") from exc
        self._account(resp, budget)
        return resp.choices[0].message.content or ""

    def _account(self, resp: Any, budget: Budget) -> None:
        u = budget.usage
        u.calls += 1
        usage = getattr(resp, "usage", None)
        u.prompt_tokens += int(getattr(usage, "prompt_tokens", 0) or 0)
        u.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)
        lit = litellm()
        try:
            u.cost_usd += float(lit.completion_cost(completion_response=resp) or 0.0)
        except (lit.exceptions.ModelNotMappedError, ValueError, KeyError):
            log.debug(
                "no price for this model: counted as 0", extra={"model": self.model}
            )  # local, self-hosted


def _parse(text: str, schema: type[M]) -> M:
    text = text.strip()
    if text.startswith("```"):  # some models fence JSON even in JSON mode
        text = text.strip("`").removeprefix("json").strip()
    return schema.model_validate(json.loads(text))


def _repair_request(error: Exception, schema: type[BaseModel]) -> str:
    return (
        "Your previous answer was not valid for the required JSON structure. Error: "
        f"{str(error)[:800]}\nAnswer again with only one JSON object matching this JSON schema:\n"
        f"{json.dumps(schema.model_json_schema(), ensure_ascii=False)}"
    )


def make_llm(settings: Any) -> LLMClient | None:
    """The configured client, or None (heuristic mode) when no model is set."""
    if not settings.llm_model:
        return None
    return LLMClient(
        settings.llm_model, api_base=getattr(settings, "llm_api_base", None), timeout_s=settings.llm_timeout_s
    )
