"""What an import has done so far: items committed, the tokens the embedder read for them, their rates, and a
progress bar showing both."""

import time
from typing import Any

from ..embed import Embedder

EXACT_CHARS = 200_000  # texts counted by the model's tokenizer before the rate per character is trusted
SHOW_EVERY_S = 0.5


class ImportMeter:
    """Counts committed items and the tokens embedded for them. Tokenizing costs time too, so the first
    EXACT_CHARS characters are counted by the model's tokenizer and the rest at the tokens per character measured
    on them (this import's own text, not a constant)."""

    def __init__(
        self, embedder: Embedder, *, total: int | None = None, unit: str = "item", show: bool = False
    ):
        self._count = embedder.token_count
        self._overhead = embedder.token_count("")
        self.items = self.tokens = 0
        self._chars = self._exact = 0
        self._start = self._shown = time.perf_counter()
        self._bar: Any = None
        if show:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc="import", unit=f" {unit}", dynamic_ncols=True)

    def add(self, n: int = 1, texts: list[str] | None = None) -> None:
        """`n` items done, of which `texts` were embedded."""
        self.items += n
        self.tokens += sum(self._tokens(t) for t in texts or [])
        if self._bar is not None:
            self._bar.update(n)
            if time.perf_counter() - self._shown >= SHOW_EVERY_S:
                self._shown = time.perf_counter()
                self._bar.set_postfix_str(f"{self.rate()['tokens_per_s']:,.0f} tok/s", refresh=False)

    def _tokens(self, text: str) -> int:
        if self._chars < EXACT_CHARS:
            n = self._count(text) - self._overhead
            self._chars += len(text)
            self._exact += n
            return n
        return round(len(text) * self._exact / self._chars)

    def rate(self) -> dict[str, float]:
        seconds = max(1e-9, time.perf_counter() - self._start)
        return {
            "seconds": round(seconds, 3),
            "items_per_s": round(self.items / seconds, 2),
            "tokens_per_s": round(self.tokens / seconds, 1),
        }

    def close(self) -> None:
        if self._bar is not None:
            self._bar.set_postfix_str(f"{self.rate()['tokens_per_s']:,.0f} tok/s")
            self._bar.close()
