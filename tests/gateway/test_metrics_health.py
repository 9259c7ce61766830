"""/metrics is for operators: an admin token, only the caller's tenant, counters kept in memory (a scrape reads
no table). /health says whether the gateway and its storage answer, creates nothing and names no tenant."""

import json
from pathlib import Path

import boto3

from hindsight_memory.gateway.app import create_app
from hindsight_memory.gateway.auth import create_token
from hindsight_memory.gateway.middleware import route_label
from tests.gateway.conftest import UvicornThread, gateway_settings, make_tokens
from tests.support.moto import free_port, new_bucket, recording_moto_server


def test_metrics_need_an_admin_token(live_gateway):
    with live_gateway.http() as http:
        anonymous = http.get("/metrics")
        agent = http.get("/metrics", headers=live_gateway.headers("alice"))
        admin = http.get("/metrics", headers=live_gateway.headers("admin"))
    assert anonymous.status_code == 401 and set(anonymous.json()) == {"error"}
    assert agent.status_code == 403 and agent.json()["error"]["code"] == "forbidden"
    assert admin.status_code == 200 and "hindsight_http_requests_total" in admin.text


def test_request_metrics_label_the_inspector_routes_by_their_template_never_by_an_id(live_gateway):
    """GIVEN requests to the inspector's routes, one with a memory id
    WHEN /metrics is scraped THEN each is counted under its route (ids and file names become the template),
    so no value a caller sends becomes a label."""
    memory_id = "ab" * 16
    with live_gateway.http() as http:
        h = live_gateway.headers("alice")
        http.get("/v1/namespaces", headers=h)
        http.get("/v1/memories", headers=h, params={"namespace": "alice/labels"})
        http.get(f"/v1/memories/{memory_id}", headers=h, params={"namespace": "alice/labels"})
        http.post(f"/v1/memories/{memory_id}/restore", headers=h, params={"namespace": "alice/labels"})
        http.get("/v1/memories/not-one-of-ours", headers=h, params={"namespace": "alice/labels"})
        scraped = http.get("/metrics", headers=live_gateway.headers("admin")).text
    routes = {
        line.split('route="')[1].split('"')[0]
        for line in scraped.splitlines()
        if line.startswith("hindsight_http_requests_total{")
    }
    assert {
        "/v1/namespaces",
        "/v1/memories",
        "/v1/memories/{id}",
        "/v1/memories/{id}/restore",
        "other",
    } <= routes
    assert memory_id not in scraped and "not-one-of-ours" not in scraped
    # The page's requests carry no token (counted under no tenant): their labels, straight from the middleware.
    assert [route_label(p) for p in ("/ui", "/ui/app.js", "/ui/..%2Fx", "/ui/" + "a" * 40 + ".js")] == [
        "/ui",
        "/ui/{file}",
        "other",
        "/ui/{file}",
    ]


def test_an_admin_sees_only_its_own_tenant_on_metrics(tmp_path):
    acme, acme_rec = create_token("acme", ["*"], admin=True, name="acme-admin")
    globex, globex_rec = create_token("globex", ["*"], admin=True, name="globex-admin")
    settings = gateway_settings(tmp_path, json.dumps([acme_rec, globex_rec]))
    app = create_app(settings)
    port = free_port()
    with UvicornThread(app, port):
        import httpx

        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False, timeout=60) as http:
            for token, ns in ((acme, "acme-team/notes"), (globex, "globex-team/notes")):
                r = http.post(
                    "/v1/memories/store",
                    headers={"Authorization": f"Bearer {token}"},
                    json={"namespace": ns, "wait": True, "items": [{"content": "a note"}]},
                )
                assert r.status_code == 200, r.text
            seen_by_acme = http.get("/metrics", headers={"Authorization": f"Bearer {acme}"}).text
    assert 'tenant="acme"' in seen_by_acme
    assert "globex" not in seen_by_acme


def test_a_scrape_reads_no_table(tmp_path):
    """GIVEN a gateway whose tenant's tables live on S3 and hold memories
    WHEN /metrics is scraped three times THEN not one request reaches the bucket."""
    with recording_moto_server(str(tmp_path / "recording.jsonl")) as (endpoint, calls):
        _scrape_after_a_store(tmp_path, endpoint, calls)


def _scrape_after_a_store(tmp_path, endpoint, calls) -> None:
    tokens, tokens_json = make_tokens()
    bucket = new_bucket(endpoint)
    settings = gateway_settings(tmp_path, tokens_json).model_copy(
        update={"store_uri": f"s3://{bucket}/tables", "s3_endpoint": endpoint}
    )
    app = create_app(settings)
    port = free_port()
    with UvicornThread(app, port):
        import httpx

        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False, timeout=60) as http:
            admin = {"Authorization": f"Bearer {tokens['admin']}"}
            r = http.post(
                "/v1/memories/store",
                headers=admin,
                json={
                    "namespace": "ops/n",
                    "wait": True,
                    "items": [{"content": "the pager rotates on Monday"}],
                },
            )
            assert r.status_code == 200, r.text
            before = len(calls())
            scrapes = [http.get("/metrics", headers=admin) for _ in range(3)]
            during = calls()[before:]
    assert all(s.status_code == 200 for s in scrapes)
    assert "hindsight_stored_total" in scrapes[-1].text
    assert [c["url"] for c in during] == []


def test_health_names_no_tenant(live_gateway):
    with live_gateway.http() as http:
        health = http.get("/health")
    assert health.status_code == 200 and health.json() == {"status": "ok", "storage": "ok"}
    assert "acme" not in health.text and "default" not in health.text


def test_health_creates_no_table_and_no_folder(tmp_path):
    """GIVEN a multi-tenant gateway on an empty store WHEN /health is asked THEN nothing is created."""
    from fastapi.testclient import TestClient

    _, tokens_json = make_tokens()
    settings = gateway_settings(tmp_path, tokens_json, allowed_hosts="testserver")
    with TestClient(create_app(settings)) as client:
        assert client.get("/health").status_code == 200
        assert client.get("/health").status_code == 200
    data = Path(settings.store_uri)
    assert not data.exists() or list(data.rglob("*")) == []


def test_health_on_s3_creates_no_object(tmp_path, s3_endpoint):
    from fastapi.testclient import TestClient

    _, tokens_json = make_tokens()
    bucket = new_bucket(s3_endpoint)
    settings = gateway_settings(tmp_path, tokens_json, allowed_hosts="testserver").model_copy(
        update={"store_uri": f"s3://{bucket}/tables", "s3_endpoint": s3_endpoint}
    )
    with TestClient(create_app(settings)) as client:
        health = client.get("/health")
    assert health.status_code == 200 and health.json() == {"status": "ok", "storage": "ok"}
    listed = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1").list_objects_v2(
        Bucket=bucket
    )
    assert listed.get("KeyCount", 0) == 0


def test_health_reports_unreachable_storage_as_503(tmp_path, s3_endpoint):
    from fastapi.testclient import TestClient

    _, tokens_json = make_tokens()
    settings = gateway_settings(tmp_path, tokens_json, allowed_hosts="testserver").model_copy(
        update={"store_uri": "s3://no-such-bucket-hs/tables", "s3_endpoint": s3_endpoint}
    )
    with TestClient(create_app(settings)) as client:
        health = client.get("/health")
    assert health.status_code == 503 and health.json() == {"status": "degraded", "storage": "unreachable"}
