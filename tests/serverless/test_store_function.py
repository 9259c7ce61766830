"""The store function is the single writer: FIFO SQS batches in, group commits to LanceDB on S3, partial failures
out. Runs against moto server (S3 + SQS FIFO queues with real redrive) and the real functions/store/handler.py."""

import json
import uuid

import pytest
from botocore.exceptions import ClientError

from hindsight_memory.embed.hashing import HashingEmbedder
from hindsight_memory.errors import LimitExceeded
from hindsight_memory.models import utcnow
from hindsight_memory.serverless.runner import LocalRunner, QueueSource
from hindsight_memory.serverless.store import StoreConsumer
from hindsight_memory.service import build_store, build_writer
from hindsight_memory.writer.messages import FeedbackOp, ImportedMemory, ImportOp, TouchOp
from hindsight_memory.writer.queue import SqsQueue, StoreQueueControl, encode, split_encode
from hindsight_memory.writer.writer import Writer
from tests.serverless.faults import (
    ClockedContext,
    ClockedEmbedder,
    CommitFailingStore,
    FakeClock,
    MarkerFailingEmbedder,
)
from tests.serverless.helpers import event, queue_counts, store_op
from tests.support.wait import wait_until

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


def _consumer(tenant, embedder, wrap_store=None, **kw) -> StoreConsumer:
    store = build_store(tenant.settings(), embedder)
    control = StoreQueueControl(tenant.store_url, tenant.store_dlq_url, tenant.sqs())
    writer = build_writer(tenant.settings(), wrap_store(store) if wrap_store else store, embedder)
    return StoreConsumer(writer, control, **kw)


def _receive_count_before_dlq(tenant, count: int) -> None:
    sqs = tenant.sqs()
    policy = json.loads(
        sqs.get_queue_attributes(QueueUrl=tenant.store_url, AttributeNames=["RedrivePolicy"])["Attributes"][
            "RedrivePolicy"
        ]
    )
    policy["maxReceiveCount"] = count
    sqs.set_queue_attributes(QueueUrl=tenant.store_url, Attributes={"RedrivePolicy": json.dumps(policy)})


def _dead_letters(tenant) -> list[dict]:
    got = tenant.sqs().receive_message(
        QueueUrl=tenant.store_dlq_url, MaxNumberOfMessages=10, MessageAttributeNames=["All"]
    )
    return got.get("Messages", [])


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


def test_a_redelivered_batch_and_a_resent_op_write_nothing_twice(tenant, load_function):
    fn = load_function("store", tenant)
    sample = event("sqs_store_batch.json")
    store = fn.consumer.writer.store
    sqs = tenant.sqs()

    # WHEN the same batch arrives twice (a redelivery after a timeout)
    fn.handler(sample, None)
    fn.handler(sample, None)
    # AND an op is sent twice: within SQS's deduplication window, and again as another message
    queue = SqsQueue(tenant.store_url, sqs)
    budget, client = store_op(NS, "Budget is 12k EUR."), store_op(NS, "The client is Contoso.")
    for op in (budget, client):
        queue.submit(op)
        queue.submit(op)
    sqs.send_message(
        QueueUrl=tenant.store_url, MessageBody=encode(budget), MessageGroupId="writer",
        MessageDeduplicationId=uuid.uuid4().hex,
    )  # fmt: skip
    runner, src = _runner(tenant, fn.handler)

    # THEN SQS dropped the resend inside its window, the other copy was delivered
    assert runner.drain(src) == 3
    # AND every memory and every event exists once
    assert store.count("alice/project-x") == 4
    assert store.count("alice/project-x", table="events") == 4


def test_when_a_write_fails_mid_batch_it_and_every_later_message_return_and_commit_in_order(tenant):
    embedder = MarkerFailingEmbedder("kaboom")
    consumer = _consumer(tenant, embedder)
    queue = SqsQueue(tenant.store_url, tenant.sqs())
    texts = ["one fact", "two facts", "kaboom breaks the embedder", "three facts", "four facts"]
    for text in texts:
        queue.submit(store_op(NS, text))
    handler = _recording(lambda evt, ctx: consumer.handle(evt))
    runner, src = _runner(tenant, handler)

    # WHEN the batch is delivered while the embedder fails on one message
    assert runner.poll_once(src) == 5

    # THEN the two before it are committed; it and the two after it return, in order (a FIFO queue keeps the
    # writes' order: a forget must not overtake the store it forgets)
    ((evt, resp),) = handler.calls
    ids = [r["messageId"] for r in evt["Records"]]
    assert resp == {"batchItemFailures": [{"itemIdentifier": m} for m in ids[2:]]}
    assert sorted(m.content for page in consumer.writer.store.scan(NS) for m, _ in page) == [
        "one fact",
        "two facts",
    ]

    # AND once the embedder recovers, the redelivery commits them: nothing lost, nothing dead-lettered
    embedder.broken = False
    assert runner.drain(src) == 3
    assert consumer.writer.store.count(NS) == 5
    assert queue_counts(tenant.sqs(), tenant.store_url) == (0, 0)
    assert queue_counts(tenant.sqs(), tenant.store_dlq_url) == (0, 0)


