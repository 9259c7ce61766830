"""Compact function: scheduled compaction ({"task": "compact"}); it decides, the store function applies."""

from hindsight_memory.serverless import tasks
from hindsight_memory.serverless.settings import load_settings
from hindsight_memory.service import build_service

service = build_service(load_settings(function="compact"))  # once per cold start; writes go through the queue


def handler(event: dict, context: object) -> dict:
    return tasks.compact(service, event)
