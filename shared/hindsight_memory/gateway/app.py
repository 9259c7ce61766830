"""The gateway app: MCP at /mcp, REST at /v1, /health and /metrics. `create_app` wires it, `serve` runs uvicorn."""

import asyncio
import ipaddress
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ..config import Settings
from ..errors import HindsightError, describe, error_body
from ..storage.objects import probe
from .auth import TokenRegistry
from .inspector_api import build_inspector_router
from .mcp_tools import HindsightMCP, build_mcp
from .metrics import CONTENT_TYPE, Metrics
from .middleware import GatewayMiddleware
from .operations import Operations
from .rest import Who, build_router
from .tenants import TenantRegistry
from .ui import build_ui_router

_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 403: "forbidden"}

log = logging.getLogger(__name__)


class InsecureConfig(HindsightError):
    """The gateway would expose memories without authentication."""

    code = "insecure_config"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def transport_security(settings: Settings) -> TransportSecuritySettings:
    """DNS-rebinding protection: only the configured Host names (any port); '*' turns the check off."""
    hosts = [h.strip() for h in settings.allowed_hosts.split(",") if h.strip()]
    if "*" in hosts:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*hosts, *(f"{h}:*" for h in hosts)],
        allowed_origins=[
            f"{scheme}://{h}{port}" for h in hosts for scheme in ("http", "https") for port in ("", ":*")
        ],
    )


class McpEndpoint:
    """ASGI endpoint for /mcp that starts the SDK's session manager lazily, once per event loop.

    Under Mangum there is no lifespan (its 'auto' mode breaks on warm calls), so the manager's task group is
    opened by the first request and kept alive in a background task for the life of the process.
    """

    def __init__(self, mcp: HindsightMCP, security: TransportSecuritySettings, max_body: int) -> None:
        self.mcp, self.security, self.max_body = mcp, security, max_body
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready: asyncio.Future[None] | None = None
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    async def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is loop and self._ready is not None:
            await asyncio.shield(self._ready)
            return
        self._loop, self._ready, self._stop = loop, loop.create_future(), asyncio.Event()
        # Each manager runs only once: build a fresh one for this loop.
        self.mcp.streamable_http_app(
            json_response=True,
            stateless_http=True,
            transport_security=self.security,
            max_request_body_size=self.max_body,
        )
        manager, ready, stop = self.mcp.session_manager, self._ready, self._stop

        async def run() -> None:
            try:
                async with manager.run():
                    ready.set_result(None)
                    await stop.wait()
            except BaseException as e:
                if not ready.done():
                    ready.set_exception(e)
                raise

        self._task = loop.create_task(run(), name="mcp-session-manager")
        await asyncio.shield(ready)

    async def stop(self) -> None:
        if self._stop is not None and self._task is not None and self._loop is asyncio.get_running_loop():
            self._stop.set()
            await self._task
        self._loop = self._ready = self._stop = self._task = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("method") == "GET":
            # Stateless: no session, so no server-initiated messages to stream. The transport lets a server
            # answer 405 here; the SDK would hold an SSE stream of pings open for ever (a Lambda until its timeout).
            refusal = error_body("method_not_allowed", "this server offers no SSE stream; POST")
            await JSONResponse(refusal, status_code=405, headers={"allow": "POST"})(scope, receive, send)
            return
        await self._start()
        await self.mcp.session_manager.handle_request(scope, receive, send)


