"""One ASGI middleware in front of every route: request id, Host/Origin check, body limit, strict JSON and
clean text (validation.py), bearer auth, access log and request metrics. Refusals happen here, before any
handler parses the body: REST gets `{"error": {"code", "message"}}`, MCP a JSON-RPC error object."""

import json
import logging
import re
import time
from typing import Any

import anyio
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from mcp.types import INVALID_REQUEST, PARSE_ERROR
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import HindsightError, InvalidInput, error_body
from .auth import TokenRegistry
from .logs import new_request_id, request_id
from .mcp_tools import current_principal
from .metrics import Metrics
from .validation import BadJson, check_target, parse_body

log = logging.getLogger("hindsight.access")
# Every path under these needs a token (with tokens configured); /metrics then also an admin one.
PROTECTED = ("/mcp", "/v1/", "/metrics")
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
ROUTES = {
    "/mcp",
    "/health",
    "/metrics",
    "/docs",
    "/openapi.json",
    "/v1/memories/store",
    "/v1/memories/recall",
    "/v1/memories/forget",
    "/v1/memories/feedback",
    "/v1/stats",
    "/v1/namespaces",
    "/v1/overview",
    "/v1/memories",
    "/v1/events",
    "/v1/reflection/runs",
    "/ui",
    "/ui/",
}
# Paths holding an id or a file name get their route's template as label, so labels stay few whatever is sent.
TEMPLATES = (
    (re.compile(r"/v1/memories/[0-9a-f]{32}"), "/v1/memories/{id}"),
    (re.compile(r"/v1/memories/[0-9a-f]{32}/restore"), "/v1/memories/{id}/restore"),
    (re.compile(r"/v1/reflection/runs/[0-9a-f]{32}"), "/v1/reflection/runs/{id}"),
    (re.compile(r"/ui/[A-Za-z0-9_-]+\.(?:js|css|html)"), "/ui/{file}"),
)


def route_label(path: str) -> str:
    """The metrics and access-log label of a request path: a known route or template, else "other"."""
    if path in ROUTES:
        return path
    return next((label for pattern, label in TEMPLATES if pattern.fullmatch(path)), "other")


def rpc_error_body(
    code: str, message: str, rpc_id: Any = None, rpc_code: int = INVALID_REQUEST
) -> dict[str, Any]:
    """The same refusal as a JSON-RPC error object, for /mcp (the message keeps the REST code in front)."""
    ok_id = rpc_id if isinstance(rpc_id, (str, int)) and not isinstance(rpc_id, bool) else None
    return {"jsonrpc": "2.0", "id": ok_id, "error": {"code": rpc_code, "message": f"{code}: {message}"}}


class GatewayMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        *,
        tokens: TokenRegistry,
        security: TransportSecuritySettings,
        metrics: Metrics,
        max_body: int,
    ) -> None:
        self.app, self.tokens, self.metrics, self.max_body = app, tokens, metrics, max_body
        self.security = TransportSecurityMiddleware(security)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        rid = new_request_id(headers.get("x-request-id"))
        rid_token = request_id.set(rid)
        start, status, who = time.perf_counter(), 500, None
        path = scope.get("path", "")

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", rid.encode())]
            await send(message)

        try:
            refusal = self._check_headers(headers)
            body, rpc_id, rpc_code = b"", None, INVALID_REQUEST
            if refusal is None:
                body, refusal = await self._read_body(headers, receive)
            if refusal is None and path.startswith(PROTECTED):
                try:
                    # Off the event loop: a re-read of the token source may be a network call.
                    who = await anyio.to_thread.run_sync(
                        self.tokens.authenticate, headers.get("authorization")
                    )
                    check_target(path, scope.get("query_string", b""))
                    if body and scope.get("method") in BODY_METHODS:
                        doc = parse_body(body)
                        rpc_id = doc.get("id") if isinstance(doc, dict) else None
                        if path == "/mcp" and not isinstance(doc, dict):
                            # a batch or a bare value: refused here, where the SDK's own message would quote it
                            raise InvalidInput(
                                "one JSON-RPC message, a JSON object, per request (no batches)"
                            )
                except BadJson as e:
                    refusal, rpc_code = (400, e.code, str(e)), PARSE_ERROR
                except HindsightError as e:
                    refusal = (e.status, e.code, str(e))
            if refusal is not None:
                await self._refuse(
                    send_with_id, *refusal, rpc=path == "/mcp", rpc_id=rpc_id, rpc_code=rpc_code
                )
                return
            scope.setdefault("state", {})["principal"] = who
            p_token = current_principal.set(who)
            try:
                await self.app(scope, _replay(body, receive), send_with_id)
            finally:
                current_principal.reset(p_token)
        finally:
            elapsed = time.perf_counter() - start
            route = route_label(path)
            self.metrics.observe_request(who.tenant if who else None, route, status, elapsed)
            log.info(
                "request",
                extra={
                    "request_id": rid,
                    "method": scope.get("method"),
                    "route": route,
                    "status": status,
                    "ms": round(elapsed * 1000, 1),
                    "tenant": who.tenant if who else None,
                    "token": who.name if who else None,
                },
            )
            request_id.reset(rid_token)

    def _check_headers(self, headers: Headers) -> tuple[int, str, str] | None:
        s = self.security.settings
        if not s.enable_dns_rebinding_protection:
            return None
        if not self.security._validate_host(headers.get("host")):  # noqa: SLF001 - the SDK's own host matcher
            return 421, "invalid_host", "Host header not allowed (set HINDSIGHT_ALLOWED_HOSTS)"
        if not self.security._validate_origin(headers.get("origin")):  # noqa: SLF001
            return 403, "invalid_origin", "Origin not allowed"
        return None

    async def _read_body(
        self, headers: Headers, receive: Receive
    ) -> tuple[bytes, tuple[int, str, str] | None]:
        """Buffer the body (bounded by max_body) so oversize requests are refused before any parsing."""
        too_big = (413, "limit_exceeded", f"request body larger than {self.max_body} bytes")
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            return b"", too_big if declared.isdigit() else (400, "invalid_input", "bad Content-Length")
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return b"", too_big
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks), None

    @staticmethod
    async def _refuse(
        send: Send,
        status: int,
        code: str,
        message: str,
        *,
        rpc: bool = False,
        rpc_id: Any = None,
        rpc_code: int = INVALID_REQUEST,
    ) -> None:
        doc = rpc_error_body(code, message, rpc_id, rpc_code) if rpc else error_body(code, message)
        body = json.dumps(doc).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if status == 401:
            headers.append((b"www-authenticate", b'Bearer realm="hindsight"'))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _replay(body: bytes, receive: Receive) -> Receive:
    """Hand the buffered body to the app, then pass through to the server (which reports disconnects)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
