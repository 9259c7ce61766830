"""Store and recall on both backends (local folder and emulated S3): isolation, idempotency, dedup,
supersede with history, missing, explain."""

from datetime import UTC, datetime, timedelta

import pytest

from hindsight_memory.errors import InvalidInput
from hindsight_memory.models import RecallQuery, Status, StoreRequest

HOSTILE = [
    "x' OR '1'='1",
    "a'; DROP TABLE memories; --",
    "') OR true OR ('",
    "\\' OR 1=1 --",
    "*",
    "%",
    "alice/proj",
]


def store(svc, ns, *items, wait=True):
    return svc.store_memories(
        StoreRequest(
            namespace=ns, items=[i if isinstance(i, dict) else {"content": i} for i in items], wait=wait
        )
    )


def recall(svc, ns, query, **kw):
    return svc.recall(RecallQuery(namespace=ns, query=query, **kw))


def test_a_stored_memory_is_recalled_with_its_metadata_unchanged(service):
    meta = {"ticket": "T-42", "nested": {"list": [1, 2, 3], "text": "ünïcode ✓"}}
    res = store(
        service,
        "alice/proj",
        {
            "content": "The deploy key for staging is stored in vault path kv/staging/deploy",
            "tags": ["infra"],
            "entities": ["staging"],
            "metadata": meta,
            "importance": 0.9,
        },
    )
    assert res.status == "committed" and res.stored == 1
    out = recall(service, "alice/proj", "where is the staging deploy key")
    assert not out.missing
    top = out.memories[0]
    assert top.id == res.ids[0]
    assert top.metadata == meta and top.tags == ["infra"] and top.entities == ["staging"]


def test_recall_never_returns_other_namespaces_on_any_query_path(service):
    store(
        service,
        "alice/proj",
        {
            "content": "Alice's secret project codename is BLUEFIN",
            "tags": ["secret"],
            "entities": ["BLUEFIN"],
            "session_id": "s1",
        },
    )
    store(service, "alice/proj/sub", "Sub-namespace note about BLUEFIN codename")
    store(service, "bob", "Bob likes BLUEFIN tuna sandwiches")
    for ns in ("bob", "alice", "alice/proj/sub"):
        for kw in (
            {},
            {"tags": ["secret"]},
            {"entities": ["BLUEFIN"]},
            {"session_id": "s1"},
            {"include_history": True, "include_archived": True},
            {"channels": ["fts"]},
            {"channels": ["vector"]},
        ):
            out = recall(service, ns, "BLUEFIN codename", min_score=0.0, top_k=20, **kw)
            assert all("Alice's secret" not in m.content for m in out.memories), (ns, kw)


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_strings_in_filters_match_literally_and_never_widen_the_filter(service, hostile):
    store(
        service,
        "alice/proj",
        {
            "content": "tagged with a hostile label",
            "tags": [hostile],
            "entities": [hostile],
            "session_id": hostile,
        },
    )
    store(service, "alice/proj", "an ordinary memory about a hostile label")
    out = recall(
        service,
        "alice/proj",
        "hostile label",
        tags=[hostile],
        entities=[hostile],
        session_id=hostile,
        min_score=0,
    )
    assert [m.content for m in out.memories] == ["tagged with a hostile label"]
    other = recall(service, "alice/proj", "hostile label", tags=["x"], min_score=0)
    assert other.memories == [] and other.missing


@pytest.mark.parametrize(
    "bad", ["x' OR '1'='1", "", "../etc", "a//b", "a/b/c/d/e", "ns with space", "ns'", "a" * 65]
)
def test_malformed_namespaces_are_refused_before_anything_is_stored(service, bad):
    with pytest.raises((InvalidInput, ValueError)):
        store(service, bad, "never stored")
    assert service.store.count() == 0


def test_a_retried_store_writes_nothing_twice(service):
    items = [
        {"content": f"step {i} of the migration finished", "idempotency_key": f"run-7-step-{i}"}
        for i in range(5)
    ]
    first = store(service, "alice/proj", *items)
    again = store(service, "alice/proj", *items)
    assert again.ids == first.ids
    assert again.stored == 0 and again.deduplicated == 5
    assert service.store.count("alice/proj") == 5
    assert service.store.count("alice/proj", table="events") == 5


def test_without_a_key_the_same_content_and_time_is_the_same_item(service):
    when = datetime(2026, 5, 1, 12, tzinfo=UTC)
    a = store(
        service, "alice/proj", {"content": "Flight LH 401 departs at 10:40", "occurred_at": when.isoformat()}
    )
    b = store(
        service, "alice/proj", {"content": "Flight LH 401 departs at 10:40", "occurred_at": when.isoformat()}
    )
    assert a.ids == b.ids and service.store.count("alice/proj") == 1


