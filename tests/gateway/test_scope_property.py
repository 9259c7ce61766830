"""Property: for random token scopes (exact and `prefix/*`, admin or not) over random namespace trees, no
operation through MCP or REST (the inspector's routes included) reads, writes or deletes anything outside the
token's scope, and the namespace listing names exactly the namespaces with data that the scope covers.

Each example gets a tenant of its own (fresh tables) holding one marked memory per namespace of its tree, and a
new token written to the gateway's tokens file (an unknown token re-reads the file at once). One operation is
sent over real HTTP; then every table row of every namespace the scope does not cover must be exactly as
before, and the answer must not contain the marker of any such namespace. Which namespaces a scope covers is
decided here by a separate, simple oracle, not by the gateway's own code."""

import itertools
import json

import httpx
import lancedb
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hindsight_memory.gateway.app import create_app
from hindsight_memory.gateway.auth import create_token
from hindsight_memory.models import StoreRequest
from tests.gateway.conftest import UvicornThread, gateway_settings
from tests.reflection.conftest import FAILED_THEN_RETRIED
from tests.support.moto import free_port

pytestmark = pytest.mark.slow
SEGMENTS = ["a", "b", "ab"]
UNIVERSE = sorted({"/".join(p) for n in (1, 2, 3) for p in itertools.product(SEGMENTS, repeat=n)})
_tenants = itertools.count()


def covered(namespace: str, scopes: list[str]) -> bool:
    """The oracle: '*' covers all; 'p/*' covers p and everything below it; anything else covers itself."""
    for s in scopes:
        if s == "*" or s == namespace:
            return True
        if s.endswith("/*") and (namespace == s[:-2] or namespace.startswith(s[:-2] + "/")):
            return True
    return False


def within(namespace: str, prefix: str) -> bool:
    return namespace == prefix or namespace.startswith(prefix + "/")


ADMIN_OPS = {"stats", "export", "import", "compact"}


def allowed(op: str, args: dict, scopes: list[str], admin: bool) -> bool:
    """The oracle's verdict on the whole call: admin tools need an admin token; the named namespace must be
    covered; with its sub-namespaces, a prefix scope at or above it (or '*'); all namespaces need '*'."""
    if op in ADMIN_OPS and not admin:
        return False
    if op == "namespaces":  # a listing: never refused, filtered instead (checked exactly by the test)
        return True
    ns = args.get("namespace")
    if ns is None:
        return "*" in scopes
    if args.get("include_subnamespaces"):
        return any(s == "*" or (s.endswith("/*") and within(ns, s[:-2])) for s in scopes)
    return covered(ns, scopes)


def refused(resp: httpx.Response, edge: str) -> bool:
    if edge == "rest":
        return resp.status_code == 403 and resp.json()["error"]["code"] == "forbidden"
    result = resp.json().get("result", {})
    return bool(result.get("isError")) and result["content"][0]["text"].startswith("forbidden:")


def marker(tenant: str, namespace: str) -> str:
    # Delimited so that no namespace's marker is a substring of another's ('a' vs 'a/a', prop1 vs prop12).
    return f"otter{tenant}x{namespace.replace('/', 'q')}z"


class Gateway:
    def __init__(self, tmp_path) -> None:
        self.tokens_file = tmp_path / "tokens.json"
        self.records: list[dict] = []
        self.tokens_file.write_text("[]")
        # Tiers of zero days: compaction re-tiers every memory it visits, so a compaction that reached a
        # namespace it should not have shows in that namespace's rows.
        self.settings = gateway_settings(
            tmp_path,
            None,
            tokens_file=str(self.tokens_file),
            token_miss_refresh_s=0,
            tier_hot_days=0,
            tier_warm_days=0,
        )
        self.app = create_app(self.settings)
        self.tenants = self.app.state.ops.tenants

    def token(self, tenant: str, scopes: list[str], admin: bool) -> str:
        token, record = create_token(tenant, scopes, admin=admin)
        self.records.append(record)
        tmp = self.tokens_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.records))
        tmp.replace(self.tokens_file)
        return token

    def seed(self, tenant: str, tree: list[str]) -> dict[str, list[str]]:
        svc = self.tenants.get(tenant)
        ids = {}
        for ns in tree:
            res = svc.store_memories(
                StoreRequest(
                    namespace=ns, items=[{"content": f"{marker(tenant, ns)} keeps the note", "tags": ["t"]}]
                )
            )
            ids[ns] = res.ids
        svc.flush()
        return ids

    def snapshot(self, tenant: str) -> dict[str, list]:
        """Every row of every table, by namespace (read straight from the tenant's LanceDB folder)."""
        db = lancedb.connect(self.tenants.store_uri(tenant))
        out: dict[str, list] = {}
        for name in db.list_tables().tables:
            rows = db.open_table(name).to_arrow().to_pylist()
            for r in rows:
                if "namespace" in r:
                    out.setdefault(r["namespace"], []).append(
                        (name, json.dumps(r, sort_keys=True, default=str))
                    )
        return {ns: sorted(rows) for ns, rows in out.items()}


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    gw = Gateway(tmp_path_factory.mktemp("scope-property"))
    port = free_port()
    with UvicornThread(gw.app, port):
        gw.url = f"http://127.0.0.1:{port}"
        yield gw


