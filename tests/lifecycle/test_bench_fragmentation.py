"""The fragmentation bench runs end to end on a small table and reports latencies before and after."""

from hindsight_memory.config import Settings
from hindsight_memory.lifecycle.bench import bench_fragmentation


def test_bench_reports_recall_latency_before_and_after_compacting_a_fragmented_table(tmp_path):
    out = bench_fragmentation(
        Settings(store_uri=str(tmp_path), scalar_index_min_rows=100), n_commits=150, n_queries=10
    )
    assert out["fragments_before"] == 150 and out["fragments_after"] == 1
    assert out["same_results"] is True
    assert out["recall_ms_before"]["n"] == out["recall_ms_after"]["n"] == 10
    assert out["recall_ms_after"]["p50"] > 0 and "namespace_idx" in out["indices_after"]
