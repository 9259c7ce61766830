"""Export a namespace (or all) to JSONL with everything needed to restore it; import it elsewhere (re-embedding
when the target uses another model); seed memories with an initial confidence; CSV import of simple facts.

Export format, one JSON object per line:
  {"type": "header", "format": "hindsight-export", "version": 1, "embed_model": ..., "dim": ..., ...}
  {"type": "memory", "table": "memories" | "cold", "memory": {...every Memory field...}, "vector": [...]}
  {"type": "event", "event": {...the raw event as stored...}}
A line with just {"content": ..., ...} (no "type") is a seed: stored like a new memory, with source "import"."""

import csv
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import InvalidInput
from ..models import ID_RULE, MEMORY_ID, Memory, MemoryCreate, Source, StoreRequest, utcnow
from ..namespaces import validate_namespace
from ..ports import MemoryPort
from ..storage.lance import COLD, MEMORIES, LanceStore
from ..writer.messages import ImportedMemory, ImportOp
from .forget import MERGED_FROM

FORMAT = "hindsight-export"
VERSION = 1
BATCH = 200


def export_records(
    store: LanceStore, namespace: str | None, *, vectors: bool = True
) -> Iterator[dict[str, Any]]:
    """Header, then every memory (hot, warm and cold), then every event of `namespace` (None: all)."""
    if namespace is not None:
        validate_namespace(namespace)
    yield {
        "type": "header",
        "format": FORMAT,
        "version": VERSION,
        "embed_model": store.model_id,
        "dim": store.dim,
        "namespace": namespace,
        "exported_at": utcnow().isoformat(),
    }
    for table in (MEMORIES, COLD):
        for page in store.scan(namespace, table, with_vectors=vectors):
            for m, v in page:
                rec: dict[str, Any] = {"type": "memory", "table": table, "memory": m.model_dump(mode="json")}
                if vectors and v is not None:
                    rec["vector"] = [float(x) for x in v]
                yield rec
    for events in store.scan_events(namespace):
        for e in events:
            yield {
                "type": "event",
                "event": {k: v.isoformat() if isinstance(v, datetime) else v for k, v in e.items()},
            }


def import_records(
    svc: MemoryPort,
    namespace: str | None,
    records: Iterable[dict[str, Any]],
    *,
    confidence: float | None = None,
    on_record: Any = None,
) -> dict[str, Any]:
    """Import exported records (into their own namespace, or all into `namespace`) and seeds (need `namespace`).

    Raises:
        InvalidInput: a malformed record (reported with its position); earlier batches stay imported.
    """
    if namespace is not None:
        validate_namespace(namespace)
    if confidence is not None and not 0.0 <= confidence <= 1.0:
        raise InvalidInput("confidence must be between 0 and 1")
    summary = {"memories": 0, "events": 0, "seeds": 0, "re_embedded": 0, "seeds_deduplicated": 0}
    mems: dict[str, list[ImportedMemory]] = defaultdict(list)
    events: dict[str, list[dict[str, Any]]] = defaultdict(list)
    seeds: list[MemoryCreate] = []
    for n, rec in enumerate(records, start=1):
        kind, value = parse_record(rec, n, namespace, confidence)
        if kind == "memory":
            mems[value.memory["namespace"]].append(value)
        elif kind == "event":
            events[value["namespace"]].append(value)
        elif kind == "seed":
            seeds.append(value)
        if sum(map(len, mems.values())) + sum(map(len, events.values())) >= BATCH:
            _flush(svc, mems, events, summary)
        if len(seeds) >= svc.settings.max_items_per_store:
            _store_seeds(svc, namespace, seeds, summary)
        if on_record:
            on_record()
    _flush(svc, mems, events, summary)
    _store_seeds(svc, namespace, seeds, summary)
    return summary


def parse_record(rec: Any, n: int, namespace: str | None, confidence: float | None) -> tuple[str, Any]:
    """Validate one record; returns ("header" | "memory" | "event" | "seed", value).

    Raises:
        InvalidInput: naming the record number and what is wrong.
    """
    if not isinstance(rec, dict):
        raise InvalidInput(f"record {n}: not a JSON object")
    try:
        kind = rec.get("type")
        if kind == "header":
            if rec.get("format") != FORMAT or rec.get("version") != VERSION:
                raise InvalidInput(f"record {n}: not a {FORMAT} v{VERSION} file")
            return "header", rec
        if kind == "memory":
            m = Memory.model_validate(rec["memory"])
            _ids(n, m.id, *m.source_ids, *(i for i in (m.supersedes, m.superseded_by) if i))
            if confidence is not None:
                m = m.model_copy(update={"confidence": confidence})
            validate_namespace(m.namespace)
            if namespace and m.namespace != namespace:
                m = _moved(m, namespace)
            return "memory", ImportedMemory(
                memory=m.model_dump(mode="json"), table=rec.get("table", MEMORIES), vector=rec.get("vector")
            )
        if kind == "event":
            e = dict(rec["event"])
            validate_namespace(e["namespace"])
            _ids(n, e["id"], *([e["memory_id"]] if e.get("memory_id") else []))
            if namespace and e["namespace"] != namespace:
                e.update(
                    namespace=namespace,
                    id=_moved_id(namespace, e["id"]),
                    memory_id=_moved_id(namespace, e["memory_id"])
                    if e.get("memory_id")
                    else e.get("memory_id"),
                )
            return "event", e
        if kind is None and "content" in rec:
            if namespace is None:
                raise InvalidInput(f"record {n}: seed memories need a target namespace")
            fields = {"source": Source.import_, **rec}
            if confidence is not None:
                fields["confidence"] = confidence
            return "seed", MemoryCreate.model_validate(fields)
        raise InvalidInput(
            f"record {n}: unknown record type (expected header, memory, event or a seed with content)"
        )
    except (ValidationError, KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"record {n}: {exc}") from exc