def ancestors(namespace: str) -> list[str]:
    parts = namespace.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


@st.composite
def trees(draw) -> list[str]:
    """A few namespaces and some of their ancestors: trees with parents and children, as real ones have."""
    deep = [n for n in UNIVERSE if "/" in n]
    leaves = draw(st.lists(st.sampled_from(deep), min_size=1, max_size=3, unique=True))
    above = sorted({a for leaf in leaves for a in ancestors(leaf)[:-1]})
    kept = [a for a in above if draw(st.booleans())]
    return sorted(set(leaves) | set(kept))


def scope_sets(near: list[str]):
    """Scopes near the tree (exact or prefix, at or above its namespaces), sometimes anywhere, sometimes '*'."""
    one = st.one_of(
        st.sampled_from(near),
        st.sampled_from(near),
        st.sampled_from(near).map(lambda n: n + "/*"),
        st.sampled_from(UNIVERSE),
        st.sampled_from(UNIVERSE).map(lambda n: n + "/*"),
        st.just("*"),
    )
    return st.lists(one, min_size=1, max_size=2, unique=True)


# Every form of every operation gets examples of its own (forget's wider forms and compaction of everything are
# where a reach beyond one namespace lives).
FORMS = [
    "store",
    "recall",
    "forget_ids",
    "forget_filter",
    "forget_all",
    "forget_subtree",
    "feedback",
    "status",
    "stats",
    "reflect",
    "export",
    "import",
    "compact",
    "compact_all",
    # the inspector's routes and memory_correct
    "memories",
    "events",
    "overview",
    "runs",
    "memory",
    "correct",
    "delete",
    "restore",
    "namespaces",
]
REST = {
    "store": ("POST", "/v1/memories/store"),
    "recall": ("POST", "/v1/memories/recall"),
    "forget": ("POST", "/v1/memories/forget"),
    "feedback": ("POST", "/v1/memories/feedback"),
    "status": ("POST", "/v1/memories/status"),
    "stats": ("GET", "/v1/stats"),
    "correct": ("PATCH", "/v1/memories/{id}"),
    "delete": ("DELETE", "/v1/memories/{id}"),
    "restore": ("POST", "/v1/memories/{id}/restore"),
    "namespaces": ("GET", "/v1/namespaces"),
}
# The inspector's reads (REST only).
READS = {
    "memories": "/v1/memories",
    "events": "/v1/events",
    "overview": "/v1/overview",
    "runs": "/v1/reflection/runs",
    "memory": "/v1/memories/{id}",
}


