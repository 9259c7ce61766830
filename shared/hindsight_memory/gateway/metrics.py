"""/metrics: Prometheus text for one tenant's operator (an admin token of that tenant).

Everything is read from memory: request and tool latencies observed as they happen, and each loaded tenant's
service counters (stores, recalls, feedback, reflections, LLM use, warm index size). A scrape reads no table:
per-namespace counts of memories are in `stats` (an admin tool), not here. Every sample carries a `tenant`
label, and a scrape shows only the caller's tenant (plus, to the deployment's own tenant, the requests that
carried no valid token)."""

import logging
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ..writer.queue import InProcessQueue
from .tenants import TenantRegistry

log = logging.getLogger(__name__)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
NO_TENANT = "none"  # the label of requests no token was matched to (refused, or public routes)


class _ServiceCollector(Collector):
    def __init__(self, tenants: TenantRegistry) -> None:
        self.tenants = tenants

    def collect(self) -> Iterator[Metric]:
        def gauge(name: str, doc: str, *labels: str) -> GaugeMetricFamily:
            return GaugeMetricFamily(name, doc, labels=["tenant", *labels])

        def counter(name: str, doc: str, *labels: str) -> CounterMetricFamily:
            return CounterMetricFamily(name, doc, labels=["tenant", *labels])

        depth = gauge(
            "hindsight_queue_depth", "Write operations waiting for this process's in-process writer"
        )
        recalls = counter("hindsight_recalls", "Recall calls")
        hits = counter("hindsight_recall_hits", "Recalls that found something")
        hit_rate = gauge("hindsight_recall_hit_rate", "Share of recalls that found something")
        stored = counter("hindsight_stored", "Memories stored")
        dedup = counter("hindsight_deduplicated", "Stores merged into an existing memory")
        sup = counter("hindsight_superseded", "Stores that superseded an older fact")
        sup_ratio = gauge("hindsight_supersede_ratio", "Superseded / stored (conflict rate)")
        feedback = counter("hindsight_feedback", "Feedback on recalled memories", "verdict")
        reuse = gauge("hindsight_reuse_rate", "Share of feedback saying a recalled memory helped")
        reflections = counter("hindsight_reflections", "Reflections that completed (LLM or heuristic)")
        llm_calls = counter("hindsight_llm_calls", "LLM calls made by reflection")
        llm_tokens = counter("hindsight_llm_tokens", "LLM tokens (prompt + completion) spent by reflection")
        warm_rows = gauge("hindsight_warm_index_rows", "Rows this process serves recall from in memory")
        warm_ns = gauge("hindsight_warm_index_namespaces", "Namespaces held by this process's warm index")
        for tenant, svc in self.tenants.loaded().items():
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
            # An SQS queue's depth would be an API call per scrape: CloudWatch has it (the module's alarms).
            if isinstance(svc.queue, InProcessQueue):
                depth.add_metric([tenant], svc.queue.depth())
        yield from (depth, recalls, hits, hit_rate, stored, dedup, sup, sup_ratio, feedback, reuse)
        yield from (reflections, llm_calls, llm_tokens, warm_rows, warm_ns)


class _TenantView:
    """The registry seen by one tenant: only samples labelled with it (and optionally NO_TENANT)."""

    def __init__(self, registry: CollectorRegistry, tenants: frozenset[str]) -> None:
        self.registry, self.tenants = registry, tenants

    def collect(self) -> Iterator[Metric]:
        for family in self.registry.collect():
            mine = Metric(family.name, family.documentation, family.type, family.unit)
            mine.samples = [s for s in family.samples if s.labels.get("tenant") in self.tenants]
            yield mine


class Metrics:
    """One registry per app, so several apps (tests, tenants) never share counters."""

    def __init__(self, tenants: TenantRegistry) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "hindsight_http_requests", "HTTP requests", ["tenant", "route", "status"], registry=self.registry
        )
        self.latency = Histogram(
            "hindsight_http_request_seconds",
            "HTTP request latency",
            ["tenant", "route"],
            registry=self.registry,
        )
        self.tool_calls = Counter(
            "hindsight_tool_calls", "MCP tool calls", ["tenant", "tool", "outcome"], registry=self.registry
        )
        self.tool_latency = Histogram(
            "hindsight_tool_seconds", "MCP tool latency", ["tenant", "tool"], registry=self.registry
        )
        self.registry.register(_ServiceCollector(tenants))

    def observe_request(self, tenant: str | None, route: str, status: int, seconds: float) -> None:
        self.requests.labels(tenant or NO_TENANT, route, str(status)).inc()
        self.latency.labels(tenant or NO_TENANT, route).observe(seconds)

    def observe_tool(self, tenant: str, tool: str, outcome: str, seconds: float) -> None:
        self.tool_calls.labels(tenant, tool, outcome).inc()
        self.tool_latency.labels(tenant, tool).observe(seconds)

    def render(self, tenant: str, *, unauthenticated: bool = False) -> bytes:
        shown = frozenset({tenant, NO_TENANT} if unauthenticated else {tenant})
        return generate_latest(_TenantView(self.registry, shown))
