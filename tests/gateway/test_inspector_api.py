"""The inspector's REST API (/v1) against a live gateway with tokens: listing with filters and a cursor, one
memory with its provenance, corrections as new versions, forget / restore / purge by id, the raw event log,
the overview, scopes, and bad input. The MCP side of corrections uses the official client over HTTP."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from tests.gateway.conftest import mcp_client

T0 = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)


def store(http, h, ns: str, items: list[dict]) -> list[str]:
    r = http.post("/v1/memories/store", headers=h, json={"namespace": ns, "items": items, "wait": True})
    assert r.status_code == 200, r.text
    return r.json()["ids"]


def recall(http, h, ns: str, query: str, **extra) -> dict:
    r = http.post("/v1/memories/recall", headers=h, json={"namespace": ns, "query": query, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def at(hours: float) -> str:
    return (T0 + timedelta(hours=hours)).isoformat()


def test_a_correction_is_a_new_version_that_supersedes_the_old_one_and_keeps_it_as_history(live_gateway):
    h, ns = live_gateway.headers("alice"), "alice/correct"
    with live_gateway.http() as http:
        (old,) = store(
            http,
            h,
            ns,
            [
                {
                    "content": "The staging database listens on port 5433.",
                    "kind": "semantic",
                    "tags": ["infra"],
                }
            ],
        )
        fixed = http.patch(
            f"/v1/memories/{old}",
            params={"namespace": ns},
            headers=h,
            json={"content": "The staging database listens on port 6543.", "note": "moved in November"},
        )
        new = fixed.json()["id"]
        detail = http.get(f"/v1/memories/{new}", params={"namespace": ns}, headers=h).json()
        old_detail = http.get(f"/v1/memories/{old}", params={"namespace": ns}, headers=h).json()
        now = recall(http, h, ns, "which port does the staging database listen on")
        history = recall(http, h, ns, "which port does the staging database listen on", include_history=True)
        events = http.get("/v1/events", params={"namespace": ns}, headers=h).json()["items"]
    assert fixed.status_code == 200 and fixed.json() == {"id": new, "supersedes": old, "status": "committed"}
    m = detail["memory"]
    assert m["content"] == "The staging database listens on port 6543." and m["source"] == "user-correction"
    assert m["supersedes"] == old and m["status"] == "active" and m["tags"] == ["infra"]
    assert [(v["id"], v["status"]) for v in detail["versions"]] == [(old, "superseded"), (new, "active")]
    assert detail["versions"][0]["valid_until"] == detail["versions"][1]["valid_from"]
    assert detail["versions"][1]["correction"]["note"] == "moved in November"
    assert old_detail["memory"]["superseded_by"] == new
    assert [x["content"] for x in now["memories"]] == ["The staging database listens on port 6543."]
    assert {x["id"] for x in history["memories"]} == {old, new}
    # the raw log keeps both: the original store and the correction
    assert {(e["id"], e["source"]) for e in events} == {(old, "user"), (new, "user-correction")}


def test_a_correction_is_re_embedded_so_recall_finds_the_new_words(live_gateway):
    h, ns = live_gateway.headers("alice"), "alice/reembed"
    with live_gateway.http() as http:
        (old,) = store(http, h, ns, [{"content": "Lunch is served in the atrium cafeteria."}])
        http.patch(
            f"/v1/memories/{old}",
            params={"namespace": ns},
            headers=h,
            json={"content": "Lunch is served on the rooftop terrace."},
        ).raise_for_status()
        found = recall(http, h, ns, "rooftop terrace", channels=["vector"])
    assert [x["content"] for x in found["memories"]] == ["Lunch is served on the rooftop terrace."]


def test_correcting_an_old_version_is_a_conflict_and_the_same_correction_again_is_a_no_op(live_gateway):
    h, ns = live_gateway.headers("alice"), "alice/conflict"
    with live_gateway.http() as http:
        (old,) = store(http, h, ns, [{"content": "The team standup is at 9:15."}])
        fix = {"content": "The team standup is at 9:30."}
        first = http.patch(f"/v1/memories/{old}", params={"namespace": ns}, headers=h, json=fix)
        again = http.patch(f"/v1/memories/{old}", params={"namespace": ns}, headers=h, json=fix)
        other = http.patch(
            f"/v1/memories/{old}", params={"namespace": ns}, headers=h, json={"content": "It is at 10:00."}
        )
        same = http.patch(
            f"/v1/memories/{first.json()['id']}",
            params={"namespace": ns},
            headers=h,
            json={"content": "The team standup is at 9:30."},
        )
        versions = http.get(f"/v1/memories/{old}", params={"namespace": ns}, headers=h).json()["versions"]
    assert first.status_code == 200 and again.json() == first.json()
    assert other.status_code == 409 and first.json()["id"] in other.json()["error"]["message"]
    assert same.status_code == 400 and "changes nothing" in same.json()["error"]["message"]
    assert len(versions) == 2


def test_the_list_filters_by_kind_status_tag_entity_session_time_and_text(live_gateway):
    h, ns = live_gateway.headers("alice"), "alice/filters"
    with live_gateway.http() as http:
        ids = store(
            http,
            h,
            ns,
            [
                {
                    "content": "Kickoff: scope agreed.",
                    "session_id": "s1",
                    "occurred_at": at(0),
                    "tags": ["meeting"],
                },
                {"content": "Budget review moved to Friday.", "session_id": "s1", "occurred_at": at(1)},
                {
                    "content": "Carol owns the payments API.",
                    "kind": "semantic",
                    "occurred_at": at(2),
                    "entities": ["Carol"],
                },
                {"content": "Retro: deploys were too slow.", "session_id": "s2", "occurred_at": at(30)},
            ],
        )
        http.delete(f"/v1/memories/{ids[1]}", params={"namespace": ns}, headers=h).raise_for_status()

        def contents(**params) -> list[str]:
            r = http.get("/v1/memories", params={"namespace": ns, **params}, headers=h)
            assert r.status_code == 200, r.text
            return [m["content"] for m in r.json()["items"]]

        assert contents() == [
            "Retro: deploys were too slow.",
            "Carol owns the payments API.",
            "Budget review moved to Friday.",
            "Kickoff: scope agreed.",
        ]
        assert contents(kind="semantic") == ["Carol owns the payments API."]
        assert contents(status="forgotten") == ["Budget review moved to Friday."]
        assert contents(status=["active"], session_id="s1") == ["Kickoff: scope agreed."]
        assert contents(tag="meeting") == ["Kickoff: scope agreed."]
        assert contents(entity="Carol") == ["Carol owns the payments API."]
        assert contents(since=at(1), until=at(24)) == [
            "Carol owns the payments API.",
            "Budget review moved to Friday.",
        ]
        assert contents(text="DEPLOYS") == ["Retro: deploys were too slow."]
        assert contents(text="' OR 1=1 --") == []


def test_cursor_paging_returns_every_row_once_while_rows_are_added(live_gateway):
    h, ns = live_gateway.headers("alice"), "alice/paging"
    with live_gateway.http() as http:
        original = store(
            http, h, ns, [{"content": f"note number {i}", "occurred_at": at(i)} for i in range(9)]
        )
        seen, cursor, pages = [], None, 0
        while True:
            params = {"namespace": ns, "limit": 4, **({"cursor": cursor} if cursor else {})}
            page = http.get("/v1/memories", params=params, headers=h).json()
            seen += [m["id"] for m in page["items"]]
            pages += 1
            if pages == 1:  # rows arrive between pages: newer ones, and one that happened in the middle
                store(
                    http, h, ns, [{"content": f"late note {i}", "occurred_at": at(100 + i)} for i in range(3)]
                )
                (backdated,) = store(
                    http, h, ns, [{"content": "a note from the past", "occurred_at": at(2.5)}]
                )
            cursor = page["next_cursor"]
            if not cursor:
                break
    assert len(seen) == len(set(seen))
    assert [i for i in seen if i in original] == list(reversed(original))
    assert backdated in seen  # it sorts after the cursor, so the later pages hold it


def test_forget_restore_and_purge_one_memory_by_id(live_gateway):
    h, ns = live_gateway.headers("alice"), "alice/one"
    with live_gateway.http() as http:
        keep, gone = store(
            http,
            h,
            ns,
            [{"content": "The office wifi is called Orchard."}, {"content": "My locker code is 2719."}],
        )
        url = f"/v1/memories/{keep}"
        forgot = http.delete(url, params={"namespace": ns}, headers=h)
        hidden = recall(http, h, ns, "office wifi name")
        status = http.get(url, params={"namespace": ns}, headers=h).json()["memory"]["status"]
        back = http.post(f"{url}/restore", params={"namespace": ns}, headers=h)
        shown = recall(http, h, ns, "office wifi name")
        purged = http.delete(f"/v1/memories/{gone}", params={"namespace": ns, "purge": True}, headers=h)
        after = http.get(f"/v1/memories/{gone}", params={"namespace": ns}, headers=h)
        restore_purged = http.post(f"/v1/memories/{gone}/restore", params={"namespace": ns}, headers=h)
    assert forgot.json() == {"forgotten": 1, "purged": 0, "status": "committed"}
    assert hidden["missing"] and status == "forgotten"
    assert back.json() == {"restored": 1, "status": "committed"}
    shown_ids = [m["id"] for m in shown["memories"]]
    assert shown_ids[0] == keep and shown_ids.count(keep) == 1
    assert purged.json()["purged"] == 1 and after.status_code == 404 and restore_purged.status_code == 404


def test_detail_shows_events_merges_derived_episode_usage_and_reflection_runs(live_gateway):
    h, ns = live_gateway.headers("alice"), "alice/provenance"
    turns = [
        {"content": "Please rotate the API keys for the billing service.", "source": "user"},
        {"content": "Rotating the keys now.", "source": "agent"},
        {"content": "Error: vault is sealed", "source": "tool"},
        {"content": "Unsealed the vault and rotated the keys.", "source": "agent"},
    ]
    with live_gateway.http() as http:
        ids = store(
            http, h, ns, [{**t, "session_id": "rotate", "occurred_at": at(i)} for i, t in enumerate(turns)]
        )
        # the client retrying the last turn (the same words right after it, no key, no time): merged into it
        (dup,) = store(
            http, h, ns, [{"content": "Unsealed the vault and rotated the keys.", "session_id": "rotate"}]
        )
        http.post(
            "/v1/memories/feedback", headers=h, json={"namespace": ns, "id": ids[1], "useful": True}
        ).raise_for_status()
        runs_before = http.get("/v1/reflection/runs", params={"namespace": ns}, headers=h).json()
    asyncio.run(_reflect(live_gateway, ns, "rotate"))
    with live_gateway.http() as http:
        turn = http.get(f"/v1/memories/{ids[1]}", params={"namespace": ns}, headers=h).json()
        last = http.get(f"/v1/memories/{ids[3]}", params={"namespace": ns}, headers=h).json()
        runs = http.get("/v1/reflection/runs", params={"namespace": ns}, headers=h).json()
        run = http.get(
            f"/v1/reflection/runs/{runs['items'][0]['id']}", params={"namespace": ns}, headers=h
        ).json()
        episode = http.get(f"/v1/memories/{run['episode_id']}", params={"namespace": ns}, headers=h).json()
    assert runs_before["items"] == []
    assert [e["id"] for e in turn["source_events"]] == [ids[1]]
    assert [e["id"] for e in last["merged_events"]] == [dup] and turn["merged_events"] == []
    assert turn["usage"]["seen_count"] == 1 and turn["usage"]["feedback"] == {"useful": 1, "not_useful": 0}
    assert [d["id"] for d in turn["derived"]] == [run["episode_id"]]  # the episode cites the turn
    assert run["trigger"] == "task_end" and run["status"] == "done" and run["mode"] == "heuristic"
    assert run["episode_memory"]["id"] == run["episode_id"] and run["lessons"] == []
    assert {e["id"] for e in episode["source_events"]} >= set(ids)
    assert episode["memory"]["source"] == "reflection"


async def _reflect(gw, ns: str, session: str) -> None:
    async with mcp_client(gw.url, gw.tokens["alice"]) as c:
        res = await c.call_tool("memory_reflect", {"namespace": ns, "session_id": session})
        assert not res.is_error, res.content


def test_an_agent_corrects_a_memory_over_mcp_and_recall_returns_the_correction(live_gateway):
    ns = "alice/mcp-correct"

    async def go():
        async with mcp_client(live_gateway.url, live_gateway.tokens["alice"]) as c:
            stored = await c.call_tool(
                "memory_store",
                {"namespace": ns, "wait": True, "items": [{"content": "Dana's favourite editor is Emacs."}]},
            )
            old = stored.structured_content["ids"][0]
            fixed = await c.call_tool(
                "memory_correct",
                {
                    "namespace": ns,
                    "id": old,
                    "content": "Dana's favourite editor is Helix.",
                    "note": "she said so",
                },
            )
            stale = await c.call_tool("memory_correct", {"namespace": ns, "id": old, "importance": 0.9})
            bad = await c.call_tool("memory_correct", {"namespace": ns, "id": "not-an-id", "importance": 0.9})
            after = await c.call_tool("memory_recall", {"namespace": ns, "query": "Dana favourite editor"})
            return old, fixed, stale, bad, after

    old, fixed, stale, bad, after = asyncio.run(go())
    assert not fixed.is_error and fixed.structured_content["supersedes"] == old
    assert stale.is_error and "conflict" in stale.content[0].text
    assert bad.is_error and "invalid_input" in bad.content[0].text
    top = after.structured_content["memories"][0]
    assert top["content"] == "Dana's favourite editor is Helix." and top["source"] == "user-correction"


def test_a_scoped_token_reads_only_its_own_namespaces_and_tenant(live_gateway):
    with live_gateway.http() as http:
        store(
            http, live_gateway.headers("alice"), "alice/mine", [{"content": "Alice's desk is by the window."}]
        )
        (bobs,) = store(http, live_gateway.headers("bob"), "bob/private", [{"content": "Bob's PIN is 8080."}])
        (globex,) = store(
            http, live_gateway.headers("globex"), "alice/mine", [{"content": "Globex: Falcon in March."}]
        )
        a = live_gateway.headers("alice")
        listed = http.get("/v1/namespaces", headers=a).json()
        by_scope = http.get(f"/v1/memories/{bobs}", params={"namespace": "bob/private"}, headers=a)
        by_id = http.get(f"/v1/memories/{bobs}", params={"namespace": "alice/mine"}, headers=a)
        other_tenant = http.get(f"/v1/memories/{globex}", params={"namespace": "alice/mine"}, headers=a)
        lists = [
            http.get(path, params={"namespace": "bob/private"}, headers=a)
            for path in ("/v1/memories", "/v1/events", "/v1/overview", "/v1/reflection/runs")
        ]
        writes = [
            http.patch(
                f"/v1/memories/{bobs}", params={"namespace": "bob/private"}, headers=a, json={"importance": 1}
            ),
            http.delete(
                f"/v1/memories/{bobs}", params={"namespace": "bob/private", "purge": True}, headers=a
            ),
            http.post(f"/v1/memories/{bobs}/restore", params={"namespace": "bob/private"}, headers=a),
        ]
        anonymous = http.get("/v1/memories", params={"namespace": "alice/mine"})
        globex_list = http.get(
            "/v1/memories", params={"namespace": "alice/mine"}, headers=live_gateway.headers("globex")
        )
        bob_still = http.get(
            f"/v1/memories/{bobs}", params={"namespace": "bob/private"}, headers=live_gateway.headers("bob")
        )
    assert listed["tenant"] == "acme" and listed["namespaces"]
    assert all(ns.startswith("alice/") for ns in listed["namespaces"])
    assert by_scope.status_code == 403 and "8080" not in by_scope.text
    assert by_id.status_code == 404 and other_tenant.status_code == 404
    assert [r.status_code for r in lists] == [403, 403, 403, 403]
    assert [r.status_code for r in writes] == [403, 403, 403]
    assert anonymous.status_code == 401
    assert [m["content"] for m in globex_list.json()["items"]] == ["Globex: Falcon in March."]
    assert bob_still.json()["memory"]["status"] == "active"


@pytest.mark.parametrize(
    "method, path, params, body, status",
    [
        ("get", "/v1/memories/not-an-id", {"namespace": "alice/x"}, None, 422),
        ("get", "/v1/memories", {"namespace": "alice/x", "cursor": "bm90IGEgY3Vyc29y"}, None, 400),
        ("get", "/v1/memories", {"namespace": "alice/x", "colour": "red"}, None, 422),
        ("get", "/v1/memories", {"namespace": "alice/x", "limit": 100000}, None, 422),
        ("get", "/v1/memories", {"namespace": "alice/x", "kind": "feelings"}, None, 422),
        ("get", "/v1/memories", {"namespace": "x' OR '1'='1"}, None, 422),
        ("get", "/v1/memories", {}, None, 422),
        ("get", "/v1/memories/" + "0" * 32, {"namespace": "alice/x"}, None, 404),
        ("patch", "/v1/memories/" + "0" * 32, {"namespace": "alice/x"}, {}, 400),
        ("patch", "/v1/memories/" + "0" * 32, {"namespace": "alice/x"}, {"content": "   "}, 422),
        ("patch", "/v1/memories/" + "0" * 32, {"namespace": "alice/x"}, {"content": "x" * 3000}, 413),
        ("patch", "/v1/memories/" + "0" * 32, {"namespace": "alice/x"}, {"importance": 3}, 422),
        ("patch", "/v1/memories/" + "0" * 32, {"namespace": "alice/x"}, {"source": "user-correction"}, 422),
        ("patch", "/v1/memories/" + "0" * 32, {"namespace": "alice/x"}, {"importance": 0.2}, 404),
        ("delete", "/v1/memories/" + "0" * 32, {"namespace": "alice/x"}, None, 404),
        ("get", "/v1/reflection/runs/" + "0" * 32, {"namespace": "alice/x"}, None, 404),
        ("get", "/v1/reflection/runs", {"namespace": "alice/x", "cursor": "%%%"}, None, 400),
    ],
)
def test_bad_input_gets_a_clear_4xx_never_a_500(live_gateway, method, path, params, body, status):
    with live_gateway.http() as http:
        kwargs = {"params": params, "headers": live_gateway.headers("alice")}
        if body is not None:
            kwargs["json"] = body
        r = getattr(http, method)(path, **kwargs)
    assert r.status_code == status, r.text


def test_a_store_cannot_claim_to_be_a_correction(live_gateway):
    with live_gateway.http() as http:
        r = http.post(
            "/v1/memories/store",
            headers=live_gateway.headers("alice"),
            json={"namespace": "alice/x", "items": [{"content": "forged", "source": "user-correction"}]},
        )
    assert r.status_code == 422


def test_the_overview_counts_kinds_statuses_tiers_growth_and_recall_hits(live_gateway):
    h, ns = live_gateway.headers("alice"), "alice/overview"
    with live_gateway.http() as http:
        ids = store(
            http,
            h,
            ns,
            [{"content": "Kim prefers tea.", "kind": "semantic"}, {"content": "We met Kim at the fair."}],
        )
        http.delete(f"/v1/memories/{ids[1]}", params={"namespace": ns}, headers=h).raise_for_status()
        recall(http, h, ns, "Kim prefers tea")
        recall(http, h, ns, "quantum chromodynamics lecture notes")
        o = http.get("/v1/overview", params={"namespace": ns}, headers=h).json()
    assert o["memories"] == {"semantic": {"active": 1}, "episodic": {"forgotten": 1}}
    assert o["events"] == 2 and o["archived"] == 0 and o["tiers"]["hot"] == 2
    assert sum(d["memories"] for d in o["growth"]) == 2 and sum(d["events"] for d in o["growth"]) == 2
    assert o["recall"]["recalls"] == 2 and o["recall"]["hits"] == 1 and o["recall"]["hit_rate"] == 0.5
    assert o["reflection"]["mode"] == "heuristic"


def test_the_openapi_document_describes_the_inspector_routes_with_typed_models(live_gateway):
    with live_gateway.http() as http:
        doc = http.get("/openapi.json").json()
    paths = doc["paths"]
    assert {"get", "patch", "delete"} <= set(paths["/v1/memories/{memory_id}"])
    assert "post" in paths["/v1/memories/{memory_id}/restore"]
    for path in ("/v1/memories", "/v1/events", "/v1/namespaces", "/v1/overview", "/v1/reflection/runs"):
        assert "get" in paths[path], path
    assert "/v1/reflection/runs/{run_id}" in paths
    schemas = doc["components"]["schemas"]
    assert {"MemoryDetail", "MemoryPage", "MemoryCorrection", "RunDetail", "Overview"} <= set(schemas)
    listed = {p["name"] for p in paths["/v1/memories"]["get"]["parameters"]}
    assert {
        "namespace",
        "kind",
        "status",
        "tag",
        "entity",
        "session_id",
        "since",
        "until",
        "text",
        "cursor",
    } <= listed
    assert "/ui" not in paths


def test_the_page_is_static_needs_no_token_to_load_and_carries_a_strict_policy(live_gateway):
    with live_gateway.http() as http:
        page = http.get("/ui")
        script = http.get("/ui/app.js")
        css = http.get("/ui/app.css")
        unknown = [http.get(p).status_code for p in ("/ui/secrets.json", "/ui/..%2Fapp.py", "/ui/index.html")]
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    csp = page.headers["content-security-policy"]
    for rule in ("default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"):
        assert rule in csp
    assert (
        page.headers["x-content-type-options"] == "nosniff"
        and page.headers["referrer-policy"] == "no-referrer"
    )
    assert script.headers["content-type"].startswith("text/javascript") and css.status_code == 200
    assert unknown == [404, 404, 404]
    assert "alice/" not in page.text  # the page holds no data: everything comes from /v1 with a token


def test_every_page_file_is_the_same_for_everyone_and_holds_no_stored_data(live_gateway):
    """GIVEN a stored memory WHEN every file of the page is fetched without a token and with two tenants' tokens
    THEN each answer is the packaged file itself, byte for byte: nothing stored, no namespace or tenant in it."""
    from importlib import resources

    folder = resources.files("hindsight_memory.gateway").joinpath("static")
    packaged = {f.name: f.read_bytes() for f in folder.iterdir() if f.name.endswith((".html", ".js", ".css"))}
    with live_gateway.http() as http:
        store(
            http, live_gateway.headers("alice"), "alice/page-data", [{"content": "Marker-7f3a in a memory"}]
        )
        served = {
            who: {
                name: http.get(
                    "/ui" if name == "index.html" else f"/ui/{name}", headers=live_gateway.headers(who)
                )
                for name in packaged
            }
            for who in (None, "alice", "globex")
        }
    for who, answers in served.items():
        for name, resp in answers.items():
            assert resp.status_code == 200 and resp.content == packaged[name], (who, name)
            assert b"Marker-7f3a" not in resp.content and b"alice/page-data" not in resp.content
            assert "set-cookie" not in resp.headers


def test_the_script_never_turns_stored_text_into_html_or_code():
    from importlib import resources

    folder = resources.files("hindsight_memory.gateway").joinpath("static")
    scripts = {f.name: f.read_text() for f in folder.iterdir() if f.name.endswith(".js")}
    assert {"app.js", "dom.js", "memory.js", "recall.js", "timeline.js"} <= set(scripts)
    for name, source in scripts.items():
        for sink in (
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
            "new Function",
        ):
            assert sink not in source, (name, sink)
