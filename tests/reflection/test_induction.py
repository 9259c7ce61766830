"""Induction: clusters of at least three similar episodes become one lesson; stale lessons lose confidence."""

from datetime import timedelta

from hindsight_memory.models import Kind, MemoryCreate, Source, StoreRequest, utcnow
from hindsight_memory.reflection import induce

from .conftest import NS, draft


def _csv_task(month: str) -> list[dict]:
    return [
        {
            "role": "user",
            "content": f"Load the {month} sales export csv into the reporting database and total it.",
        },
        {
            "role": "assistant",
            "content": "Inspecting the sales export csv before loading it into the database.",
        },
        {"role": "tool", "tool": "db_load", "status": "ok", "content": "loaded sales export csv rows"},
        {
            "role": "assistant",
            "content": "Loaded the sales export csv and computed the totals in the database.",
        },
    ]


OTHER = [
    {"role": "user", "content": "Write a birthday poem for my grandmother Ingrid who loves gardening."},
    {"role": "assistant", "content": "Here is a poem about roses, tulips and a patient gardener."},
    {"role": "user", "content": "Lovely, make the second verse rhyme better."},
    {"role": "assistant", "content": "Reworked the second verse with a tighter rhyme scheme."},
]


def _episodes(svc, fake_llm, llm: bool) -> None:
    for month in ("january", "february", "march"):
        if llm:
            fake_llm.script(
                draft(
                    f"Load the {month} sales export csv into the reporting database",
                    [],
                    tools=["db_load"],
                    entities=["reporting database"],
                )
            )
        svc.reflect(NS, trajectory=_csv_task(month))
    if llm:
        fake_llm.script(draft("Write a birthday poem for grandmother Ingrid", []))
    svc.reflect(NS, trajectory=OTHER)


def _lessons(svc):
    return [m for m, _ in svc.store.find(NS, lambda w: w.enum_in("kind", [Kind.semantic]))]


def test_a_cluster_of_three_similar_episodes_becomes_one_lesson(make_service, fake_llm):
    # GIVEN three similar CSV-loading episodes and one unrelated episode
    svc = make_service()
    _episodes(svc, fake_llm, llm=True)
    fake_llm.script(
        {
            "lesson": "Sales exports load cleanly with db_load; total them in the database, not in Python.",
            "consistent": True,
        }
    )
    # WHEN induction runs
    out = svc.induce(NS)
    # THEN one LLM call summarises the cluster into one semantic lesson linked to its three episodes
    assert out["clusters"] == 1 and out["usage"]["calls"] == 1
    (lesson,) = _lessons(svc)
    found = svc.store.find(NS, lambda w: w.enum_in("kind", [Kind.episodic]))
    episodes = {m.id: m for m, _ in found if "episode" in m.tags}  # not the turns that left working memory
    csv_ids = {i for i, m in episodes.items() if "sales" in m.content}
    assert set(lesson.source_ids) >= csv_ids and len(csv_ids) == 3
    assert lesson.source == Source.induction and lesson.metadata["induction"]["size"] == 3
    assert 0.5 < lesson.confidence < 0.95  # three consistent episodes on one day: moderate confidence
    assert all(episodes[i].metadata["induced_into"] == lesson.id for i in csv_ids)
    # AND a second run finds nothing new to induce and calls no LLM
    calls = len(fake_llm.requests)
    again = svc.induce(NS)
    assert again["clusters"] == 0 and len(fake_llm.requests) == calls


def test_heuristic_induction_writes_a_labelled_low_confidence_pattern(make_service, fake_llm):
    svc = make_service(llm=False)
    _episodes(svc, fake_llm, llm=False)
    out = svc.induce(NS)
    assert out["mode"] == "heuristic" and out["usage"]["calls"] == 0 and fake_llm.requests == []
    (lesson,) = _lessons(svc)
    assert lesson.content.startswith("(heuristic pattern from 3 similar episodes)")
    assert lesson.confidence <= 0.4 and "heuristic" in lesson.tags
    assert lesson.metadata["induction"]["mode"] == "heuristic"


def test_a_lesson_not_confirmed_for_long_loses_confidence_once_per_period(make_service):
    svc = make_service(llm=False)
    svc.store_memories(
        StoreRequest(
            namespace=NS,
            wait=True,
            items=[
                MemoryCreate(
                    content="Prefer the bulk loader for large imports.", kind=Kind.semantic, confidence=0.8
                )
            ],
        )
    )
    later = utcnow() + timedelta(days=120)
    induce(svc.reflector, NS, now=later)
    induce(svc.reflector, NS, now=later + timedelta(days=1))
    (lesson,) = _lessons(svc)
    assert abs(lesson.confidence - 0.7) < 1e-6 and lesson.status == "active"  # lowered once, nothing deleted
