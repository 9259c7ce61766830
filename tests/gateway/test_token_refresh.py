"""Token records are re-read from their source (a tokens file, the tenant's secret) every
HINDSIGHT_TOKEN_REFRESH_S (at most 60 s) and at once when an unknown token arrives, at most once per
HINDSIGHT_TOKEN_MISS_REFRESH_S: a revoked token stops working within a minute, a new one works at once, and a
flood of bad tokens cannot hammer the secret store."""

import json
import time
import uuid

import boto3
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from hindsight_memory.config import Settings
from hindsight_memory.gateway.app import create_app
from hindsight_memory.gateway.auth import create_token
from hindsight_memory.serverless.settings import load_settings
from tests.support.moto import recording_moto_server
from tests.support.wait import wait_until

RECALL = {"namespace": "alice/a", "query": "anything"}


def recall_status(client: TestClient, token: str) -> int:
    return client.post(
        "/v1/memories/recall", json=RECALL, headers={"Authorization": f"Bearer {token}"}
    ).status_code


def write_tokens(path, *records) -> None:
    # Written whole and renamed into place, as a deployment tool should: a reader never sees half a file.
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(list(records)))
    tmp.replace(path)


def file_settings(tmp_path, path, **overrides) -> Settings:
    return Settings(
        store_uri=str(tmp_path / "data"),
        embedder="hashing",
        tokens_file=str(path),
        allowed_hosts="testserver",
        **overrides,
    )


def test_a_token_removed_from_the_tokens_file_is_refused_within_the_refresh_interval(tmp_path):
    path = tmp_path / "tokens.json"
    keep, keep_rec = create_token("acme", ["alice/*"])
    revoked, revoked_rec = create_token("acme", ["alice/*"])
    write_tokens(path, keep_rec, revoked_rec)
    with TestClient(create_app(file_settings(tmp_path, path, token_refresh_s=1))) as client:
        assert recall_status(client, revoked) == 200
        # WHEN the operator removes the token from the file
        write_tokens(path, keep_rec)
        # THEN it is refused once the refresh interval has passed, and the other token still works
        assert wait_until(lambda: recall_status(client, revoked) == 401, timeout=10)
        assert recall_status(client, keep) == 200


def test_a_token_added_to_the_tokens_file_works_at_once(tmp_path):
    path = tmp_path / "tokens.json"
    first, first_rec = create_token("acme", ["alice/*"])
    write_tokens(path, first_rec)
    settings = file_settings(tmp_path, path, token_refresh_s=60, token_miss_refresh_s=0)
    with TestClient(create_app(settings)) as client:
        assert recall_status(client, "hs_unknown") == 401
        added, added_rec = create_token("acme", ["alice/*"])
        write_tokens(path, first_rec, added_rec)
        assert recall_status(client, added) == 200  # an unknown token re-reads the file before refusing


def test_the_refresh_interval_is_at_most_a_minute():
    with pytest.raises(ValidationError):
        Settings(token_refresh_s=61)
    with pytest.raises(ValidationError):
        Settings(token_refresh_s=0)


@pytest.fixture
def tenant_secret(tmp_path, monkeypatch):
    """A tenant secret on a moto server of its own, whose requests are recorded; the gateway finds it as a
    deployed one does (HINDSIGHT_SECRET_ARN, the SDK's endpoint variable standing in for AWS)."""
    with recording_moto_server(str(tmp_path / "recording.jsonl")) as (endpoint, calls):
        secrets = boto3.client("secretsmanager", endpoint_url=endpoint, region_name="us-east-1")
        # moto keeps one state per process: every test gets a secret of its own name
        arn = secrets.create_secret(Name=f"hindsight/acme/config-{uuid.uuid4().hex[:8]}", SecretString="{}")[
            "ARN"
        ]
        monkeypatch.setenv("HINDSIGHT_SECRET_ARN", arn)
        monkeypatch.setenv("AWS_ENDPOINT_URL_SECRETS_MANAGER", endpoint)
        monkeypatch.setenv("HINDSIGHT_TENANT", "acme")
        monkeypatch.setenv("HINDSIGHT_STORE_URI", str(tmp_path / "data"))
        monkeypatch.setenv("HINDSIGHT_EMBEDDER", "hashing")
        monkeypatch.setenv("HINDSIGHT_ALLOWED_HOSTS", "testserver")

        def put(*records) -> None:
            secrets.put_secret_value(SecretId=arn, SecretString=json.dumps({"tokens": list(records)}))

        def reads() -> int:
            return sum(
                1 for c in calls() if c["headers"].get("X-Amz-Target") == "secretsmanager.GetSecretValue"
            )

        yield put, reads


def test_revoking_a_token_in_the_tenant_secret_takes_effect_within_the_refresh_interval(tenant_secret):
    put, _ = tenant_secret
    token, record = create_token("acme", ["alice/*"])
    put(record)
    settings = load_settings(function="gateway", token_refresh_s=1)
    with TestClient(create_app(settings, serverless=True)) as client:
        assert recall_status(client, token) == 200
        put()  # revoked: the secret no longer holds its hash
        assert wait_until(lambda: recall_status(client, token) == 401, timeout=10)


def test_a_flood_of_unknown_tokens_reads_the_secret_at_most_once_per_interval(tenant_secret):
    put, reads = tenant_secret
    token, record = create_token("acme", ["alice/*"])
    put(record)
    settings = load_settings(function="gateway", token_refresh_s=60, token_miss_refresh_s=5)
    with TestClient(create_app(settings, serverless=True)) as client:
        assert recall_status(client, token) == 200
        before, start = reads(), time.monotonic()
        refused = [recall_status(client, f"hs_guess_{i}") for i in range(200)]
        elapsed = time.monotonic() - start
        during = reads() - before
    assert set(refused) == {401}
    assert during <= 1 + int(elapsed // 5), (during, elapsed)
