"""A live gateway (uvicorn on a free loopback port) with tokens for two tenants, and an MCP client helper."""

import json
import threading
import time
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass

import httpx
import pytest
import uvicorn

from hindsight_memory.config import Settings
from hindsight_memory.gateway.app import create_app
from hindsight_memory.gateway.auth import create_token
from tests.support.moto import free_port

# Scopes of the tokens every gateway test uses: tenant "acme" (alice, bob, carol, an admin) and tenant "globex".
TOKEN_SPECS = {
    "alice": ("acme", ["alice/*"], False),
    "bob": ("acme", ["bob/*"], False),
    "admin": ("acme", ["*"], True),
    "globex": ("globex", ["alice/*"], False),
    "carol": ("acme", ["carol/x"], False),  # an exact scope: carol/x itself, nothing under it
}


def make_tokens() -> tuple[dict[str, str], str]:
    tokens, records = {}, []
    for name, (tenant, scopes, admin) in TOKEN_SPECS.items():
        token, record = create_token(tenant, scopes, admin=admin, name=name)
        tokens[name] = token
        records.append(record)
    return tokens, json.dumps(records)


@dataclass
class LiveGateway:
    url: str
    tokens: dict[str, str]
    settings: Settings
    app: object

    def headers(self, who: str | None = None, **extra: str) -> dict[str, str]:
        h = {"Authorization": f"Bearer {self.tokens[who]}"} if who else {}
        return {**h, **extra}

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=60, trust_env=False)


class UvicornThread:
    """Runs uvicorn in a thread and waits (with a timeout) until it accepts connections."""

    def __init__(self, app, port: int) -> None:
        self.server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@contextmanager
def served(settings: Settings) -> Iterator[str]:
    """The gateway for `settings` on a free loopback port, by its URL."""
    port = free_port()
    with UvicornThread(create_app(settings), port):
        yield f"http://127.0.0.1:{port}"


def gateway_settings(tmp_path, tokens_json: str | None, **overrides) -> Settings:
    return Settings(
        store_uri=str(tmp_path / "data"),
        embedder="hashing",
        tokens=tokens_json,
        batch_window_ms=5,
        **overrides,
    )


@pytest.fixture(scope="module")
def live_gateway(tmp_path_factory):
    tokens, tokens_json = make_tokens()
    settings = gateway_settings(
        tmp_path_factory.mktemp("gw"),
        tokens_json,
        max_content_chars=2000,
        max_items_per_store=20,
        max_body_bytes=200_000,
    )
    app = create_app(settings)
    port = free_port()
    with UvicornThread(app, port):
        yield LiveGateway(url=f"http://127.0.0.1:{port}", tokens=tokens, settings=settings, app=app)


@asynccontextmanager
async def mcp_client(url: str, token: str | None, mode: str = "auto"):
    """The official MCP Python client over Streamable HTTP; mode 'legacy' negotiates 2025-11-25."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http), mode=mode) as client,
    ):
        yield client
