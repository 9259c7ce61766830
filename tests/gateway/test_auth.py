"""Tokens and tenancy: every refusal is a 401/403 (a tool error over MCP) and never carries data."""

import asyncio
import json

import httpx
import pytest

from hindsight_memory.config import Settings
from hindsight_memory.errors import Forbidden, Unauthorized
from hindsight_memory.gateway.app import InsecureConfig, create_app
from hindsight_memory.gateway.auth import TokenRegistry, create_token, hash_token
from tests.gateway.conftest import mcp_client

SECRET = "Globex's launch code is 0000 (must never reach acme)"


def run(coro):
    return asyncio.run(coro)


def store_rest(gw, who: str, namespace: str, content: str) -> httpx.Response:
    with gw.http() as http:
        return http.post(
            "/v1/memories/store",
            headers=gw.headers(who),
            json={"namespace": namespace, "wait": True, "items": [{"content": content}]},
        )


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer hs_not_a_real_token"},
        {"Authorization": "Basic YWxpY2U6cGFzcw=="},
        {"Authorization": "Bearer"},
    ],
)
def test_mcp_without_a_valid_token_is_401_before_anything_runs(live_gateway, headers):
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    with live_gateway.http() as http:
        r = http.post(
            "/mcp",
            json=body,
            headers={
                **headers,
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2025-11-25",
            },
        )
    assert r.status_code == 401
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert "memory_" not in r.text


def test_the_python_client_with_a_wrong_token_cannot_connect(live_gateway):
    async def go():
        async with mcp_client(live_gateway.url, "hs_wrong", "legacy") as c:
            await c.list_tools()

    from mcp.shared.exceptions import MCPError

    with pytest.raises(BaseExceptionGroup) as refused:  # the SDK raises the HTTP 401 inside its task group
        run(go())
    assert refused.group_contains(MCPError, match="unauthorized")


def test_rest_without_a_token_is_401_and_with_a_wrong_one_too(live_gateway):
    with live_gateway.http() as http:
        assert (
            http.post("/v1/memories/recall", json={"namespace": "alice/a", "query": "x"}).status_code == 401
        )
        r = http.post(
            "/v1/memories/recall",
            json={"namespace": "alice/a", "query": "x"},
            headers={"Authorization": "Bearer nope"},
        )
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_a_namespace_outside_the_token_scope_is_refused_without_data(live_gateway):
    assert store_rest(live_gateway, "bob", "bob/private", "Bob's salary is 123k").status_code == 200

    async def go():
        async with mcp_client(live_gateway.url, live_gateway.tokens["alice"], "legacy") as c:
            return await c.call_tool("memory_recall", {"namespace": "bob/private", "query": "salary"})

    res = run(go())
    assert res.is_error and "forbidden" in res.content[0].text
    assert "123k" not in res.content[0].text and not res.structured_content
    with live_gateway.http() as http:
        r = http.post(
            "/v1/memories/recall",
            headers=live_gateway.headers("alice"),
            json={"namespace": "bob/private", "query": "salary"},
        )
    assert r.status_code == 403 and "123k" not in r.text


def test_a_prefix_scope_does_not_cover_a_namespace_that_merely_starts_alike(live_gateway):
    r = store_rest(live_gateway, "alice", "alicex/notes", "not alice's")
    assert r.status_code == 403


def test_another_tenants_token_never_sees_this_tenants_memories(live_gateway):
    assert (
        store_rest(live_gateway, "alice", "alice/shared-name", "acme: alice likes green tea").status_code
        == 200
    )
    assert store_rest(live_gateway, "globex", "alice/shared-name", SECRET).status_code == 200
    with live_gateway.http() as http:
        acme = http.post(
            "/v1/memories/recall",
            headers=live_gateway.headers("alice"),
            json={"namespace": "alice/shared-name", "query": "launch code tea", "top_k": 10, "min_score": 0},
        ).json()
        globex = http.post(
            "/v1/memories/recall",
            headers=live_gateway.headers("globex"),
            json={"namespace": "alice/shared-name", "query": "launch code tea", "top_k": 10, "min_score": 0},
        ).json()
    assert [m["content"] for m in acme["memories"]] == ["acme: alice likes green tea"]
    assert [m["content"] for m in globex["memories"]] == [SECRET]


