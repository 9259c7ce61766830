"""Tool calls over a live gateway (the `reflect_gateway` fixture in conftest) with the official MCP client."""

import asyncio
from typing import Any

from tests.gateway.conftest import LiveGateway, mcp_client


def call(gw: LiveGateway, *calls: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Tool calls in order over one MCP session; their structured results (a tool error fails the test)."""

    async def go() -> list[dict[str, Any]]:
        out = []
        async with mcp_client(gw.url, gw.tokens["alice"]) as c:
            for name, args in calls:
                res = await c.call_tool(name, args)
                assert not res.is_error, (name, res.content)
                out.append(res.structured_content)
        return out

    return asyncio.run(go())
