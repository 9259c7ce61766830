"""`hindsight bench` measures what it says: both ways of serving recall over the same tables, every column
filled, and the warm index really answering (not falling back to LanceDB)."""

from hindsight_memory.bench.perf import bench_recall
from hindsight_memory.bench.run import _recall_section


def test_recall_bench_reports_warm_and_lancedb_serving_with_every_number():
    rows = bench_recall(600, "hashing", queries=12)
    assert [r["mode"] for r in rows] == ["warm index", "LanceDB"]
    for r in rows:
        assert r["size"] == 600
        for part in ("core", "e2e", "after_write", "exact_numpy", "query_embed"):
            assert r[part]["p50_ms"] > 0 and r[part]["p99_ms"] >= r[part]["p50_ms"], (r["mode"], part)
        assert r["first_recall_s"] > 0 and r["rss_mb"] > 0
        assert 0.0 <= r["top60_vs_exact"] <= 1.0
    warm, lance = rows
    assert warm["rows_in_memory"] >= 540 and lance["rows_in_memory"] == 0  # 9 in 10 rows are in "bench"
    assert warm["top60_vs_exact"] == 1.0  # exact search in a namespace this small
    text = _recall_section(rows)
    assert "warm index" in text and "LanceDB" in text and "after write p50" in text