def test_admin_tools_with_an_agent_token_are_hidden_and_refused(live_gateway):
    async def go():
        async with mcp_client(live_gateway.url, live_gateway.tokens["alice"], "legacy") as c:
            names = {t.name for t in (await c.list_tools()).tools}
            calls = [
                await c.call_tool(t, {"namespace": "alice/p"}) for t in ("memory_stats", "memory_export")
            ]
            calls.append(await c.call_tool("memory_compact", {}))
            return names, calls

    names, calls = run(go())
    assert not names & {"memory_stats", "memory_export", "memory_import", "memory_compact"}
    for res in calls:
        assert res.is_error and "forbidden" in res.content[0].text and not res.structured_content
    with live_gateway.http() as http:
        assert (
            http.get(
                "/v1/stats", params={"namespace": "alice/p"}, headers=live_gateway.headers("alice")
            ).status_code
            == 403
        )


def test_a_single_tenant_stack_refuses_tokens_of_other_tenants(tmp_path):
    from fastapi.testclient import TestClient

    acme, acme_rec = create_token("acme", ["*"])
    globex, globex_rec = create_token("globex", ["*"])
    settings = Settings(
        store_uri=str(tmp_path),
        embedder="hashing",
        tenant="acme",
        tokens=json.dumps([acme_rec, globex_rec]),
        allowed_hosts="testserver",
    )
    with TestClient(create_app(settings, serverless=True)) as client:
        body = {"namespace": "alice/a", "query": "anything"}
        assert (
            client.post(
                "/v1/memories/recall", json=body, headers={"Authorization": f"Bearer {acme}"}
            ).status_code
            == 200
        )
        r = client.post("/v1/memories/recall", json=body, headers={"Authorization": f"Bearer {globex}"})
    assert r.status_code == 403


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "example.com"])
def test_binding_beyond_loopback_without_tokens_refuses_to_start(tmp_path, host):
    with pytest.raises(InsecureConfig):
        create_app(Settings(store_uri=str(tmp_path), embedder="hashing", host=host))


def test_serverless_without_tokens_refuses_to_start(tmp_path):
    with pytest.raises(InsecureConfig):
        create_app(Settings(store_uri=str(tmp_path), embedder="hashing"), serverless=True)


def test_configuration_holds_only_hashes_and_tokens_resolve_to_their_scopes():
    token, record = create_token("acme", ["alice/*", "team/shared"], admin=False, name="ci")
    assert token not in json.dumps(record) and record["hash"] == hash_token(token)
    who = TokenRegistry(json.dumps([record])).authenticate(f"Bearer {token}")
    assert (who.tenant, who.admin, who.name) == ("acme", False, "ci")
    assert who.may_access("alice/x") and who.may_access("alice") and who.may_access("team/shared")
    assert not who.may_access("team/shared/sub") and not who.may_access("alicex")
    with pytest.raises(Forbidden):
        who.require("bob/x")
    with pytest.raises(Unauthorized):
        TokenRegistry(json.dumps([record])).authenticate(f"Bearer {token}x")


def test_token_create_prints_the_token_once_and_a_record_to_configure(capsys):
    from hindsight_memory.gateway.auth import token_create_command

    assert token_create_command("acme", ["alice/*"], admin=True) == 0
    out = capsys.readouterr().out.splitlines()
    token = out[0].split(": ")[-1]
    record = json.loads(out[-1])
    assert (
        record["hash"] == hash_token(token)
        and record["admin"] is True
        and record["namespaces"] == ["alice/*"]
    )


def test_hindsight_serve_refuses_a_public_bind_without_tokens(tmp_path):
    from hindsight_memory.gateway.app import serve

    with pytest.raises(InsecureConfig):
        serve(Settings(store_uri=str(tmp_path), embedder="hashing", host="0.0.0.0", port=1))
