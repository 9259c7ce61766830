"""Pytest helper for tests that need LocalStack (S3 + SQS).

Start it with ``localstack/install.sh && localstack/start.sh`` (host runtime, no Docker) or
``docker compose -f localstack/docker-compose.yml up -d``.

* :func:`localstack_endpoint` returns the endpoint URL when LocalStack answers healthy for s3 and sqs
  at ``$LOCALSTACK_ENDPOINT`` (default ``http://127.0.0.1:4566``), else ``None``.
* The session-scoped fixture :func:`localstack` yields a :class:`LocalStack` handle that makes boto3
  clients, names the bootstrapped tenant's resources and gives LanceDB ``storage_options``. When
  LocalStack is not running the test is skipped, or fails if ``HINDSIGHT_REQUIRE_LOCALSTACK=1`` or ``CI=true``.
* :func:`localstack_fixture` builds the same fixture with another name or scope.

Use it from a test module (or a conftest) with::

    from tests.support.localstack import localstack  # noqa: F401  (registers the fixture)
"""

from __future__ import annotations

import json
import os
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import pytest

DEFAULT_ENDPOINT = "http://127.0.0.1:4566"
REQUIRE_ENV = "HINDSIGHT_REQUIRE_LOCALSTACK"
REQUIRED_SERVICES = ("s3", "sqs")
_UP_STATES = ("available", "running")


def _endpoint_from_env() -> str:
    return (os.environ.get("LOCALSTACK_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


def localstack_health(endpoint: str | None = None, timeout: float = 2.0) -> dict[str, Any] | None:
    """The parsed ``/_localstack/health`` document, or None when nothing answers."""
    url = (endpoint or _endpoint_from_env()).rstrip("/") + "/_localstack/health"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never via a proxy
    try:
        with opener.open(url, timeout=timeout) as resp:
            return json.load(resp)
    except (OSError, ValueError):
        return None


def localstack_endpoint(endpoint: str | None = None, timeout: float = 2.0) -> str | None:
    """Endpoint URL if LocalStack is up there with s3 and sqs available, else None."""
    endpoint = (endpoint or _endpoint_from_env()).rstrip("/")
    health = localstack_health(endpoint, timeout)
    if not health:
        return None
    services = health.get("services") or {}
    if all(services.get(name) in _UP_STATES for name in REQUIRED_SERVICES):
        return endpoint
    return None


def localstack_required() -> bool:
    """scripts/test.sh starts LocalStack and requires it; so does CI."""
    flags = (os.environ.get(REQUIRE_ENV, ""), os.environ.get("CI", ""))
    return any(v.strip().lower() in ("1", "true", "yes", "on") for v in flags)


@dataclass(frozen=True)
class LocalStack:
    """A running LocalStack and the hindsight tenant bootstrapped in it (localstack/init/bootstrap.py)."""

    endpoint: str
    region: str = "us-east-1"
    tenant: str = "local"
    access_key: str = "test"
    secret_key: str = "test"
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    # --- names created by localstack/init/bootstrap.py ---
    @property
    def bucket(self) -> str:
        return f"hindsight-{self.tenant}"

    def queue_name(self, kind: str = "store") -> str:
        return f"hindsight-{self.tenant}-{kind}"

    def dlq_name(self, kind: str = "store") -> str:
        return f"{self.queue_name(kind)}-dlq"

    def queue_url(self, kind: str = "store") -> str:
        return self.client("sqs").get_queue_url(QueueName=self.queue_name(kind))["QueueUrl"]

    def dlq_url(self, kind: str = "store") -> str:
        return self.client("sqs").get_queue_url(QueueName=self.dlq_name(kind))["QueueUrl"]

    # --- clients ---
    def client_kwargs(self) -> dict[str, Any]:
        from botocore.config import Config

        return {
            "endpoint_url": self.endpoint,
            "region_name": self.region,
            "aws_access_key_id": self.access_key,
            "aws_secret_access_key": self.secret_key,
            "config": Config(
                connect_timeout=5,
                read_timeout=30,
                retries={"max_attempts": 3, "mode": "standard"},
                s3={"addressing_style": "path"},
            ),
        }

    def client(self, service: str):
        """A boto3 client for `service` pointed at LocalStack (cached per service)."""
        if service not in self._cache:
            import boto3

            self._cache[service] = boto3.client(service, **self.client_kwargs())
        return self._cache[service]

    def env(self) -> dict[str, str]:
        """Environment variables that point an AWS SDK (e.g. a subprocess) at LocalStack."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_ACCESS_KEY_ID": self.access_key,
            "AWS_SECRET_ACCESS_KEY": self.secret_key,
            "AWS_DEFAULT_REGION": self.region,
            "AWS_REGION": self.region,
            "LOCALSTACK_ENDPOINT": self.endpoint,
        }

    def storage_options(self) -> dict[str, str]:
        """LanceDB / object_store options for s3:// URIs on LocalStack (all values are strings)."""
        return {
            "aws_endpoint": self.endpoint,
            "aws_region": self.region,
            "aws_access_key_id": self.access_key,
            "aws_secret_access_key": self.secret_key,
            "allow_http": "true",
            "aws_virtual_hosted_style_request": "false",
        }


def require_localstack() -> LocalStack:
    """A :class:`LocalStack` handle; skips the calling test, or fails it when LocalStack is required."""
    wanted = _endpoint_from_env()
    endpoint = localstack_endpoint(wanted)
    if endpoint is None:
        reason = (
            f"LocalStack is not running at {wanted} (s3+sqs healthy); start it with "
            "`localstack/install.sh && localstack/start.sh` or set LOCALSTACK_ENDPOINT"
        )
        if localstack_required():
            pytest.fail(f"{reason} [{REQUIRE_ENV}=1 or CI=true]", pytrace=False)
        pytest.skip(reason)
    return LocalStack(
        endpoint=endpoint,
        region=os.environ.get("AWS_DEFAULT_REGION") or os.environ.get("AWS_REGION") or "us-east-1",
        tenant=os.environ.get("HINDSIGHT_TENANT") or "local",
    )


def localstack_fixture(scope: str = "session", name: str = "localstack"):
    """Build a LocalStack fixture with the given scope and name."""

    @pytest.fixture(scope=scope, name=name)
    def _localstack() -> LocalStack:
        return require_localstack()

    return _localstack


localstack = localstack_fixture()
