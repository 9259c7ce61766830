"""Schema-driven fuzzing of the REST API over real HTTP (schemathesis): no input makes the server answer 5xx.

Two runs per operation: the cases schemathesis generates from the OpenAPI document, and the same cases with one
value (or one key) replaced by what a hostile or careless client sends and JSON's own grammar does not allow
or the service refuses: NaN, Infinity, 1e309, huge integers, lone surrogates, control characters, deep nesting.
Those must be refused with a 4xx in the one error shape, on a connection that stays open."""

import json

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

pytestmark = pytest.mark.slow
OPERATIONS = [
    ("/v1/memories/store", "POST"),
    ("/v1/memories/recall", "POST"),
    ("/v1/memories/forget", "POST"),
    ("/v1/memories/feedback", "POST"),
    ("/v1/memories/status", "POST"),
    ("/v1/stats", "GET"),
    # the inspector's routes
    ("/v1/namespaces", "GET"),
    ("/v1/overview", "GET"),
    ("/v1/memories", "GET"),
    ("/v1/events", "GET"),
    ("/v1/memories/{memory_id}", "GET"),
    ("/v1/memories/{memory_id}", "PATCH"),
    ("/v1/memories/{memory_id}", "DELETE"),
    ("/v1/memories/{memory_id}/restore", "POST"),
    ("/v1/reflection/runs", "GET"),
    ("/v1/reflection/runs/{run_id}", "GET"),
]
# Raw JSON text put in place of one value. Every one is refused (a 4xx), whatever field it lands in.
HOSTILE_LITERALS = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e309",
    "-1e400",
    "1" + "0" * 30,  # beyond 64 bits
    "1" + "0" * 5000,  # beyond what Python converts
    '"\\ud800"',
    '"a\\udfffb"',
    '"\\u0000"',
    '"tag\\u0000"',
    '"\\u001b[31mred"',
    '"\\u0007"',
    '"\\u007f"',
    '"\\u0085"',
    "[" * 40 + "]" * 40,
    '{"a":' * 40 + "1" + "}" * 40,
]
HOSTILE_KEYS = ["k\\u0000", "\\ud83d", "\\u001b"]
# Query-string values for GET routes, percent-encoded as a client would send them.
HOSTILE_QUERY = ["%00", "a%00b", "%1B%5B31m", "%ED%A0%80", "%FF", "%7F"]


@pytest.fixture(scope="module")
def rest_schema(live_gateway):
    with live_gateway.http() as http:
        document = http.get("/openapi.json").json()
    schema = schemathesis.openapi.from_dict(document)
    schema.config.update(base_url=live_gateway.url)
    return schema


@pytest.mark.parametrize("path, method", OPERATIONS)
@pytest.mark.parametrize("who", ["admin", "alice"])
def test_no_generated_request_makes_the_rest_api_fail_with_5xx(rest_schema, live_gateway, path, method, who):
    operation = rest_schema[path][method]

    @given(case=operation.as_strategy())
    @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def check(case):
        case.call_and_validate(headers=live_gateway.headers(who), checks=[not_a_server_error], timeout=60)

    check()


def _leaves(value, path=()):
    """Paths to every value of a JSON document (the document itself included)."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))


PLACEHOLDER = "__hostile_placeholder__"


def _with_placeholder(doc, path):
    if not path:
        return PLACEHOLDER
    doc = json.loads(json.dumps(doc))
    node = doc
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = PLACEHOLDER
    return doc


def hostile_body(body, data) -> bytes:
    """The generated body with one value, or one added key, replaced by a hostile literal."""
    if isinstance(body, dict) and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(HOSTILE_KEYS))
        text = json.dumps({**body, PLACEHOLDER: 1}).replace(f'"{PLACEHOLDER}"', f'"{key}"')
        return text.encode()
    path = data.draw(st.sampled_from(list(_leaves(body))))
    literal = data.draw(st.sampled_from(HOSTILE_LITERALS))
    return json.dumps(_with_placeholder(body, path)).replace(f'"{PLACEHOLDER}"', literal).encode()


@pytest.mark.parametrize("path, method", OPERATIONS)
def test_hostile_values_in_any_field_are_refused_with_a_4xx_and_the_connection_stays_open(
    rest_schema, live_gateway, path, method
):
    operation = rest_schema[path][method]
    http = httpx.Client(base_url=live_gateway.url, timeout=60, trust_env=False)
    headers = live_gateway.headers("admin", **{"Content-Type": "application/json"})

    @given(case=operation.as_strategy(), data=st.data())
    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def check(case, data):
        params = dict(case.query or {})
        if method == "GET":
            # One query parameter gets a hostile raw value; the others are encoded as a client would send them.
            params = params or {"namespace": "alice/a"}
            name = data.draw(st.sampled_from(sorted(params)))
            others = str(httpx.QueryParams({k: v for k, v in params.items() if k != name}))
            query = "&".join(p for p in (f"{name}={data.draw(st.sampled_from(HOSTILE_QUERY))}", others) if p)
            resp = http.get(f"{case.formatted_path}?{query}", headers=headers)
        else:
            query = str(httpx.QueryParams(params))
            url = case.formatted_path + (f"?{query}" if query else "")
            resp = http.request(method, url, content=hostile_body(case.body, data), headers=headers)
        assert 400 <= resp.status_code < 500, (resp.status_code, resp.text[:300])
        assert set(resp.json()) == {"error"} and set(resp.json()["error"]) == {"code", "message"}
        assert resp.headers.get("connection", "").lower() != "close"

    try:
        check()
        assert http.get("/health").status_code == 200
    finally:
        http.close()
