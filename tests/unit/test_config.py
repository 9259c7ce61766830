"""Settings: the warm index's row budget follows the function's memory on Lambda, explicit values win."""

import os

import pytest
from pydantic import ValidationError

from hindsight_memory.config import Settings


def test_warm_index_budget_is_fixed_embedded_and_follows_lambda_memory(monkeypatch):
    monkeypatch.delenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", raising=False)
    assert Settings().warm_rows() == 250_000
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "2048")
    big = Settings().warm_rows()
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "1024")
    small = Settings().warm_rows()
    assert big > small > 50_000
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
    assert Settings().warm_rows() == 0  # too small to hold anything: LanceDB serves every query


def test_explicit_warm_index_settings_beat_the_derived_budget(monkeypatch):
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "1024")
    assert Settings(warm_index_max_rows=1234).warm_rows() == 1234
    assert Settings(warm_index=False).warm_rows() == 0
    monkeypatch.setenv("HINDSIGHT_WARM_INDEX", "false")
    assert Settings().warm_rows() == 0


def test_bulk_embedding_uses_every_cpu_the_process_may_run_on_unless_told(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert Settings().bulk_embed_workers() == 3
    monkeypatch.setenv("HINDSIGHT_EMBED_WORKERS", "1")
    assert Settings().bulk_embed_workers() == 1


def test_passage_tokens_is_zero_for_never_split_or_a_real_budget():
    assert Settings(passage_tokens=0).passage_tokens == 0
    with pytest.raises(ValidationError):
        Settings(passage_tokens=8)
