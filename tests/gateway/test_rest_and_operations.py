"""REST mirror, /health, /metrics, OpenAPI, request ids and content-free logs, on the live gateway."""

import json
import logging
import re

import pytest


def test_rest_store_recall_feedback_forget_and_stats(live_gateway):
    ns, h = "alice/rest", live_gateway.headers("alice")
    with live_gateway.http() as http:
        stored = http.post(
            "/v1/memories/store",
            headers=h,
            json={
                "namespace": ns,
                "wait": True,
                "items": [
                    {
                        "content": "The staging cluster runs Kubernetes 1.31.",
                        "kind": "semantic",
                        "metadata": {"k": [1, 2]},
                    }
                ],
            },
        )
        assert stored.status_code == 200 and stored.json()["status"] == "committed"
        recalled = http.post(
            "/v1/memories/recall", headers=h, json={"namespace": ns, "query": "staging kubernetes"}
        )
        top = recalled.json()["memories"][0]
        assert top["content"] == "The staging cluster runs Kubernetes 1.31." and top["metadata"] == {
            "k": [1, 2]
        }
        assert "not instructions" in recalled.json()["note"]
        fb = http.post(
            "/v1/memories/feedback", headers=h, json={"namespace": ns, "id": top["id"], "useful": False}
        )
        assert fb.json()["found"] is True and fb.json()["importance"] < 0.5
        gone = http.post(
            "/v1/memories/forget", headers=h, json={"namespace": ns, "ids": [top["id"]], "purge": False}
        )
        assert gone.status_code == 200
        stats = http.get("/v1/stats", params={"namespace": ns}, headers=live_gateway.headers("admin")).json()
        assert stats["namespace"] == ns and stats["embedder"]


def test_rest_errors_are_4xx_with_a_code(live_gateway):
    h = live_gateway.headers("alice")
    with live_gateway.http() as http:
        bad_ns = http.post("/v1/memories/recall", headers=h, json={"namespace": "../x", "query": "q"})
        top_k = http.post(
            "/v1/memories/recall", headers=h, json={"namespace": "alice/a", "query": "q", "top_k": 101}
        )
        junk = http.post(
            "/v1/memories/store", headers={**h, "Content-Type": "application/json"}, content=b"{oops"
        )
    assert bad_ns.status_code in (400, 422)
    assert top_k.status_code == 413 and top_k.json()["error"]["code"] == "limit_exceeded"
    assert junk.status_code == 400 and junk.json()["error"]["code"] == "invalid_input"


def test_health_reports_storage_and_metrics_speak_prometheus(live_gateway):
    with live_gateway.http() as http:
        health = http.get("/health")
        http.post(
            "/v1/memories/store",
            headers=live_gateway.headers("alice"),
            json={
                "namespace": "alice/rest",
                "items": [{"content": "the cluster runs kubernetes 1.31"}],
                "wait": True,
            },
        )
        http.post(
            "/v1/memories/recall",
            headers=live_gateway.headers("alice"),
            json={"namespace": "alice/rest", "query": "kubernetes"},
        )
        metrics = http.get("/metrics", headers=live_gateway.headers("admin"))
    assert health.json() == {"status": "ok", "storage": "ok"}
    assert metrics.headers["content-type"].startswith("text/plain")
    text = metrics.text
    for name in (
        "hindsight_http_requests_total",
        "hindsight_http_request_seconds_bucket",
        "hindsight_recall_hit_rate",
        "hindsight_reuse_rate",
        "hindsight_supersede_ratio",
        "hindsight_queue_depth",
        'route="/v1/memories/recall"',
    ):
        assert name in text, name
    # the recall above was served from memory: some tenant's warm index holds rows (the gateway is shared)
    rows = re.findall(r'hindsight_warm_index_rows\{tenant="[^"]+"\} ([0-9.]+)', text)
    spaces = re.findall(r'hindsight_warm_index_namespaces\{tenant="[^"]+"\} ([0-9.]+)', text)
    assert max(map(float, rows)) >= 1 and max(map(float, spaces)) >= 1, text


def test_openapi_documents_the_rest_api(live_gateway):
    with live_gateway.http() as http:
        doc = http.get("/openapi.json").json()
    assert {
        "/v1/memories/store",
        "/v1/memories/recall",
        "/v1/memories/forget",
        "/v1/memories/feedback",
        "/v1/stats",
        "/health",
        "/metrics",
    } <= set(doc["paths"])


def test_every_response_carries_a_request_id_and_a_safe_one_is_echoed(live_gateway):
    with live_gateway.http() as http:
        minted = http.get("/health").headers["x-request-id"]
        echoed = http.get("/health", headers={"X-Request-Id": "trace-123"}).headers["x-request-id"]
        hostile = http.get("/health", headers={"X-Request-Id": 'a"b}{' * 20}).headers["x-request-id"]
    assert len(minted) == 32 and echoed == "trace-123" and hostile != 'a"b}{' * 20


