"""Lambda events as AWS delivers them, built for a request: Function URL (payload 2.0) events for the gateway's
REST and MCP endpoints, and the decoding of its responses."""

import base64
import json
import uuid
from typing import Any

HOST = "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws"


def url_event(path: str, payload: Any = None, token: str | None = None, method: str = "POST") -> dict:
    """A Function URL event for `method path` with a JSON body."""
    body = "" if payload is None else json.dumps(payload)
    headers = {
        "accept": "application/json, text/event-stream",
        "content-type": "application/json",
        "content-length": str(len(body.encode())),
        "host": HOST,
        "mcp-protocol-version": "2025-11-25",
        "x-forwarded-proto": "https",
        "x-forwarded-port": "443",
        "x-forwarded-for": "203.0.113.7",
    }
    if token:
        headers["authorization"] = f"Bearer {token}"
    raw_path, _, query = path.partition("?")
    return {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": raw_path,
        "rawQueryString": query,
        "headers": headers,
        "requestContext": {
            "accountId": "anonymous",
            "apiId": HOST.split(".")[0],
            "domainName": HOST,
            "domainPrefix": HOST.split(".")[0],
            "http": {
                "method": method,
                "path": raw_path,
                "protocol": "HTTP/1.1",
                "sourceIp": "203.0.113.7",
                "userAgent": "tests",
            },
            "requestId": uuid.uuid4().hex,
            "routeKey": "$default",
            "stage": "$default",
            "time": "29/Nov/2026:12:00:00 +0000",
            "timeEpoch": 1795953600000,
        },
        "body": body,
        "isBase64Encoded": False,
    }


def mcp_call(tool: str, arguments: dict, token: str) -> dict:
    """A Function URL event carrying one MCP tools/call (stateless Streamable HTTP, JSON response)."""
    rpc = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }
    return url_event("/mcp", rpc, token)


def response_json(response: dict) -> Any:
    raw = response.get("body") or ""
    return json.loads(base64.b64decode(raw) if response.get("isBase64Encoded") else raw)


def tool_result(response: dict) -> dict:
    """The structured result of an MCP tools/call response; raises AssertionError on a tool error."""
    assert response["statusCode"] == 200, response
    result = response_json(response)["result"]
    assert not result.get("isError"), result["content"][0]["text"]
    return result["structuredContent"]
