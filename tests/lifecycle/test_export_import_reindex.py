"""Export -> import round trips every field; other models re-embed; seeds and CSV; reindex switches without
failed recalls."""

import json
import threading
import time

import numpy as np
import pytest

from hindsight_memory.errors import InvalidInput, ModelMismatch
from hindsight_memory.lifecycle.files import export_jsonl, import_csv, import_jsonl
from hindsight_memory.service import build_service
from tests.lifecycle.helpers import recall, store

NS = "alice/proj"


def _fill(svc):
    store(
        svc,
        NS,
        {
            "content": "Standup is at 09:30 in room Kepler",
            "tags": ["team"],
            "entities": ["Kepler"],
            "session_id": "s1",
            "metadata": {"ticket": "T-1", "nested": {"x": [1, 2]}},
            "importance": 0.7,
        },
        {"content": "The budget is 8000 EUR", "slot": "budget"},
        {"content": "user said hello", "kind": "working", "session_id": "s1"},
    )
    store(svc, NS, {"content": "The budget is 9000 EUR", "slot": "budget"})
    weak = store(svc, NS, {"content": "Perhaps we switch to Rust", "confidence": 0.05}).ids[0]
    svc.archive(NS, [weak])
    recall(svc, NS, "standup room")
    svc.flush()


def _everything(svc, ns=NS):
    recs = list(svc.export_records(ns))
    mems = {
        (r["table"], r["memory"]["id"]): (r["memory"], r.get("vector")) for r in recs if r["type"] == "memory"
    }
    events = {r["event"]["id"]: r["event"] for r in recs if r["type"] == "event"}
    return mems, events


def test_export_then_import_into_an_empty_store_round_trips_every_field(backend, tmp_path):
    first = backend()
    src = build_service(first)
    dst = build_service(
        first.model_copy(update={"store_uri": str(tmp_path / "copy")})
        if backend.kind == "local"
        else backend()
    )
    try:
        _fill(src)
        summary = export_jsonl(src, NS, tmp_path / "x.jsonl", progress=False)
        assert summary["memories"] == 4 and summary["archived"] == 1 and summary["events"] == 5
        out = import_jsonl(dst, tmp_path / "x.jsonl", progress=False)
        assert out["memories"] == 5 and out["re_embedded"] == 0
        assert _everything(dst) == _everything(src)
        assert dst.stats(NS)["archived"] == 1
        assert recall(dst, NS, "standup room").memories[0].content == "Standup is at 09:30 in room Kepler"
    finally:
        src.close()
        dst.close()


def test_import_into_a_store_with_another_model_re_embeds_and_recall_works(tmp_path):
    from hindsight_memory.config import Settings

    src = build_service(Settings(store_uri=str(tmp_path / "a"), embedder="hashing"))
    dst = build_service(Settings(store_uri=str(tmp_path / "b"), embedder="hashing-128"))
    try:
        _fill(src)
        out = dst.import_records("bob/copy", src.export_records(NS))
        assert out["re_embedded"] == 5
        mems, _ = _everything(dst, "bob/copy")
        assert all(m["embed_model"] == "hashing-128" and len(v) == 128 for m, v in mems.values())
        assert recall(dst, "bob/copy", "standup room").memories[0].content.startswith("Standup")
        assert recall(src, NS, "standup room").memories  # the source namespace is untouched
    finally:
        src.close()
        dst.close()


def test_seeds_and_csv_facts_are_imported_with_the_initial_confidence(local_service, tmp_path):
    out = local_service.import_records(
        NS, [{"content": "Our fiscal year starts in April", "tags": ["finance"]}], confidence=0.4
    )
    assert out["seeds"] == 1
    csv_path = tmp_path / "facts.csv"
    csv_path.write_text(
        "content,tags,importance\nThe VPN gateway is vpn.example.org,infra;network,0.8\nLunch is at noon,,\n",
        encoding="utf-8",
    )
    assert import_csv(local_service, csv_path, NS, confidence=0.6, progress=False)["stored"] == 2
    got = {m.content: m for m, _ in local_service.store.find(NS, lambda w: w)}
    assert got["Our fiscal year starts in April"].confidence == pytest.approx(0.4)
    vpn = got["The VPN gateway is vpn.example.org"]
    assert (
        vpn.confidence == pytest.approx(0.6) and vpn.tags == ["infra", "network"] and vpn.source == "import"
    )


