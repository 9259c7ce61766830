"""End to end on the local serverless topology: MCP over HTTP -> gateway (HINDSIGHT_QUEUE=sqs) -> the store
queue -> the runner -> the store function -> LanceDB on the emulator's S3 -> MCP recall; a reflect trigger via
its queue and a scheduled compaction through the same runner, on LocalStack (S3 and SQS)."""

import asyncio
import json
import time

import pytest

from hindsight_memory.embed import make_embedder
from hindsight_memory.gateway.auth import create_token
from hindsight_memory.models import Kind, Source
from hindsight_memory.serverless.local_stack import LocalTopology, TenantStack
from hindsight_memory.service import build_store
from tests.gateway.conftest import mcp_client
from tests.reflection.conftest import draft
from tests.support.moto import free_port

pytestmark = [pytest.mark.e2e, pytest.mark.s3]
NS = "alice/e2e"


def _record_calls(source):
    calls = []
    inner = source.handler

    def wrapped(evt, ctx):
        resp = inner(evt, ctx)
        calls.append((evt, resp))
        return resp

    source.handler = wrapped
    return calls


def _wait_for(condition, timeout_s=60.0, what="condition"):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


@pytest.fixture
def topology(localstack_tenant, monkeypatch, load_function, fake_llm):
    t = localstack_tenant
    token, record = create_token(t.name, ["*"], admin=True, name="e2e")
    stack = TenantStack(
        t.endpoint,
        t.name,
        t.store_url,
        t.reflect_url,
        extra_env={
            "HINDSIGHT_TOKENS": json.dumps([record]),
            "HINDSIGHT_EMBEDDER": "hashing",
            # the writer keeps near-duplicates apart, so that compaction has one to merge
            "HINDSIGHT_DEDUP_THRESHOLD": "1.01",
            "HINDSIGHT_COMPACT_MERGE_THRESHOLD": "0.8",
            # reflection calls the fake OpenAI-compatible server through litellm
            "HINDSIGHT_LLM_MODEL": "openai/fake-reflector",
            "HINDSIGHT_LLM_API_BASE": fake_llm.url,
            "OPENAI_API_KEY": "test-key",
        },
    )
    for k, v in stack.env().items():
        monkeypatch.setenv(k, v)
    topo = LocalTopology(stack, port=free_port(), window_s=0.2)
    topo.calls = {"store": _record_calls(topo.store), "reflect": _record_calls(topo.reflect)}
    topo.start()
    print(f"emulator: {t.emulator} at {t.endpoint}")
    yield topo, token, t
    topo.stop()


def _mcp(topo, token, *calls):
    async def go():
        async with mcp_client(topo.mcp_url.removesuffix("/mcp"), token) as c:
            return [await c.call_tool(name, args) for name, args in calls]

    return asyncio.run(go())


def test_an_mcp_store_goes_through_sqs_and_the_store_function_to_s3_and_mcp_recall_returns_it(topology):
    topo, token, tenant = topology

    (stored,) = _mcp(
        topo,
        token,
        (
            "memory_store",
            {
                "namespace": NS,
                "wait": True,
                "items": [{"content": "The staging database lives in eu-central-1.", "kind": "semantic"}],
            },
        ),
    )
    (recalled,) = _mcp(
        topo, token, ("memory_recall", {"namespace": NS, "query": "where is the staging database"})
    )

    assert not stored.is_error and stored.structured_content["status"] == "committed"
    mid = stored.structured_content["ids"][0]
    # the write reached the store function as an SQS batch from the tenant's store queue
    evt, resp = next((e, r) for e, r in topo.calls["store"] if mid in json.dumps(e))
    assert evt["Records"][0]["eventSource"] == "aws:sqs"
    assert evt["Records"][0]["eventSourceARN"].endswith(f"hindsight-{tenant.name}-store")
    assert resp == {"batchItemFailures": []}
    assert [m["id"] for m in recalled.structured_content["memories"]][:1] == [mid]
    assert "eu-central-1" in recalled.structured_content["memories"][0]["content"]


