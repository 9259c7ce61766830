"""The Mangum handler survives many warm invocations with real Function URL / HTTP API v2 events."""

import base64
import copy
import json
from pathlib import Path

import pytest

from functions.gateway import handler as gateway_handler
from hindsight_memory.config import Settings
from hindsight_memory.gateway.auth import hash_token

EVENTS = Path(__file__).parent.parent / "events"
TOKEN = "hs_test_alice_agent_token_do_not_use"  # the bearer token inside the event files
HOSTS = "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws,a1b2c3d4e5.execute-api.us-east-1.amazonaws.com"


def event(name: str) -> dict:
    return json.loads((EVENTS / f"{name}.json").read_text())


def body(response: dict) -> dict:
    raw = response["body"]
    return json.loads(base64.b64decode(raw) if response.get("isBase64Encoded") else raw)


@pytest.fixture
def lambda_settings(tmp_path):
    record = {"hash": hash_token(TOKEN), "tenant": "acme", "namespaces": ["alice/*"], "name": "alice-agent"}
    return Settings(
        store_uri=str(tmp_path / "acme"),
        embedder="hashing",
        tenant="acme",
        tokens=json.dumps([record]),
        allowed_hosts=HOSTS,
        batch_window_ms=5,
    )


def test_the_handler_answers_many_warm_invocations_in_one_process(lambda_settings):
    handle = gateway_handler.build_handler(lambda_settings)
    init = handle(event("gateway_url_initialize"), None)
    assert init["statusCode"] == 200 and body(init)["result"]["protocolVersion"] == "2025-11-25"
    stored = handle(event("gateway_url_store"), None)
    assert (
        stored["statusCode"] == 200 and body(stored)["result"]["structuredContent"]["status"] == "committed"
    )
    for i in range(12):  # warm calls: the MCP session manager must start once and keep serving
        tools = handle(event("gateway_url_tools_list"), None)
        assert tools["statusCode"] == 200, (i, tools)
        assert "memory_recall" in {t["name"] for t in body(tools)["result"]["tools"]}
        recalled = handle(event("gateway_httpapi_recall"), None)
        memories = body(recalled)["result"]["structuredContent"]["memories"]
        assert memories[0]["content"] == "The deploy target for project X is eu-west-1."
    rest = handle(event("gateway_httpapi_rest_recall"), None)
    assert rest["statusCode"] == 200 and body(rest)["memories"]
    health = handle(event("gateway_httpapi_health"), None)
    assert health["statusCode"] == 200 and body(health)["storage"] == "ok"


def test_the_handler_refuses_missing_tokens_and_keeps_serving(lambda_settings):
    handle = gateway_handler.build_handler(lambda_settings)
    for _ in range(3):
        refused = handle(event("gateway_url_no_token"), None)
        assert refused["statusCode"] == 401 and "memory_" not in refused["body"]
        assert handle(event("gateway_url_tools_list"), None)["statusCode"] == 200


def test_the_handler_refuses_a_foreign_host(lambda_settings):
    handle = gateway_handler.build_handler(lambda_settings)
    ev = copy.deepcopy(event("gateway_url_tools_list"))
    ev["headers"]["host"] = "attacker.example.com"
    assert handle(ev, None)["statusCode"] == 421


def test_the_module_handler_builds_itself_from_the_environment_once(lambda_settings, monkeypatch):
    for key, value in lambda_settings.model_dump().items():
        if value is not None:
            monkeypatch.setenv(f"HINDSIGHT_{key.upper()}", str(value))
    monkeypatch.setattr(gateway_handler, "_handler", None)
    first = gateway_handler.handler(event("gateway_url_tools_list"), None)
    built = gateway_handler._handler
    second = gateway_handler.handler(event("gateway_url_tools_list"), None)
    assert first["statusCode"] == second["statusCode"] == 200 and gateway_handler._handler is built


def test_the_inspector_page_and_its_api_work_through_the_function_url(lambda_settings):
    handle = gateway_handler.build_handler(lambda_settings)
    page = handle(event("gateway_url_ui_page"), None)
    script = handle(event("gateway_url_ui_script"), None)
    handle(event("gateway_url_store"), None)
    listed = handle(event("gateway_url_list_memories"), None)
    (memory,) = body(listed)["items"]
    fix = copy.deepcopy(event("gateway_url_correct_memory"))
    fix["rawPath"] = fix["requestContext"]["http"]["path"] = f"/v1/memories/{memory['id']}"
    fixed = handle(fix, None)
    recalled = handle(event("gateway_httpapi_recall"), None)
    assert page["statusCode"] == 200 and not page.get("isBase64Encoded")
    assert "memory inspector" in page["body"] and "/ui/app.js" in page["body"]
    assert "script-src 'self'" in page["headers"]["content-security-policy"]
    assert script["statusCode"] == 200 and script["headers"]["content-type"].startswith("text/javascript")
    assert memory["content"] == "The deploy target for project X is eu-west-1."
    assert fixed["statusCode"] == 200 and body(fixed)["supersedes"] == memory["id"]
    top = body(recalled)["result"]["structuredContent"]["memories"][0]
    assert (
        top["content"] == "The deploy target for project X is eu-central-1."
        and top["source"] == "user-correction"
    )
