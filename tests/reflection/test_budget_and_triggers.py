"""Budgets defer work instead of losing it; the periodic trigger retries it and visits every active namespace."""

from hindsight_memory.models import Kind
from hindsight_memory.reflection import run_trigger

from .conftest import CSV_TASK, FAILED_THEN_RETRIED, NS, draft

LESSON = "When a CSV file will not load, check its delimiter first: European exports often use semicolons."


def _kinds(svc, ns=NS):
    return sorted(m.kind for m, _ in svc.store.find(ns, lambda w: w))


def test_a_spent_daily_budget_defers_the_work_and_the_periodic_trigger_finishes_it(make_service, fake_llm):
    # GIVEN a namespace whose daily token budget one reflection uses up
    svc = make_service(max_tokens_per_namespace_day=50)
    fake_llm.script(draft("Load sales.csv", [(LESSON, 0.9, 0.8)]))
    assert svc.reflect(NS, trajectory=CSV_TASK)["status"] == "done"
    # WHEN the next task ends the same day
    out = svc.reflect(NS, session_id="deploy-1", trajectory=FAILED_THEN_RETRIED, trigger="anomaly")
    # THEN it is deferred before any LLM call, and nothing of the session is lost
    assert out["status"] == "deferred" and "daily token budget" in out["reason"]
    assert len(fake_llm.requests) == 1
    assert _kinds(svc).count(Kind.working) == len(FAILED_THEN_RETRIED)
    assert svc.stats(NS)["reflection"]["pending_deferred"] == 1
    # WHEN the budget allows again and the periodic trigger runs
    relaxed = make_service(max_tokens_per_namespace_day=1_000_000)
    fake_llm.script(
        draft(
            "Deploy billing", [("Drop a leftover migration temp table before retrying a deploy.", 0.8, 0.9)]
        )
    )
    res = run_trigger(relaxed, {"trigger": "periodic"})
    # THEN the deferred session is reflected and marked done
    assert res["namespaces"][NS]["retried"] == [{"session_id": "deploy-1", "status": "done"}]
    assert relaxed.stats(NS)["reflection"]["pending_deferred"] == 0
    assert Kind.working not in _kinds(relaxed)


def test_a_run_over_its_call_budget_is_deferred_without_writing_anything(make_service, fake_llm):
    svc = make_service(max_llm_calls_per_run=1)
    fake_llm.script("not json at all")  # the repair would need a second call
    out = svc.reflect(NS, trajectory=CSV_TASK)
    assert out["status"] == "deferred" and "1 LLM calls" in out["reason"] and out["usage"]["calls"] == 1
    assert Kind.episodic not in _kinds(svc) and Kind.semantic not in _kinds(svc)


def test_task_end_and_anomaly_triggers_reflect_one_session(make_service, fake_llm):
    svc = make_service()
    fake_llm.script(draft("Deploy billing", []))
    out = run_trigger(svc, {"trigger": "anomaly", "namespace": NS, "trajectory": FAILED_THEN_RETRIED})
    assert out["status"] == "done" and out["trigger"] == "anomaly"


def test_the_periodic_trigger_visits_only_namespaces_with_recent_activity_and_keeps_them_apart(
    make_service, fake_llm
):
    svc = make_service(llm=False)
    svc.reflect("bob/notes", trajectory=CSV_TASK)
    res = run_trigger(svc, {"trigger": "periodic"})
    assert list(res["namespaces"]) == ["bob/notes"]
    assert res["namespaces"]["bob/notes"]["induction"]["episodes_seen"] == 1
    assert _kinds(svc, NS) == []
