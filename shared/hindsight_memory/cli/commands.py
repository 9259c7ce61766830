"""What each `hindsight` subcommand does (the parser in parser.py maps arguments to these)."""

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..config import Settings
from ..errors import InvalidInput

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..inspector.models import MemoryDetail
    from ..inspector.service import Inspector
    from ..service import MemoryService


def _settings(args: argparse.Namespace) -> Settings:
    overrides = {k: v for k, v in {"store_uri": args.store, "embedder": args.embedder}.items() if v}
    return Settings(**overrides)


def _data_settings(args: argparse.Namespace) -> Settings:
    """A data command's settings: with --tenant, that tenant's own tables and journal, where a `hindsight serve`
    with tokens keeps them (<store>/<tenant>), by the gateway's own rule."""
    settings = _settings(args)
    if args.tenant is None:
        return settings
    from ..gateway.tenants import TenantRegistry

    return TenantRegistry(settings).tenant_settings(args.tenant)


def _service(args: argparse.Namespace) -> "MemoryService":
    from ..service import build_service

    return build_service(_data_settings(args))


def cmd_serve(args: argparse.Namespace) -> int:
    from ..gateway.app import serve

    overrides = {k: v for k, v in {"host": args.host, "port": args.port, "tenant": args.tenant}.items() if v}
    serve(_settings(args).model_copy(update=overrides))
    return 0


def cmd_store(args: argparse.Namespace) -> int:
    from ..models import MemoryCreate, StoreRequest

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
    if args.speaker:
        item["speaker"] = args.speaker
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
    from ..models import RecallQuery

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
            one_line = " ".join(m.content.split())
            text = one_line if len(one_line) <= 90 else one_line[:87] + "..."
            print(f"{m.score:6.3f}  {m.kind.value:<9} {m.occurred_at:%Y-%m-%d %H:%M} {text}")
    return 0


def _memory_command(
    args: argparse.Namespace, act: "Callable[[Inspector, str], BaseModel | dict[str, Any]]"
) -> int:
    """Open the service, find the memory's namespace unless given, run `act(inspector, namespace)`, print JSON.

    Raises:
        NotFound: no memory with this id in any namespace of the tenant.
    """
    from ..errors import NotFound
    from ..inspector.service import Inspector
    from ..inspector.views import check_id

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
    from ..models import MemoryCorrection

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
    from ..lifecycle.files import import_csv, import_jsonl

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
    from ..lifecycle.files import export_jsonl

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
    from ..gateway.auth import token_create_command

    return token_create_command(args.tenant_id, args.namespace, admin=args.admin, name=args.name or "")


def cmd_compact(args: argparse.Namespace) -> int:
    svc = _service(args)
    try:
        print(json.dumps(svc.compact(args.namespace), indent=2, default=str))
    finally:
        svc.close()
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from ..bench.run import main as bench_main

    args.embedder = args.bench_embedder or args.embedder
    return bench_main(args)
