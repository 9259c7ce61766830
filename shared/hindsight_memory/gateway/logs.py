"""Structured JSON logs, one line per record, carrying the request id. Memory content is never logged by default."""

import contextvars
import json
import logging
import re
import uuid

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("hindsight_request_id", default="-")
_SAFE_ID = re.compile(r"^[A-Za-z0-9._\-]{1,64}$")
_STD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


def new_request_id(incoming: str | None) -> str:
    """Reuse a caller's X-Request-Id when it is a plain token (it ends up in logs), else mint one."""
    return incoming if incoming and _SAFE_ID.fullmatch(incoming) else uuid.uuid4().hex


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {
            "ts": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
            "request_id": request_id.get(),
        }
        # Set when the record was created (RequestIdFilter or the access log), which may be another context.
        out.update({k: v for k, v in vars(record).items() if k not in _STD and not k.startswith("_")})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


class RequestIdFilter(logging.Filter):
    """Stamp each record with the request id of the context that logged it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        return True


def configure_logging(level: str = "INFO") -> None:
    """Send hindsight and uvicorn logs to stderr as JSON (idempotent)."""
    root = logging.getLogger()
    if not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(JsonFormatter())
        handler.addFilter(RequestIdFilter())
        root.addHandler(handler)
    root.setLevel(level)
