"""Store function: the tenant's single writer, draining the store queue in SQS batches (partial failures)."""

from hindsight_memory.serverless.settings import load_settings
from hindsight_memory.serverless.store import StoreConsumer

consumer = StoreConsumer.from_settings(load_settings())  # once per cold start


def handler(event: dict, context: object) -> dict:
    return consumer.handle(event, context)