def test_near_identical_memories_merge_instead_of_piling_up(service):
    first = store(
        service, "alice/proj", {"content": "The user prefers dark mode in every editor.", "importance": 0.4}
    )
    dup = store(
        service,
        "alice/proj",
        {
            "content": "the user prefers dark mode in every editor",
            "importance": 0.8,
            "tags": ["ui"],
            "occurred_at": "2026-06-01T00:00:00Z",
        },
    )
    assert dup.deduplicated == 1 and dup.duplicates_of == {dup.ids[0]: first.ids[0]}
    ((mem, _),) = service.store.get("alice/proj", first.ids)
    assert mem.seen_count == 2 and mem.importance == pytest.approx(0.8) and "ui" in mem.tags
    assert set(mem.source_ids) == {first.ids[0], dup.ids[0]}
    assert service.store.count("alice/proj") == 1


def test_same_sentence_with_a_different_value_is_not_a_duplicate(service):
    store(service, "alice/proj", "Meeting room 4 is booked for Tuesday")
    res = store(service, "alice/proj", "Meeting room 5 is booked for Tuesday")
    assert res.deduplicated == 0 and service.store.count("alice/proj") == 2


def test_a_changed_fact_supersedes_the_old_one_and_keeps_history(service):
    old = store(
        service,
        "alice/proj",
        {"content": "The user's budget is 5000 dollars", "occurred_at": "2026-01-10T00:00:00Z"},
    )
    new = store(
        service,
        "alice/proj",
        {"content": "Actually, my budget is now 8000 dollars", "occurred_at": "2026-02-10T00:00:00Z"},
    )
    assert new.superseded == 1
    current = recall(service, "alice/proj", "what is the budget", now=datetime(2026, 3, 1, tzinfo=UTC))
    assert [m.id for m in current.memories] == new.ids
    history = recall(
        service,
        "alice/proj",
        "what is the budget",
        include_history=True,
        now=datetime(2026, 3, 1, tzinfo=UTC),
    )
    by_id = {m.id: m for m in history.memories}
    assert by_id[old.ids[0]].status == Status.superseded
    assert by_id[old.ids[0]].superseded_by == new.ids[0] and by_id[new.ids[0]].supersedes == old.ids[0]
    assert history.memories[0].id == new.ids[0], "the current value ranks above its history"


def test_chinese_facts_supersede_too(service):
    store(service, "zh", {"content": "用户的预算是5000元", "occurred_at": "2026-01-01T00:00:00Z"})
    res = store(service, "zh", {"content": "预算改为8000元", "occurred_at": "2026-02-01T00:00:00Z"})
    assert res.superseded == 1


def test_nothing_relevant_is_said_explicitly_instead_of_padding(service):
    store(
        service,
        "alice/proj",
        "The staging database runs Postgres 16 on port 5433",
        "Lunch order: two veggie burritos",
    )
    out = recall(service, "alice/proj", "quantum chromodynamics of gluon fields")
    assert out.missing is True and out.memories == []
    hit = recall(service, "alice/proj", "which port does the staging Postgres database use")
    assert not hit.missing and "5433" in hit.memories[0].content


def test_explain_shows_each_channel_and_why_a_result_survived(service):
    res = store(service, "alice/proj", "The CI pipeline caches pip wheels in the runner's tmp folder")
    out = recall(service, "alice/proj", "where does CI cache pip wheels", explain=True)
    ex = out.explain
    assert ex and ex["channels"]["vector"][0]["id"] == res.ids[0]
    assert ex["channels"]["fts"] and ex["channels"]["fts"][0]["id"] == res.ids[0]
    r = ex["results"][0]
    assert r["ranks"] == {"vector": 1, "fts": 1}
    assert {"rrf", "relevance", "decay", "importance", "usage"} <= set(r["factors"])
    assert "relevance" in r["why"]


def test_a_time_expression_in_the_query_narrows_to_its_window(service):
    now = datetime(2026, 11, 29, 12, tzinfo=UTC)
    store(
        service,
        "alice/proj",
        {
            "content": "I cooked mushroom risotto for dinner",
            "occurred_at": (now - timedelta(days=1)).isoformat(),
        },
        {"content": "I cooked lentil soup for dinner", "occurred_at": (now - timedelta(days=40)).isoformat()},
    )
    out = recall(service, "alice/proj", "what did I cook for dinner yesterday", now=now, explain=True)
    assert [m.content for m in out.memories][0] == "I cooked mushroom risotto for dinner"
    assert all("lentil" not in m.content for m in out.memories)
    assert out.explain["time_window"]["expression"] == "yesterday"
    zh = recall(service, "alice/proj", "我昨天晚饭做了什么 dinner cooked", now=now)
    assert zh.memories and "risotto" in zh.memories[0].content


