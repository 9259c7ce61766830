"""Heuristic mode (no LLM configured): the episode a person would write, lessons only from explicit evidence,
clearly labelled, no LLM pretended."""

from hindsight_memory.models import Kind, MemoryCreate, Source, StoreRequest
from hindsight_memory.reflection.heuristic import FIX_MAX_CONFIDENCE

from .conftest import CSV_TASK, FAILED_THEN_RETRIED, NS, TRIVIAL


def _by_kind(svc, kind):
    return [m for m, _ in svc.store.find(NS, lambda w: w.enum_in("kind", [kind]))]


def _episodes(svc):
    return [m for m in _by_kind(svc, Kind.episodic) if "episode" in m.tags]


def _store_turns(svc, session, turns):
    """One store call of working-memory turns, as an agent sends them (no occurred_at)."""
    items = [
        MemoryCreate(content=c, kind=Kind.working, session_id=session, source=s, metadata=meta)
        for s, c, meta in turns
    ]
    svc.store_memories(StoreRequest(namespace=NS, items=items, wait=True))


def test_without_an_llm_reflection_builds_a_labelled_episode_and_never_claims_an_llm_ran(
    make_service, fake_llm
):
    svc = make_service(llm=False)
    out = svc.reflect(NS, trajectory=FAILED_THEN_RETRIED, trigger="anomaly")
    assert out["mode"] == "heuristic" and "no LLM ran" in out["note"] and out["usage"]["calls"] == 0
    assert fake_llm.requests == []
    (episode,) = _episodes(svc)
    assert episode.source == Source.reflection and "heuristic" in episode.tags
    assert (
        episode.metadata["reflection"]["mode"] == "heuristic"
        and "model" not in episode.metadata["reflection"]
    )
    ep = episode.metadata["episode"]
    assert ep["outcome"] == "success"  # it failed, then the retry worked
    assert ep["tools"] == ["deploy"] and ep["intent"] == "Deploy the billing service to staging"
    assert ep["fixes"] == ["The previous migration left a temp table. Dropping invoices_tmp and retrying."]
    assert "migration 042 failed" in episode.content and "anomaly" in episode.tags


def test_a_failure_followed_by_a_fix_is_kept_as_a_low_confidence_lesson_labelled_heuristic(make_service):
    svc = make_service(llm=False)
    out = svc.reflect(NS, trajectory=FAILED_THEN_RETRIED, trigger="anomaly")
    (lesson,) = _by_kind(svc, Kind.semantic)
    assert "Dropping invoices_tmp" in lesson.content and "migration 042 failed" in lesson.content
    assert round(lesson.confidence, 3) <= FIX_MAX_CONFIDENCE  # stored as float32
    prov = lesson.metadata["reflection"]
    assert prov["mode"] == "heuristic" and prov["origin"] == "fix" and "model" not in prov
    assert [d["decision"] for d in out["lessons"]] == ["insert"]


def test_the_same_fix_seen_in_a_second_task_confirms_the_lesson_instead_of_repeating_it(make_service):
    svc = make_service(llm=False)
    svc.reflect(NS, session_id="first", trajectory=FAILED_THEN_RETRIED)
    (before,) = _by_kind(svc, Kind.semantic)
    out = svc.reflect(NS, session_id="second", trajectory=FAILED_THEN_RETRIED)
    (after,) = _by_kind(svc, Kind.semantic)
    assert [d["decision"] for d in out["lessons"]] == ["merge"]
    assert after.id == before.id and after.confidence > before.confidence and after.seen_count == 2


def test_an_instruction_of_the_user_becomes_a_lesson_even_in_a_short_task(make_service):
    svc = make_service(llm=False)
    _store_turns(
        svc,
        "mail",
        [
            (Source.user, "Draft a reply to Maria declining the Thursday meeting.", {}),
            (Source.agent, "Hi Maria, unfortunately I can't make it on Thursday. Tom", {}),
            (Source.user, "Good. Always sign my emails with just my first name.", {}),
        ],
    )
    out = svc.reflect(NS, session_id="mail")
    assert out["status"] == "done"
    (lesson,) = _by_kind(svc, Kind.semantic)
    assert lesson.content.startswith("Always sign my emails with just my first name.")
    assert "Draft a reply to Maria" in lesson.content  # the task it was said in
    assert lesson.metadata["reflection"]["origin"] == "instruction" and lesson.confidence > 0.6


