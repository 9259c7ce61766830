"""Per-run LLM budgets and usage accounting. A spent budget raises BudgetExceeded before the call is made."""

from dataclasses import dataclass, field
from typing import Any

from ..errors import BudgetExceeded


@dataclass
class Usage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    repairs: int = 0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "tokens": self.tokens,
            "cost_usd": round(self.cost_usd, 6),
            "repairs": self.repairs,
        }


@dataclass
class Budget:
    """Limits for one reflection run; `tokens_left_today` is what the namespace's daily budget still allows."""

    max_calls: int
    max_tokens: int
    tokens_left_today: int | None = None
    usage: Usage = field(default_factory=Usage)

    def check(self) -> None:
        """Raises:
        BudgetExceeded: another call would go over a limit; the caller defers the rest of the work.
        """
        u = self.usage
        if u.calls >= self.max_calls:
            raise BudgetExceeded(f"reflection run used its {self.max_calls} LLM calls")
        if u.tokens >= self.max_tokens:
            raise BudgetExceeded(f"reflection run used its {self.max_tokens} tokens")
        if self.tokens_left_today is not None and u.tokens >= self.tokens_left_today:
            raise BudgetExceeded("the namespace's daily token budget is spent")
