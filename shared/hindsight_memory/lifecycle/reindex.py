"""Reindex: re-embed every memory with another model into NEW tables while recall keeps reading the current
ones, then switch with one catalog commit. The copy runs beside the writer; the catch-up and the switch run
inside it (as a ReindexOp), so no write made during the copy is lost."""

import json
import re
from datetime import datetime, timedelta
from typing import Any

from ..embed import Embedder, embedder_for, embedder_like
from ..embed.passages import PassagePlan, embed_memories
from ..models import Memory, utcnow
from ..ports import MemoryPort
from ..storage.lance import COLD, MEMORIES, LanceStore
from ..writer.context import WriterState
from ..writer.messages import ReindexOp

RETIRED = "retired"  # catalog key: JSON list of {"name", "at"} of table generations a reindex replaced


def reindex(svc: MemoryPort, embedder_spec: str, *, batch: int = 256) -> dict[str, Any]:
    """Copy, catch up, switch; afterwards this service reads and writes the new tables with the new model."""
    new = embedder_for(svc.settings, embedder_spec)
    old: LanceStore = svc.store
    suffix = f"{re.sub(r'[^A-Za-z0-9_]', '_', new.model_id)}-{utcnow():%Y%m%dT%H%M%S%f}"
    target = old.sibling(
        model_id=new.model_id,
        dim=new.dim,
        memories_table=f"{MEMORIES}-{suffix}",
        cold_table=f"{COLD}-{suffix}",
    )
    plan = PassagePlan.of(svc.settings)
    copied = {t: copy_table(old, target, new, t, batch, plan) for t in (MEMORIES, COLD)}
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


def copy_table(
    src: LanceStore, dst: LanceStore, embedder: Embedder, table: str, batch: int, plan: PassagePlan
) -> int:
    n = 0
    for page in src.scan(None, table, batch_rows=batch):
        mems, vectors = reembed([m for m, _ in page], embedder, plan)
        if mems:
            dst.append(mems, vectors, table=table)
            n += len(mems)
    if table == MEMORIES and n:
        dst.ensure_fts_index()
    return n


def switch(writer: WriterState, op: ReindexOp) -> dict[str, Any]:
    """Inside the writer: bring the new tables up to date, make them current, and write with the new model."""
    new = embedder_like(writer.embedder, op.embedder)
    old: LanceStore = writer.store
    target = old.sibling(
        model_id=new.model_id, dim=new.dim, memories_table=op.memories_table, cold_table=op.cold_table
    )
    caught_up = {t: _catch_up(old, target, new, t, writer.passages) for t in (MEMORIES, COLD)}
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


def _catch_up(old: LanceStore, new: LanceStore, embedder: Embedder, table: str, plan: PassagePlan) -> int:
    """Rows written, changed or deleted since the copy started: compared whole (minus the model), re-embedded
    only when their text changed."""
    before = {m.id: m for page in old.scan(None, table) for m, _ in page}
    after = {m.id: m for page in new.scan(None, table) for m, _ in page}
    changed = [m for i, m in before.items() if i not in after or _differs(m, after[i])]
    gone = [m for i, m in after.items() if i not in before]
    for ns in {m.namespace for m in gone}:
        new.delete(ns, [m.id for m in gone if m.namespace == ns], table=table)
    if changed:
        mems = {m.id: m.model_copy(update={"embed_model": embedder.model_id}) for m in changed}
        vectors: dict[str, Any] = {}
        for ns in {m.namespace for m in mems.values()}:
            same_text = [
                m.id
                for m in mems.values()
                if m.namespace == ns
                and m.id in after
                and (after[m.id].content, after[m.id].context) == (m.content, m.context)
            ]
            for m, v in new.get(ns, same_text, with_vectors=True, table=table):
                vectors[m.id] = v
                mems[m.id] = mems[m.id].model_copy(update={"passages": m.passages})
        redone, redo_vectors = reembed([m for i, m in mems.items() if i not in vectors], embedder, plan)
        for m, v in zip(redone, redo_vectors, strict=True):
            mems[m.id], vectors[m.id] = m, v
        new.upsert(list(mems.values()), [vectors[i] for i in mems], table=table)
    return len(changed) + len(gone)


def reembed(mems: list[Memory], embedder: Embedder, plan: PassagePlan) -> tuple[list[Memory], list[Any]]:
    """Memories embedded anew with `embedder` (long ones passage by passage): the memories as they are now
    (model and passages noted) and their vectors."""
    if not mems:
        return [], []
    done = embed_memories(embedder, [(m.content, m.context or None) for m in mems], plan)
    out = [
        m.model_copy(update={"embed_model": embedder.model_id, "passages": e.spans})
        for m, e in zip(mems, done, strict=True)
    ]
    return out, [e.stored for e in done]


def _differs(a: Memory, b: Memory) -> bool:
    exclude = {"embed_model", "passages"}  # how a memory is embedded, not what it is
    return a.model_dump(exclude=exclude) != b.model_dump(exclude=exclude)


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