def test_on_a_standard_queue_only_the_failing_message_returns():
    consumer = StoreConsumer(Writer(_FailingOnMarker(), MarkerFailingEmbedder("kaboom")))
    batch = event("sqs_store_batch.json")
    for rec in batch["Records"]:
        rec["eventSourceARN"] = rec["eventSourceARN"].removesuffix(".fifo")
    first = batch["Records"][0]
    batch["Records"].insert(
        0, {**first, "messageId": "bad", "body": first["body"].replace("deploy", "kaboom")}
    )

    out = consumer.handle(batch)

    assert out == {"batchItemFailures": [{"itemIdentifier": "bad"}]}


class _FailingOnMarker:
    """Just enough of a store for the writer to reach the embedder (standard-queue order test)."""

    def events_by_idem(self, *a):
        return {}

    def get(self, *a, **k):
        return []

    def find(self, *a, **k):
        return []

    def nearest_many(self, ns, vectors, *a, **k):
        return [[] for _ in vectors]

    def upsert(self, *a, **k):
        pass

    def append_events(self, *a, **k):
        pass

    def ensure_fts_index(self):
        pass


def test_a_failed_group_commit_is_retried_message_by_message_and_loses_nothing(tenant):
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


def test_a_failed_message_comes_back_after_a_backoff_and_the_ones_behind_it_at_once(tenant):
    embedder = MarkerFailingEmbedder("kaboom")
    consumer = _consumer(tenant, embedder)
    queue = SqsQueue(tenant.store_url, tenant.sqs())
    for text in ["kaboom first", "then this", "and this"]:
        queue.submit(store_op(NS, text))
    runner, src = _runner(tenant, lambda evt, ctx: consumer.handle(evt), retry_delay_s=None)  # as Lambda

    assert runner.poll_once(src) == 3

    # THEN the failed message is held back a little (not the queue's whole visibility timeout), the two behind
    # it are visible again at once, and the FIFO group hands out nothing before the failed one
    assert queue_counts(tenant.sqs(), tenant.store_url) == (2, 1)
    assert runner.poll_once(src, wait_s=0) == 0
    embedder.broken = False
    assert wait_until(lambda: runner.poll_once(src, wait_s=1) and consumer.writer.store.count(NS) == 3, 20)


def test_a_poison_message_is_set_aside_in_the_dlq_at_once_and_the_writes_behind_it_commit(
    tenant, load_function
):
    fn = load_function("store", tenant)
    sqs = tenant.sqs()
    sqs.send_message(QueueUrl=tenant.store_url, MessageBody="this is not a write op", MessageGroupId="writer")
    queue = SqsQueue(tenant.store_url, sqs)
    queue.submit(store_op(NS, "first good fact"))
    queue.submit(store_op(NS, "second good fact"))
    runner, src = _runner(tenant, fn.handler)

    # WHEN the batch is delivered once
    assert runner.poll_once(src) == 3

    # THEN the poison message went to the DLQ with the reason, without waiting for its receive count to run out
    # (on a FIFO queue it would hold every later write back meanwhile), and the good messages are committed
    assert fn.consumer.writer.store.count(NS) == 2
    assert queue_counts(sqs, tenant.store_url) == (0, 0)
    (dead,) = _dead_letters(tenant)
    assert dead["Body"] == "this is not a write op"
    assert dead["MessageAttributes"]["reason"]["StringValue"].startswith("undecodable")


def test_an_op_the_writer_refuses_is_set_aside_and_the_writes_behind_it_commit(tenant, load_function):
    fn = load_function("store", tenant)
    queue = SqsQueue(tenant.store_url, tenant.sqs())
    foreign = store_op("bob/other", "not alice's").items[0]
    memory = {
        **foreign.model_dump(mode="json", include={"id", "kind", "content", "occurred_at", "stored_at"}),
        "namespace": "bob/other",
        "updated_at": utcnow().isoformat(),
    }
    queue.submit(ImportOp(namespace=NS, memories=[ImportedMemory(memory=memory)]))  # another namespace's row
    queue.submit(store_op(NS, "a good fact"))
    runner, src = _runner(tenant, fn.handler)

    assert runner.drain(src) == 2

    assert fn.consumer.writer.store.count(NS) == 1
    assert fn.consumer.writer.store.count("bob/other") == 0
    (dead,) = _dead_letters(tenant)
    assert json.loads(dead["Body"])["op"] == "import"
    assert dead["MessageAttributes"]["reason"]["StringValue"].startswith("invalid_input")


