"""Reflect function: reflect-queue batches (task-end, anomaly) and scheduled triggers (periodic, induction)."""

from hindsight_memory.serverless import tasks
from hindsight_memory.serverless.settings import load_settings
from hindsight_memory.service import build_service

service = build_service(load_settings(function="reflect"))  # once per cold start; writes go through the queue


def handler(event: dict, context: object) -> dict:
    return tasks.reflect(service, event, context=context)
