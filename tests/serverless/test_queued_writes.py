"""The functions that may only read the tables send their writes through the store queue, and the store function
applies them: compaction decides and the writer archives under the cold/ prefix; usage counts leave at the end of
every invocation; wait=true answers within the function's own timeout; a large export is written to the bucket
and fetched by URL. Real handlers, moto server's S3 + SQS (FIFO), Lambda events."""

import json

import boto3
import httpx
import pytest

from hindsight_memory.embed.hashing import HashingEmbedder
from hindsight_memory.gateway.auth import create_token
from hindsight_memory.serverless.runner import LocalRunner, QueueSource
from hindsight_memory.service import build_store, build_writer
from hindsight_memory.writer.messages import ArchiveOp
from hindsight_memory.writer.queue import SqsQueue, decode
from tests.serverless.helpers import store_op
from tests.support.lambda_events import HOST, mcp_call, response_json, tool_result, url_event

pytestmark = pytest.mark.s3
NS = "alice/project-x"


def _drain_store(tenant, store_fn) -> int:
    src = QueueSource("store", tenant.store_url, store_fn.handler, batch_size=10)
    return LocalRunner(tenant.sqs(), [src], wait_s=0).drain(src)


def _keys(tenant, prefix: str) -> set[str]:
    s3 = boto3.client("s3", endpoint_url=tenant.endpoint, region_name="us-east-1")
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket=tenant.bucket, Prefix=prefix)
    return {o["Key"] for page in pages for o in page.get("Contents", [])}


def _queued_ops(tenant) -> list:
    msgs = tenant.sqs().receive_message(QueueUrl=tenant.store_url, MaxNumberOfMessages=10)
    return [decode(m["Body"]) for m in msgs.get("Messages", [])]


def _gateway(load_function, tenant, **env):
    token, record = create_token(tenant.name, ["*"], admin=True, name="admin")
    fn = load_function(
        "gateway", tenant, HINDSIGHT_TOKENS=json.dumps([record]), HINDSIGHT_ALLOWED_HOSTS=HOST, **env
    )
    return fn, token


def test_compaction_decides_and_the_store_function_archives_under_the_cold_prefix(tenant, load_function):
    # GIVEN a memory of very low confidence, committed by the store function
    store_fn = load_function("store", tenant)
    SqsQueue(tenant.store_url, tenant.sqs()).submit(store_op(NS, "A doubtful rumour.", confidence=0.05))
    assert _drain_store(tenant, store_fn) == 1
    before = _keys(tenant, "tables/") | _keys(tenant, "cold/")

    # WHEN the compact function runs with an archive age every memory passes
    compact_fn = load_function("compact", tenant, HINDSIGHT_ARCHIVE_AFTER_DAYS="-1")
    out = compact_fn.handler({"task": "compact"}, None)

    # THEN it decided, wrote nothing itself, and queued its writes for the store function
    assert out["result"]["archived"] == 1 and out["result"]["upkeep"] == {"queued": True}
    assert _keys(tenant, "tables/") | _keys(tenant, "cold/") == before
    # AND once the store function has applied them, the memory lives in the cold tier under cold/, where the
    # bucket's lifecycle rule moves it to a cheaper storage class, and compaction's cursor is recorded
    assert _drain_store(tenant, store_fn) == 3  # archive, cursor, upkeep
    store = store_fn.consumer.writer.store
    store.refresh()
    assert store.count(NS) == 0 and store.count(NS, table="cold") == 1
    assert any(k.startswith("cold/cold.lance/") for k in _keys(tenant, "cold/"))
    assert not any(k.startswith("tables/cold.lance/") for k in _keys(tenant, "tables/"))
    assert "compact_cursor" in store.catalog()


def test_archives_made_before_the_cold_tier_had_its_own_prefix_stay_readable(tenant):
    # GIVEN a memory archived while the cold table lived beside the others
    settings = tenant.settings().model_copy(update={"queue": "inprocess", "cold_uri": None})
    embedder = HashingEmbedder(256)
    old = build_store(settings, embedder)
    op = store_op(NS, "An archived decision.")
    writer = build_writer(settings, old, embedder)
    writer.apply([op])
    writer.apply([ArchiveOp(namespace=NS, ids=[op.items[0].id], at=op.items[0].stored_at)])

    # WHEN the store is opened with the cold tier configured under cold/
    new = build_store(tenant.settings().model_copy(update={"queue": "inprocess"}), embedder)

    # THEN the archived memory is still found (where it was), nothing is lost
    assert new.count(NS, table="cold") == 1
    assert new.get(NS, [op.items[0].id], table="cold")


def test_the_gateway_sends_its_buffered_usage_counts_at_the_end_of_every_invocation(tenant, load_function):
    store_fn = load_function("store", tenant)
    op = store_op(NS, "The release train leaves every second Tuesday.")
    SqsQueue(tenant.store_url, tenant.sqs()).submit(op)
    _drain_store(tenant, store_fn)
    gateway, token = _gateway(load_function, tenant)

    recalled = gateway.handler(
        url_event("/v1/memories/recall", {"namespace": NS, "query": "release train"}, token), None
    )

    # THEN right after the invocation (not 5 seconds and another recall later) the usage count is on the queue
    assert response_json(recalled)["memories"][0]["id"] == op.items[0].id
    (touch,) = _queued_ops(tenant)
    assert touch.op == "touch" and touch.ids == [op.items[0].id]