def test_a_batch_longer_than_the_remaining_time_commits_what_fits_and_returns_the_rest(tenant):
    # GIVEN an embedder at 2,000 characters a second and 4 messages of 10 items of 5,000 characters (100 s of
    # embedding) for a store function with 60 s to run
    clock = FakeClock()
    consumer = _consumer(tenant, ClockedEmbedder(clock, chars_per_s=2000), clock=clock)
    _receive_count_before_dlq(tenant, 10)  # as deployed: a message returned unreached is received again
    queue = SqsQueue(tenant.store_url, tenant.sqs())
    for m in range(4):
        queue.submit(store_op(NS, *[f"message {m} item {i} " + "x" * 5000 for i in range(10)]))
    spans = []

    def invoke(evt, ctx):
        started = clock.now
        out = consumer.handle(evt, ClockedContext(clock, 60))
        spans.append(clock.now - started)
        return out

    handler = _recording(invoke)
    runner, src = _runner(tenant, handler)

    # WHEN the batch is delivered once
    runner.poll_once(src)

    # THEN it returned before its time ran out, with part of it committed and the rest returned
    ((evt, resp),) = handler.calls
    assert spans[0] <= 60
    committed = consumer.writer.store.count(NS)
    assert 0 < committed < 40
    assert resp["batchItemFailures"]
    assert [f["itemIdentifier"] for f in resp["batchItemFailures"]] == [
        r["messageId"] for r in evt["Records"]
    ][-len(resp["batchItemFailures"]) :]

    # AND the next invocations go on where it stopped: every item once, each invocation within its time
    runner.drain(src)
    assert consumer.writer.store.count(NS) == 40
    assert consumer.writer.store.count(NS, table="events") == 40
    assert len(handler.calls) >= 3 and max(spans) <= 60
    assert queue_counts(tenant.sqs(), tenant.store_dlq_url) == (0, 0)


def test_a_message_predicted_too_long_for_any_invocation_is_still_tried_and_commits(tenant):
    # GIVEN a store function whose cost model measured a slow sandbox (300 characters a second: every part of
    # the message below predicts over 100 s) while the embedder runs at 2,000, with 60 s per invocation
    clock = FakeClock()
    consumer = _consumer(tenant, ClockedEmbedder(clock, chars_per_s=2000), clock=clock)
    consumer.cost.s_per_char = 1 / 300
    _receive_count_before_dlq(tenant, 3)
    SqsQueue(tenant.store_url, tenant.sqs()).submit(
        store_op(NS, *[f"item {i} " + "x" * 5000 for i in range(10)])
    )
    handler = _recording(lambda evt, ctx: consumer.handle(evt, ClockedContext(clock, 60)))
    runner, src = _runner(tenant, handler)

    # WHEN the queue is drained
    runner.drain(src)

    # THEN each invocation tried its first part rather than return the message untouched, and all of it
    # committed: nothing reached the DLQ
    assert consumer.writer.store.count(NS) == 10
    assert queue_counts(tenant.sqs(), tenant.store_dlq_url) == (0, 0)


def test_a_redelivered_usage_or_feedback_message_counts_once(tenant, load_function):
    fn = load_function("store", tenant)
    store = fn.consumer.writer.store
    op = store_op(NS, "The release train leaves every second Tuesday.")
    fn.consumer.writer.apply([op])
    mid = op.items[0].id
    queue = SqsQueue(tenant.store_url, tenant.sqs())
    queue.submit(TouchOp(namespace=NS, ids=[mid], counts={mid: 2}, at=utcnow()))
    queue.submit(FeedbackOp(namespace=NS, id=mid, useful=True, at=utcnow()))
    msgs = tenant.sqs().receive_message(QueueUrl=tenant.store_url, MaxNumberOfMessages=10)["Messages"]
    runner, src = _runner(tenant, fn.handler)
    batch = {"Records": [runner._record(src, m) for m in msgs]}

    # WHEN the batch is applied, and delivered again (the delete was lost)
    assert fn.handler(batch, None) == {"batchItemFailures": []}
    assert fn.handler(batch, None) == {"batchItemFailures": []}

    # THEN the usage count and the feedback moved once
    ((m, _),) = store.get(NS, [mid])
    assert m.access_count == 2
    assert m.importance == pytest.approx(0.6)
    assert m.metadata["_feedback"] == {"useful": 1, "not_useful": 0}


def test_a_store_op_larger_than_an_sqs_message_is_split_and_every_item_arrives(tenant, load_function):
    fn = load_function("store", tenant)
    sqs = tenant.sqs()
    sqs.set_queue_attributes(QueueUrl=tenant.store_url, Attributes={"MaximumMessageSize": "262144"})
    texts = [f"note {i}: " + " ".join(f"w{i}x{j}" for j in range(1500)) for i in range(40)]  # ~12 KB each
    op = store_op(NS, *texts)
    with pytest.raises(ClientError):  # unsplit, SQS refuses it
        sqs.send_message(QueueUrl=tenant.store_url, MessageBody=encode(op), MessageGroupId="writer")

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
