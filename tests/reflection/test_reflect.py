"""Per-task reflection through the real litellm code path, against a fake OpenAI-compatible server."""

import json

from hindsight_memory.models import Kind, RecallQuery, Source
from hindsight_memory.text import normalize

from .conftest import CSV_TASK, FAILED_THEN_RETRIED, NS, TRIVIAL, draft

CSV_LESSON = (
    "When a CSV file will not load, check its delimiter first: European exports often use semicolons."
)


def _memories(svc, kind):
    return [m for m, _ in svc.store.find(NS, lambda w: w.enum_in("kind", [kind]))]


def test_a_successful_task_yields_a_lesson_linked_to_its_episode_and_events(make_service, fake_llm):
    # GIVEN a finished task and an LLM that distils one strong lesson
    svc = make_service()
    fake_llm.script(
        draft(
            "Load sales.csv and build monthly totals",
            [(CSV_LESSON, 0.9, 0.8)],
            tools=["shell", "db_load"],
            entities=["sales.csv"],
        )
    )
    # WHEN the agent reflects at task end
    out = svc.reflect(NS, trajectory=CSV_TASK)
    # THEN one LLM call produced an episode and a lesson that points back at it and at the events
    assert out["status"] == "done" and out["mode"] == "llm" and out["usage"]["calls"] == 1
    lesson = next(m for m in _memories(svc, Kind.semantic))
    episode = next(m for m in _memories(svc, Kind.episodic))
    assert lesson.content == CSV_LESSON and lesson.source == Source.reflection
    assert lesson.source_ids[:2] == [lesson.id, episode.id] and episode.id == out["episode_id"]
    events = {e["id"] for e in svc.store.find_events(NS, lambda w: w)}
    assert len(set(lesson.source_ids[2:]) & events) == len(CSV_TASK)
    assert episode.metadata["episode"]["outcome"] == "success" and "sales.csv" in episode.entities
    # AND the scores that kept it are on the lesson, for explain
    scores = lesson.metadata["reflection"]["scores"]
    assert scores["score"] >= scores["threshold"] == 0.65 and scores["reusability"] == 0.9
    # AND the session's working memory was cleared (the raw turns stay in the event log)
    assert _memories(svc, Kind.working) == []
    assert svc.stats(NS)["reflection"]["today"]["llm_calls"] == 1


def test_a_failure_then_retry_yields_the_causal_lesson_and_the_episode_weighs_more(make_service, fake_llm):
    svc = make_service()
    causal = "If a deploy fails because a migration's temp table already exists, drop the leftover table and retry."
    fake_llm.script(
        draft(
            "Deploy billing to staging",
            [(causal, 0.7, 0.95), ("Deploys can take a while.", 0.3, 0.1)],
            obstacles=["migration 042 failed"],
            tools=["deploy"],
        )
    )
    out = svc.reflect(NS, trajectory=FAILED_THEN_RETRIED, trigger="anomaly")
    assert [a["kind"] for a in out["anomalies"]] == ["tool_failure"]
    prompt = fake_llm.requests[0]["messages"][1]["content"]
    assert "tool_failure: Error: migration 042 failed" in prompt
    kept = [entry for entry in out["lessons"] if entry["decision"] == "insert"]
    assert [entry["text"] for entry in kept] == [causal]
    assert kept[0]["scores"]["anomaly_bonus"] > 0
    rejected = next(entry for entry in out["lessons"] if entry["decision"] == "reject")
    assert "< threshold" in rejected["reason"]
    episode = _memories(svc, Kind.episodic)[0]
    assert episode.importance > 0.5 and "anomaly" in episode.tags


def test_a_trivial_task_is_skipped_with_a_reason_and_no_llm_call(make_service, fake_llm):
    svc = make_service()
    out = svc.reflect(NS, trajectory=TRIVIAL)
    assert out["status"] == "skipped" and "without tool use" in out["reason"]
    assert fake_llm.requests == [] and out["usage"]["calls"] == 0
    assert _memories(svc, Kind.semantic) == [] and _memories(svc, Kind.episodic) == []


def test_a_malformed_answer_is_repaired_with_one_retry(make_service, fake_llm):
    svc = make_service()
    fake_llm.script(
        "Sure! Here are my thoughts: the delimiter was the problem.",
        draft("Load sales.csv", [(CSV_LESSON, 0.9, 0.8)]),
    )
    out = svc.reflect(NS, trajectory=CSV_TASK)
    assert out["status"] == "done" and out["usage"]["calls"] == 2 and out["usage"]["repairs"] == 1
    repair = fake_llm.requests[1]["messages"][-1]["content"]
    assert "not valid" in repair and "JSON schema" in repair
    assert [m.content for m in _memories(svc, Kind.semantic)] == [CSV_LESSON]


def test_an_answer_still_malformed_after_the_repair_is_rejected_and_memory_is_untouched(
    make_service, fake_llm
):
    svc = make_service()
    fake_llm.script({"episode": {"outcome": "maybe"}, "lessons": "none"}, {"lessons": [{"text": 42}]})
    out = svc.reflect(NS, trajectory=CSV_TASK)
    assert out["status"] == "failed" and "invalid after one repair" in out["reason"]
    assert len(fake_llm.requests) == 2
    assert _memories(svc, Kind.semantic) == [] and _memories(svc, Kind.episodic) == []
    assert len(_memories(svc, Kind.working)) == len(CSV_TASK)  # the session is kept for a later attempt


