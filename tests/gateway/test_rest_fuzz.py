"""Schema-driven fuzzing of the REST API over real HTTP (schemathesis): no input makes the server answer 5xx."""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

pytestmark = pytest.mark.slow
OPERATIONS = [
    ("/v1/memories/store", "POST"),
    ("/v1/memories/recall", "POST"),
    ("/v1/memories/forget", "POST"),
    ("/v1/memories/feedback", "POST"),
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
