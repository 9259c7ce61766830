"""Deployed functions read token hashes and provider keys from the tenant's secret (Secrets Manager on moto)."""

import json
import os

import boto3
import pytest

from hindsight_memory.errors import InvalidInput
from hindsight_memory.gateway.auth import TokenRegistry
from hindsight_memory.serverless.settings import load_settings


@pytest.fixture
def secrets(s3_endpoint):
    return boto3.client("secretsmanager", endpoint_url=s3_endpoint, region_name="us-east-1")


def test_the_secret_supplies_tokens_and_provider_keys(secrets, monkeypatch):
    record = {"hash": "ab" * 32, "tenant": "acme", "namespaces": ["alice/*"], "admin": False}
    arn = secrets.create_secret(
        Name="hindsight/acme/config-1",
        SecretString=json.dumps({"tokens": [record], "env": {"HINDSIGHT_TEST_PROVIDER_KEY": "sk-test"}}),
    )["ARN"]
    monkeypatch.setenv("HINDSIGHT_SECRET_ARN", arn)
    monkeypatch.delenv("HINDSIGHT_TEST_PROVIDER_KEY", raising=False)
    settings = load_settings(client=secrets)
    assert os.environ["HINDSIGHT_TEST_PROVIDER_KEY"] == "sk-test"
    # The token hashes are not copied into the settings (a copy would outlive a revocation): the gateway's
    # registry reads them from the secret itself, and again while serving.
    assert settings.tokens is None
    registry = TokenRegistry.from_settings(settings, secrets_client=secrets)
    assert registry.enabled and [r.hash.hex() for r in registry._records] == [record["hash"]]


def test_a_secret_that_is_not_a_json_object_is_a_clear_error(secrets, monkeypatch):
    arn = secrets.create_secret(Name="hindsight/acme/config-2", SecretString="not json")["ARN"]
    monkeypatch.setenv("HINDSIGHT_SECRET_ARN", arn)
    with pytest.raises(InvalidInput, match="JSON object"):
        load_settings(client=secrets)


def test_without_a_secret_the_environment_alone_is_used(monkeypatch):
    monkeypatch.delenv("HINDSIGHT_SECRET_ARN", raising=False)
    monkeypatch.setenv("HINDSIGHT_LLM_MODEL", "")
    assert load_settings().llm_model is None
