"""The store function is the single writer: SQS batches in, group commits to LanceDB on S3, partial failures out.
Runs against moto server (S3 + SQS with real redrive) and the real functions/store/handler.py."""

import pytest
from botocore.exceptions import ClientError

from hindsight_memory.errors import LimitExceeded
from hindsight_memory.serverless.runner import LocalRunner, QueueSource
from hindsight_memory.serverless.store import StoreConsumer
from hindsight_memory.service import build_store, build_writer
from hindsight_memory.writer.queue import SqsQueue, encode, split_encode
from tests.serverless.faults import CommitFailingStore, MarkerFailingEmbedder
from tests.serverless.helpers import event, queue_counts, store_op

pytestmark = pytest.mark.s3
NS = "alice/project-x"


def _recording(handler):
    """Wrap a handler to keep every (event, response) pair, as Lambda's logs would."""
    calls = []

    def wrapped(evt, ctx):
        resp = handler(evt, ctx)
        calls.append((evt, resp))
        return resp

    wrapped.calls = calls
    return wrapped


def _runner(tenant, handler, **source):
    src = QueueSource("store", tenant.store_url, handler, batch_size=10, window_s=0.5, **source)
    return LocalRunner(tenant.sqs(), [src], wait_s=0), src


def _consumer(tenant, embedder, wrap_store=None) -> StoreConsumer:
    store = build_store(tenant.settings(), embedder)
    return StoreConsumer(
        build_writer(tenant.settings(), wrap_store(store) if wrap_store else store, embedder)
    )


def test_a_queued_batch_is_committed_to_lancedb_on_s3_and_deleted_from_the_queue(tenant, load_function):
    fn = load_function("store", tenant)
    queue = SqsQueue(tenant.store_url, tenant.sqs())
    queue.submit(store_op(NS, "The deploy target is eu-west-1."))
    queue.submit(store_op(NS, "Standups move to 9:30 from Monday."))
    runner, src = _runner(tenant, fn.handler)

    assert runner.drain(src) == 2

    assert fn.consumer.writer.store.count(NS) == 2
    assert queue_counts(tenant.sqs(), tenant.store_url) == (0, 0)


def test_the_sample_sqs_event_is_accepted_with_no_failures(tenant, load_function):
    fn = load_function("store", tenant)

    assert fn.handler(event("sqs_store_batch.json"), None) == {"batchItemFailures": []}
    assert fn.consumer.writer.store.count("alice/project-x") == 2


def test_each_message_delivered_twice_writes_no_duplicates(tenant, load_function):
    fn = load_function("store", tenant)
    sample = event("sqs_store_batch.json")
    store = fn.consumer.writer.store

    # WHEN the same batch arrives twice (a redelivery after a timeout), and each message twice in one batch
    fn.handler(sample, None)
    fn.handler(sample, None)
    queue = SqsQueue(tenant.store_url, tenant.sqs())
    for op in [store_op(NS, "Budget is 12k EUR."), store_op(NS, "The client is Contoso.")]:
        queue.submit(op)
        queue.submit(op)  # SQS is at-least-once: the duplicate may share the batch
    runner, src = _runner(tenant, fn.handler)
    assert runner.drain(src) == 4

    # THEN every memory and every event exists once
    assert store.count("alice/project-x") == 4
    assert store.count("alice/project-x", table="events") == 4


def test_when_the_writer_fails_mid_batch_only_those_messages_return_and_are_retried(tenant):
    embedder = MarkerFailingEmbedder("kaboom")
    consumer = _consumer(tenant, embedder)
    queue = SqsQueue(tenant.store_url, tenant.sqs())
    for text in ["one fact", "two facts", "kaboom breaks the embedder", "three facts", "four facts"]:
        queue.submit(store_op(NS, text))
    handler = _recording(lambda evt, ctx: consumer.handle(evt))
    runner, src = _runner(tenant, handler)

    # WHEN the batch is delivered while the embedder fails on one message
    assert runner.poll_once(src) == 5

    # THEN only that message is reported, the other four are committed, and it waits on the queue
    ((evt, resp),) = handler.calls
    bad = [r["messageId"] for r in evt["Records"] if "kaboom" in r["body"]]
    assert resp == {"batchItemFailures": [{"itemIdentifier": bad[0]}]}
    assert consumer.writer.store.count(NS) == 4
    assert queue_counts(tenant.sqs(), tenant.store_url)[0] == 1

    # AND once the embedder recovers, the redelivery commits it: nothing lost
    embedder.broken = False
    assert runner.drain(src) == 1
    assert consumer.writer.store.count(NS) == 5
    assert queue_counts(tenant.sqs(), tenant.store_url) == (0, 0)
    assert queue_counts(tenant.sqs(), tenant.store_dlq_url) == (0, 0)


