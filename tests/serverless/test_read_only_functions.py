"""On a freshly deployed tenant (no store run yet) the functions whose role may only read the tables answer
"nothing stored" instead of failing at cold start, and create nothing; the writers still create."""

import json

import boto3
import pytest

from functions.gateway import handler as gateway_handler
from hindsight_memory.gateway.auth import hash_token
from hindsight_memory.serverless.settings import READ_ONLY_FUNCTIONS, load_settings
from tests.gateway.test_lambda_handler import HOSTS, TOKEN, body, event

pytestmark = pytest.mark.s3
NS = "alice/project-x"


def table_objects(tenant) -> list[str]:
    s3 = boto3.client("s3", endpoint_url=tenant.endpoint, region_name="us-east-1")
    return [o["Key"] for o in s3.list_objects_v2(Bucket=tenant.bucket, Prefix="tables/").get("Contents", [])]


def test_the_read_only_functions_settings_do_not_create_tables_and_the_writer_does(tenant, monkeypatch):
    for k, v in tenant.env().items():
        monkeypatch.setenv(k, v)

    creating = {f: load_settings(function=f).create_tables for f in (*READ_ONLY_FUNCTIONS, "store")}

    assert creating == {"gateway": False, "recall": False, "reflect": False, "compact": False, "store": True}


@pytest.mark.parametrize("function", ["recall", "reflect"])
def test_a_read_only_function_starts_on_a_fresh_tenant_without_creating_tables(
    tenant, load_function, function
):
    fn = load_function(function, tenant)

    assert fn.service.settings.create_tables is False
    assert fn.service.store.waiting_for() == ["cold", "events", "memories"]
    assert table_objects(tenant) == []


def test_the_recall_function_answers_missing_on_a_fresh_tenant(tenant, load_function):
    fn = load_function("recall", tenant)

    out = fn.handler({"namespace": NS, "query": "when does the release train leave"}, None)

    assert out["missing"] is True and out["memories"] == []
    assert table_objects(tenant) == []


def test_the_gateway_answers_missing_and_healthy_on_a_fresh_tenant(tenant, monkeypatch):
    record = {"hash": hash_token(TOKEN), "tenant": tenant.name, "namespaces": ["alice/*"], "name": "agent"}
    env = {**tenant.env(), "HINDSIGHT_TOKENS": json.dumps([record]), "HINDSIGHT_ALLOWED_HOSTS": HOSTS}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(gateway_handler, "_handler", None)  # a cold start: built from the environment

    recalled = gateway_handler.handler(event("gateway_httpapi_rest_recall"), None)
    health = gateway_handler.handler(event("gateway_httpapi_health"), None)

    assert recalled["statusCode"] == 200 and body(recalled)["missing"] is True
    assert health["statusCode"] == 200 and body(health)["storage"] == "ok"
    assert table_objects(tenant) == []
