"""Errors translated at the Lambda edge: a direct invocation gets a JSON error body, never a traceback."""

import logging
from typing import Any

from pydantic import ValidationError

from ..errors import HindsightError, error_body

log = logging.getLogger(__name__)


def invocation_error(exc: Exception) -> dict[str, Any]:
    """The response for a failed direct invocation: the edges' error body and status (same codes as REST and MCP)."""
    if isinstance(exc, HindsightError):
        return {**error_body(exc.code, str(exc)), "status": exc.status}
    if isinstance(exc, ValidationError):
        fields = sorted({".".join(str(p) for p in e["loc"]) for e in exc.errors()})
        return {**error_body("invalid_input", f"invalid fields: {', '.join(fields)}"), "status": 400}
    log.exception("unexpected error")
    return {**error_body("internal_error", "internal error"), "status": 500}