def test_a_failed_group_commit_is_retried_message_by_message_and_loses_nothing(tenant):
    from hindsight_memory.embed.hashing import HashingEmbedder

    faulty: list[CommitFailingStore] = []
    consumer = _consumer(
        tenant, HashingEmbedder(256), lambda s: faulty.append(CommitFailingStore(s, 1)) or faulty[0]
    )
    queue = SqsQueue(tenant.store_url, tenant.sqs())
    for i in range(4):
        queue.submit(store_op(NS, f"fact number {i}"))
    handler = _recording(lambda evt, ctx: consumer.handle(evt))
    runner, src = _runner(tenant, handler)

    assert runner.drain(src) == 4

    assert faulty[0].failures == 0  # the injected fault did fire
    assert all(resp == {"batchItemFailures": []} for _, resp in handler.calls)
    assert consumer.writer.store.count(NS) == 4


def test_an_object_store_outage_returns_the_whole_batch_which_commits_after_recovery(tenant):
    from hindsight_memory.embed.hashing import HashingEmbedder

    faulty: list[CommitFailingStore] = []
    consumer = _consumer(
        tenant, HashingEmbedder(256), lambda s: faulty.append(CommitFailingStore(s, 10**6)) or faulty[0]
    )
    queue = SqsQueue(tenant.store_url, tenant.sqs())
    for i in range(3):
        queue.submit(store_op(NS, f"fact number {i}"))
    handler = _recording(lambda evt, ctx: consumer.handle(evt))
    runner, src = _runner(tenant, handler)

    assert runner.poll_once(src) == 3
    assert len(handler.calls[0][1]["batchItemFailures"]) == 3
    assert consumer.writer.store.count(NS) == 0

    faulty[0].failures = 0
    assert runner.drain(src) == 3
    assert consumer.writer.store.count(NS) == 3


def test_a_poison_message_ends_in_the_dlq_without_blocking_the_rest(tenant, load_function):
    fn = load_function("store", tenant)
    sqs = tenant.sqs()
    sqs.send_message(QueueUrl=tenant.store_url, MessageBody="this is not a write op")
    queue = SqsQueue(tenant.store_url, sqs)
    queue.submit(store_op(NS, "first good fact"))
    queue.submit(store_op(NS, "second good fact"))
    runner, src = _runner(tenant, fn.handler)  # failures come back at once (visibility 0)

    # WHEN the queue is polled until the redrive policy has moved the poison message
    for _ in range(20):
        if queue_counts(sqs, tenant.store_dlq_url)[0] == 1:
            break
        runner.poll_once(src)
    else:
        pytest.fail("the poison message never reached the DLQ")

    # THEN the good messages were committed on the first delivery, and only the poison one is dead-lettered
    assert fn.consumer.writer.store.count(NS) == 2
    assert queue_counts(sqs, tenant.store_url) == (0, 0)
    dead = sqs.receive_message(QueueUrl=tenant.store_dlq_url)["Messages"]
    assert [m["Body"] for m in dead] == ["this is not a write op"]


def test_a_store_op_larger_than_an_sqs_message_is_split_and_every_item_arrives(tenant, load_function):
    fn = load_function("store", tenant)
    sqs = tenant.sqs()
    sqs.set_queue_attributes(QueueUrl=tenant.store_url, Attributes={"MaximumMessageSize": "262144"})
    texts = [f"note {i}: " + " ".join(f"w{i}x{j}" for j in range(1500)) for i in range(40)]  # ~12 KB each
    op = store_op(NS, *texts)
    with pytest.raises(ClientError):  # unsplit, SQS refuses it
        sqs.send_message(QueueUrl=tenant.store_url, MessageBody=encode(op))

    SqsQueue(tenant.store_url, sqs).submit(op)

    runner, src = _runner(tenant, fn.handler)
    delivered = runner.drain(src)
    assert 1 < delivered == len(split_encode(op))
    assert fn.consumer.writer.store.count(NS) == 40
    assert fn.consumer.writer.store.count(NS, table="events") == 40


def test_a_single_item_too_large_for_one_message_is_refused_before_sending():
    op = store_op(NS, "y" * 5000)

    with pytest.raises(LimitExceeded):
        split_encode(op, max_bytes=4096)
