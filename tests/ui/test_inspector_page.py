"""The memory inspector in a real browser: headless Chromium from Debian, driven by Selenium, against a live
gateway with a seeded store. What a person does on the page, and what must never happen (another namespace's
data on screen, stored markup running, the token in a URL or a log)."""

import asyncio
import logging
import re

import pytest

from tests.gateway.conftest import mcp_client
from tests.reflection.conftest import draft
from tests.ui.conftest import TOKEN_KEY, Page
from tests.ui.support import NS, OTHER_NS, SECRET_OF_BOB, SECRET_OF_GLOBEX, XSS

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.slow]


def recall_ids(gw, query: str, who: str = "admin") -> list[str]:
    with gw.http(who) as http:
        r = http.post(
            "/v1/memories/recall", json={"namespace": NS, "query": query, "min_score": 0, "top_k": 20}
        )
    r.raise_for_status()
    return [m["id"] for m in r.json()["memories"]]


def test_the_page_asks_for_a_token_and_keeps_it_out_of_urls_links_and_logs(page, gw, caplog):
    token = gw.tokens["admin"]
    with caplog.at_level(logging.INFO):
        page.d.get("about:blank")
        page.d.get(f"{gw.url}/ui")
        page.d.execute_script(f"sessionStorage.removeItem('{TOKEN_KEY}')")
        page.d.refresh()
        page.one("#token").send_keys("hs_not_a_real_token")
        page.one("#login button[type=submit]").click()
        page.wait(lambda: "That token was refused." in page.text())
        page.sign_in("admin")
        page.open("timeline", expect="Timeline")
        page.open(f"memory/{gw.ids['reviews']}", expect="Memory")
        urls = page.d.execute_script(
            "return [location.href, ...[...document.querySelectorAll('a')].map(a => a.getAttribute('href') || ''),"
            " ...performance.getEntries().map(e => e.name)]"
        )
    stored = page.d.execute_script(f"return sessionStorage.getItem('{TOKEN_KEY}')")
    assert stored == token
    assert all(token not in u for u in urls) and len(urls) > 10
    logged = [str(r.__dict__) + r.getMessage() for r in caplog.records]
    assert any("request" in line for line in logged) and all(token not in line for line in logged)


def test_a_stored_memory_is_found_on_the_timeline_and_opens_with_its_provenance(page, gw):
    page.sign_in("admin")
    page.open("timeline", expect="Timeline")
    page.one("#f-text").send_keys("reviews every pull request")
    page.one("form.filters button[type=submit]").click()
    page.wait(lambda: "text=reviews" in page.d.current_url and len(page.css("#memories-table tbody tr")) == 1)
    row = page.one("#memories-table tbody tr")
    assert "Alice reviews every pull request that touches billing." in row.text
    marks = page.css("svg.chart a")
    assert [m.get_attribute("aria-label") for m in marks] == [
        "semantic memory: Alice reviews every pull request that touches billing."
    ]
    row.find_element("css selector", "td.content a").click()
    page.wait(lambda: page.heading() == f"Memory {gw.ids['reviews'][:8]}")
    assert page.one("#memory-content").text == "Alice reviews every pull request that touches billing."

    # A session's lane: its turns, the raw events they came from, and the episode reflection derived from them
    page.open("timeline", expect="Timeline", session="deploy-billing")
    page.wait(lambda: len(page.css("#memories-table tbody tr")) >= 7)
    table = page.one("#memories-table").text
    assert "Error: migration 042 failed" in table and "Task: Deploy the billing service" in table
    assert "Error: migration 042 failed" in page.one("#events-table").text
    assert page.css("svg.chart line.link-derived")  # the episode is drawn linked to the turns it came from