@st.composite
def scenarios(draw, form: str):
    tree = draw(trees())
    near = sorted({a for ns in tree for a in ancestors(ns)})
    scopes = draw(scope_sets(near))
    admin = draw(st.booleans())
    op = form.split("_")[0]
    # Agent tools go over MCP or REST; the inspector's routes are REST only (its correction is a tool too).
    rest_only = op in READS or op in ("delete", "restore", "namespaces")
    edge = "rest" if rest_only else draw(st.sampled_from(["mcp", "rest"])) if op in REST else "mcp"
    # The target: often the very namespace a scope names (where an exact scope meets a subtree), else one
    # of the tree or any namespace at all.
    bases = sorted({sc.removesuffix("/*") for sc in scopes if sc != "*"})
    places = [st.sampled_from(bases)] if bases else []
    held = st.sampled_from(tree)
    target = draw(st.one_of(*places, *places, held, held, st.sampled_from(near), st.sampled_from(UNIVERSE)))
    # Ids and import records come from the target itself or from ANY namespace of the tree, also one the
    # token cannot reach.
    source = draw(st.one_of(st.just(target), held) if target in tree else held)
    args: dict = {"namespace": target}
    if op == "store":
        args["items"] = [{"content": "a new note from the caller"}]
        args["wait"] = True
    elif op == "recall":
        args.update(query="note keeps otter", min_score=0, top_k=20)
    elif op == "forget":
        args["purge"] = draw(st.booleans())
        if form == "forget_ids":
            args["ids"] = "IDS_OF_SOURCE"
        elif form == "forget_filter":
            args["filter"] = {"tags": ["t"]}
        else:
            args["everything"] = True
            args["include_subnamespaces"] = form == "forget_subtree"
    elif op == "feedback":
        args.update(id="ID_OF_SOURCE", useful=draw(st.booleans()))
    elif op == "status":
        args["ids"] = "IDS_OF_SOURCE"
    elif op == "reflect":
        args["trajectory"] = FAILED_THEN_RETRIED
    elif op == "import":
        args["records"] = "EXPORT_OF_SOURCE"
    elif form == "compact_all":
        args["namespace"] = None
    elif op in READS:
        args["id"] = "ID_OF_SOURCE"
    elif op == "correct":
        args.update(id="ID_OF_SOURCE", content="a corrected note")
    elif op == "delete":
        args.update(id="ID_OF_SOURCE", purge=draw(st.booleans()))
    elif op == "restore":
        args["id"] = "ID_OF_SOURCE"
    elif op == "namespaces":
        args = {}
    return tree, scopes, admin, op, edge, args, source


def send(gw: Gateway, token: str, op: str, edge: str, args: dict) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=gw.url, timeout=120, trust_env=False) as http:
        if op in READS:
            path = READS[op].format(id=args["id"])
            return http.get(path, params={"namespace": args["namespace"]}, headers=headers)
        if edge == "rest" and "{id}" in REST[op][1]:
            method, path = REST[op]
            params = {k: v for k, v in args.items() if k in ("namespace", "purge")}
            body = {"content": args["content"]} if op == "correct" else None
            return http.request(method, path.format(id=args["id"]), params=params, json=body, headers=headers)
        if edge == "rest":
            method, path = REST[op]
            if method == "GET":
                return http.get(path, params=args, headers=headers)
            return http.post(path, json=args, headers=headers)
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": f"memory_{op}", "arguments": args},
        }
        headers |= {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
        return http.post("/mcp", json=body, headers=headers)


@pytest.mark.parametrize("form", FORMS)
@given(data=st.data())
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_no_operation_reaches_outside_the_token_scope(gateway, form, data):
    tree, scopes, admin, op, edge, args, source = data.draw(scenarios(form))
    tenant = f"prop{next(_tenants)}"
    ids = gateway.seed(tenant, tree)
    if args.get("ids") == "IDS_OF_SOURCE":
        args["ids"] = ids[source]
    if args.get("id") == "ID_OF_SOURCE":
        args["id"] = ids[source][0]
    if args.get("records") == "EXPORT_OF_SOURCE":
        svc = gateway.tenants.get(tenant)
        args["records"] = json.loads(json.dumps(list(svc.export_records(source, vectors=False)), default=str))
    token = gateway.token(tenant, scopes, admin)
    before = gateway.snapshot(tenant)

    resp = send(gateway, token, op, edge, args)

    assert resp.status_code < 500, resp.text
    # Refused exactly when the oracle says so: never too little, and never more than the scope requires.
    expected = allowed(op, args, scopes, admin)
    assert refused(resp, edge) != expected, (op, edge, scopes, admin, args.get("namespace"), resp.text[:300])
    if op == "namespaces":  # exactly the namespaces holding data that the scope covers, nothing else
        assert resp.json()["namespaces"] == sorted(ns for ns in tree if covered(ns, scopes)), scopes
    event(f"{op} {'ran' if expected else 'refused'}")
    gateway.tenants.get(tenant).flush()
    after = gateway.snapshot(tenant)
    outside = [ns for ns in sorted(set(before) | set(after)) if not covered(ns, scopes)]
    for ns in outside:
        assert after.get(ns) == before.get(ns), f"{op} via {edge} with {scopes} changed {ns}"
        assert marker(tenant, ns) not in resp.text, f"{op} via {edge} with {scopes} returned {ns}"
