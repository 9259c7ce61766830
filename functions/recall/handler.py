"""Recall function, for direct invocation: a RecallQuery as JSON in, a RecallResult out."""

from hindsight_memory.serverless import tasks
from hindsight_memory.serverless.settings import load_settings
from hindsight_memory.service import build_service

service = build_service(load_settings(function="recall"))  # once per cold start


def handler(event: dict, context: object) -> dict:
    return tasks.recall(service, event)
