"""Import at speed: large files stream in batches with items/s and tokens/s, and a run interrupted half-way is
finished by running it again, without storing anything twice."""

import json
import os
import signal
import subprocess
import sys

import pytest

from hindsight_memory.config import Settings
from hindsight_memory.lifecycle.files import import_csv, import_jsonl
from hindsight_memory.service import build_service
from tests.support.wait import wait_until

NS = "alice/import"


def seed_file(path, n: int) -> None:
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            f.write(
                json.dumps({"content": f"Fact {i}: the parcel {i} was sent to depot {i % 97} on day {i}"})
                + "\n"
            )


def test_a_jsonl_import_reports_its_rates_and_a_rerun_skips_everything_already_in(local_service, tmp_path):
    path = tmp_path / "seeds.jsonl"
    seed_file(path, 600)
    first = import_jsonl(local_service, path, NS, progress=False)
    assert first["seeds"] == 600 and first["skipped"] == 0
    assert first["items_per_s"] > 0 and first["tokens_per_s"] > 0 and first["tokens"] > 600
    again = import_jsonl(local_service, path, NS, progress=False)
    assert again["seeds"] == 0 and again["skipped"] == 600 and again["tokens"] == 0
    assert local_service.store.count(NS) == 600


def test_a_csv_import_streams_and_a_rerun_skips_the_rows_already_stored(local_service, tmp_path):
    path = tmp_path / "facts.csv"
    rows = ["content,tags"] + [f"Machine {i} sits in rack {i % 13},hw;rack{i % 13}" for i in range(300)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    first = import_csv(local_service, path, NS, progress=False)
    assert first["stored"] == 300 and first["rows"] == 300 and first["tokens_per_s"] > 0
    assert import_csv(local_service, path, NS, progress=False)["skipped"] == 300
    assert local_service.store.count(NS) == 300


@pytest.mark.slow
def test_an_import_killed_half_way_is_finished_by_running_it_again(tmp_path):
    """GIVEN `hindsight import` of 1,500 lines, killed (SIGKILL) once some batches are in WHEN it is run again
    THEN every line is stored exactly once, and the second run skipped what the first had stored."""
    path = tmp_path / "seeds.jsonl"
    seed_file(path, 1500)
    store = tmp_path / "data"
    env = {**os.environ, "HINDSIGHT_MAX_ITEMS_PER_STORE": "100"}
    cmd = [sys.executable, "-m", "hindsight_memory.cli", "--store", str(store), "--embedder", "hashing"]
    proc = subprocess.Popen([*cmd, "import", NS, str(path), "-q"], env=env, stdout=subprocess.PIPE)
    settings = Settings(store_uri=str(store), embedder="hashing", create_tables=False)
    reader = build_service(settings)
    try:
        assert wait_until(lambda: reader.store.count(NS) >= 300, timeout=120)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        before = reader.store.count(NS)
    finally:
        reader.close()
    assert 300 <= before < 1500, "the first run must have been stopped half-way"
    out = subprocess.run(
        [*cmd, "import", NS, str(path), "-q"], env=env, capture_output=True, text=True, check=True
    )
    summary = json.loads(out.stdout)
    assert summary["skipped"] >= before - 100  # at most the batch in flight at the kill is stored again
    assert summary["skipped"] + summary["seeds"] + summary["seeds_deduplicated"] == 1500
    svc = build_service(Settings(store_uri=str(store), embedder="hashing"))
    try:
        assert svc.store.count(NS) == 1500
        assert len({m.content for page in svc.store.scan(NS) for m, _ in page}) == 1500
    finally:
        svc.close()
