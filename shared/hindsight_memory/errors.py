"""Error types. Raised by the core, translated to HTTP / JSON-RPC / Lambda responses only at the edges."""

from typing import Any

from pydantic import ValidationError


def error_body(code: str, message: str) -> dict[str, Any]:
    """The JSON body of an error at every edge: REST, the gateway's HTTP layer, a direct Lambda invocation."""
    return {"error": {"code": code, "message": message}}


class HindsightError(Exception):
    """Base class for every error the core raises on purpose."""

    status = 500
    code = "internal_error"


class InvalidInput(HindsightError):
    """The caller sent something malformed: a bad namespace, an empty content, an unknown field value."""

    status = 400
    code = "invalid_input"


class LimitExceeded(InvalidInput):
    """A request is over a configured limit (items per store, content length, top_k, body size)."""

    status = 413
    code = "limit_exceeded"


class NotFound(HindsightError):
    """No such memory, reflection run or page file in the caller's namespace."""

    status = 404
    code = "not_found"


class Conflict(HindsightError):
    """The request is valid but the memory is not in a state that allows it (e.g. correcting an old version)."""

    status = 409
    code = "conflict"


class Unauthorized(HindsightError):
    status = 401
    code = "unauthorized"


class Forbidden(HindsightError):
    status = 403
    code = "forbidden"


class ModelMismatch(HindsightError):
    """The table was written with another embedding model; mixing vectors would silently corrupt recall."""

    status = 409
    code = "embedding_model_mismatch"


class StorageConflict(HindsightError):
    """A commit lost a race with another writer after all retries."""

    status = 503
    code = "storage_conflict"


class BudgetExceeded(HindsightError):
    """An LLM budget is spent; the work is deferred, not dropped."""

    status = 429
    code = "budget_exceeded"


class TablesNotCreated(HindsightError):
    """A write reached a read-only store before the writer created the table (it must go through the queue)."""

    status = 503
    code = "tables_not_created"


class QueueUnavailable(HindsightError):
    """The write queue refused or could not take a message; nothing of it was queued."""

    status = 503
    code = "queue_unavailable"


class JournalUnavailable(HindsightError):
    """The write journal could not record an op: it is not acknowledged (embedded mode; the client retries)."""

    status = 503
    code = "journal_unavailable"


class PurgeIncomplete(HindsightError):
    """A purge removed the rows but could not delete every old copy of their bytes (retry the purge)."""

    status = 503
    code = "purge_incomplete"


def describe(exc: ValidationError, drop: tuple[str, ...] = ()) -> str:
    """Field paths and messages of a validation error, never the rejected values (the caller's data, maybe
    hostile, maybe not even encodable). `drop`: leading location parts to leave out (FastAPI's "body")."""
    parts = []
    for err in exc.errors():
        loc = [str(p) for p in err["loc"]]
        while loc and loc[0] in drop:
            loc = loc[1:]
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{'.'.join(loc) or 'input'}: {msg}")
    return "; ".join(parts)
