"""/metrics: Prometheus text. Request and tool latencies are observed as they happen; memory counts and service
counters are read from the loaded tenants at scrape time."""

import logging
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ..service import MemoryService
from .operations import Operations

log = logging.getLogger(__name__)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class _ServiceCollector(Collector):
    def __init__(self, ops: Operations) -> None:
        self.ops = ops

    def collect(self) -> Iterator[Metric]:
        mem = GaugeMetricFamily(
            "hindsight_memories", "Memories by kind and status", labels=["tenant", "kind", "status"]
        )
        depth = GaugeMetricFamily(
            "hindsight_queue_depth", "Write operations waiting for the writer", labels=["tenant"]
        )
        recalls = CounterMetricFamily("hindsight_recalls", "Recall calls", labels=["tenant"])
        hits = CounterMetricFamily("hindsight_recall_hits", "Recalls that found something", labels=["tenant"])
        hit_rate = GaugeMetricFamily(
            "hindsight_recall_hit_rate", "Share of recalls that found something", labels=["tenant"]
        )
        stored = CounterMetricFamily("hindsight_stored", "Memories stored", labels=["tenant"])
        dedup = CounterMetricFamily(
            "hindsight_deduplicated", "Stores merged into an existing memory", labels=["tenant"]
        )
        sup = CounterMetricFamily(
            "hindsight_superseded", "Stores that superseded an older fact", labels=["tenant"]
        )
        sup_ratio = GaugeMetricFamily(
            "hindsight_supersede_ratio", "Superseded / stored (conflict rate)", labels=["tenant"]
        )
        feedback = CounterMetricFamily(
            "hindsight_feedback", "Feedback on recalled memories", labels=["tenant", "verdict"]
        )
        reuse = GaugeMetricFamily(
            "hindsight_reuse_rate", "Share of feedback saying a recalled memory helped", labels=["tenant"]
        )
        reflections = CounterMetricFamily(
            "hindsight_reflections", "Reflections that completed (LLM or heuristic)", labels=["tenant"]
        )
        llm_calls = CounterMetricFamily(
            "hindsight_llm_calls", "LLM calls made by reflection", labels=["tenant"]
        )
        llm_tokens = CounterMetricFamily(
            "hindsight_llm_tokens", "LLM tokens (prompt + completion) spent by reflection", labels=["tenant"]
        )
        warm_rows = GaugeMetricFamily(
            "hindsight_warm_index_rows", "Rows this process serves recall from in memory", labels=["tenant"]
        )
        warm_ns = GaugeMetricFamily(
            "hindsight_warm_index_namespaces",
            "Namespaces held by this process's warm index",
            labels=["tenant"],
        )
        for tenant, svc in self.ops.tenants.loaded().items():
            c = svc.counters
            held = svc.store.warm.describe() if svc.store.warm is not None else {}
            warm_rows.add_metric([tenant], sum(h["rows"] for h in held.values()))
            warm_ns.add_metric([tenant], len(held))
            recalls.add_metric([tenant], c.recalls)
            hits.add_metric([tenant], c.recall_hits)
            hit_rate.add_metric([tenant], c.recall_hits / c.recalls if c.recalls else 0.0)
            stored.add_metric([tenant], c.stored)
            dedup.add_metric([tenant], c.deduplicated)
            sup.add_metric([tenant], c.superseded)
            sup_ratio.add_metric([tenant], c.superseded / c.stored if c.stored else 0.0)
            useful, not_useful = c.feedback["useful"], c.feedback["not_useful"]
            feedback.add_metric([tenant, "useful"], useful)
            feedback.add_metric([tenant, "not_useful"], not_useful)
            reuse.add_metric([tenant], useful / (useful + not_useful) if useful + not_useful else 0.0)
            reflections.add_metric([tenant], c.reflections)
            llm_calls.add_metric([tenant], c.llm_calls)
            llm_tokens.add_metric([tenant], c.llm_tokens)
            depth.add_metric([tenant], svc.queue.depth())
            self._memories(mem, tenant, svc)
        yield from (mem, depth, recalls, hits, hit_rate, stored, dedup, sup, sup_ratio, feedback, reuse)
        yield from (reflections, llm_calls, llm_tokens, warm_rows, warm_ns)

    def _memories(self, family: GaugeMetricFamily, tenant: str, svc: MemoryService) -> None:
        try:
            counts = svc.store.status_counts(None)  # tenant-wide: metrics are for the operator, not an agent
        except Exception:  # a scrape must not fail because one table is unreachable
            log.warning("memory counts unavailable", extra={"tenant": tenant})
            return
        for kind, by_status in sorted(counts.items()):
            for status, n in sorted(by_status.items()):
                family.add_metric([tenant, kind, status], n)


class Metrics:
    """One registry per app, so several apps (tests, tenants) never share counters."""

    def __init__(self, ops: Operations) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "hindsight_http_requests", "HTTP requests", ["route", "status"], registry=self.registry
        )
        self.latency = Histogram(
            "hindsight_http_request_seconds", "HTTP request latency", ["route"], registry=self.registry
        )
        self.tool_calls = Counter(
            "hindsight_tool_calls", "MCP tool calls", ["tool", "outcome"], registry=self.registry
        )
        self.tool_latency = Histogram(
            "hindsight_tool_seconds", "MCP tool latency", ["tool"], registry=self.registry
        )
        self.registry.register(_ServiceCollector(ops))

    def observe_request(self, route: str, status: int, seconds: float) -> None:
        self.requests.labels(route, str(status)).inc()
        self.latency.labels(route).observe(seconds)

    def observe_tool(self, tool: str, outcome: str, seconds: float) -> None:
        self.tool_calls.labels(tool, outcome).inc()
        self.tool_latency.labels(tool).observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)
