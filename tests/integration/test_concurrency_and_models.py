"""Many concurrent clients through one writer on emulated S3; model mismatch is refused with a clear error."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from hindsight_memory.config import Settings
from hindsight_memory.errors import ModelMismatch
from hindsight_memory.models import StoreRequest
from hindsight_memory.service import build_service
from tests.support.moto import new_bucket


@pytest.mark.slow
def test_eight_concurrent_clients_storing_250_items_each_end_with_exactly_2000_memories(s3_endpoint):
    settings = Settings(
        store_uri=f"s3://{new_bucket(s3_endpoint)}/tables", s3_endpoint=s3_endpoint, embedder="hashing"
    )
    svc = build_service(settings)

    def client(c: int) -> list[str]:
        ids = []
        for i in range(250):
            req = StoreRequest(
                namespace=f"team/client-{c % 2}",
                items=[{"content": f"client {c} observation {i}: sensor {c * 1000 + i} read {i * 7 % 13}"}],
                wait=(i == 249),
            )
            ids += svc.store_memories(req).ids
        return ids

    try:
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(client, range(8)))  # an exception in any client fails the test here
        svc.flush()
        all_ids = [i for ids in results for i in ids]
        assert len(all_ids) == len(set(all_ids)) == 2000
        assert svc.store.count("team/client-0") + svc.store.count("team/client-1") == 2000
        assert svc.store.count(table="events") == 2000
    finally:
        svc.close()


def test_opening_a_store_with_another_embedding_model_names_the_reindex_command(tmp_path):
    uri = str(tmp_path / "data")
    svc = build_service(Settings(store_uri=uri, embedder="hashing-256"))
    svc.store_memories(StoreRequest(namespace="a", items=[{"content": "x"}], wait=True))
    svc.close()
    with pytest.raises(ModelMismatch, match=r"hindsight --embedder .* reindex --to"):
        build_service(Settings(store_uri=uri, embedder="hashing-128"))
