"""What a warm recall asks of the object store, counted by a proxy in front of moto server: with the gateway's
settings, recalls in a row answer from memory and check the table's version at most once per consistency
interval (before, each recall listed the versions of the memories table five times)."""

import boto3
import pytest

from hindsight_memory.bench.s3proxy import LatencyProxy
from hindsight_memory.config import Settings
from hindsight_memory.models import RecallQuery
from hindsight_memory.serverless.settings import for_function
from hindsight_memory.service import build_service
from tests.serverless.helpers import store_op
from tests.support.moto import new_bucket

pytestmark = pytest.mark.s3
NS = "alice/project-x"


def test_recalls_in_a_row_list_the_tables_versions_at_most_once_a_second(s3_endpoint, monkeypatch):
    bucket = new_bucket(s3_endpoint)
    sqs = boto3.client("sqs", endpoint_url=s3_endpoint, region_name="us-east-1")
    queue = sqs.create_queue(
        QueueName=f"{bucket}.fifo", Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"}
    )["QueueUrl"]
    writer = build_service(
        Settings(store_uri=f"s3://{bucket}/tables", s3_endpoint=s3_endpoint, embedder="hashing")
    )
    writer.writer.apply([store_op(NS, *[f"fact {i}: port {8000 + i} runs service {i}" for i in range(40)])])
    writer.close()

    proxy = LatencyProxy(s3_endpoint, delay_s=0)
    with proxy as proxied:
        monkeypatch.setenv("AWS_ENDPOINT_URL", proxied)
        settings = Settings(
            store_uri=f"s3://{bucket}/tables",
            s3_endpoint=proxied,
            embedder="hashing",
            queue="sqs",
            store_queue_url=queue.replace(s3_endpoint, proxied),
        )
        reader = build_service(for_function(settings, "gateway"))  # as the deployed gateway reads
        reader.recall(RecallQuery(namespace=NS, query="which port runs service 3"))  # loads the namespace
        proxy.reset()

        recalls = 20
        for i in range(recalls):
            out = reader.recall(RecallQuery(namespace=NS, query=f"which port runs service {i}"))
            assert not out.missing
            reader.flush_usage()  # as the gateway does at the end of every invocation
        counts = proxy.reset()
        reader.close()

    # THEN no recall read a data file again (the warm index answers), the versions were listed a few times at
    # most (not five times a recall), and each invocation sent its usage counts once
    assert counts["s3:GET"] == 0 and counts["s3:HEAD"] == 0
    assert counts["s3:LIST"] < recalls / 2, counts
    assert counts["sqs:SendMessage"] == recalls