def test_the_recall_playground_shows_each_candidates_explain_trace(page, gw):
    page.sign_in("admin")
    page.open("recall", expect="Recall playground")
    page.one("#r-query").send_keys("how do I fix a failed migration")
    topk = page.one("#r-topk")
    topk.clear()
    topk.send_keys("1")
    page.one("#r-submit").click()
    page.wait(lambda: page.css("#recall-results h2"))
    (result,) = page.css("#recall-results ol.results li.result")
    header = page.one("#explain-table thead").text
    for signal in (
        "vector (rank · cosine)",
        "full text (rank · BM25)",
        "fusion (RRF)",
        "time decay",
        "importance",
    ):
        assert signal in header, signal
    kept = page.css("#explain-table tr.kept")
    assert [r.get_attribute("data-id") for r in kept] == [result.get_attribute("data-id")]
    cells = [c.text for c in kept[0].find_elements("css selector", "td")]
    assert any(re.fullmatch(r"#\d+ · [0-9.]+", c) for c in cells[1:3]), cells  # a channel's rank and score
    assert cells[-1].startswith("kept")
    dropped = page.css("#explain-table tr.dropped")
    assert dropped and any("dropped: ranked below top_k=1" in r.text for r in dropped)
    assert "Vector channel" in page.text() and "Full-text channel" in page.text()


def test_a_correction_made_in_the_page_is_what_the_next_mcp_recall_returns(page, gw):
    old = gw.ids["port"]
    page.sign_in("admin")
    page.open(f"memory/{old}", expect="Memory")
    page.one("#edit-open").click()
    content = page.one("#edit-content")
    content.clear()
    content.send_keys("The staging database listens on port 6543.")
    page.one("#edit-note").send_keys("moved during the November migration")
    page.one("#edit-save").click()
    page.wait(lambda: page.heading().startswith("Memory") and old[:8] not in page.heading())
    page.wait(lambda: page.one("#memory-content").text == "The staging database listens on port 6543.")
    history = page.one("section table").text  # the first table after provenance is the history
    assert "The staging database listens on port 5433." in history and "superseded" in history
    assert "(this one)" in history and "moved during the November migration" in history
    new_id = page.d.execute_script("return location.hash").split("/")[2].split("?")[0]

    async def mcp_recall():
        async with mcp_client(gw.url, gw.tokens["alice"]) as c:
            res = await c.call_tool(
                "memory_recall", {"namespace": NS, "query": "which port does staging listen on"}
            )
            return res.structured_content["memories"]

    memories = asyncio.run(mcp_recall())
    assert memories[0]["id"] == new_id
    assert memories[0]["content"] == "The staging database listens on port 6543."
    assert all("5433" not in m["content"] for m in memories)


def test_forget_and_restore_a_memory_in_the_page(page, gw):
    mid = gw.ids["metric"]
    page.sign_in("admin")
    page.open(f"memory/{mid}", expect="Memory")
    page.one("#forget").click()
    page.wait(lambda: page.css("#restore") and "forgotten" in page.one("p.badges").text)
    assert mid not in recall_ids(gw, "answers in metric units")
    page.one("#restore").click()
    page.wait(lambda: page.css("#forget") and "active" in page.one("p.badges").text)
    assert mid in recall_ids(gw, "answers in metric units")


def test_a_scoped_token_never_sees_another_namespaces_or_tenants_data(page, gw):
    page.sign_in("alice")
    options = page.d.execute_script(
        "return [...document.querySelectorAll('#ns-list option')].map(o => o.value)"
    )
    assert options == [NS]
    seen = []
    for view, expect in (("overview", "Overview"), ("timeline", "Timeline"), ("reflection", "Reflection")):
        page.open(view, expect=expect)
        seen.append(page.text())
    page.open(f"memory/{gw.ids['bob']}", ns=OTHER_NS, expect="Could not load")
    seen.append(page.text())
    assert "outside this token's scope" in seen[-1]
    page.open("timeline", ns=OTHER_NS, expect="Could not load")
    seen.append(page.text())
    page.open(
        f"memory/{gw.ids['globex']}", expect="Could not load"
    )  # another tenant's id, same namespace name
    seen.append(page.text())
    assert "no memory with this id" in seen[-1]
    page.open("recall", expect="Recall")
    page.one("#r-query").send_keys("vault code Falcon launch roadmap")
    page.one("#r-min").send_keys("0")
    page.one("#r-submit").click()
    page.wait(lambda: page.css("#recall-results h2"))
    seen.append(page.text())
    assert "Alice reviews every pull request" in seen[1]  # alice's own data is there
    for text in seen:
        assert SECRET_OF_BOB not in text and SECRET_OF_GLOBEX not in text and "4242" not in text

    page.sign_in("globex")
    page.open("timeline", expect="Timeline")
    text = page.text()
    assert (
        SECRET_OF_GLOBEX in text
        and "Alice reviews every pull request" not in text
        and SECRET_OF_BOB not in text
    )


