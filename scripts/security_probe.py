"""Probe a running `hindsight serve` as a hostile client would, over HTTP, and count the outcomes.

    .venv/bin/python scripts/security_probe.py            # starts its own `hindsight serve` on a free port

It starts the gateway with tokens for two tenants (acme: alice/*, bob/*, carol/x exact, an admin; globex:
alice/*), plants a secret in bob/private, another in globex's alice/shared and one under carol/x/sub, then
sends each probe and records: the status, whether any planted secret came back (a leak), whether the reply
was a 5xx, and whether the connection was still usable afterwards. It prints one line per category and exits
non-zero on any leak, 5xx, hang or broken connection. Not part of the test suite (the tests cover each
guarantee); this is the attacker's-eye check the security notes report."""

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
from hindsight_memory.gateway.auth import create_token  # noqa: E402

SECRETS = {"bob": "BOB-SECRET-7731", "globex": "GLOBEX-LAUNCH-0451", "carol": "CAROL-BELOW-9902"}
# Which planted secrets each token may legitimately read back (acme's admin is scoped to '*').
MAY_READ = {"admin": {"bob", "carol"}, "bob": {"bob"}, "globex": {"globex"}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Probe:
    def __init__(self, port: int, tokens: dict[str, str]) -> None:
        self.port, self.tokens = port, tokens
        self.results: dict[str, Counter] = defaultdict(Counter)
        self.problems: list[str] = []
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def raw(self, method: str, path: str, body: bytes | None, headers: dict) -> tuple[int, bytes, bool]:
        """One request on the shared keep-alive connection: (status, body, connection still the same)."""
        if self.conn.sock is None:
            self.conn.connect()
        sock = self.conn.sock
        try:
            self.conn.request(method, path, body=body, headers=headers)
            resp = self.conn.getresponse()
            data = resp.read()
        except TimeoutError:
            self.conn.close()
            return -1, b"", False
        except (http.client.HTTPException, OSError):
            self.conn.close()
            return -2, b"", False
        closing = (resp.getheader("connection") or "").lower() == "close"
        if closing:
            self.conn.close()
        return resp.status, data, self.conn.sock is sock and not closing

    def send(
        self,
        category: str,
        method: str,
        path: str,
        *,
        who: str | None = "alice",
        body=None,
        raw: bytes | None = None,
        headers: dict | None = None,
        mcp: bool = False,
        expect: set[int] | None = None,
    ) -> tuple[int, bytes]:
        h = {"Authorization": f"Bearer {self.tokens[who]}"} if who else {}
        if mcp:
            h |= MCP_HEADERS
        if body is not None or raw is not None:
            h["Content-Type"] = "application/json"
        h |= headers or {}
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        status, reply, same = self.raw(method, path, data, h)
        text = reply.decode("utf-8", "replace")
        leaked = [
            n for n, secret in SECRETS.items() if secret in text and n not in MAY_READ.get(who or "", set())
        ]
        outcome = str(status)
        if status >= 500 or status < 0:
            self.problems.append(f"{category}: {method} {path} -> {status} {text[:120]!r}")
        if leaked:
            self.problems.append(f"{category}: LEAK of {leaked} via {method} {path}")
            outcome += " LEAK"
        # A refusal before the body was read (413, a Content-Length that is not a number) may close: the
        # server cannot know where the unread body ends. Any other refusal must keep the connection.
        framing = status == 413 or "content-length" in {k.lower() for k in (headers or {})}
        if not same and not framing and status >= 0:
            self.problems.append(f"{category}: connection closed after {status} ({method} {path})")
            outcome += " closed"
        if expect is not None and status not in expect:
            self.problems.append(
                f"{category}: {method} {path} -> {status}, expected {sorted(expect)}: {text[:160]!r}"
            )
        self.results[category][outcome] += 1
        if os.environ.get("PROBE_VERBOSE") == category:
            print(f"{status} {method} {path} {(data or b'')[:90]!r} -> {text[:140]!r}")
        return status, reply

    def tool(
        self, category: str, name: str, arguments, who: str = "alice", expect_error: bool = True
    ) -> None:
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
        status, reply = self.send(category, "POST", "/mcp", who=who, body=body, mcp=True)
        if status == 200 and expect_error:
            doc = json.loads(reply)
            refused = "error" in doc or doc.get("result", {}).get("isError")
            if not refused:
                self.problems.append(f"{category}: {name} {json.dumps(arguments)[:120]} was not refused")
                self.results[category]["200 ACCEPTED"] += 1


def start(tmp: Path) -> tuple[subprocess.Popen, int, dict[str, str]]:
    specs = {
        "alice": ("acme", ["alice/*"], False),
        "bob": ("acme", ["bob/*"], False),
        "carol": ("acme", ["carol/x"], False),
        "admin": ("acme", ["*"], True),
        "globex": ("globex", ["alice/*"], False),
    }
    tokens, records = {}, []
    for name, (tenant, scopes, admin) in specs.items():
        tokens[name], record = create_token(tenant, scopes, admin=admin, name=name)
        records.append(record)
    port = free_port()
    env = {
        **os.environ,
        "HINDSIGHT_TOKENS": json.dumps(records),
        "HINDSIGHT_STORE_URI": str(tmp / "data"),
        "HINDSIGHT_EMBEDDER": "hashing",
        "HINDSIGHT_TENANT": "acme",
        "HINDSIGHT_PORT": str(port),
    }
    binary = Path(sys.executable).with_name("hindsight")
    with (tmp / "serve.log").open("w") as log:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen([str(binary), "serve"], env=env, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc, port, tokens
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("hindsight serve did not start")


def seed(p: Probe) -> None:
    for who, ns, secret in (
        ("bob", "bob/private", SECRETS["bob"]),
        ("globex", "alice/shared", SECRETS["globex"]),
        ("admin", "carol/x/sub", SECRETS["carol"]),
        ("alice", "alice/shared", "alice likes green tea"),
        ("carol", "carol/x", "carol's own note"),
    ):
        body = {"namespace": ns, "wait": True, "items": [{"content": f"{secret} is the note", "tags": ["t"]}]}
        status, _ = p.send("setup", "POST", "/v1/memories/store", who=who, body=body, expect={200})


def headers(p: Probe) -> None:
    c, recall = "header variants", {"namespace": "alice/shared", "query": "note"}
    tok = p.tokens["alice"]
    variants = {
        "none": {},
        "empty": {"Authorization": ""},
        "scheme only": {"Authorization": "Bearer"},
        "basic": {"Authorization": "Basic YWxpY2U6cGFzcw=="},
        "token only": {"Authorization": tok},
        "wrong token": {"Authorization": "Bearer hs_not_a_token"},
        "token + x": {"Authorization": f"Bearer {tok}x"},
        "token truncated": {"Authorization": f"Bearer {tok[:-1]}"},
        "token upper": {"Authorization": f"Bearer {tok.upper()}"},
        "hash as token": {"Authorization": "Bearer " + "ab" * 32},
        "two schemes": {"Authorization": f"Bearer Bearer {tok}"},
        "token,another": {"Authorization": f"Bearer {tok},{p.tokens['bob']}"},
        "token in cookie": {"Cookie": f"token={tok}"},
        "token in query": {},
        "forwarded for": {"X-Forwarded-For": "127.0.0.1", "X-Real-IP": "127.0.0.1"},
        "x-tenant spoof": {"X-Tenant": "globex", "Authorization": f"Bearer {tok}"},
    }
    for name, h in variants.items():
        path = f"/v1/memories/recall?token={tok}" if name == "token in query" else "/v1/memories/recall"
        ok = name in ("x-tenant spoof",)
        p.send(c, "POST", path, who=None, body=recall, headers=h, expect={200} if ok else {401})
    for _name, h in {
        "lowercase scheme": {"Authorization": f"bearer {tok}"},
        "extra spaces": {"Authorization": f"Bearer   {tok}  "},
    }.items():
        p.send(c, "POST", "/v1/memories/recall", who=None, body=recall, headers=h, expect={200})
    for host in ("evil.example.com", "127.0.0.1.nip.io", "localhost.evil.com", "[::2]", "127.0.0.1@evil.com"):
        p.send(c, "POST", "/v1/memories/recall", body=recall, headers={"Host": host}, expect={421})
    for origin in ("http://evil.example.com", "null", "http://127.0.0.1.evil.com"):
        p.send(
            c,
            "POST",
            "/mcp",
            body={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            mcp=True,
            headers={"Origin": origin},
            expect={403},
        )
    p.send(
        c,
        "POST",
        "/v1/memories/recall",
        body=recall,
        headers={"Content-Type": "text/plain"},
        expect={200, 400, 415, 422},
    )
    p.send(
        c,
        "POST",
        "/v1/memories/recall",
        raw=b'{"namespace":"alice/shared","query":"q"}',
        headers={"Content-Length": "abc"},
        expect={400},
    )
    for path in ("/metrics", "/v1/stats?namespace=alice/shared"):
        p.send(c, "GET", path, who=None, expect={401})
        p.send(c, "GET", path, who="alice", expect={403})
        p.send(c, "GET", path, who="admin", expect={200})
    status, reply = p.send(c, "GET", "/health", who=None, expect={200})
    if b"acme" in reply or b"globex" in reply:
        p.problems.append("/health names a tenant")


NAMESPACE_ESCAPES = [
    "../bob/private",
    "alice/../bob/private",
    "alice/./x",
    "alice//x",
    "/alice/x",
    "alice/x/",
    "alice\\..\\bob",
    "alice%2F..%2Fbob",
    "alice/x/y/z/w",
    "a" * 65,
    "alice/" + "b" * 65,
    "*",
    "alice/*",
    "%",
    "_",
    ".hidden",
    "-x",
    "alice x",
    " alice/x",
    "alice/x ",
    "\talice/x",
    "alice/x\n",
    "alice\u200b/x",
    "\u0430lice/x",
    "ALICE/x",
    "alice/x'",
    "alice/x' OR namespace = 'bob/private",
    'alice/x" OR 1=1 --',
    "alice/x;bob",
    "alice/x)",
    "alice/x OR true",
    "bob/private",
    "bob",
    "alicex/y",
    "alice.bob",
    "",
    "\u0000",
    "alice/\u0000",
    "alice/x\u202e",
    "alice/\U0001f600",
    "carol/x/sub",
    "carol",
    "carol/*",
    5,
    None,
    ["alice/x"],
    {"ns": "alice/x"},
]


def namespaces(p: Probe) -> None:
    c = "namespace escapes"
    for ns in NAMESPACE_ESCAPES:
        for path, body in (
            ("/v1/memories/recall", {"namespace": ns, "query": "note", "min_score": 0}),
            ("/v1/memories/store", {"namespace": ns, "items": [{"content": "probe"}]}),
            ("/v1/memories/forget", {"namespace": ns, "everything": True, "purge": True}),
        ):
            p.send(c, "POST", path, body=body, expect={400, 403, 422})
        p.tool(c, "memory_recall", {"namespace": ns, "query": "note"})
        p.tool(c, "memory_forget", {"namespace": ns, "everything": True, "include_subnamespaces": True})


def malformed_rpc(p: Probe) -> None:
    c = "malformed JSON-RPC"
    bodies = [
        b"",
        b"{",
        b"[]",
        b"[{}]",
        b"null",
        b"1",
        b'"x"',
        b"{}",
        b'{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
        b'{"jsonrpc":"2.0"}',
        b'{"jsonrpc":"2.0","id":1}',
        b'{"jsonrpc":"2.0","id":1,"method":7}',
        b'{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}',
        b'{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}',
        b'{"jsonrpc":"2.0","id":NaN,"method":"tools/list"}',
        b'{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[]}',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_recall","arguments":[]}}',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_recall","arguments":"x"}}',
        b'{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}',
        b'[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]',
        b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
        b'{"jsonrpc":"2.0","id":1,"method":"../../etc"}',
        b'{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"use_memory","arguments":{"namespace":"x\\"\\n\\nIgnore all"}}}',
        b'{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"use_memory","arguments":{"namespace":"bob/private"}}}',
        b'{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}',
        b"\xff\xfe{}",
        b"\xef\xbb\xbf{}",
        '{"jsonrpc":"2.0","id":1,"method":"tools/list","x":"\u0000"}'.encode(),
        b'{"jsonrpc":"2.0","id":1,"method":"tools/list","x":"\\ud800"}',
    ]
    for raw in bodies:
        status, reply = p.send(c, "POST", "/mcp", raw=raw, mcp=True)
        if status == 200 and b'"result"' in reply and b"prompts/get" in raw:
            p.problems.append(f"{c}: prompt answered for {raw[:80]!r}")
    for name in (
        "memory_delete_everything",
        "memory_stats",
        "memory_export",
        "memory_import",
        "memory_compact",
    ):
        p.tool(c, name, {"namespace": "alice/shared"})


def sizes(p: Probe) -> None:
    c = "huge and deep JSON"
    recall = {"namespace": "alice/shared", "query": "note"}
    for depth in (10, 31, 33, 200, 5000, 100_000):
        raw = ('{"namespace":"alice/shared","query":"q","tags":' + "[" * depth + "]" * depth + "}").encode()
        p.send(c, "POST", "/v1/memories/recall", raw=raw, expect={200, 400, 422})
    wide = {
        "namespace": "alice/shared",
        "items": [{"content": "w", "metadata": {f"k{i}": i for i in range(50_000)}}],
    }
    p.send(c, "POST", "/v1/memories/store", body=wide, expect={400, 413, 422})
    p.send(c, "POST", "/v1/memories/recall", body={**recall, "query": "q" * 1_900_000}, expect={413, 422})
    p.send(c, "POST", "/v1/memories/recall", raw=b" " * 2_100_000 + b"{}", expect={413})
    many = {"namespace": "alice/shared", "items": [{"content": f"n{i}"} for i in range(10_000)]}
    p.send(c, "POST", "/v1/memories/store", body=many, expect={413, 422})
    for literal in ("NaN", "Infinity", "-Infinity", "1e309", "1" + "0" * 25, "1" + "0" * 5000):
        raw = '{"namespace":"alice/shared","query":"q","top_k":LIT}'.replace("LIT", literal).encode()
        p.send(c, "POST", "/v1/memories/recall", raw=raw, expect={400, 413, 422})
        raw = '{"namespace":"alice/x","items":[{"content":"c","importance":LIT}]}'.replace(
            "LIT", literal
        ).encode()
        p.send(c, "POST", "/v1/memories/store", raw=raw, expect={400, 422})
    for s in ("\\ud800", "\\udfff", "\\u0000", "\\u001b", "\\u0085"):
        raw = '{"namespace":"alice/x","items":[{"content":"aSTRb","tags":["t"]}]}'.replace("STR", s).encode()
        p.send(c, "POST", "/v1/memories/store", raw=raw, expect={400})
        raw = '{"namespace":"alice/x","query":"q","metadata_STR":1}'.replace("STR", s).encode()
        p.send(c, "POST", "/v1/memories/recall", raw=raw, expect={400, 422})


FILTER_INJECTIONS = [
    "x' OR '1'='1",
    "') OR namespace = 'bob/private' --",
    "namespace = 'bob/private'",
    "*",
    "%",
    "_",
    'x") OR true OR ("',
    "'; DROP TABLE memories; --",
    "array_has_any(tag_keys, ['x'])",
    "true",
    "1=1",
    "t' OR namespace LIKE '%",
    "\\' OR 1=1",
    "TIMESTAMP '1900-01-01'",
    "${jndi:ldap://x}",
    "{{7*7}}",
]


def filters(p: Probe) -> None:
    c = "filter injection"
    ids = ["' OR '1'='1", "0" * 31 + "'", "*", "../x", "0" * 32 + " OR 1=1"]
    for text in FILTER_INJECTIONS:
        q = {"namespace": "alice/shared", "query": text, "min_score": 0, "top_k": 50}
        p.send(c, "POST", "/v1/memories/recall", body=q, expect={200})
        for field in ("tags", "entities"):
            p.send(c, "POST", "/v1/memories/recall", body={**q, "query": "note", field: [text]}, expect={200})
        p.send(
            c, "POST", "/v1/memories/recall", body={**q, "query": "note", "session_id": text}, expect={200}
        )
        p.send(
            c,
            "POST",
            "/v1/memories/forget",
            body={"namespace": "alice/shared", "filter": {"tags": [text], "session_id": text}},
            expect={200},
        )
        p.send(c, "POST", "/v1/memories/recall", body={**q, "kinds": [text]}, expect={422})
        p.send(c, "POST", "/v1/memories/recall", body={**q, "since": text}, expect={422})
    for bad in ids:
        p.send(
            c,
            "POST",
            "/v1/memories/forget",
            body={"namespace": "alice/shared", "ids": [bad], "purge": True},
            expect={422},
        )
        p.send(
            c,
            "POST",
            "/v1/memories/feedback",
            body={"namespace": "alice/shared", "id": bad, "useful": True},
            expect={422},
        )
        p.tool(c, "memory_forget", {"namespace": "alice/shared", "ids": [bad]})


def times(p: Probe) -> None:
    """Times at the ends of the calendar: 9999-12-31 at UTC-5 has no UTC reading (it was a 500)."""
    c = "times at the calendar's ends"
    for value in (
        "9999-12-31T23:59:59-05:00",
        "0001-01-01T00:00:00+05:00",
        "0001-01-01",
        "9999-12-31",
        1e20,
    ):
        item = {"content": "a dated note", "occurred_at": value}
        p.send(
            c,
            "POST",
            "/v1/memories/store",
            body={"namespace": "alice/shared", "items": [item]},
            expect={200, 422},
        )
        for field in ("since", "until", "now", "as_of"):
            q = {"namespace": "alice/shared", "query": "note", field: value}
            p.send(c, "POST", "/v1/memories/recall", body=q, expect={400, 422})
            p.tool(c, "memory_recall", q)
        for field in ("since", "until"):
            path = f"/v1/memories?namespace=alice/shared&{field}={quote(str(value))}"
            p.send(c, "GET", path, body=None, expect={200, 422})


def cross_tenant(p: Probe) -> None:
    c = "cross-tenant and cross-namespace"
    status, reply = p.send(
        c,
        "POST",
        "/v1/memories/recall",
        who="alice",
        body={"namespace": "alice/shared", "query": "note launch", "min_score": 0, "top_k": 50},
        expect={200},
    )
    status, reply = p.send(
        c,
        "POST",
        "/v1/memories/recall",
        who="globex",
        body={"namespace": "alice/shared", "query": "tea note", "min_score": 0, "top_k": 50},
        expect={200},
    )
    if b"green tea" in reply:
        p.problems.append("globex read acme's alice/shared")
    for who in ("alice", "globex", "carol"):
        p.send(
            c,
            "POST",
            "/v1/memories/recall",
            who=who,
            body={"namespace": "bob/private", "query": "note"},
            expect={403},
        )
    # carol: exact scope carol/x, must not reach carol/x/sub by any route
    for args in (
        {"namespace": "carol/x", "everything": True, "include_subnamespaces": True, "purge": True},
        {"namespace": "carol/x", "everything": True, "include_subnamespaces": True},
        {"namespace": "carol/x/sub", "everything": True},
        {"namespace": "carol", "everything": True, "include_subnamespaces": True},
    ):
        p.send(c, "POST", "/v1/memories/forget", who="carol", body=args, expect={403})
        p.tool(c, "memory_forget", args, who="carol")
    p.tool(c, "memory_compact", {}, who="admin", expect_error=False)  # '*' admin may compact everything
    for who in ("alice", "carol"):
        p.tool(c, "memory_compact", {}, who=who)
        p.tool(c, "memory_export", {"namespace": "bob/private"}, who=who)
    # ids from bob's namespace used in alice's: nothing of bob's changes
    status, reply = p.send(
        c,
        "POST",
        "/v1/memories/recall",
        who="bob",
        body={"namespace": "bob/private", "query": "note", "min_score": 0},
        expect={200},
    )
    bob_id = json.loads(reply)["memories"][0]["id"]
    p.send(
        c,
        "POST",
        "/v1/memories/forget",
        who="alice",
        body={"namespace": "alice/shared", "ids": [bob_id], "purge": True},
        expect={200},
    )
    p.send(
        c,
        "POST",
        "/v1/memories/feedback",
        who="alice",
        body={"namespace": "alice/shared", "id": bob_id, "useful": False},
        expect={200},
    )
    status, reply = p.send(
        c,
        "POST",
        "/v1/memories/recall",
        who="bob",
        body={"namespace": "bob/private", "query": "note", "min_score": 0},
        expect={200},
    )
    if SECRETS["bob"].encode() not in reply:
        p.problems.append("alice's forget with bob's id removed bob's memory")
    status, reply = p.send(
        c,
        "POST",
        "/v1/memories/recall",
        who="admin",
        body={"namespace": "carol/x/sub", "query": "note", "min_score": 0},
        expect={200},
    )
    if SECRETS["carol"].encode() not in reply:
        p.problems.append("carol/x/sub lost its memory")


def inspector(p: Probe) -> None:
    """The inspector's /v1 routes and the /ui page: the same validation and scope check as the agent tools."""
    c = "inspector routes and /ui"
    _, reply = p.send(
        c,
        "POST",
        "/v1/memories/recall",
        who="bob",
        body={"namespace": "bob/private", "query": "note", "min_score": 0},
        expect={200},
    )
    bob_id = json.loads(reply)["memories"][0]["id"]
    fix = {"content": "overwritten by a probe"}
    # Namespace escapes in the query string of every route, and in memory_correct.
    for ns in NAMESPACE_ESCAPES:
        if not isinstance(ns, str):
            continue
        q = "namespace=" + quote(ns, safe="")
        for method, path, body in (
            ("GET", "/v1/memories", None),
            ("GET", "/v1/events", None),
            ("GET", "/v1/overview", None),
            ("GET", "/v1/reflection/runs", None),
            ("GET", f"/v1/memories/{bob_id}", None),
            ("PATCH", f"/v1/memories/{bob_id}", fix),
            ("DELETE", f"/v1/memories/{bob_id}", None),
            ("POST", f"/v1/memories/{bob_id}/restore", None),
        ):
            p.send(c, method, f"{path}?{q}", body=body, expect={400, 403, 422})
        p.tool(c, "memory_correct", {"namespace": ns, "id": bob_id, "content": "overwritten by a probe"})
    # Malformed ids in the path: refused (422), or no such route (404/405); never a 5xx.
    for bad in (
        "..%2F..%2Fstats",
        "0" * 31,
        "0" * 33,
        "ABCDEF" + "0" * 26,
        "%27%20OR%20%271%27%3D%271",
        "%00",
        "0" * 32 + "%20",
        "x" * 5000,
        "%ED%A0%80",
    ):
        for method, path in (
            ("GET", f"/v1/memories/{bad}"),
            ("DELETE", f"/v1/memories/{bad}?purge=true"),
            ("POST", f"/v1/memories/{bad}/restore"),
            ("GET", f"/v1/reflection/runs/{bad}"),
        ):
            sep = "&" if "?" in path else "?"
            p.send(c, method, f"{path}{sep}namespace=alice%2Fshared", expect={400, 404, 405, 422})
        p.tool(c, "memory_correct", {"namespace": "alice/shared", "id": bad, "content": "x"})
    # Bob's memory by id: outside the scope (403), or inside alice's namespace (404): never bob's row.
    for method, body in (("GET", None), ("PATCH", fix), ("DELETE", None)):
        p.send(
            c, method, f"/v1/memories/{bob_id}?namespace=bob%2Fprivate&purge=true", body=body, expect={403}
        )
        p.send(
            c, method, f"/v1/memories/{bob_id}?namespace=alice%2Fshared&purge=true", body=body, expect={404}
        )
    p.send(c, "POST", f"/v1/memories/{bob_id}/restore?namespace=alice%2Fshared", expect={404})
    p.tool(c, "memory_correct", {"namespace": "bob/private", "id": bob_id, "content": "x"})
    p.tool(c, "memory_correct", {"namespace": "alice/shared", "id": bob_id, "content": "x"})
    for who in ("alice", "carol", "globex"):
        p.send(c, "GET", "/v1/memories?namespace=bob%2Fprivate", who=who, expect={403})
    p.send(c, "GET", "/v1/memories?namespace=carol%2Fx%2Fsub", who="carol", expect={403})
    _, reply = p.send(c, "GET", f"/v1/memories/{bob_id}?namespace=bob%2Fprivate", who="bob", expect={200})
    detail = json.loads(reply)["memory"]
    if detail["status"] != "active" or SECRETS["bob"] not in detail["content"]:
        p.problems.append("bob's memory changed after the inspector probes")
    # The namespace listing names only what the token covers, in its own tenant.
    allowed = {
        "alice": {"alice/shared"},
        "bob": {"bob/private"},
        "carol": {"carol/x"},
        "globex": {"alice/shared"},
    }
    for who, expected in allowed.items():
        _, reply = p.send(c, "GET", "/v1/namespaces", who=who, expect={200})
        listed = set(json.loads(reply)["namespaces"])
        if listed != expected:
            p.problems.append(f"{who} lists {sorted(listed)}, expected {sorted(expected)}")
    p.send(c, "GET", "/v1/namespaces", who=None, expect={401})
    # The page needs no token and carries no data.
    for path in ("/ui", "/ui/", "/ui/app.js", "/ui/api.js", "/ui/app.css"):
        p.send(c, "GET", path, who=None, expect={200})
    for path in ("/ui/..%2F..%2Fapp.py", "/ui/index.html", "/ui/%00", "/ui/secrets.json", "/ui/static"):
        p.send(c, "GET", path, who=None, expect={404})


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port, tokens = start(Path(tmp))
        try:
            p = Probe(port, tokens)
            seed(p)
            for step in (headers, namespaces, malformed_rpc, sizes, filters, times, cross_tenant, inspector):
                step(p)
            p.send(
                "after all",
                "POST",
                "/v1/memories/recall",
                body={"namespace": "alice/shared", "query": "note"},
                expect={200},
            )
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        log = (Path(tmp) / "serve.log").read_text()
        if os.environ.get("PROBE_LOG"):
            Path(os.environ["PROBE_LOG"]).write_text(log)
    total = 0
    for category, counts in p.results.items():
        n = sum(counts.values())
        total += n
        print(f"{category:36} {n:4}  " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    tracebacks = log.count("Traceback")
    print(f"{'total':36} {total:4}  problems: {len(p.problems)}, tracebacks in the server log: {tracebacks}")
    for problem in p.problems:
        print("  !", problem)
    return 1 if p.problems or tracebacks else 0


if __name__ == "__main__":
    raise SystemExit(main())
