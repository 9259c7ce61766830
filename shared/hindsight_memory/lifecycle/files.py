"""Export and import as files, for the command line: a JSONL export (every record, optionally with vectors),
and imports of JSONL exports or CSV facts, each validated whole before anything is stored, then streamed in
batches with a progress bar and resumable (a re-run skips what is already in)."""

import csv
import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import InvalidInput
from ..models import MemoryCreate
from ..ports import MemoryPort
from ..storage.lance import COLD
from .export import BATCH_CHARS, export_records, import_records, parse_record, store_seeds
from .progress import ImportMeter


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
    """Validate the whole file first (nothing is written if any line is bad), then stream it in batches with a
    progress bar (items/s, tokens/s). Resumable: a re-run skips what the first run stored."""
    path = Path(path)
    total = 0
    for n, rec in enumerate(_lines(path), start=1):
        parse_record(rec, n, namespace, confidence)
        total = n
    meter = ImportMeter(svc.embedder, total=total, unit="rec", show=progress)
    try:
        out = import_records(svc, namespace, _lines(path), confidence=confidence, meter=meter)
    finally:
        meter.close()
    return {"path": str(path), "records": total, **out}


CSV_LISTS = ("tags", "entities")


def _csv_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(row number, record) for each data row, read as the file is read."""
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        if not reader.fieldnames or "content" not in reader.fieldnames:
            raise InvalidInput("the CSV needs a header row with a 'content' column")
        for n, row in enumerate(reader, start=2):
            rec: dict[str, Any] = {k: v.strip() for k, v in row.items() if k and v is not None and v.strip()}
            for k in CSV_LISTS:
                if k in rec:
                    rec[k] = [x.strip() for x in rec[k].split(";") if x.strip()]
            yield n, rec


def import_csv(
    svc: MemoryPort,
    path: str | Path,
    namespace: str,
    *,
    confidence: float | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Simple facts, one per row: a `content` column, optional kind, tags and entities (`;`-separated),
    importance, confidence, occurred_at, slot, session_id. Every row is validated before any is stored; then
    the file is streamed in batches with a progress bar. Resumable: a re-run skips the rows already stored."""
    path = Path(path)
    rows = 0
    for n, rec in _csv_records(path):
        try:
            parse_record(rec, n, namespace, confidence)
        except InvalidInput as exc:
            raise InvalidInput(f"{path.name} row {n}: {exc}") from exc
        rows += 1
    summary = {"seeds": 0, "seeds_deduplicated": 0, "skipped": 0}
    meter = ImportMeter(svc.embedder, total=rows, unit="row", show=progress)
    batch: list[MemoryCreate] = []
    chars = 0
    try:
        for n, rec in _csv_records(path):
            batch.append(parse_record(rec, n, namespace, confidence)[1])
            chars += len(batch[-1].content)
            if len(batch) >= svc.settings.max_items_per_store or chars >= BATCH_CHARS:
                store_seeds(svc, namespace, batch, summary, meter)
                chars = 0
        store_seeds(svc, namespace, batch, summary, meter)
    finally:
        meter.close()
    return {
        "path": str(path),
        "rows": rows,
        "stored": summary["seeds"],
        "deduplicated": summary["seeds_deduplicated"],
        "skipped": summary["skipped"],
        **meter.rate(),
        "tokens": meter.tokens,
    }
