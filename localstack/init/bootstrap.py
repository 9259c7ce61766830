#!/usr/bin/env python3
"""Create a hindsight tenant's AWS resources in LocalStack. Idempotent.

For tenant T (default $HINDSIGHT_TENANT, else "local"):
  * S3 bucket   hindsight-T
  * SQS queues  hindsight-T-store.fifo (FIFO, as terraform makes it: one writer at a time) and
                hindsight-T-reflect, each with a dead-letter queue (hindsight-T-store-dlq.fifo,
                hindsight-T-reflect-dlq) and a redrive policy with maxReceiveCount 3.

Needs only boto3, so it runs with the host venv's python (.venv-localstack) and inside the
localstack/localstack image (/opt/code/localstack/.venv/bin/python).

Endpoint: --endpoint, else $LOCALSTACK_ENDPOINT, else $AWS_ENDPOINT_URL, else http://localhost:4566.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

MAX_RECEIVE_COUNT = 3
QUEUE_KINDS = ("store", "reflect")
# bucket names: 3-63 chars of [a-z0-9-]; the longest queue name (hindsight-T-reflect-dlq) must stay <= 80
TENANT_RE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$")


FIFO_KINDS = ("store",)


def _suffix(kind: str) -> str:
    return ".fifo" if kind in FIFO_KINDS else ""


def resource_names(tenant: str) -> dict:
    """Names of every resource for `tenant` (shared with tests)."""
    base = f"hindsight-{tenant}"
    return {
        "bucket": base,
        "queues": {kind: f"{base}-{kind}{_suffix(kind)}" for kind in QUEUE_KINDS},
        "dlqs": {kind: f"{base}-{kind}-dlq{_suffix(kind)}" for kind in QUEUE_KINDS},
    }


def _clients(endpoint: str, region: str):
    kwargs = dict(
        endpoint_url=endpoint,
        region_name=region,
        aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID") or "test",
        aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY") or "test",
        config=Config(retries={"max_attempts": 5, "mode": "standard"}, s3={"addressing_style": "path"}),
    )
    return boto3.client("s3", **kwargs), boto3.client("sqs", **kwargs)


def ensure_bucket(s3, name: str, region: str) -> None:
    params = {"Bucket": name}
    if region != "us-east-1":
        params["CreateBucketConfiguration"] = {"LocationConstraint": region}
    try:
        s3.create_bucket(**params)
    except ClientError as err:
        if err.response["Error"]["Code"] not in ("BucketAlreadyOwnedByYou", "BucketAlreadyExists"):
            raise


def ensure_queue(sqs, name: str, attributes: dict[str, str] | None = None) -> str:
    """Create the queue if missing and (re)apply `attributes`; returns the queue URL."""
    fifo = {"FifoQueue": "true", "ContentBasedDeduplication": "true"} if name.endswith(".fifo") else {}
    try:
        url = sqs.create_queue(QueueName=name, Attributes=fifo)["QueueUrl"]
    except ClientError as err:
        if err.response["Error"]["Code"] not in ("QueueAlreadyExists", "QueueNameExists"):
            raise
        url = sqs.get_queue_url(QueueName=name)["QueueUrl"]
    if attributes:
        sqs.set_queue_attributes(QueueUrl=url, Attributes=attributes)
    return url


def bootstrap(tenant: str, endpoint: str, region: str) -> dict:
    if not TENANT_RE.match(tenant):
        raise ValueError(f"invalid tenant {tenant!r}: use 1-40 chars of a-z, 0-9 and '-'")
    names = resource_names(tenant)
    s3, sqs = _clients(endpoint, region)

    ensure_bucket(s3, names["bucket"], region)
    result = {"bucket": names["bucket"], "queues": {}}
    for kind in QUEUE_KINDS:
        dlq_url = ensure_queue(sqs, names["dlqs"][kind])
        dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        redrive = json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": str(MAX_RECEIVE_COUNT)})
        url = ensure_queue(sqs, names["queues"][kind], {"RedrivePolicy": redrive})
        result["queues"][kind] = {"url": url, "dlq_url": dlq_url, "dlq_arn": dlq_arn}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tenant", action="append", help="tenant id (repeatable); default $HINDSIGHT_TENANT or 'local'"
    )
    parser.add_argument(
        "--endpoint",
        default=os.environ.get("LOCALSTACK_ENDPOINT")
        or os.environ.get("AWS_ENDPOINT_URL")
        or "http://localhost:4566",
    )
    parser.add_argument(
        "--region",
        default=os.environ.get("AWS_DEFAULT_REGION") or os.environ.get("AWS_REGION") or "us-east-1",
    )
    args = parser.parse_args(argv)

    tenants = args.tenant or [os.environ.get("HINDSIGHT_TENANT") or "local"]
    for tenant in tenants:
        try:
            result = bootstrap(tenant, args.endpoint, args.region)
        except (ValueError, ClientError) as err:
            print(f"[hindsight-bootstrap] tenant {tenant}: {err}", file=sys.stderr)
            return 1
        queues = ", ".join(f"{q['url'].rsplit('/', 1)[-1]} (+dlq)" for q in result["queues"].values())
        print(
            f"[hindsight-bootstrap] tenant {tenant} at {args.endpoint}: bucket {result['bucket']}; queues {queues}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
