"""Reindex: re-embed every memory with another model into NEW tables while recall keeps reading the current
ones, then switch with one catalog commit. The copy runs beside the writer; the catch-up and the switch run
inside it (as a ReindexOp), so no write made during the copy is lost."""

import json
import re
from datetime import datetime, timedelta
from typing import Any

from ..embed import Embedder, make_embedder
from ..models import Memory, utcnow
from ..ports import MemoryPort
from ..storage.lance import COLD, MEMORIES, LanceStore
from ..text import embedding_text
from ..writer.context import WriterState
from ..writer.messages import ReindexOp

RETIRED = "retired"  # catalog key: JSON list of {"name", "at"} of table generations a reindex replaced


def reindex(svc: MemoryPort, embedder_spec: str, *, batch: int = 256) -> dict[str, Any]:
    """Copy, catch up, switch; afterwards this service reads and writes the new tables with the new model."""
    new = make_embedder(embedder_spec, svc.settings.embed_threads)
    old: LanceStore = svc.store
    suffix = f"{re.sub(r'[^A-Za-z0-9_]', '_', new.model_id)}-{utcnow():%Y%m%dT%H%M%S%f}"
    target = old.sibling(
        model_id=new.model_id,
        dim=new.dim,
        memories_table=f"{MEMORIES}-{suffix}",
        cold_table=f"{COLD}-{suffix}",
    )
    copied = {t: copy_table(old, target, new, t, batch) for t in (MEMORIES, COLD)}
    out = svc.apply_op(
        ReindexOp(embedder=embedder_spec, memories_table=target.memories_name, cold_table=target.cold_name),
        timeout_s=3600,
    )
    if (
        out is None
    ):  # a remote writer switches when it gets the op; readers pick the tables up when they reopen
        return {"status": "queued", "copied": copied, "tables": [target.memories_name, target.cold_name]}
    svc.follow_writer()
    return {"status": "switched", "copied": copied, **out}


def copy_table(src: LanceStore, dst: LanceStore, embedder: Embedder, table: str, batch: int) -> int:
    n = 0
    for page in src.scan(None, table, batch_rows=batch):
        mems = [m.model_copy(update={"embed_model": embedder.model_id}) for m, _ in page]
        if mems:
            dst.append(
                mems,
                embedder.embed_passages([embedding_text(m.content, m.context) for m in mems]),
                table=table,
            )
            n += len(mems)
    if table == MEMORIES and n:
        dst.ensure_fts_index()
    return n


def switch(writer: WriterState, op: ReindexOp) -> dict[str, Any]:
    """Inside the writer: bring the new tables up to date, make them current, and write with the new model."""
    new = make_embedder(op.embedder)
    old: LanceStore = writer.store
    target = old.sibling(
        model_id=new.model_id, dim=new.dim, memories_table=op.memories_table, cold_table=op.cold_table
    )
    caught_up = {t: _catch_up(old, target, new, t) for t in (MEMORIES, COLD)}
    retired = json.loads(old.catalog().get(RETIRED, "[]"))
    retired += [
        {"name": old.memories_name, "at": utcnow().isoformat()},
        {"name": old.cold_name, "at": utcnow().isoformat()},
    ]
    old.set_catalog({MEMORIES: target.memories_name, COLD: target.cold_name, RETIRED: json.dumps(retired)})
    if target.count():
        target.ensure_fts_index()
    writer.switch_to(target, new)
    return {
        "caught_up": caught_up,
        "memories_table": target.memories_name,
        "cold_table": target.cold_name,
        "embed_model": new.model_id,
    }


def _catch_up(old: LanceStore, new: LanceStore, embedder: Embedder, table: str) -> int:
    """Rows written, changed or deleted since the copy started: compared whole (minus the model), re-embedded
    only when their text changed."""
    before = {m.id: m for page in old.scan(None, table) for m, _ in page}
    after = {m.id: m for page in new.scan(None, table) for m, _ in page}
    changed = [m for i, m in before.items() if i not in after or _differs(m, after[i])]
    gone = [m for i, m in after.items() if i not in before]
    for ns in {m.namespace for m in gone}:
        new.delete(ns, [m.id for m in gone if m.namespace == ns], table=table)
    if changed:
        mems = [m.model_copy(update={"embed_model": embedder.model_id}) for m in changed]
        vectors: dict[str, Any] = {}
        for ns in {m.namespace for m in mems}:
            same_text = [
                m.id
                for m in mems
                if m.namespace == ns
                and m.id in after
                and embedding_text(after[m.id].content, after[m.id].context)
                == embedding_text(m.content, m.context)
            ]
            vectors.update({m.id: v for m, v in new.get(ns, same_text, with_vectors=True, table=table)})
        redo = [m for m in mems if m.id not in vectors]
        if redo:
            vectors.update(
                zip(
                    [m.id for m in redo],
                    embedder.embed_passages([embedding_text(m.content, m.context) for m in redo]),
                    strict=True,
                )
            )
        new.upsert(mems, [vectors[m.id] for m in mems], table=table)
    return len(changed) + len(gone)


def _differs(a: Memory, b: Memory) -> bool:
    return a.model_dump(exclude={"embed_model"}) != b.model_dump(exclude={"embed_model"})


def drop_retired(store: LanceStore, older_than: timedelta) -> list[str]:
    """Drop table generations retired by a reindex longer ago than the retention window."""
    cat = store.catalog()
    retired = json.loads(cat.get(RETIRED, "[]"))
    now = utcnow()
    due = [r for r in retired if now - datetime.fromisoformat(r["at"]) >= older_than]
    for r in due:
        store.drop_table(r["name"])
    if due:
        store.set_catalog({RETIRED: json.dumps([r for r in retired if r not in due])})
    return [r["name"] for r in due]
