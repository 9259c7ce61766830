"""The correction op through the single writer, on a folder and on emulated S3: one new version per correction,
whatever the redeliveries, and a correction that lost a race to another is refused, not applied twice."""

import pytest

from hindsight_memory.inspector.service import Inspector
from hindsight_memory.models import MemoryCorrection, RecallQuery, Status, StoreRequest, utcnow
from hindsight_memory.writer.messages import OPS, CorrectOp, memory_id

NS = "alice/fix"


def stored(svc, content: str) -> str:
    res = svc.store_memories(StoreRequest(namespace=NS, items=[{"content": content}], wait=True))
    return res.ids[0]


def op(old: str, content: str) -> CorrectOp:
    key = f"test|{old}|{content}"
    return CorrectOp(
        namespace=NS,
        id=old,
        new_id=memory_id(key),
        idem_key=key,
        correction=MemoryCorrection(content=content),
        at=utcnow(),
    )


def test_a_redelivered_correction_writes_one_version_and_one_event(service):
    old = stored(service, "The printer on floor 2 is called Hermes.")
    fix = op(old, "The printer on floor 2 is called Iris.")
    redelivered = OPS.validate_json(fix.model_dump_json())  # what the store function reads back from SQS
    first = service.writer.apply([fix])[0]
    second = service.writer.apply([redelivered])[0]
    mems = {m.id: m for m, _ in service.store.get(NS, [old, fix.new_id])}
    events = service.store.find_events(NS, lambda w: w.ids([fix.new_id]))
    recalled = service.recall(RecallQuery(namespace=NS, query="printer floor 2 name"))
    assert first == second == {"applied": True, "id": fix.new_id, "supersedes": old}
    assert mems[old].status == Status.superseded and mems[old].superseded_by == fix.new_id
    assert mems[fix.new_id].status == Status.active and mems[fix.new_id].supersedes == old
    assert len(events) == 1 and events[0]["source"] == "user-correction"
    assert [m.content for m in recalled.memories] == ["The printer on floor 2 is called Iris."]


def test_a_correction_that_lost_a_race_is_refused_by_the_writer(local_service):
    old = stored(local_service, "The on-call phone is in drawer A.")
    a, b = op(old, "The on-call phone is in drawer B."), op(old, "The on-call phone is in drawer C.")
    out = local_service.writer.apply([a, b])
    active = local_service.store.find(NS, lambda w: w.enum_in("status", [Status.active]))
    assert out[0]["applied"] is True
    assert out[1] == {"applied": False, "reason": "this version is superseded", "superseded_by": a.new_id}
    assert [m.content for m, _ in active] == ["The on-call phone is in drawer B."]


def test_an_unchanged_text_keeps_its_vector_and_only_the_fields_change(local_service):
    old = stored(local_service, "Quarterly planning happens in the Birch room.")
    res = Inspector(local_service).correct(NS, old, MemoryCorrection(tags=["planning"], importance=0.9))
    (before, v_old), (after, v_new) = (
        local_service.store.get(NS, [i], with_vectors=True)[0] for i in (old, res["id"])
    )
    assert (
        after.content == before.content
        and after.tags == ["planning"]
        and after.importance == pytest.approx(0.9)
    )
    assert list(v_new) == list(v_old)
    assert after.metadata["_correction"]["fields"] == ["importance", "tags"]