def test_chinese_instructions_and_role_labels_in_the_text_are_read(make_service):
    svc = make_service(llm=False)
    # Stored without a source: the labels in the text say who spoke.
    _store_turns(
        svc,
        "zh",
        [
            (Source.user, "用户：帮我把测试环境的 redis 缓存清空。", {}),
            (Source.user, "助手：执行 redis-cli -h redis-test FLUSHALL", {}),
            (Source.user, "工具：OK", {}),
            (Source.user, "用户：可以了。记住以后清缓存之前先通知测试组。", {}),
        ],
    )
    out = svc.reflect(NS, session_id="zh")
    ep = out["episode"]
    assert ep["intent"] == "把测试环境的 redis 缓存清空" and ep["outcome"] == "success"
    assert ep["tools"] == ["redis-cli"]
    (lesson,) = _by_kind(svc, Kind.semantic)
    assert lesson.content.startswith("以后清缓存之前先通知测试组")


def test_the_outcome_comes_from_the_end_of_the_task(make_service):
    svc = make_service(llm=False)
    cases = {
        "user-unhappy": [
            (Source.user, "Summarise this contract in five bullet points.", {}),
            (Source.agent, "1. Term: 2 years. 2. Fee: 4,000 EUR. 3. Notice: 3 months.", {}),
            (Source.user, "You missed the exclusivity clause. Not what I asked.", {}),
        ],
        "agent-partial": [
            (Source.user, "Import the 5 supplier price lists.", {}),
            (Source.agent, 'import_prices("a.xlsx")', {}),
            (Source.tool, "320 prices imported", {}),
            (Source.agent, "Imported 2 of the 5 lists; the others have not arrived.", {}),
        ],
        "zh-failed": [
            (Source.user, "把这份日志上传到对象存储。", {}),
            (Source.agent, 'upload_file(path="app.log")', {}),
            (Source.tool, "错误：上传超时（300 秒）", {}),
        ],
    }
    outcomes = {}
    for session, turns in cases.items():
        _store_turns(svc, session, turns)
        outcomes[session] = svc.reflect(NS, session_id=session)["episode"]["outcome"]
    assert outcomes == {"user-unhappy": "failure", "agent-partial": "partial", "zh-failed": "failure"}


def test_entities_are_identifiers_and_names_not_sentence_starts(make_service):
    svc = make_service(llm=False)
    out = svc.reflect(
        NS,
        trajectory=[
            {"role": "user", "content": "Copy the logs from web-03 to Maria's laptop."},
            {"role": "assistant", "content": "Running: scp web-03:/var/log/app.log ./logs/"},
            {"role": "tool", "content": "Permission denied (publickey)."},
            {
                "role": "assistant",
                "content": "Using the ops key: scp -i ~/.ssh/ops_ed25519 web-03:/var/log/app.log .",
            },
            {"role": "tool", "content": "app.log 100% 12MB"},
        ],
    )
    entities = out["episode"]["entities"]
    assert "web-03" in entities and "app.log" in entities and "Maria" in entities
    assert not {"Copy", "Running", "Using", "Permission"} & set(entities)
    assert out["episode"]["tools"] == ["scp"]


def test_heuristic_mode_still_skips_trivial_tasks_with_a_reason(make_service):
    svc = make_service(llm=False)
    out = svc.reflect(NS, trajectory=TRIVIAL)
    assert out["status"] == "skipped" and out["reason"] and _episodes(svc) == []


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
    (episode,) = _episodes(svc)
    assert episode.content.startswith("任务:") and "结果:成功" in episode.content
    assert "解决:表名应为 order_items" in episode.content


def test_reflecting_the_same_session_twice_writes_the_episode_once(make_service):
    svc = make_service(llm=False)
    svc.reflect(NS, session_id="s1", trajectory=CSV_TASK)
    svc.reflect(NS, session_id="s1", trajectory=CSV_TASK)
    assert len(_episodes(svc)) == 1