def create_app(
    settings: Settings | None = None,
    *,
    serverless: bool = False,
    tenants: TenantRegistry | None = None,
    tokens: TokenRegistry | None = None,
) -> FastAPI:
    """Build the gateway. `serverless`: one tenant per stack, tokens mandatory.

    Raises:
        InsecureConfig: no tokens configured while serverless or bound to a non-loopback address.
    """
    settings = settings or Settings()
    tokens = tokens or TokenRegistry.from_settings(settings)
    if not tokens.enabled and (serverless or not is_loopback(settings.host)):
        raise InsecureConfig(
            f"refusing to serve on {settings.host!r} without tokens: set HINDSIGHT_TOKENS "
            "(create one with `hindsight token create`) or bind to 127.0.0.1"
        )
    # Without tokens there is one local tenant, whose tables are store_uri itself (as the CLI reads them).
    tenants = tenants or TenantRegistry(settings, single_tenant=serverless or not tokens.enabled)
    ops = Operations(tenants)
    metrics = Metrics(tenants)
    security = transport_security(settings)
    mcp = build_mcp(ops, observe=metrics.observe_tool)
    endpoint = McpEndpoint(mcp, security, settings.max_body_bytes)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Acknowledged writes a killed process left in its journal are replayed now, not on a tenant's next call.
        await anyio.to_thread.run_sync(tenants.recover)
        yield
        await endpoint.stop()
        await anyio.to_thread.run_sync(tenants.close)

    app = FastAPI(
        title="hindsight",
        version="0.1.0",
        lifespan=lifespan,
        description="Memory for LLM agents. MCP (Streamable HTTP) at /mcp; this REST API mirrors its tools.",
    )
    app.state.settings, app.state.ops, app.state.metrics, app.state.mcp = settings, ops, metrics, mcp
    app.include_router(build_router(ops))
    app.include_router(build_inspector_router(ops))  # /v1 reads and corrections for the inspector
    app.include_router(build_ui_router())  # the /ui page
    app.router.routes.append(Route("/mcp", endpoint=endpoint))

    @app.exception_handler(HindsightError)
    async def _hindsight_error(_: Request, exc: HindsightError) -> JSONResponse:
        return JSONResponse(error_body(exc.code, str(exc)), status_code=exc.status)

    # One error shape for every REST refusal, {"error": {"code", "message"}}, and never the rejected value:
    # FastAPI's own 422 body repeats the input, which may not even be encodable.
    @app.exception_handler(ValidationError)
    async def _validation_error(_: Request, exc: ValidationError) -> JSONResponse:
        return JSONResponse(error_body("invalid_input", describe(exc)), status_code=422)

    @app.exception_handler(RequestValidationError)
    async def _request_validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        fields = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'] if p not in ('body', 'query', 'path')) or 'body'}: "
            f"{e['msg'].removeprefix('Value error, ')}"
            for e in exc.errors()
        )
        return JSONResponse(error_body("invalid_input", fields), status_code=422)

    @app.exception_handler(HTTPException)
    async def _http_error(_: Request, exc: HTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(
            exc.status_code, "invalid_input" if exc.status_code < 500 else "internal_error"
        )
        return JSONResponse(
            error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(TimeoutError)
    async def _timeout(_: Request, exc: TimeoutError) -> JSONResponse:
        return JSONResponse(error_body("timeout", "queued; not yet visible"), status_code=202)

    @app.get("/health", tags=["operations"], summary="Liveness and storage reachability")
    async def health() -> JSONResponse:
        # Public, so it names no tenant and touches no table: it only asks whether the store's location answers
        # (a listing of the bucket prefix, or the folder), creating nothing.
        try:
            await anyio.to_thread.run_sync(probe, settings.store_uri, settings.storage_options())
        except Exception as e:  # health reports, never raises
            log.warning("storage unreachable", extra={"error": type(e).__name__})
            return JSONResponse({"status": "degraded", "storage": "unreachable"}, status_code=503)
        return JSONResponse({"status": "ok", "storage": "ok"})

    @app.get(
        "/metrics",
        tags=["operations"],
        summary="Prometheus metrics of the caller's tenant (admin token)",
        response_class=Response,
    )
    async def prometheus(who: Who) -> Response:
        who.require_admin()
        # An operator of the deployment's own tenant also sees the requests no token could be matched to.
        body = metrics.render(who.tenant, unauthenticated=who.tenant == settings.tenant)
        return Response(body, media_type=CONTENT_TYPE)

    app.add_middleware(
        GatewayMiddleware, tokens=tokens, security=security, metrics=metrics, max_body=settings.max_body_bytes
    )
    return app


def serve(settings: Settings | None = None, *, serverless: bool = False) -> None:
    """Run the gateway under uvicorn (`hindsight serve`; the container image's gateway with `serverless`: one
    tenant whose tables are store_uri itself, tokens required)."""
    import uvicorn

    from .logs import configure_logging

    settings = settings or Settings()
    configure_logging()
    app = create_app(settings, serverless=serverless)
    uvicorn.run(app, host=settings.host, port=settings.port, log_config=None, proxy_headers=False)
