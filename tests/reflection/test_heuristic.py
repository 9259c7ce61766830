"""Heuristic mode (no LLM configured): episodes from the events by rules, clearly labelled, no LLM pretended."""

from hindsight_memory.models import Kind, Source

from .conftest import CSV_TASK, FAILED_THEN_RETRIED, NS, TRIVIAL


def _by_kind(svc, kind):
    return [m for m, _ in svc.store.find(NS, lambda w: w.enum_in("kind", [kind]))]


def test_without_an_llm_reflection_builds_a_labelled_episode_and_never_claims_an_llm_ran(
    make_service, fake_llm
):
    svc = make_service(llm=False)
    out = svc.reflect(NS, trajectory=FAILED_THEN_RETRIED, trigger="anomaly")
    assert out["mode"] == "heuristic" and "no LLM ran" in out["note"] and out["usage"]["calls"] == 0
    assert fake_llm.requests == []
    (episode,) = _by_kind(svc, Kind.episodic)
    assert episode.source == Source.reflection and "heuristic" in episode.tags
    assert (
        episode.metadata["reflection"]["mode"] == "heuristic"
        and "model" not in episode.metadata["reflection"]
    )
    assert episode.metadata["episode"]["outcome"] == "success"  # it failed, then the retry worked
    assert episode.metadata["episode"]["tools"] == ["deploy"]
    assert "migration 042 failed" in episode.content and "anomaly" in episode.tags
    assert _by_kind(svc, Kind.semantic) == [] and out["lessons"] == []
    assert svc.stats(NS)["reflection"]["mode"] == "heuristic"


def test_heuristic_mode_still_skips_trivial_tasks_with_a_reason(make_service):
    svc = make_service(llm=False)
    out = svc.reflect(NS, trajectory=TRIVIAL)
    assert out["status"] == "skipped" and out["reason"] and _by_kind(svc, Kind.episodic) == []


def test_a_heuristic_episode_of_a_chinese_task_is_written_in_chinese(make_service):
    svc = make_service(llm=False)
    svc.reflect(
        NS,
        trajectory=[
            {"role": "user", "content": "帮我把订单表导出成 Excel 文件。"},
            {"role": "assistant", "content": "先查询订单表。"},
            {"role": "tool", "tool": "sql", "status": "error", "content": "错误：表 orders 不存在"},
            {"role": "assistant", "content": "表名应为 order_items，重新查询。"},
            {"role": "tool", "tool": "sql", "status": "ok", "content": "返回 120 行"},
        ],
    )
    (episode,) = _by_kind(svc, Kind.episodic)
    assert episode.content.startswith("任务:") and "结果:成功" in episode.content


def test_reflecting_the_same_session_twice_writes_the_episode_once(make_service):
    svc = make_service(llm=False)
    svc.reflect(NS, session_id="s1", trajectory=CSV_TASK)
    svc.reflect(NS, session_id="s1", trajectory=CSV_TASK)
    assert len(_by_kind(svc, Kind.episodic)) == 1
