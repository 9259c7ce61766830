"""Recall, reflect and compact as Lambda invokes them: direct calls, reflect-queue batches, schedule payloads."""

import json

import pytest

from hindsight_memory.models import MemoryCreate, StoreRequest
from hindsight_memory.serverless import tasks
from hindsight_memory.serverless.events import schedule_payload
from tests.serverless.helpers import event

pytestmark = pytest.mark.s3
NS = "alice/project-x"


def test_the_recall_function_returns_what_was_stored(tenant, load_function):
    fn = load_function("recall", tenant, HINDSIGHT_QUEUE="inprocess")
    fn.service.store_memories(
        StoreRequest(
            namespace=NS,
            wait=True,
            items=[MemoryCreate(content="The release train leaves every second Tuesday.")],
        )
    )

    out = fn.handler({"namespace": NS, "query": "when does the release train leave"}, None)

    assert out["missing"] is False
    assert "second Tuesday" in out["memories"][0]["content"]


@pytest.mark.parametrize(
    "bad, code",
    [
        ({"namespace": "../etc", "query": "x"}, "invalid_input"),
        ({"namespace": NS}, "invalid_input"),
        ({"namespace": NS, "query": "x", "top_k": 10_000}, "limit_exceeded"),
    ],
)
def test_the_recall_function_answers_bad_input_with_an_error_body_not_a_traceback(
    tenant, load_function, bad, code
):
    fn = load_function("recall", tenant)

    out = fn.handler(bad, None)

    assert out["error"]["code"] == code and 400 <= out["status"] < 500


def test_a_reflect_batch_reports_only_the_triggers_that_fail():
    seen = []

    def run_trigger(service, payload):
        seen.append(payload)
        if payload.get("namespace") == "broken/ns":
            raise RuntimeError("boom")
        return {"status": "done"}

    batch = event("sqs_reflect_task_end.json")
    good = batch["Records"][0]
    batch["Records"] += [
        {**good, "messageId": "poison", "body": "not json"},
        {**good, "messageId": "fails", "body": json.dumps({"trigger": "task_end", "namespace": "broken/ns"})},
    ]

    out = tasks.reflect(object(), batch, run_trigger=run_trigger)

    assert out == {"batchItemFailures": [{"itemIdentifier": "poison"}, {"itemIdentifier": "fails"}]}
    assert seen[0] == {"trigger": "task_end", "namespace": NS, "session_id": "s-42"}


def test_a_scheduled_reflect_passes_the_schedule_payload_to_the_trigger():
    out = tasks.reflect(
        object(), event("schedule_reflect_periodic.json"), run_trigger=lambda s, p: {"got": p}
    )

    assert out == {"got": {"trigger": "periodic"}}


@pytest.mark.parametrize("name", ["schedule_compact.json", "schedule_compact_eventbridge_rule.json"])
def test_scheduler_input_and_an_eventbridge_rule_envelope_give_the_same_compact_task(name):
    assert schedule_payload(event(name)) == {"task": "compact"}


def test_a_compact_event_that_is_not_a_compaction_task_is_refused():
    from hindsight_memory.errors import InvalidInput

    with pytest.raises(InvalidInput):
        tasks.compact(object(), {"task": "vacuum"})