def test_a_task_end_trigger_on_the_reflect_queue_runs_the_reflect_function_which_writes_episode_and_lesson(
    topology, fake_llm
):
    topo, token, tenant = topology
    # GIVEN a task recorded through MCP as working memory, and an LLM (the fake server) that distils a lesson
    turns = [
        ("user", "Please deploy the billing service to staging."),
        ("agent", "I will run the deploy script with the staging config."),
        ("tool", "deploy.sh: error: secret BILLING_DB_URL not found"),
        ("agent", "The secret was missing; I added it to the vault and redeployed, which succeeded."),
    ]
    items = [{"content": c, "kind": "working", "session_id": "s-1", "source": r} for r, c in turns]
    _mcp(topo, token, ("memory_store", {"namespace": NS, "wait": True, "items": items}))
    fake_llm.script(
        draft("Deploy the billing service to staging", [(DEPLOY_LESSON, 0.9, 0.9)], tools=["deploy.sh"])
    )

    # WHEN the task-end trigger reaches the reflect queue
    tenant.sqs().send_message(
        QueueUrl=tenant.reflect_url,
        MessageBody=json.dumps({"trigger": "task_end", "namespace": NS, "session_id": "s-1"}),
    )

    # THEN the reflect function got it as an SQS batch and succeeded
    evt, resp = _wait_for(
        lambda: next(iter(topo.calls["reflect"]), None), what="the reflect function to be invoked"
    )
    assert evt["Records"][0]["eventSourceARN"].endswith(f"hindsight-{tenant.name}-reflect")
    assert json.loads(evt["Records"][0]["body"])["session_id"] == "s-1"
    assert resp == {"batchItemFailures": []}
    # AND the episode and the lesson are rows of the tenant's table on S3, written by the store function
    store = _tables(tenant)
    episode = _only(store, Kind.episodic, source=Source.reflection)
    lesson = _only(store, Kind.semantic)
    assert episode.session_id == "s-1" and episode.metadata["episode"]["intent"].startswith(
        "Deploy the billing"
    )
    assert lesson.content == DEPLOY_LESSON and lesson.source == Source.reflection
    assert lesson.source_ids[:2] == [lesson.id, episode.id] and len(fake_llm.requests) == 1
    # AND the session's working memory is cleared once the store function applies the queued clear
    _wait_for(lambda: not _rows(_tables(tenant), Kind.working), what="working memory to be cleared")


def test_a_scheduled_compaction_merges_a_duplicate_and_compacts_the_fragments_through_the_store_function(
    topology,
):
    topo, token, tenant = topology
    # GIVEN near-duplicates the writer kept apart (the topology's dedup threshold is off), each its own commit
    calls = [
        ("memory_store", {"namespace": NS, "wait": True, "items": [{"content": text, "tags": [tag]}]})
        for text, tag in (
            ("We water the office plants every Friday", "infra"),
            ("we water the office plants every Friday.", "eu"),
            ("We water the garden plants every Monday", "garden"),
        )
    ]
    first, second, other = (r.structured_content["ids"][0] for r in _mcp(topo, token, *calls))
    before = _tables(tenant).table_stats()["memories"]
    assert before["rows"] == 3 and before["fragments"] >= 3

    # WHEN the schedule fires the compact function
    out = topo.runner.fire("compact")

    # THEN it planned one merge and the upkeep, and sent both to the store queue (the single writer applies them)
    assert out["task"] == "compact" and out["result"]["merged"] == 1
    assert out["result"]["upkeep"] == {"queued": True}

    def applied():
        store = _tables(tenant)
        kept = {m.id: m for m, _ in store.find(NS, lambda w: w)}
        stats = store.table_stats()["memories"]
        return (second not in kept and stats["fragments"] == 1, kept, stats)

    _wait_for(lambda: applied()[0], what="the store function to apply the merge and the upkeep")
    _, kept, stats = applied()
    # AND the duplicate was folded into the older memory, which took its sources, count and tags
    assert set(kept) == {first, other}
    assert kept[first].seen_count == 2 and set(kept[first].source_ids) >= {first, second}
    assert kept[first].tags == ["infra", "eu"]
    # AND the table's fragments were compacted into one, and the merged memory is still recalled
    assert stats["rows"] == 2 and stats["fragments"] == 1 < before["fragments"]
    (recalled,) = _mcp(topo, token, ("memory_recall", {"namespace": NS, "query": "office plants watering"}))
    assert first in [m["id"] for m in recalled.structured_content["memories"]]


DEPLOY_LESSON = "Before deploying to staging, check that every secret the service reads exists in the vault."


def _tables(tenant):
    """The tenant's tables on the emulator's S3, opened afresh (a reader in another process)."""
    return build_store(tenant.settings(), make_embedder("hashing"))


def _rows(store, kind, source=None):
    rows = [m for m, _ in store.find(NS, lambda w: w.enum_in("kind", [kind]))]
    return [m for m in rows if source is None or m.source == source]


def _only(store, kind, source=None):
    rows = _rows(store, kind, source)
    assert len(rows) == 1, f"expected one {kind} memory, found {[m.content for m in rows]}"
    return rows[0]
