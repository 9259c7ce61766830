"""Lambda entry point for the gateway (Function URL or HTTP API v2 events) through Mangum."""

from mangum import Mangum

from hindsight_memory.config import Settings
from hindsight_memory.gateway.app import create_app
from hindsight_memory.serverless.settings import load_settings

_handler: Mangum | None = None


def build_handler(settings: Settings | None = None) -> Mangum:
    """One app per process. Lifespan is off: Mangum's 'auto' re-runs it on every warm call, which the MCP
    session manager refuses; the gateway starts that manager lazily on the first /mcp request instead."""
    return Mangum(create_app(settings or load_settings(function="gateway"), serverless=True), lifespan="off")


def handler(event: dict, context: object) -> dict:
    # Built on the first invocation rather than at import, so a configuration error surfaces as a failed
    # invocation with its message in the logs, and tests can import this module without a deployment's env.
    global _handler
    if _handler is None:
        _handler = build_handler()
    try:
        return _handler(event, context)
    finally:
        # Usage counts buffered by this invocation's recalls leave now: the sandbox may never run again.
        _handler.app.state.ops.tenants.flush_usage()