def _ids(n: int, *ids: Any) -> None:
    """Ids go into storage filters: one pattern for all of them, checked before anything is queued."""
    if any(not isinstance(i, str) or not MEMORY_ID.fullmatch(i) for i in ids):
        raise InvalidInput(f"record {n}: every id {ID_RULE}")


def _moved_id(namespace: str, old: str) -> str:
    # Ids are unique per table across namespaces: a copy into another namespace gets its own, stable ids.
    return hashlib.sha256(f"moved|{namespace}|{old}".encode()).hexdigest()[:32]


def _moved(m: Memory, namespace: str) -> Memory:
    def mv(i: str | None) -> str | None:
        return _moved_id(namespace, i) if i else i

    meta = dict(m.metadata)
    if MERGED_FROM in meta:
        meta[MERGED_FROM] = [mv(i) for i in meta[MERGED_FROM]]
    return m.model_copy(
        update={
            "namespace": namespace,
            "id": mv(m.id),
            "supersedes": mv(m.supersedes),
            "superseded_by": mv(m.superseded_by),
            "source_ids": [mv(i) for i in m.source_ids],
            "metadata": meta,
        }
    )


def _flush(svc: MemoryPort, mems: dict[str, Any], events: dict[str, Any], summary: dict[str, Any]) -> None:
    for ns in sorted(set(mems) | set(events)):
        out = svc.apply_op(ImportOp(namespace=ns, memories=mems.get(ns, []), events=events.get(ns, [])))
        if out is None:  # a remote writer: queued, counted as sent
            out = {"memories": len(mems.get(ns, [])), "events": len(events.get(ns, [])), "re_embedded": 0}
        for k in ("memories", "events", "re_embedded"):
            summary[k] += out[k]
    mems.clear()
    events.clear()


def _store_seeds(
    svc: MemoryPort, namespace: str | None, seeds: list[MemoryCreate], summary: dict[str, Any]
) -> None:
    if seeds:
        assert namespace is not None  # parse_record refuses a seed without a target namespace
        res = svc.store_memories(StoreRequest(namespace=namespace, items=list(seeds), wait=True))
        summary["seeds"] += res.stored
        summary["seeds_deduplicated"] += res.deduplicated
        seeds.clear()


# ---------------------------------------------------------------------- files (called by the CLI)
def export_jsonl(
    svc: MemoryPort, namespace: str | None, path: str | Path, *, progress: bool = True, vectors: bool = True
) -> dict[str, Any]:
    """Write an export file; returns a summary (counts per record type, bytes)."""
    from tqdm import tqdm

    counts: dict[str, int] = defaultdict(int)
    path = Path(path)
    with path.open("w", encoding="utf-8") as f, tqdm(desc="export", unit=" rec", disable=not progress) as bar:
        for rec in export_records(svc.store, namespace, vectors=vectors):
            f.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
            key = "archived" if rec.get("table") == COLD else rec["type"] + "s"
            counts[key] += 1
            bar.update()
    return {
        "path": str(path),
        "bytes": path.stat().st_size,
        "memories": counts["memorys"],
        "archived": counts["archived"],
        "events": counts["events"],
    }


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InvalidInput(f"line {n}: not JSON ({exc.msg})") from exc


def import_jsonl(
    svc: MemoryPort,
    path: str | Path,
    namespace: str | None = None,
    *,
    confidence: float | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Validate the whole file first (nothing is written if any line is bad), then import it."""
    from tqdm import tqdm

    path = Path(path)
    total = 0
    for n, rec in enumerate(_lines(path), start=1):
        parse_record(rec, n, namespace, confidence)
        total = n
    with tqdm(total=total, desc="import", unit=" rec", disable=not progress) as bar:
        out = import_records(svc, namespace, _lines(path), confidence=confidence, on_record=bar.update)
    return {"path": str(path), "records": total, **out}


CSV_LISTS = ("tags", "entities")


def import_csv(
    svc: MemoryPort,
    path: str | Path,
    namespace: str,
    *,
    confidence: float | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Simple facts, one per row: a `content` column, optional kind, tags and entities (`;`-separated),
    importance, confidence, occurred_at, slot, session_id. Every row is validated before any is stored."""
    from tqdm import tqdm

    path = Path(path)
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        if not reader.fieldnames or "content" not in reader.fieldnames:
            raise InvalidInput("the CSV needs a header row with a 'content' column")
        rows = []
        for n, row in enumerate(reader, start=2):
            rec = {k: v.strip() for k, v in row.items() if k and v is not None and v.strip()}
            for k in CSV_LISTS:
                if k in rec:
                    rec[k] = [x.strip() for x in rec[k].split(";") if x.strip()]
            try:
                rows.append(parse_record(rec, n, namespace, confidence)[1])
            except InvalidInput as exc:
                raise InvalidInput(f"{path.name} row {n}: {exc}") from exc
    summary = {"seeds": 0, "seeds_deduplicated": 0}
    step = svc.settings.max_items_per_store
    with tqdm(total=len(rows), desc="import", unit=" row", disable=not progress) as bar:
        for s in range(0, len(rows), step):
            _store_seeds(svc, namespace, rows[s : s + step], summary)
            bar.update(len(rows[s : s + step]))
    return {
        "path": str(path),
        "rows": len(rows),
        "stored": summary["seeds"],
        "deduplicated": summary["seeds_deduplicated"],
    }