def test_a_rate_limited_call_backs_off_and_succeeds(make_service, fake_llm):
    svc = make_service()
    fake_llm.script({"status": 429}, {"status": 429}, draft("Load sales.csv", [(CSV_LESSON, 0.9, 0.8)]))
    out = svc.reflect(NS, trajectory=CSV_TASK)
    assert out["status"] == "done" and len(fake_llm.requests) == 3 and out["usage"]["calls"] == 1


def test_a_near_identical_lesson_confirms_the_existing_one_instead_of_duplicating(make_service, fake_llm):
    svc = make_service()
    fake_llm.script(
        draft("Load sales.csv", [(CSV_LESSON, 0.9, 0.8)]), draft("Load q3.csv", [(CSV_LESSON, 0.8, 0.8)])
    )
    svc.reflect(NS, trajectory=CSV_TASK)
    first = _memories(svc, Kind.semantic)[0]
    second_task = [dict(t, content=t["content"].replace("sales", "q3")) for t in CSV_TASK]
    out = svc.reflect(NS, trajectory=second_task)
    assert out["lessons"][0]["decision"] == "merge" and out["lessons"][0]["id"] == first.id
    (lesson,) = _memories(svc, Kind.semantic)
    assert lesson.confidence > first.confidence and lesson.seen_count == 2
    assert out["episode_id"] in lesson.source_ids  # both episodes are now its sources
    assert (
        "contradiction" in fake_llm.requests[1]["messages"][1]["content"]
        or "K1:" in fake_llm.requests[1]["messages"][1]["content"]
    )


def test_a_contradicting_lesson_competes_instead_of_overwriting(make_service, fake_llm):
    svc = make_service()
    old = "Always load CSV files with the default comma delimiter; sniffing is unreliable."
    new = "Sniff each CSV file's delimiter before loading instead of assuming commas."
    fake_llm.script(
        draft("Load a CSV", [(old, 0.9, 0.8)]), draft("Load sales.csv", [(new, 0.9, 0.9)], contradicts="K1")
    )
    svc.reflect(NS, trajectory=CSV_TASK)
    svc.reflect(NS, trajectory=[dict(t, content=t["content"] + " (again)") for t in CSV_TASK])
    by_text = {m.content: m for m in _memories(svc, Kind.semantic)}
    assert set(by_text) == {old, new}  # nothing deleted
    assert by_text[new].confidence == 0.5 and by_text[old].confidence < 0.9
    assert by_text[old].metadata["contested_by"] == by_text[new].id


def test_a_chinese_conversation_asks_for_and_stores_chinese_lessons(make_service, fake_llm):
    svc = make_service()
    zh_lesson = "导入CSV文件前先检查分隔符，欧洲导出的文件常用分号。"
    fake_llm.script(draft("把sales.csv导入报表数据库", [(zh_lesson, 0.9, 0.8)]))
    task = [
        {"role": "user", "content": "请把 sales.csv 导入报表数据库，并计算每月合计。"},
        {"role": "assistant", "content": "我先查看文件格式。"},
        {"role": "tool", "tool": "shell", "status": "ok", "content": "date;region;amount"},
        {"role": "assistant", "content": "文件用分号分隔，我用 delimiter=';' 导入。"},
        {"role": "user", "content": "谢谢，结果正确。"},
    ]
    svc.reflect(NS, trajectory=task)
    assert "简体中文" in fake_llm.requests[0]["messages"][1]["content"]
    assert [m.content for m in _memories(svc, Kind.semantic)] == [normalize(zh_lesson)]  # NFKC: '，' -> ','

    episode = _memories(svc, Kind.episodic)[0]
    assert episode.content.startswith("任务:") and episode.slot is None  # episodes never supersede each other


def test_a_namespace_prompt_override_replaces_the_reflection_questions(make_service, fake_llm, tmp_path):
    svc = make_service()
    override = tmp_path / "data" / "prompts" / NS
    override.mkdir(parents=True)
    (override / "questions.md").write_text("- Which SQL dialect quirk bit us?", encoding="utf-8")
    fake_llm.script(draft("Load sales.csv", []))
    svc.reflect(NS, trajectory=CSV_TASK)
    assert "Which SQL dialect quirk bit us?" in fake_llm.requests[0]["messages"][1]["content"]


def test_recall_explain_shows_why_a_lesson_was_kept(make_service, fake_llm):
    svc = make_service()
    fake_llm.script(draft("Load sales.csv", [(CSV_LESSON, 0.9, 0.8)]))
    svc.reflect(NS, trajectory=CSV_TASK)
    res = svc.recall(
        RecallQuery(namespace=NS, query="csv delimiter semicolons", kinds=[Kind.semantic], explain=True)
    )
    assert res.memories[0].metadata["reflection"]["scores"]["score"] >= 0.65
    assert json.dumps(res.memories[0].metadata["reflection"]["why"]) == '"it mattered"'


def test_usage_and_cost_of_a_priced_model_are_recorded_per_run_and_in_stats(make_service, fake_llm):
    from hindsight_memory.llm import LLMClient

    svc = make_service()
    svc.llm = LLMClient(
        "openai/gpt-4o-mini", api_base=fake_llm.url, api_key="test-key"
    )  # priced by litellm's map
    svc._reflector = None
    fake_llm.script(draft("Load sales.csv", [(CSV_LESSON, 0.9, 0.8)]))
    out = svc.reflect(NS, trajectory=CSV_TASK)
    assert out["usage"]["prompt_tokens"] == fake_llm.prompt_tokens and out["usage"]["cost_usd"] > 0
    today = svc.stats(NS)["reflection"]["today"]
    assert today["tokens"] == fake_llm.prompt_tokens + fake_llm.completion_tokens and today["cost_usd"] > 0
    assert svc.counters.llm_calls == 1
