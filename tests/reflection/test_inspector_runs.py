"""Reflection runs as the inspector shows them: trigger, cost, the episode and each lesson's scores and decision,
and deferred work with the run that later completed it."""

from hindsight_memory.inspector.service import Inspector
from hindsight_memory.reflection import run_trigger

from .conftest import CSV_TASK, FAILED_THEN_RETRIED, NS, draft

LESSON = "When a CSV file will not load, check its delimiter first: European exports often use semicolons."
WEAK = "CSV files are sometimes large."


def test_a_run_shows_its_episode_its_lessons_scores_and_what_was_kept(make_service, fake_llm):
    svc = make_service()
    fake_llm.script(draft("Load sales.csv", [(LESSON, 0.9, 0.85), (WEAK, 0.2, 0.1)]))
    out = svc.reflect(NS, trajectory=CSV_TASK)
    runs = Inspector(svc).runs(NS)
    run = Inspector(svc).run(NS, out["run_id"])
    assert [r.id for r in runs.items] == [out["run_id"]] and runs.pending_deferred == 0
    assert run.trigger == "task_end" and run.status == "done" and run.mode == "llm"
    assert run.llm_calls == 1 and run.prompt_tokens > 0 and run.completion_tokens > 0
    assert run.episode["intent"] == "Load sales.csv" and run.episode_memory.id == out["episode_id"]
    kept, dropped = run.lessons
    assert kept.text == LESSON and kept.decision == "insert" and kept.memory.status == "active"
    assert dropped.text == WEAK and dropped.decision == "reject" and dropped.memory is None
    for scores in (kept.scores, dropped.scores):
        assert {"novelty", "reusability", "causal_relevance", "score", "threshold"} <= set(scores)
    assert kept.scores["score"] >= kept.scores["threshold"] > dropped.scores["score"]
    assert run.lessons_kept == 1


def test_deferred_work_shows_as_pending_then_as_completed_by_the_periodic_run(make_service, fake_llm):
    svc = make_service(max_tokens_per_namespace_day=50)
    fake_llm.script(draft("Load sales.csv", [(LESSON, 0.9, 0.8)]))
    svc.reflect(NS, trajectory=CSV_TASK)
    deferred = svc.reflect(NS, session_id="deploy-1", trajectory=FAILED_THEN_RETRIED, trigger="anomaly")
    waiting = Inspector(svc).runs(NS)
    relaxed = make_service(max_tokens_per_namespace_day=1_000_000)
    fake_llm.script(
        draft("Deploy billing", [("Drop a leftover temp table before retrying a deploy.", 0.8, 0.9)])
    )
    run_trigger(relaxed, {"trigger": "periodic"})
    after = Inspector(relaxed).runs(NS)
    first_page = Inspector(relaxed).runs(NS, limit=1)
    second_page = Inspector(relaxed).runs(NS, limit=1, cursor=first_page.next_cursor)
    assert waiting.pending_deferred == 1 and waiting.items[0].status == "deferred"
    assert "daily token budget" in waiting.items[0].reason
    by_id = {r.id: r for r in after.items}
    retry = next(r for r in after.items if r.resolves == deferred["run_id"])
    assert after.pending_deferred == 0 and by_id[deferred["run_id"]].resolved_by == retry.id
    assert retry.trigger == "deferred" and retry.status == "done"
    assert (
        len(first_page.items) == len(second_page.items) == 1
        and first_page.items[0].id != second_page.items[0].id
    )
