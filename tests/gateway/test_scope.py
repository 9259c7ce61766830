"""Authorisation of every namespace an operation touches: a token never reads, writes or deletes outside its
scope, whichever operation, edge (MCP or REST) or flag (sub-namespaces, purge, all namespaces) it uses."""

import pytest

from tests.gateway.test_bad_input import call, tool_error


def rest(gw, who: str, path: str, body: dict):
    with gw.http() as http:
        return http.post(path, headers=gw.headers(who), json=body)


def contents(gw, namespace: str) -> list[str]:
    r = rest(gw, "admin", "/v1/memories/recall", {"namespace": namespace, "query": "note", "min_score": 0})
    return [m["content"] for m in r.json()["memories"]]


@pytest.mark.parametrize("via", ["rest", "mcp"])
def test_an_exact_scope_cannot_forget_or_purge_the_namespaces_under_it(live_gateway, via):
    """GIVEN carol's token scoped to exactly carol/x, and memories in carol/x and carol/x/<via>
    WHEN carol forgets carol/x with its sub-namespaces and purge
    THEN the call is refused as forbidden and carol/x/<via>, which carol cannot read, keeps its memory."""
    sub = f"carol/x/{via}"
    for ns in ("carol/x", sub):
        stored = rest(
            live_gateway,
            "admin",
            "/v1/memories/store",
            {"namespace": ns, "wait": True, "items": [{"content": f"{ns} keeps the otter note"}]},
        )
        assert stored.status_code == 200, stored.text
    args = {"namespace": "carol/x", "everything": True, "include_subnamespaces": True, "purge": True}
    if via == "rest":
        r = rest(live_gateway, "carol", "/v1/memories/forget", args)
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden", r.text
    else:
        assert tool_error(call(live_gateway, "memory_forget", args, who="carol")).startswith("forbidden")
    assert contents(live_gateway, sub) == [f"{sub} keeps the otter note"]
    assert contents(live_gateway, "carol/x") == ["carol/x keeps the otter note"]


def test_an_exact_scope_still_forgets_its_own_namespace(live_gateway):
    rest(
        live_gateway,
        "carol",
        "/v1/memories/store",
        {"namespace": "carol/x", "wait": True, "items": [{"content": "carol/x keeps a heron note"}]},
    )
    r = rest(
        live_gateway,
        "carol",
        "/v1/memories/forget",
        {"namespace": "carol/x", "filter": {"tags": ["none-such"]}},
    )
    assert r.status_code == 200 and r.json()["forgotten"] == 0
