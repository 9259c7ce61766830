"""Compact function: scheduled compaction and cold-tier moves ({"task": "compact"})."""

from hindsight_memory.serverless import tasks
from hindsight_memory.serverless.settings import load_settings
from hindsight_memory.service import build_service

service = build_service(load_settings())  # once per cold start


def handler(event: dict, context: object) -> dict:
    return tasks.compact(service, event)