def test_a_span_of_months_or_a_year_in_the_query_narrows_to_it(service):
    ns = "kofi/chess"
    results = [
        ("2022-09-10", "Chess tournament result: lost in the second round of the club open."),
        ("2022-10-16", "Chess tournament result: won the club open, beat a 2100-rated player."),
        ("2023-01-22", "Chess tournament result: lost three games at the Milwaukee rapid."),
        ("2023-03-12", "Chess tournament result: tied for third at the state championship."),
        ("2023-06-04", "Chess tournament result: first place at the summer open."),
    ]
    store(service, ns, *({"content": c, "occurred_at": f"{d}T18:00:00+00:00"} for d, c in results))
    now = datetime(2023, 8, 1, tzinfo=UTC)
    q = "How did my chess tournament results change between October 2022 and March 2023?"
    out = recall(service, ns, q, now=now, top_k=5, explain=True)
    assert {m.content for m in out.memories} == {c for _, c in results[1:4]}
    assert out.explain["time_window"]["since"].startswith("2022-10-01")
    out = recall(service, ns, "Which tournaments did I play in 2022?", now=now, top_k=5)
    assert {m.content for m in out.memories} == {c for _, c in results[:2]}


def test_filters_by_kind_tags_entities_session_and_time(service):
    store(
        service,
        "alice/proj",
        {"content": "deploy runbook step one: drain the node", "kind": "semantic", "tags": ["runbook"]},
        {
            "content": "deploy happened at noon and failed",
            "kind": "episodic",
            "entities": ["node-7"],
            "session_id": "task-1",
            "occurred_at": "2026-04-02T12:00:00Z",
        },
    )
    assert [
        m.kind for m in recall(service, "alice/proj", "deploy", kinds=["semantic"], min_score=0).memories
    ] == ["semantic"]
    assert len(recall(service, "alice/proj", "deploy", tags=["runbook"], min_score=0).memories) == 1
    assert len(recall(service, "alice/proj", "deploy", entities=["NODE-7"], min_score=0).memories) == 1
    assert len(recall(service, "alice/proj", "deploy", session_id="task-1", min_score=0).memories) == 1
    got = recall(
        service,
        "alice/proj",
        "deploy",
        since=datetime(2026, 4, 1, tzinfo=UTC),
        until=datetime(2026, 4, 3, tzinfo=UTC),
        min_score=0,
    )
    assert [m.kind for m in got.memories] == ["episodic"]


def test_working_memory_keeps_the_last_turns_of_a_session(backend):
    from hindsight_memory.service import build_service

    svc = build_service(backend(working_memory_turns=3))
    try:
        for i in range(5):
            store(
                svc,
                "alice/proj",
                {
                    "content": f"turn {i}: user asked about item {i}",
                    "kind": "working",
                    "session_id": "chat-1",
                },
            )
        svc.flush()
        out = recall(
            svc,
            "alice/proj",
            "user asked about item",
            kinds=["working"],
            session_id="chat-1",
            min_score=0,
            top_k=10,
        )
        assert sorted(m.content for m in out.memories) == [
            f"turn {i}: user asked about item {i}" for i in (2, 3, 4)
        ]
        assert svc.store.count("alice/proj", table="events") == 5, "older turns stay in the raw event log"
    finally:
        svc.close()


def test_feedback_moves_importance_and_forget_hides_at_once(service):
    res = store(
        service, "alice/proj", {"content": "Use the blue/green deploy for the API", "importance": 0.5}
    )
    mid = res.ids[0]
    assert service.feedback("alice/proj", mid, useful=True)["importance"] == pytest.approx(0.6)
    assert service.feedback("alice/proj", mid, useful=False)["importance"] == pytest.approx(0.5)
    service.forget("alice/proj", [mid])
    assert recall(service, "alice/proj", "blue/green deploy API", min_score=0).memories == []


def test_usage_is_counted_when_a_memory_is_recalled(service):
    res = store(service, "alice/proj", "The on-call rotation changes every Monday at 9:00")
    recall(service, "alice/proj", "when does the on-call rotation change")
    service.flush()
    ((mem, _),) = service.store.get("alice/proj", res.ids)
    assert mem.access_count == 1 and mem.last_accessed_at is not None


