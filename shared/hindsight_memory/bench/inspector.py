"""The inspector at scale: what each page of /ui asks the REST API for, timed through the gateway app (routing,
scope check, storage reads, JSON) on a namespace of `size` memories and as many raw events."""

import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from ..config import Settings
from ..service import MemoryService, build_service
from ..text import key
from ..writer.messages import memory_id
from .perf import _load
from .stats import percentiles, rss_mb, timed

NS = "bench"


def _events(svc: MemoryService, n: int) -> None:
    """One raw event per loaded memory, as the writer would have logged it (same ids, sessions and times)."""
    base = datetime(2026, 1, 1, tzinfo=UTC)
    for start in range(0, n, 20_000):
        rows = []
        for i in range(start, min(n, start + 20_000)):
            at = base + timedelta(minutes=7 * i)
            mid = memory_id(f"bench-1-{i}")
            rows.append(
                {
                    "id": mid,
                    "namespace": NS if i % 10 else "bench/other",
                    "session_id": f"s{i // 40}",
                    "session_key": key(f"s{i // 40}"),
                    "kind": "episodic",
                    "content": f"event {i}",
                    "context": "",
                    "occurred_at": at,
                    "stored_at": at,
                    "source": "import",
                    "tags": [],
                    "entities": [],
                    "importance": 0.5,
                    "metadata": "{}",
                    "idem_key": f"bench-{i}",
                    "memory_id": mid,
                }
            )
        svc.store.append_events(rows)


def bench_inspector(size: int, repeat: int = 20) -> dict[str, Any]:
    """p50/p95 of each request the page makes, at `size` memories (9 in 10 in the namespace shown)."""
    from fastapi.testclient import TestClient

    from ..gateway.app import create_app

    uri = tempfile.mkdtemp(prefix="hs-bench-inspector-")
    settings = Settings(store_uri=uri, embedder="hashing", warm_index=False)
    svc = build_service(settings)
    try:
        t = time.perf_counter()
        _load(svc, size)
        _events(svc, size)
        svc.store.upkeep(retention=timedelta(hours=1), scalar_min_rows=0, vector_min_rows=10**9)
        load_s = time.perf_counter() - t
    finally:
        svc.close()
    app = create_app(settings)
    rows: dict[str, dict[str, float]] = {}
    with TestClient(app, base_url="http://127.0.0.1") as http:

        def get(path: str, **params: Any) -> Any:
            r = http.get(path, params={"namespace": NS, **params})
            r.raise_for_status()
            return r.json()

        first = get("/v1/memories", limit=100)
        some = first["items"][37]["id"]
        cursor = None
        for _ in range(50):  # a cursor 50 pages of 100 deep
            cursor = get("/v1/memories", limit=100, **({"cursor": cursor} if cursor else {}))["next_cursor"]
        requests: dict[str, Callable[[], Any]] = {
            "timeline: first 100 memories": lambda: get("/v1/memories", limit=100),
            "timeline: first 100 raw events": lambda: get("/v1/events", limit=100),
            "timeline: kind + tag filter": lambda: get("/v1/memories", limit=100, kind="semantic", tag="t7"),
            "timeline: one session": lambda: get("/v1/memories", limit=100, session_id="s1234"),
            "timeline: text filter": lambda: get("/v1/memories", limit=100, text="budget cut"),
            "timeline: page 51 (cursor)": lambda: get("/v1/memories", limit=100, cursor=cursor),
            "memory detail": lambda: get(f"/v1/memories/{some}"),
            "overview": lambda: get("/v1/overview"),
        }
        for name, fn in requests.items():
            fn()  # warm caches
            rows[name] = percentiles(timed(fn, repeat))
    return {"size": size, "events": size, "load_s": load_s, "requests": rows, "rss_mb": rss_mb()}
