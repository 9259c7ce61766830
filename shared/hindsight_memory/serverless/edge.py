"""Errors translated at the Lambda edge: a direct invocation gets a JSON error body, never a traceback."""

import logging

from pydantic import ValidationError

from ..errors import HindsightError

log = logging.getLogger(__name__)


def error_body(exc: Exception) -> dict:
    """The response for a failed direct invocation (same codes as the REST and MCP edges)."""
    if isinstance(exc, HindsightError):
        return {"error": {"code": exc.code, "message": str(exc)}, "status": exc.status}
    if isinstance(exc, ValidationError):
        fields = sorted({".".join(str(p) for p in e["loc"]) for e in exc.errors()})
        return {
            "error": {"code": "invalid_input", "message": f"invalid fields: {', '.join(fields)}"},
            "status": 400,
        }
    log.exception("unexpected error")
    return {"error": {"code": "internal_error", "message": "internal error"}, "status": 500}