def test_stored_markup_is_shown_as_text_and_never_runs(page, gw):
    page.sign_in("admin")
    page.open("timeline", expect="Timeline", session="pasted")
    page.wait(lambda: len(page.css("#memories-table tbody tr")) == 2)
    table = page.one("#memories-table").text
    assert XSS[1] in table and "<b>tag</b>" in table
    page.open(f"memory/{gw.ids['xss_img']}", expect="Memory")
    assert page.one("#memory-content").text == XSS[0]
    page.open("recall", expect="Recall")
    page.one("#r-query").send_keys("remember this script window")
    page.one("#r-min").send_keys("0")
    page.one("#r-submit").click()
    page.wait(lambda: page.css("#recall-results h2"))
    assert XSS[1] in page.text()
    injected = page.d.execute_script(
        "return {imgs: document.images.length, scripts: [...document.scripts].map(s => s.src),"
        " bold: document.querySelectorAll('main b').length}"
    )
    assert page.pwned() is None
    assert injected == {"imgs": 0, "scripts": [f"{gw.url}/ui/app.js"], "bold": 0}


def test_reflection_runs_list_their_lessons_with_scores(page, gw):
    page.sign_in("admin")
    page.open("reflection", expect="Reflection runs")
    runs = page.one("#runs-table").text
    assert "task_end" in runs and "done" in runs and "llm" in runs
    page.one("#runs-table tbody th a").click()
    page.wait(lambda: page.heading().startswith("Reflection run "))
    text = page.text()
    assert "Deploy the billing service to staging" in text  # the episode's intent
    lessons = page.css("main table")[-1].text
    assert "Before re-running a failed migration, drop the temp tables it left behind." in lessons
    assert "insert" in lessons and "reject" in lessons
    for column in ("novelty", "reusability", "causality", "score", "threshold"):
        assert column in lessons
    page.open(f"memory/{gw.ids['lesson']}", expect="Memory")
    flow = page.one("ol.flow").text
    assert "Task: Deploy the billing service to staging" in flow  # lesson <- episode <- events
    assert "Error: migration 042 failed" in flow
    assert "causal relevance" in page.text()


def test_long_lists_page_in_steps_with_load_more(page, gw):
    ns = "alice/paging"
    svc = gw.service("acme")
    for i in range(3):
        gw.llm.script(
            draft(f"Rotate the key of service {i}", [(f"Rotate key {i} before it expires.", 0.8, 0.8)])
        )
        svc.reflect(
            ns,
            trajectory=[
                {"role": "user", "content": f"Rotate the API key of service {i}."},
                {"role": "assistant", "content": f"Running: vault rotate svc-{i}"},
                {"role": "tool", "content": "rotated"},
            ],
        )
    page.sign_in("admin")
    rows = lambda sel: len(page.css(f"{sel} tbody tr"))  # noqa: E731

    page.open("reflection", ns=ns, expect="Reflection runs", limit="2")
    assert rows("#runs-table") == 2
    page.button("Load more runs").click()
    page.wait(lambda: rows("#runs-table") == 3)
    assert not page.buttons("Load more runs")  # the last page has no button

    page.open("timeline", expect="Timeline", limit="2")
    assert rows("#memories-table") == 2
    page.button("Load more memories").click()
    page.wait(lambda: rows("#memories-table") == 4)
    assert page.buttons("Load more memories")  # the seeded namespace holds more than four


