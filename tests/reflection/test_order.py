"""Turns keep the order they were stored in: within one store call and across calls, in the event log, in the
trajectory reflection reads, and in the prompt the LLM gets."""

from hindsight_memory.reflection.trajectory import load, render

from .conftest import NS, draft
from .mcp_gateway import call

BATCH = [
    f"step {i}: {word}" for i, word in enumerate(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"])
]


def _turns(texts, session):
    return [{"content": t, "kind": "working", "session_id": session} for t in texts]


def test_a_batch_stored_over_mcp_keeps_its_order_in_the_event_log_and_the_trajectory(reflect_gateway):
    gw = reflect_gateway
    # GIVEN two store calls of working turns without occurred_at (one timestamp per call, as agents send them)
    call(
        gw,
        ("memory_store", {"namespace": NS, "items": _turns(BATCH, "ordered"), "wait": True}),
        (
            "memory_store",
            {"namespace": NS, "items": _turns(["step 6: golf", "step 7: hotel"], "ordered"), "wait": True},
        ),
    )
    # WHEN the event log is listed over REST (newest first) and the session's trajectory is read
    with gw.http() as http:
        page = http.get(
            "/v1/events",
            params={"namespace": NS, "session_id": "ordered", "limit": 50},
            headers=gw.headers("alice"),
        )
    assert page.status_code == 200, page.text
    traj = load(gw.app.state.ops.tenants.get("acme").store, NS, "ordered")
    # THEN both give the order the turns were sent in
    expected = [*BATCH, "step 6: golf", "step 7: hotel"]
    assert [e["content"] for e in reversed(page.json()["items"])] == expected
    assert [t.content for t in traj.turns] == expected


def test_the_llm_prompt_lists_the_turns_in_the_order_they_were_stored(make_service, fake_llm):
    svc = make_service()
    fake_llm.script(draft("Deploy billing", []))
    from hindsight_memory.models import Kind, MemoryCreate, StoreRequest

    turns = [
        ("user", "Deploy the billing service to staging"),
        ("agent", "Running deploy: kubectl apply -f billing.yaml"),
        ("tool", "ERROR: namespace staging-billing not found"),
        ("agent", "Creating it: kubectl create namespace staging-billing"),
        ("tool", "namespace/staging-billing created"),
        ("user", "Great, it works now."),
    ]
    items = [MemoryCreate(content=c, kind=Kind.working, session_id="p1", source=s) for s, c in turns]
    svc.store_memories(StoreRequest(namespace=NS, items=items, wait=True))
    svc.reflect(NS, session_id="p1")
    prompt = fake_llm.requests[0]["messages"][1]["content"]
    lines = [line for line in prompt.splitlines() if line[:1].isdigit() and ". (" in line]
    assert lines == render(load(svc.store, NS, "p1")).splitlines()
    assert [line.split(") ", 1)[1] for line in lines] == [c for _, c in turns]
    assert lines[0].startswith("1. (user)") and lines[2].startswith("3. (tool")