def test_the_recall_function_sends_its_usage_counts_before_returning(tenant, load_function):
    store_fn = load_function("store", tenant)
    op = store_op(NS, "The release train leaves every second Tuesday.")
    SqsQueue(tenant.store_url, tenant.sqs()).submit(op)
    _drain_store(tenant, store_fn)
    recall_fn = load_function("recall", tenant)

    out = recall_fn.handler({"namespace": NS, "query": "release train"}, None)

    assert out["memories"][0]["id"] == op.items[0].id
    (touch,) = _queued_ops(tenant)
    assert touch.op == "touch" and touch.ids == [op.items[0].id]


def test_a_wait_for_the_writer_answers_queued_within_the_gateways_own_timeout(tenant, load_function):
    # GIVEN a gateway function with a 7 s timeout and no store function draining the queue
    gateway, token = _gateway(load_function, tenant, HINDSIGHT_FUNCTION_TIMEOUT_S="7")
    item = {"namespace": NS, "wait": True, "items": [{"content": "The build takes 12 minutes."}]}

    # WHEN a store asks to wait until its items are visible
    rest = gateway.handler(url_event("/v1/memories/store", item, token), None)
    mcp = gateway.handler(mcp_call("memory_store", item, token), None)

    # THEN both edges answer before the function would have been cut off: queued, not lost, not an error
    assert rest["statusCode"] == 202 and response_json(rest)["error"]["code"] == "timeout"
    result = response_json(mcp)["result"]
    assert result["isError"] and "queued" in result["content"][0]["text"]
    assert {op.op for op in _queued_ops(tenant)} == {"store"}


def test_a_large_export_is_written_to_the_bucket_and_fetched_by_url(tenant, load_function):
    store_fn = load_function("store", tenant)
    texts = [f"fact {i}: the service on port {8000 + i} belongs to team {i % 7}" for i in range(60)]
    SqsQueue(tenant.store_url, tenant.sqs()).submit(store_op(NS, *texts))
    _drain_store(tenant, store_fn)
    gateway, token = _gateway(
        load_function,
        tenant,
        HINDSIGHT_EXPORT_URI=f"s3://{tenant.bucket}/exports",
        HINDSIGHT_EXPORT_INLINE_MAX_BYTES="4000",
    )

    small = tool_result(
        gateway.handler(mcp_call("memory_export", {"namespace": NS, "limit": 3}, token), None)
    )
    large = tool_result(gateway.handler(mcp_call("memory_export", {"namespace": NS}, token), None))

    # THEN a small export answers inline; a large one is a JSONL file under exports/ behind a presigned URL
    assert small["count"] == 3 and len(small["records"]) == 3 and "url" not in small
    assert "records" not in large and large["count"] == 121  # header, 60 memories, 60 events
    assert large["key"].startswith("exports/") and large["key"] in _keys(tenant, "exports/")
    lines = httpx.get(large["url"], timeout=30).text.splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == 121 and records[0]["type"] == "header"
    assert sorted(r["memory"]["content"] for r in records if r["type"] == "memory") == sorted(texts)


def test_usage_counts_the_queue_refuses_never_fail_a_recall_and_leave_with_the_next_one(
    tenant, load_function
):
    store_fn = load_function("store", tenant)
    op = store_op(NS, "The release train leaves every second Tuesday.")
    SqsQueue(tenant.store_url, tenant.sqs()).submit(op)
    _drain_store(tenant, store_fn)
    late_url = tenant.store_url.replace(".fifo", "-late.fifo")  # a queue that does not exist yet
    recall_fn = load_function("recall", tenant, HINDSIGHT_STORE_QUEUE_URL=late_url)

    # WHEN the queue cannot take the usage counts at the end of an invocation
    first = recall_fn.handler({"namespace": NS, "query": "release train"}, None)

    # THEN the recall is answered all the same
    assert first["memories"][0]["id"] == op.items[0].id
    # AND once the queue takes messages again, the next invocation sends both recalls' counts
    sqs = tenant.sqs()
    sqs.create_queue(
        QueueName=late_url.rsplit("/", 1)[1],
        Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"},
    )
    recall_fn.handler({"namespace": NS, "query": "release train"}, None)
    (msg,) = sqs.receive_message(QueueUrl=late_url, MaxNumberOfMessages=10)["Messages"]
    touch = decode(msg["Body"])
    assert touch.op == "touch" and touch.counts == {op.items[0].id: 2}


def test_a_malformed_reflection_request_is_refused_at_the_gateway_and_nothing_is_queued(
    tenant, load_function
):
    gateway, token = _gateway(load_function, tenant)
    bad = {"namespace": NS, "trajectory": [{"role": "robot", "content": "beep"}]}

    out = response_json(gateway.handler(mcp_call("memory_reflect", bad, token), None))["result"]

    assert out["isError"] and "invalid_input: unknown role" in out["content"][0]["text"]
    queued = tenant.sqs().receive_message(QueueUrl=tenant.reflect_url, MaxNumberOfMessages=10)
    assert queued.get("Messages", []) == []
