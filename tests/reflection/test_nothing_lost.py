"""Turns leaving working memory (trimmed to the last N, or cleared by reflection) stay recallable as episodic
memories: clearing working memory never removes information from recall."""

from hindsight_memory.models import Kind, MemoryCreate, RecallQuery, Source, StoreRequest

from .conftest import NS


def test_turns_trimmed_out_of_working_memory_are_still_recalled_as_episodic(make_service):
    svc = make_service(llm=False, working_memory_turns=3)
    for i in range(5):
        item = MemoryCreate(
            content=f"turn {i}: the user asked about invoice {i}", kind=Kind.working, session_id="c1"
        )
        svc.store_memories(StoreRequest(namespace=NS, items=[item], wait=True))
    working = svc.recall(
        RecallQuery(namespace=NS, query="invoice", kinds=[Kind.working], min_score=0, top_k=10)
    )
    assert sorted(m.content[:6] for m in working.memories) == ["turn 2", "turn 3", "turn 4"]
    old = svc.recall(RecallQuery(namespace=NS, query="the user asked about invoice 0", top_k=3))
    top = old.memories[0]
    assert top.content == "turn 0: the user asked about invoice 0" and top.kind == Kind.episodic


def test_after_reflection_the_session_has_no_working_memory_but_every_turn_is_recallable(make_service):
    svc = make_service(llm=False)
    turns = [
        (Source.user, "Please rotate the API key for the payments service."),
        (Source.agent, "vault write -f payments/rotate-key"),
        (Source.tool, "Key rotated: version 7"),
        (Source.agent, "kubectl rollout restart deployment/payments"),
        (Source.tool, "deployment.apps/payments restarted"),
    ]
    items = [MemoryCreate(content=t, kind=Kind.working, session_id="rot", source=s) for s, t in turns]
    ids = svc.store_memories(StoreRequest(namespace=NS, items=items, wait=True)).ids
    out = svc.reflect(NS, session_id="rot")
    assert out["status"] == "done" and out["working_memory_cleared"]
    left = svc.recall(RecallQuery(namespace=NS, query="rotate", kinds=[Kind.working], min_score=0, top_k=10))
    assert left.memories == []
    for memory_id, (_, text) in zip(ids, turns, strict=True):
        res = svc.recall(RecallQuery(namespace=NS, query=text, top_k=5))
        assert memory_id in [m.id for m in res.memories], text
