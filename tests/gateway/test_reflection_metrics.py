"""Reflection's counters on /metrics, after a real reflection through MCP against a fake LLM."""

import asyncio
import re

import httpx
import pytest

from hindsight_memory.gateway.app import create_app
from hindsight_memory.gateway.tenants import TenantRegistry
from hindsight_memory.llm import LLMClient
from hindsight_memory.service import build_service
from tests.gateway.conftest import UvicornThread, gateway_settings, make_tokens, mcp_client
from tests.reflection.conftest import CSV_TASK, draft
from tests.support.moto import free_port

LESSON = "Check a CSV file's delimiter before loading it: European exports often use semicolons."


@pytest.fixture
def gateway_with_llm(tmp_path, fake_llm):
    """A live gateway whose tenants reflect with the fake LLM; yields (url, tokens)."""
    tokens, tokens_json = make_tokens()
    settings = gateway_settings(tmp_path, tokens_json, llm_model="openai/fake-reflector")

    def with_llm(s):
        client = LLMClient(
            "openai/fake-reflector", api_base=fake_llm.url, api_key="test-key", timeout_s=10, backoff_s=0.01
        )
        return build_service(s, llm=client)

    app = create_app(settings, tenants=TenantRegistry(settings, factory=with_llm))
    port = free_port()
    with UvicornThread(app, port):
        yield f"http://127.0.0.1:{port}", tokens


def _sample(text: str, name: str, tenant: str) -> float:
    match = re.search(rf'^{name}\{{tenant="{tenant}"\}} (\S+)$', text, re.MULTILINE)
    assert match, f"{name} for {tenant} missing from /metrics"
    return float(match.group(1))


def test_a_reflection_counts_on_metrics_with_its_llm_calls_and_tokens(gateway_with_llm, fake_llm):
    url, tokens = gateway_with_llm
    fake_llm.script(draft("Load sales.csv", [(LESSON, 0.9, 0.8)], tools=["shell", "db_load"]))
    # GIVEN the tenant's service is loaded (by a recall) and has not reflected yet
    with httpx.Client(base_url=url, timeout=60, trust_env=False) as http:
        recall = http.post(
            "/v1/memories/recall",
            headers={"Authorization": f"Bearer {tokens['alice']}"},
            json={"namespace": "alice/p", "query": "csv"},
        )
        assert recall.status_code == 200
        before = http.get("/metrics", headers={"Authorization": f"Bearer {tokens['admin']}"}).text
    assert _sample(before, "hindsight_reflections_total", "acme") == 0
    assert _sample(before, "hindsight_llm_calls_total", "acme") == 0

    # WHEN an agent reflects at task end and the LLM distils a lesson
    async def reflect():
        async with mcp_client(url, tokens["alice"], "legacy") as c:
            return await c.call_tool(
                "memory_reflect", {"namespace": "alice/p", "trigger": "task_end", "trajectory": CSV_TASK}
            )

    result = asyncio.run(reflect())
    assert not result.is_error, result.content[0].text
    assert result.structured_content["status"] == "done" and result.structured_content["mode"] == "llm"
    # THEN /metrics counts one reflection, its one LLM call and the tokens the fake LLM reported
    with httpx.Client(base_url=url, timeout=60, trust_env=False) as http:
        after = http.get("/metrics", headers={"Authorization": f"Bearer {tokens['admin']}"}).text
    assert "# TYPE hindsight_reflections_total counter" in after
    assert _sample(after, "hindsight_reflections_total", "acme") == 1
    assert _sample(after, "hindsight_llm_calls_total", "acme") == 1
    spent = fake_llm.prompt_tokens + fake_llm.completion_tokens
    assert spent > 0 and _sample(after, "hindsight_llm_tokens_total", "acme") == spent