def test_time_filters_accept_any_representable_date(service):
    store(service, "alice/proj", {"content": "an ancient record", "occurred_at": "0999-06-01T00:00:00Z"})
    out = recall(
        service,
        "alice/proj",
        "ancient record",
        since=datetime(1, 1, 1, tzinfo=UTC),
        until=datetime(1000, 1, 1, tzinfo=UTC),
    )
    assert [m.content for m in out.memories] == ["an ancient record"]


def test_turns_of_a_named_speaker_conversation_never_supersede_each_other(service):
    turns = [
        "Caroline: I went to the LGBTQ support group yesterday and it was powerful.",
        "Melanie: That's great! My favorite book is Charlotte's Web.",
        "Caroline: Yes!",
        "Melanie: Sure.",
        "Caroline: My favorite book is Becoming Nicole.",
        "Caroline: I'm thinking about adoption agencies for next year.",
    ]
    res = store(service, "locomo", *[{"content": t, "session_id": "s1"} for t in turns])
    assert res.superseded == 0 and res.stored == len(turns)
    books = recall(service, "locomo", "favorite book", min_score=0, top_k=10)
    assert {
        "Melanie: That's great! My favorite book is Charlotte's Web.",
        "Caroline: My favorite book is Becoming Nicole.",
    } <= {m.content for m in books.memories}


def test_a_question_about_what_i_said_prefers_the_users_turns_and_about_you_the_assistants(service):
    store(
        service,
        "alice/chat",
        {"content": "user: the robot vacuum from the hardware store", "session_id": "s1"},
        {"content": "assistant: the robot vacuum from the hardware shop", "session_id": "s2"},
    )
    mine = recall(service, "alice/chat", "which robot vacuum did I mention", min_score=0.0).memories
    yours = recall(service, "alice/chat", "which robot vacuum did you mention", min_score=0.0).memories
    assert [m.content.split(":")[0] for m in mine] == ["user", "assistant"]
    assert [m.content.split(":")[0] for m in yours] == ["assistant", "user"]


def test_of_two_alike_results_the_newer_ranks_first(service):
    """A changed fact the writer could not pair as a supersede (no slot it recognises): both stay, the newer
    ranks above the older one."""
    store(
        service,
        "alice/moves",
        {
            "content": "we keep the spare keys under the blue flowerpot",
            "occurred_at": "2026-03-01T09:00:00Z",
            "importance": 0.6,  # a little more important: alone, it would rank first
        },
        {"content": "we keep the spare keys under the red flowerpot", "occurred_at": "2026-03-05T09:00:00Z"},
    )
    out = recall(
        service, "alice/moves", "where do we keep the spare keys", min_score=0.0, now="2026-03-06T00:00:00Z"
    )
    assert [m.content for m in out.memories][:2] == [
        "we keep the spare keys under the red flowerpot",
        "we keep the spare keys under the blue flowerpot",
    ]


SENT = (
    "Deploy steps:\n1. git pull\n2. make build\n\n```python\ndef f():\n    return 1\n```\n价格：１２０元，ﬁle"
)


def test_text_comes_back_as_sent_while_matching_reads_it_normalised(service, tmp_path):
    # Stored text was normalised (NFKC, whitespace collapsed) on the way in, in the memory and in the raw event
    # log alike: code lost its lines and indentation (found by probing, 2026-12-06).
    from hindsight_memory.inspector.models import EventQuery
    from hindsight_memory.inspector.service import Inspector
    from hindsight_memory.models import MemoryCorrection

    ns = "alice/sent"
    first = store(service, ns, {"content": SENT + "\n\n", "tags": ["deploy"]}).ids[0]
    again = store(service, ns, " ".join(SENT.split()))  # the same words on one line: the same memory
    assert again.duplicates_of == {again.ids[0]: first}
    out = recall(service, ns, "deploy steps make build", min_score=0)
    assert [m.content for m in out.memories] == [SENT]
    inspector = Inspector(service)
    assert inspector.detail(ns, first).memory.content == SENT
    events = inspector.events(EventQuery(namespace=ns))
    assert SENT in [e.content for e in events.items]
    exported = list(service.export_records(ns))
    assert [r["memory"]["content"] for r in exported if r["type"] == "memory"] and any(
        r["type"] == "memory" and r["memory"]["original"] == SENT for r in exported
    )
    # a correction keeps its lines too, and the same text sent back changes nothing
    with pytest.raises(InvalidInput):
        inspector.correct(ns, first, MemoryCorrection(content=SENT))
    fixed = SENT.replace("make build", "make release")
    new_id = inspector.correct(ns, first, MemoryCorrection(content=fixed))["id"]
    assert inspector.detail(ns, new_id).memory.content == fixed
    assert recall(service, ns, "make release", min_score=0).memories[0].content == fixed
