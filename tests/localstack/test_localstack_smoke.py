"""Smoke test of the LocalStack dev environment (localstack/): S3 conditional PUT, the bootstrapped
SQS queues and their dead-letter redrive. Skipped when LocalStack is not running, unless it is required
(HINDSIGHT_REQUIRE_LOCALSTACK=1, set by scripts/test.sh, or CI=true): then they fail."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import sys
import time
import uuid
from pathlib import Path

import lancedb
import pytest
from botocore.exceptions import ClientError

REPO_ROOT = Path(__file__).resolve().parents[2]
try:
    from tests.support.localstack import LocalStack, localstack  # noqa: F401  (registers the fixture)
except ModuleNotFoundError:  # pytest run without the repo root on sys.path
    sys.path.insert(0, str(REPO_ROOT))
    from tests.support.localstack import LocalStack, localstack  # noqa: F401


def _load_bootstrap():
    """localstack/init/bootstrap.py, the code the init hook runs (it needs only boto3)."""
    spec = importlib.util.spec_from_file_location(
        "hindsight_ls_bootstrap", REPO_ROOT / "localstack/init/bootstrap.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _status(err: ClientError) -> int:
    return err.response["ResponseMetadata"]["HTTPStatusCode"]


def test_s3_conditional_put_if_none_match(localstack: LocalStack):
    s3 = localstack.client("s3")
    key = f"smoke/{uuid.uuid4().hex}.bin"
    try:
        s3.put_object(Bucket=localstack.bucket, Key=key, Body=b"first", IfNoneMatch="*")
        with pytest.raises(ClientError) as excinfo:
            s3.put_object(Bucket=localstack.bucket, Key=key, Body=b"second", IfNoneMatch="*")
        assert _status(excinfo.value) == 412, excinfo.value.response
        assert excinfo.value.response["Error"]["Code"] == "PreconditionFailed"
        # the first write is the one that stays
        assert s3.get_object(Bucket=localstack.bucket, Key=key)["Body"].read() == b"first"
    finally:
        s3.delete_object(Bucket=localstack.bucket, Key=key)


def test_bootstrapped_queues_have_redrive_policy(localstack: LocalStack):
    sqs = localstack.client("sqs")
    for kind in ("store", "reflect"):
        try:
            url = localstack.queue_url(kind)
            dlq_url = localstack.dlq_url(kind)
        except ClientError as err:
            pytest.fail(
                f"queue {localstack.queue_name(kind)} or its DLQ is missing ({err}); the init hook "
                "localstack/init/ready.d/10-hindsight.sh did not run for tenant "
                f"{localstack.tenant!r} (run localstack/start.sh)"
            )
        attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["RedrivePolicy"])["Attributes"]
        policy = json.loads(attrs["RedrivePolicy"])
        dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        assert policy["deadLetterTargetArn"] == dlq_arn
        assert int(policy["maxReceiveCount"]) == 3


def test_sqs_send_receive_delete_on_store_queue(localstack: LocalStack):
    sqs = localstack.client("sqs")
    url = localstack.queue_url("store")
    body = json.dumps({"smoke": uuid.uuid4().hex})
    sqs.send_message(QueueUrl=url, MessageBody=body)

    deadline = time.monotonic() + 20
    found = None
    while found is None and time.monotonic() < deadline:
        resp = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1)
        for msg in resp.get("Messages", []):
            if msg["Body"] == body:
                found = msg
            else:  # someone else's message on the shared queue: hand it back at once
                sqs.change_message_visibility(
                    QueueUrl=url, ReceiptHandle=msg["ReceiptHandle"], VisibilityTimeout=0
                )
    assert found is not None, "sent message was not received within 20 s"
    sqs.delete_message(QueueUrl=url, ReceiptHandle=found["ReceiptHandle"])

    # deleted: it must not come back even with no visibility timeout
    for _ in range(3):
        resp = sqs.receive_message(
            QueueUrl=url, MaxNumberOfMessages=10, VisibilityTimeout=0, WaitTimeSeconds=0
        )
        assert body not in [m["Body"] for m in resp.get("Messages", [])]


def test_message_received_too_often_moves_to_dlq(localstack: LocalStack):
    """maxReceiveCount is 3: a message received 3 times and never deleted moves to the DLQ.

    Runs on a throwaway tenant created by the same bootstrap code as the init hook, so it never
    takes messages from the shared queues."""
    bootstrap = _load_bootstrap()
    tenant = f"smoke-{uuid.uuid4().hex[:10]}"
    created = bootstrap.bootstrap(tenant, localstack.endpoint, localstack.region)
    assert created == bootstrap.bootstrap(tenant, localstack.endpoint, localstack.region)  # idempotent
    sqs = localstack.client("sqs")
    url = created["queues"]["store"]["url"]
    dlq_url = created["queues"]["store"]["dlq_url"]
    try:
        body = f"poison-{uuid.uuid4().hex}"
        sqs.send_message(QueueUrl=url, MessageBody=body)

        receives = 0
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            msgs = sqs.receive_message(
                QueueUrl=url,
                MaxNumberOfMessages=1,
                VisibilityTimeout=0,
                AttributeNames=["ApproximateReceiveCount"],
            ).get("Messages", [])
            if not msgs:
                break  # moved away
            assert msgs[0]["Body"] == body
            receives += 1
            assert receives <= 3 + 1, "message was received more than maxReceiveCount times and never moved"
        assert receives == 3, f"expected exactly 3 receives before redrive, got {receives}"

        moved = []
        while not moved and time.monotonic() < deadline:
            moved = sqs.receive_message(QueueUrl=dlq_url, MaxNumberOfMessages=1, WaitTimeSeconds=1).get(
                "Messages", []
            )
        assert [m["Body"] for m in moved] == [body]
        sqs.delete_message(QueueUrl=dlq_url, ReceiptHandle=moved[0]["ReceiptHandle"])
    finally:
        names = bootstrap.resource_names(tenant)
        for queue in [*names["queues"].values(), *names["dlqs"].values()]:
            with contextlib.suppress(ClientError):
                sqs.delete_queue(QueueUrl=sqs.get_queue_url(QueueName=queue)["QueueUrl"])
        localstack.client("s3").delete_bucket(Bucket=names["bucket"])


def test_lancedb_table_on_localstack_s3(localstack: LocalStack):
    """LanceDB writes (conditional-PUT commits) and reads back a table in the bootstrapped bucket."""
    prefix = f"smoke-lance/{uuid.uuid4().hex}"
    db = lancedb.connect(f"s3://{localstack.bucket}/{prefix}", storage_options=localstack.storage_options())
    try:
        table = db.create_table("t", data=[{"id": 1, "vector": [0.1, 0.2]}, {"id": 2, "vector": [0.3, 0.4]}])
        table.add([{"id": 3, "vector": [0.5, 0.6]}])
        assert table.count_rows() == 3
        assert table.search([0.5, 0.6]).limit(1).to_list()[0]["id"] == 3
    finally:
        s3 = localstack.client("s3")
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=localstack.bucket, Prefix=prefix):
            for obj in page.get("Contents", []):
                s3.delete_object(Bucket=localstack.bucket, Key=obj["Key"])
