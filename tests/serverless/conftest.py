"""Fixtures for the serverless tests: a tenant's bucket and queues on an S3 + SQS emulator, the environment
the functions get from terraform, and the real handler modules loaded fresh under that environment."""

import importlib
import json
import sys
import uuid
from dataclasses import dataclass

import boto3
import pytest

from hindsight_memory.config import Settings
from tests.support.localstack import require_localstack

MAX_RECEIVE_COUNT = 2  # small, so a poison message reaches the DLQ in two deliveries


@dataclass
class Tenant:
    """One tenant's resources on an emulator, named like terraform names them."""

    endpoint: str
    emulator: str  # "localstack" or "moto"
    name: str
    bucket: str
    store_url: str
    store_dlq_url: str
    reflect_url: str

    def env(self) -> dict[str, str]:
        """What terraform passes to the functions, plus the SDK's endpoint for the emulator."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "test",
            "AWS_SECRET_ACCESS_KEY": "test",
            "HINDSIGHT_TENANT": self.name,
            "HINDSIGHT_STORE_URI": f"s3://{self.bucket}/tables",
            "HINDSIGHT_COLD_URI": f"s3://{self.bucket}/cold",
            "HINDSIGHT_S3_ENDPOINT": self.endpoint,
            "HINDSIGHT_QUEUE": "sqs",
            "HINDSIGHT_STORE_QUEUE_URL": self.store_url,
            "HINDSIGHT_REFLECT_QUEUE_URL": self.reflect_url,
            "HINDSIGHT_EMBEDDER": "hashing",
        }

    def settings(self, **overrides) -> Settings:
        return Settings(
            store_uri=f"s3://{self.bucket}/tables",
            cold_uri=f"s3://{self.bucket}/cold",
            s3_endpoint=self.endpoint,
            embedder="hashing",
            queue="sqs",
            store_queue_url=self.store_url,
            reflect_queue_url=self.reflect_url,
            tenant=self.name,
            **overrides,
        )

    def sqs(self):
        return boto3.client(
            "sqs",
            endpoint_url=self.endpoint,
            region_name="us-east-1",
            aws_access_key_id="test",
            aws_secret_access_key="test",
        )


def make_tenant(endpoint: str, emulator: str) -> Tenant:
    name = f"t{uuid.uuid4().hex[:10]}"
    kw = dict(
        endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test"
    )
    s3, sqs = boto3.client("s3", **kw), boto3.client("sqs", **kw)
    bucket = f"hindsight-{name}"
    s3.create_bucket(Bucket=bucket)
    urls = {}
    for kind in ("store", "reflect"):
        dlq = sqs.create_queue(QueueName=f"hindsight-{name}-{kind}-dlq")["QueueUrl"]
        dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        redrive = json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": str(MAX_RECEIVE_COUNT)})
        urls[kind] = sqs.create_queue(
            QueueName=f"hindsight-{name}-{kind}",
            Attributes={"RedrivePolicy": redrive, "VisibilityTimeout": "60"},
        )["QueueUrl"]
        urls[f"{kind}-dlq"] = dlq
    return Tenant(endpoint, emulator, name, bucket, urls["store"], urls["store-dlq"], urls["reflect"])


@pytest.fixture
def tenant(s3_endpoint) -> Tenant:
    """A fresh tenant on moto server (S3 + SQS with real redrive)."""
    return make_tenant(s3_endpoint, "moto")


@pytest.fixture
def localstack_tenant() -> Tenant:
    """A fresh tenant on LocalStack (skipped without it, failed when it is required: make test, CI)."""
    return make_tenant(require_localstack().endpoint, "localstack")


@pytest.fixture
def load_function(monkeypatch):
    """Import functions/<name>/handler.py afresh under a tenant's environment (a cold start per test)."""

    def load(name: str, tenant: Tenant, **extra_env: str):
        for k, v in {**tenant.env(), **extra_env}.items():
            monkeypatch.setenv(k, v)
        module = f"functions.{name}.handler"
        sys.modules.pop(module, None)
        return importlib.import_module(module)

    yield load
    for name in ("store", "recall", "reflect", "compact", "gateway"):
        sys.modules.pop(f"functions.{name}.handler", None)