def test_the_overview_shows_counts_growth_hit_rate_and_reflection_cost(page, gw):
    page.sign_in("admin")
    page.open("overview", expect="Overview of alice/project-x")
    text = page.text()
    for part in (
        "Events in the log",
        "Recall hit rate",
        "Memories by kind and status",
        "Reflection cost",
        "llm",
    ):
        assert part in text, part
    assert page.css("svg.chart rect.bar")


# The contrast of each visible text element against the first opaque background behind it (WCAG formula).
CONTRAST = """
const lum = c => { const [r, g, b] = c.match(/[0-9.]+/g).slice(0, 3).map(Number).map(v => v / 255)
  .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)); return 0.2126*r + 0.7152*g + 0.0722*b; };
const bg = el => { for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
  if (!c.startsWith('rgba(0, 0, 0, 0)') && !c.endsWith(', 0)')) return c; } return 'rgb(255, 255, 255)'; };
const worst = [];
for (const el of document.querySelectorAll('main *, header *')) {
  if (!el.offsetParent || ![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
  const [a, b] = [lum(getComputedStyle(el).color), lum(bg(el))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 4.5) worst.push(el.tagName + ' ' + ratio.toFixed(2) + ' ' + el.textContent.slice(0, 30));
}
return worst;
"""
UNLABELLED = """
return [...document.querySelectorAll('input, select, textarea, button')]
  .filter(el => el.offsetParent && el.type !== 'hidden')
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.textContent.trim())
  .map(el => el.outerHTML.slice(0, 80));
"""


def test_every_control_is_labelled_text_has_contrast_and_the_keyboard_reaches_every_view(page, gw):
    from selenium.webdriver.common.keys import Keys

    page.sign_in("admin")
    views = [
        ("overview", "Overview"),
        ("timeline", "Timeline"),
        ("recall", "Recall"),
        (f"memory/{gw.ids['lesson']}", "Memory"),
        ("reflection", "Reflection"),
    ]
    for view, expect in views:
        page.open(view, expect=expect)
        if view.startswith("memory/"):
            page.one("#edit-open").click()
            page.one("#edit-content")
        assert page.d.execute_script(UNLABELLED) == [], view
        assert page.d.execute_script(CONTRAST) == [], view

    page.open("overview", expect="Overview")
    first = page.d.execute_script(
        "return document.querySelector('a[href], button, input, select, textarea').id"
    )
    assert first == "skip"  # the first stop of the tab order skips to the view
    assert page.d.switch_to.active_element.tag_name == "h1"  # a view takes the focus when it opens
    for _ in range(30):  # back up from the view to the navigation, by keyboard only
        focused = page.d.switch_to.active_element
        if focused.text == "Recall playground":
            break
        focused.send_keys(Keys.SHIFT, Keys.TAB)
    assert page.d.switch_to.active_element.text == "Recall playground"
    page.d.switch_to.active_element.send_keys(Keys.ENTER)
    page.wait(lambda: page.heading() == "Recall playground")
    assert page.d.switch_to.active_element.get_attribute("id") == "r-query"  # focus moves into the view


def test_in_embedded_mode_on_loopback_without_tokens_the_page_opens_directly(driver, tmp_path):
    import httpx

    from hindsight_memory.config import Settings
    from hindsight_memory.gateway.app import create_app
    from tests.gateway.conftest import UvicornThread
    from tests.support.moto import free_port

    app = create_app(Settings(store_uri=str(tmp_path / "data"), embedder="hashing", batch_window_ms=5))
    port = free_port()
    with UvicornThread(app, port):
        url = f"http://127.0.0.1:{port}"
        httpx.post(
            f"{url}/v1/memories/store",
            json={
                "namespace": "me/notes",
                "wait": True,
                "items": [{"content": "The bike lock code is 3141."}],
            },
            trust_env=False,
        ).raise_for_status()
        page = Page(driver, None)
        driver.get("about:blank")
        driver.get(f"{url}/ui")
        page.wait(lambda: page.heading() == "Overview of me/notes")
        assert not page.css("#token") and not page.one("#signout").is_displayed()
        assert "tenant default · admin" in page.one("#who").text
