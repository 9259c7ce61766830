"""What a store call turns into before it reaches the writer (`prepare_item`: validated, normalised, with its id,
time and idempotency key), and what became of it after (`store_status`, by the ids the call returned;
`wait_visible`, for `wait=true` against a remote writer)."""

import time
from collections import Counter
from datetime import datetime
from typing import Any

from .config import Settings
from .errors import InvalidInput, LimitExceeded
from .models import Kind, MemoryCreate, is_speaker
from .namespaces import validate_namespace
from .standing import STANDING_TAG, standing_statement
from .storage.lance import COLD, EVENTS, LanceStore
from .text import ROLES, as_sent, normalize, with_speaker
from .writer.messages import PreparedItem, idempotency_key, memory_id


def prepare_item(
    settings: Settings,
    namespace: str,
    item: MemoryCreate,
    now: datetime,
    index: int = 0,
    call: str = "",
    repeat: int = 0,
) -> PreparedItem:
    """One item of a store call, validated and normalised, with its id, arrival time and idempotency key.

    Raises:
        InvalidInput / LimitExceeded: the item cannot be stored as given.
    """
    content = normalize(item.content)
    if not content:
        raise InvalidInput("content is empty after normalisation")
    if len(content) > settings.max_content_chars:
        raise LimitExceeded(
            f"content is {len(content):,} characters, over the limit of {settings.max_content_chars:,} per memory "
            "(HINDSIGHT_MAX_CONTENT_CHARS): store it as several memories"
        )
    if len(str(item.metadata).encode()) > settings.max_metadata_bytes:
        raise LimitExceeded(f"metadata larger than {settings.max_metadata_bytes} bytes")
    if item.kind == Kind.working and not item.session_id:
        raise InvalidInput("working memory needs a session_id")
    sent = item.content
    speaker = _speaker(item)
    if speaker:
        content, sent = with_speaker(content, speaker), with_speaker(sent.strip(), speaker)
        item = item.model_copy(update={"content": content})  # two speakers' "Yes." are two turns
    by_arrival = not item.idempotency_key and item.occurred_at is None
    idem = idempotency_key(namespace, item, now if by_arrival else None, index, repeat)
    tags = item.tags
    if item.kind != Kind.working and STANDING_TAG not in tags and standing_statement(content):
        # recall keeps the closest standing instruction or preference in view
        tags = [*tags, STANDING_TAG]
    return PreparedItem(
        **item.model_dump(exclude={"occurred_at", "content", "tags"}),
        tags=tags,
        content=content,
        occurred_at=item.occurred_at or now,
        stored_at=now,
        idem_key=idem,
        id=memory_id(idem),
        key_from_arrival=by_arrival,
        call=call,
        original=as_sent(sent, content),
    )


def prepare_call(
    settings: Settings, namespace: str, items: list[MemoryCreate], stamps: list[datetime], call: str
) -> list[PreparedItem]:
    """Every item of one store call (`prepare_item`), each with its own arrival stamp. A client does not retry
    inside its own call: an item whose derived key an earlier item of the call already has was said again (a
    transcript's "Thanks!" twice in a session stamped with one time), and gets a key of its own.

    Raises:
        InvalidInput / LimitExceeded: an item cannot be stored as given (nothing is prepared).
    """
    prepared = [
        prepare_item(settings, namespace, item, now, i, call)
        for i, (item, now) in enumerate(zip(items, stamps, strict=True))
    ]
    seen: Counter[str] = Counter()
    first: dict[str, int] = {}
    for i, p in enumerate(prepared):
        seen[p.idem_key] += 1
        j = first.setdefault(p.idem_key, i)
        if j != i and items[i].idempotency_key and items[i].content != items[j].content:
            # a key names one write: the second content would be answered as a retry and never stored
            raise InvalidInput(
                f"items {j} and {i} share an idempotency_key but not their content: "
                "give each write its own key"
            )
        if seen[p.idem_key] > 1 and not items[i].idempotency_key:
            prepared[i] = prepare_item(
                settings, namespace, items[i], stamps[i], i, call, seen[p.idem_key] - 1
            )
    return prepared


def _speaker(item: MemoryCreate) -> str | None:
    """Who said the item: its `speaker`, else a `speaker` name or a `role` ("user", "assistant") its metadata
    gives; metadata is the client's own, so a value that is no name is left alone there, not refused."""
    if item.speaker:
        return item.speaker
    said, role = item.metadata.get("speaker"), item.metadata.get("role")
    if isinstance(said, str) and is_speaker(said):
        return said
    if isinstance(role, str) and role.strip().casefold() in ROLES:
        return role.strip()
    return None


def store_status(
    store: LanceStore,
    namespace: str,
    ids: list[str],
    waiting: tuple[set[str], set[str]] | None = None,
) -> dict[str, Any]:
    """What became of stored items, by the ids a store returned: `pending` (acknowledged, not applied yet),
    `failed` (kept in the journal after its retries ran out), `unknown` (no such write, or purged), `stored` (its
    own memory: active, superseded or forgotten, with what it replaced or what replaced it), `merged` (a duplicate
    or a retry: the memory it was folded into), `archived`. `waiting`: the journal's (pending, failed) ids, read
    before the event log; None where no journal can tell (behind SQS), and an id without an event is `pending`.

    Raises:
        InvalidInput: bad namespace or a malformed id.
    """
    validate_namespace(namespace)
    ids = list(dict.fromkeys(ids))
    events = {e["id"]: e for e in store.find_events(namespace, lambda w: w.ids(ids))}
    wanted = set(ids) | {e["memory_id"] for e in events.values() if e.get("memory_id")}
    mems = {m.id: m for m, _ in store.get(namespace, wanted)}
    cold = {m.id for m, _ in store.get(namespace, wanted - set(mems), table=COLD)}
    items: dict[str, dict[str, Any]] = {}
    for i in ids:
        e = events.get(i)
        if e is None:
            pending, failed = waiting if waiting is not None else ({i}, set())
            items[i] = {"state": "pending" if i in pending else "failed" if i in failed else "unknown"}
            continue
        target = e.get("memory_id") or i
        m = mems.get(target)
        out: dict[str, Any] = {"state": "stored" if target == i else "merged"}
        if target != i:
            out["into"] = target
        if m is None:
            out["status"] = "archived" if target in cold else "gone"
        else:
            out["status"] = m.status.value
            out.update(
                {
                    k: v
                    for k, v in (
                        ("supersedes", m.supersedes),
                        ("superseded_by", m.superseded_by),
                        ("valid_until", m.valid_until.isoformat() if m.valid_until else None),
                    )
                    if v
                }
            )
        items[i] = out
    return {"namespace": namespace, "items": items}


def wait_visible(
    store: LanceStore, settings: Settings, namespace: str, ids: list[str], timeout_s: float
) -> None:
    """Remote writer: poll the event log until every id is recorded. This process then reads the latest
    tables at once; another process may have checked for a new version just before the commit and keep the
    old one for up to the read-consistency interval, so return only once that interval has passed since the
    poll that saw the commit (the commit came before it; when exactly is unknown)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        store.refresh((EVENTS,))
        seen_by = time.monotonic()  # a commit seen by this poll happened before this instant
        if len(store.find_events(namespace, lambda w: w.ids(ids))) == len(set(ids)):
            store.refresh()
            settle = seen_by + settings.read_consistency() - time.monotonic()
            if settle > 0:
                time.sleep(min(settle, max(0.0, deadline - time.monotonic())))
            return
        time.sleep(0.2)
    raise TimeoutError("store not visible before the timeout; it stays queued and will be applied")