def test_logs_are_json_lines_with_the_request_id_and_no_memory_content(live_gateway, caplog):
    from hindsight_memory.gateway.logs import JsonFormatter

    secret = "the vault combination is 31-41-59"
    with caplog.at_level(logging.DEBUG), live_gateway.http() as http:
        http.post(
            "/v1/memories/store",
            headers={**live_gateway.headers("alice"), "X-Request-Id": "req-log-1"},
            json={"namespace": "alice/logs", "wait": True, "items": [{"content": secret}]},
        )
        http.post(
            "/v1/memories/recall",
            headers=live_gateway.headers("alice"),
            json={"namespace": "alice/logs", "query": secret},
        )
    lines = [JsonFormatter().format(r) for r in caplog.records]
    assert all(secret not in line and "31-41-59" not in line for line in lines)
    access = [json.loads(line) for line in lines if '"msg": "request"' in line]
    assert any(
        a["request_id"] == "req-log-1"
        and a["route"] == "/v1/memories/store"
        and a["status"] == 200
        and a["tenant"] == "acme"
        for a in access
    )


@pytest.mark.parametrize("host", ["evil.example.com", "127.0.0.1.nip.io:8080"])
def test_a_foreign_host_header_is_refused_against_dns_rebinding(live_gateway, host):
    with live_gateway.http() as http:
        r = http.post(
            "/v1/memories/recall",
            headers={**live_gateway.headers("alice"), "Host": host},
            json={"namespace": "alice/a", "query": "q"},
        )
    assert r.status_code == 421


def test_rest_forget_by_filter_and_the_one_of_rule(live_gateway):
    h = live_gateway.headers("alice")
    ns = "alice/rest-forget"
    with live_gateway.http() as http:
        http.post(
            "/v1/memories/store",
            headers=h,
            json={
                "namespace": ns,
                "wait": True,
                "items": [
                    {"content": "scratch: the temp build id is 9913", "tags": ["scratch"]},
                    {"content": "keep: the release branch is release/7", "tags": ["keep"]},
                ],
            },
        )
        none = http.post("/v1/memories/forget", headers=h, json={"namespace": ns})
        # a filter naming nothing is refused, not read as the whole namespace
        empty = [
            http.post("/v1/memories/forget", headers=h, json={"namespace": ns, "filter": f, "purge": True})
            for f in ({}, {"tags": [], "entities": []})
        ]
        gone = http.post(
            "/v1/memories/forget", headers=h, json={"namespace": ns, "filter": {"tags": ["scratch"]}}
        )
        left = http.post(
            "/v1/memories/recall",
            headers=h,
            json={"namespace": ns, "query": "build id release branch", "min_score": 0, "top_k": 10},
        ).json()
    assert none.status_code == 400
    assert [r.status_code for r in empty] == [422, 422], [r.text for r in empty]
    assert all("filter" in r.text and "everything" in r.text or "empty list" in r.text for r in empty)
    assert gone.status_code == 200 and gone.json()["forgotten"] == 1
    assert [m["content"] for m in left["memories"]] == ["keep: the release branch is release/7"]


def test_rest_forgets_a_namespace_with_its_subnamespaces_only_when_asked(live_gateway):
    h = live_gateway.headers("alice")
    with live_gateway.http() as http:
        for ns in ("alice/tree", "alice/tree/sub", "alice/treehouse"):
            http.post(
                "/v1/memories/store",
                headers=h,
                json={"namespace": ns, "wait": True, "items": [{"content": f"{ns} holds the wombat note"}]},
            )
        refused = http.post(
            "/v1/memories/forget",
            headers=h,
            json={"namespace": "alice/tree", "ids": ["0" * 32], "include_subnamespaces": True},
        )
        gone = http.post(
            "/v1/memories/forget",
            headers=h,
            json={"namespace": "alice/tree", "everything": True, "include_subnamespaces": True},
        )
        left = {
            ns: http.post(
                "/v1/memories/recall",
                headers=h,
                json={"namespace": ns, "query": "wombat note", "min_score": 0},
            ).json()["memories"]
            for ns in ("alice/tree", "alice/tree/sub", "alice/treehouse")
        }
    assert refused.status_code == 400
    assert gone.status_code == 200 and gone.json()["forgotten"] == 2 and gone.json()["namespaces"] == 2
    assert left["alice/tree"] == [] and left["alice/tree/sub"] == []
    assert [m["content"] for m in left["alice/treehouse"]] == ["alice/treehouse holds the wombat note"]
