"""Store function: the tenant's single writer, draining the store queue in SQS batches (partial failures)."""

from hindsight_memory.config import Settings
from hindsight_memory.serverless.store import StoreConsumer

consumer = StoreConsumer.from_settings(Settings())  # once per cold start


def handler(event: dict, context: object) -> dict:
    return consumer.handle(event)