def test_a_bad_line_or_a_foreign_id_is_refused_and_nothing_is_written(local_service, tmp_path):
    good = {"type": "memory", "table": "memories", "memory": None}
    _fill(local_service)
    first = next(r for r in local_service.export_records(NS) if r["type"] == "memory")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(first) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="record 2"):
        import_jsonl(local_service, bad, "carol/x", progress=False)
    assert local_service.stats("carol/x")["events"] == 0
    # a crafted record claiming an id that lives in another namespace must not overwrite it
    hijack = {**first, "memory": {**first["memory"], "namespace": "mallory/x", "content": "pwned"}}
    with pytest.raises(InvalidInput, match="another namespace"):
        local_service.import_records(None, [hijack])
    assert "pwned" not in {m.content for m, _ in local_service.store.find(NS, lambda w: w)}


@pytest.mark.parametrize(
    ("part", "field", "value", "error"),
    [
        # 0001-01-01 at UTC+5 is a year 0 in UTC: written, it made every later recall of the namespace fail
        ("memory", "occurred_at", "0001-01-01T00:00:00+05:00", "occurred_at: lies outside the years 1-9999"),
        ("memory", "valid_until", "9999-12-31T23:59:59-05:00", "valid_until: lies outside"),
        ("event", "stored_at", "0001-01-01T00:00:00+05:00", "stored_at: lies outside"),
        ("event", "occurred_at", "yesterday-ish", "occurred_at"),
        ("event", "tags", "not a list", "tags"),
        ("event", "injected", "x", "injected"),
    ],
)
def test_an_exported_record_with_a_time_or_field_storage_cannot_hold_is_refused_before_anything_is_written(
    local_service, tmp_path, part, field, value, error
):
    _fill(local_service)
    recs = list(local_service.export_records(NS))
    target = next(r for r in recs if r["type"] == part)
    target[part] = {**target[part], field: value}
    path = tmp_path / "x.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    with pytest.raises(InvalidInput, match=error):
        import_jsonl(local_service, path, "carol/copy", progress=False)
    assert local_service.stats("carol/copy")["events"] == 0
    assert recall(local_service, NS, "standup room").memories  # the namespace still reads


def test_reindex_switches_models_while_concurrent_recalls_all_succeed(backend):
    settings = backend()
    svc = build_service(settings)
    try:
        store(
            svc,
            NS,
            *[
                f"Fact number {i} about the {w} project"
                for i, w in enumerate(["apollo", "gemini", "mercury"] * 4)
            ],
        )
        errors, done, answers = [], threading.Event(), []

        def reader():
            while not done.is_set():
                try:
                    answers.append(recall(svc, NS, "apollo project").memories[0].content)
                except Exception as exc:  # noqa: BLE001 - every failure is what the test looks for
                    errors.append(exc)

        t = threading.Thread(target=reader)
        t.start()
        try:
            out = svc.reindex("hashing-128")
            store(svc, NS, "Fact written after the switch about apollo")
            n, deadline = len(answers), time.monotonic() + 60
            while len(answers) < n + 3 and not errors and time.monotonic() < deadline:
                done.wait(0.01)  # recalls keep succeeding on the new tables
        finally:
            done.set()
            t.join(timeout=60)
        assert errors == [] and len(answers) >= 3
        assert out["status"] == "switched" and out["copied"]["memories"] == 12
        assert svc.embedder.model_id == "hashing-128"
        assert "apollo" in recall(svc, NS, "apollo written after the switch").memories[0].content
    finally:
        svc.close()
    # a fresh process finds the current tables through the catalog; the old model is refused with a hint
    again = build_service(settings.model_copy(update={"embedder": "hashing-128"}))
    try:
        assert len(again.store.find(NS, lambda w: w)) == 13
        vec = again.store.find(NS, lambda w: w, with_vectors=True)[0][1]
        assert np.asarray(vec).shape == (128,)
    finally:
        again.close()
    with pytest.raises(ModelMismatch, match="reindex"):
        build_service(settings)
