// The hindsight memory inspector: a small script of our own, no framework, no build step.
// Everything it shows comes from the gateway's /v1 API, called with the token the person typed (kept in
// sessionStorage, sent only in the Authorization header). Stored content is always inserted as text nodes,
// never parsed as HTML, so a memory that contains markup is shown as the characters it is.
"use strict";

(() => {
  const TOKEN_KEY = "hindsight.token";
  const SVG = "http://www.w3.org/2000/svg";
  const KINDS = ["working", "episodic", "semantic"];
  const STATUSES = ["active", "superseded", "forgotten", "archived"];
  const main = document.getElementById("main");
  const statusBox = document.getElementById("status");
  const state = { who: null, ns: "", view: "" };

  // ------------------------------------------------------------------ DOM helpers
  // h("tag", {attr: value, onclick: fn}, ...children): children are nodes or text (always text nodes).
  function h(tag, props, ...kids) {
    const svg = tag.startsWith("svg:");
    const el = svg ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }

  function say(message, kind) {
    statusBox.replaceChildren(message ? h("p", { class: kind || "info" }, message) : "");
  }

  function fmt(ts) {
    if (!ts) return "–";
    const d = new Date(ts);
    return isNaN(d) ? String(ts) : d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
  }

  function num(x, digits) {
    return typeof x === "number" ? x.toFixed(digits === undefined ? 3 : digits) : "–";
  }

  function short(id) {
    return id ? id.slice(0, 8) : "";
  }

  function excerpt(text, n) {
    const s = String(text || "");
    return s.length > n ? s.slice(0, n - 1) + "…" : s;
  }

  function link(view, params, ...kids) {
    return h("a", { href: hashFor(view, params) }, ...kids);
  }

  function memLink(id, text) {
    return link("memory/" + encodeURIComponent(id), {}, text || short(id));
  }

  function badge(text, cls) {
    return h("span", { class: "badge " + (cls || "") }, text);
  }

  function table(caption, headers, rows) {
    return h(
      "table",
      {},
      caption ? h("caption", {}, caption) : null,
      h("thead", {}, h("tr", {}, headers.map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c, i) => (i === 0 ? h("th", { scope: "row" }, c) : h("td", {}, c)))))),
    );
  }

  function dl(pairs) {
    return h("dl", { class: "fields" }, pairs.filter(Boolean).map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
  }

  function section(title, ...kids) {
    return h("section", {}, h("h2", {}, title), ...kids);
  }

  function field(id, label, input, hint) {
    input.id = id;
    return h("p", { class: "field" }, h("label", { for: id }, label), input, hint ? h("span", { class: "hint" }, hint) : null);
  }

  function list(text) {
    return String(text || "").split(",").map((s) => s.trim()).filter(Boolean);
  }

  function isoFromLocal(value) {
    if (!value) return null;
    const d = new Date(value);
    return isNaN(d) ? null : d.toISOString();
  }

  // ------------------------------------------------------------------ routing: #/view/arg?ns=...&filters
  function parseHash() {
    const raw = location.hash.replace(/^#\/?/, "");
    const [path, query] = raw.split("?");
    const params = new URLSearchParams(query || "");
    const parts = (path || "overview").split("/").map(decodeURIComponent);
    return { view: parts[0] || "overview", arg: parts[1] || "", params };
  }

  function hashFor(view, params) {
    const p = new URLSearchParams();
    p.set("ns", (params && params.ns) || state.ns);
    for (const [k, v] of Object.entries(params || {})) {
      if (k !== "ns" && v !== null && v !== undefined && v !== "") p.set(k, v);
    }
    return "#/" + view + "?" + p.toString();
  }

  function go(view, params) {
    location.hash = hashFor(view, params);
  }

  // ------------------------------------------------------------------ API
  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  function messageOf(data, status) {
    if (data && data.error && data.error.message) return data.error.message;
    if (data && Array.isArray(data.detail)) return data.detail.map((d) => (d.loc || []).slice(1).join(".") + ": " + d.msg).join("; ");
    if (data && typeof data.detail === "string") return data.detail;
    return "request failed (" + status + ")";
  }

  async function api(method, path, options) {
    const { query, body } = options || {};
    const url = new URL(path, location.origin);
    for (const [k, v] of Object.entries(query || {})) {
      if (v === null || v === undefined || v === "") continue;
      if (Array.isArray(v)) v.forEach((x) => url.searchParams.append(k, x));
      else url.searchParams.set(k, v);
    }
    const headers = { Accept: "application/json" };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = "Bearer " + token;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
    let data = null;
    try {
      data = await res.json();
    } catch (e) {
      data = null;
    }
    if (!res.ok) throw new ApiError(res.status, messageOf(data, res.status));
    return data;
  }

  // ------------------------------------------------------------------ sign in
  function showLogin(message) {
    for (const id of ["ns-form", "nav", "signout"]) document.getElementById(id).hidden = true;
    document.getElementById("who").textContent = "";
    const input = h("input", { type: "password", autocomplete: "off", spellcheck: "false", required: true });
    const form = h(
      "form",
      { class: "login", id: "login" },
      h("h1", { tabindex: "-1" }, "Sign in"),
      h("p", {}, "Paste a hindsight token. It is kept in this browser tab only (sessionStorage) and sent in the Authorization header, never in a URL."),
      field("token", "Token", input),
      h("button", { type: "submit" }, "Open"),
    );
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      sessionStorage.setItem(TOKEN_KEY, input.value.trim());
      input.value = "";
      await start();
    });
    main.replaceChildren(form);
    say(message || "", message ? "error" : "info");
    input.focus();
  }

  async function start() {
    try {
      state.who = await api("GET", "/v1/namespaces");
    } catch (e) {
      if (e.status === 401) {
        const had = sessionStorage.getItem(TOKEN_KEY);
        sessionStorage.removeItem(TOKEN_KEY);
        return showLogin(had ? "That token was refused." : "");
      }
      return fail(e);
    }
    say("");
    for (const id of ["ns-form", "nav"]) document.getElementById(id).hidden = false;
    document.getElementById("signout").hidden = !sessionStorage.getItem(TOKEN_KEY);
    document.getElementById("who").textContent = "tenant " + state.who.tenant + (state.who.admin ? " · admin" : "");
    document.getElementById("ns-list").replaceChildren(...state.who.namespaces.map((n) => h("option", { value: n })));
    await route();
  }

  function fail(e) {
    if (e && e.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      return showLogin("Your token was refused; sign in again.");
    }
    say((e && e.message) || String(e), "error");
    main.replaceChildren(h("h1", { tabindex: "-1" }, "Could not load this view"), h("p", { class: "error" }, (e && e.message) || String(e)));
  }

  // ------------------------------------------------------------------ the router
  const VIEWS = {
    overview: viewOverview,
    timeline: viewTimeline,
    memory: viewMemory,
    recall: viewRecall,
    reflection: viewReflection,
  };

  async function route() {
    if (!state.who) return;
    const { view, arg, params } = parseHash();
    state.ns = params.get("ns") || state.ns || state.who.namespaces[0] || "";
    document.getElementById("ns").value = state.ns;
    for (const a of document.querySelectorAll("#nav a")) {
      a.href = hashFor(a.dataset.view, {});
      if (a.dataset.view === view) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    if (!state.ns) {
      main.replaceChildren(h("h1", { tabindex: "-1" }, "Choose a namespace"), h("p", {}, "No namespace holds data for this token yet. Type one above."));
      return;
    }
    const fn = VIEWS[view] || viewOverview;
    main.setAttribute("aria-busy", "true");
    try {
      await fn(arg, params);
      say("");
    } catch (e) {
      fail(e);
    } finally {
      main.removeAttribute("aria-busy");
    }
    const heading = main.querySelector("h1");
    if (heading && document.activeElement !== heading && !main.contains(document.activeElement)) heading.focus();
  }

  function page(title, ...kids) {
    main.replaceChildren(h("h1", { tabindex: "-1" }, title), ...kids.filter((k) => k !== null && k !== undefined));
  }

  // ------------------------------------------------------------------ overview
  async function viewOverview() {
    const o = await api("GET", "/v1/overview", { query: { namespace: state.ns } });
    const kinds = Object.keys(o.memories).sort();
    const counts = table(
      "Memories by kind and status",
      ["kind", ...STATUSES.filter((s) => s !== "archived"), "total"],
      kinds.map((k) => {
        const row = STATUSES.filter((s) => s !== "archived").map((s) => o.memories[k][s] || 0);
        return [k, ...row, row.reduce((a, b) => a + b, 0)];
      }),
    );
    const tiers = table("Memories by tier", ["tier", "memories"], Object.entries(o.tiers).map(([t, n]) => [t, n]));
    const r = o.recall;
    const refl = o.reflection || {};
    const windows = Object.keys(refl).filter((k) => k === "today" || k.startsWith("last_"));
    page(
      "Overview of " + o.namespace,
      h(
        "div",
        { class: "cards" },
        card("Events in the log", o.events),
        card("Archived (cold tier)", o.archived),
        card("Recall hit rate", r.hit_rate === null ? "–" : Math.round(r.hit_rate * 100) + "%", r.hits + " of " + r.recalls + " recalls found something (this server process, since it started)"),
        card("Memories ever recalled", r.memories_ever_recalled),
        card("Reflection mode", refl.mode || "–", (refl.pending_deferred || 0) + " deferred run(s) waiting for budget"),
      ),
      section("Counts", counts, tiers),
      section("Growth", growthChart(o.growth)),
      section(
        "Reflection cost",
        table(
          null,
          ["window", "runs", "LLM calls", "tokens", "cost (USD)"],
          windows.map((w) => [w.replace("_", " ").replace("_", " "), refl[w].runs, refl[w].llm_calls, refl[w].tokens, num(refl[w].cost_usd, 6)]),
        ),
        link("reflection", {}, "See every reflection run"),
      ),
    );
  }

  function card(title, value, note) {
    return h("div", { class: "card" }, h("p", { class: "card-title" }, title), h("p", { class: "card-value" }, String(value)), note ? h("p", { class: "hint" }, note) : null);
  }

  function growthChart(growth) {
    const days = growth.slice(-90);
    if (!days.length) return h("p", {}, "Nothing stored yet.");
    const max = Math.max(1, ...days.map((d) => d.memories));
    const w = 900;
    const bw = Math.min(w / days.length, 40);
    let total = growth.slice(0, growth.length - days.length).reduce((a, d) => a + d.memories, 0);
    const svg = h(
      "svg:svg",
      { viewBox: "0 0 " + w + " 140", class: "chart", role: "img", "aria-labelledby": "growth-title" },
      h("svg:title", { id: "growth-title" }, "Memories stored per day, last " + days.length + " days with activity"),
      days.map((d, i) =>
        h("svg:rect", { x: (i * bw + 1).toFixed(1), y: (120 - (d.memories / max) * 110).toFixed(1), width: Math.max(1, bw - 2).toFixed(1), height: ((d.memories / max) * 110).toFixed(1), class: "bar" }, h("svg:title", {}, d.day + ": " + d.memories + " memories, " + d.events + " events")),
      ),
      h("svg:text", { x: 0, y: 136, class: "axis" }, days[0].day),
      days.length > 1 ? h("svg:text", { x: days.length * bw, y: 136, class: "axis", "text-anchor": "end" }, days[days.length - 1].day) : null,
      h("svg:text", { x: w, y: 12, class: "axis", "text-anchor": "end" }, "tallest bar: " + max + " memories in a day"),
    );
    const rows = days.map((d) => {
      total += d.memories;
      return [d.day, d.memories, d.events, total];
    });
    return h("div", {}, svg, h("details", {}, h("summary", {}, "Growth as a table"), table(null, ["day", "memories stored", "events", "memories so far"], rows)));
  }

  // ------------------------------------------------------------------ timeline
  async function viewTimeline(_, params) {
    const f = {
      text: params.get("text") || "",
      kind: params.get("kind") || "",
      status: params.get("status") || "",
      tag: params.get("tag") || "",
      entity: params.get("entity") || "",
      session: params.get("session") || "",
      since: params.get("since") || "",
      until: params.get("until") || "",
      events: params.get("events") !== "0",
    };
    const query = {
      namespace: state.ns,
      text: f.text,
      kind: f.kind,
      status: f.status,
      tag: f.tag,
      entity: f.entity,
      session_id: f.session,
      since: f.since,
      until: f.until,
      limit: 100,
    };
    const [mems, evs] = await Promise.all([
      api("GET", "/v1/memories", { query }),
      f.events && !f.tag && !f.entity && !f.status
        ? api("GET", "/v1/events", { query: { namespace: state.ns, text: f.text, kind: f.kind, session_id: f.session, since: f.since, until: f.until, limit: 100 } })
        : Promise.resolve({ items: [], next_cursor: null }),
    ]);
    const data = { memories: mems.items, events: evs.items };
    const chart = h("div", { class: "timeline" });
    const memRows = h("tbody");
    const evRows = h("tbody");
    const redraw = () => {
      chart.replaceChildren(timelineChart(data.memories, data.events));
      memRows.replaceChildren(...data.memories.map(memoryRow));
      evRows.replaceChildren(...data.events.map(eventRow));
    };
    const more = (label, cursor, fetchMore) => {
      if (!cursor) return null;
      const b = h("button", { type: "button" }, label);
      b.addEventListener("click", async () => {
        b.disabled = true;
        try {
          const next = await fetchMore(cursor);
          b.replaceWith(more(label, next.next_cursor, fetchMore) || "");
          redraw();
          say(next.items.length + " more loaded");
        } catch (e) {
          fail(e);
        }
      });
      return b;
    };
    page(
      "Timeline",
      timelineFilters(f),
      h("p", { class: "hint" }, "Memories (circles, by kind) and raw events (diamonds) by session. Dashed lines: a newer version supersedes an older one; thin lines: derived from (event → episode → lesson)."),
      chart,
      h(
        "section",
        {},
        h("h2", {}, "Memories"),
        h("table", { id: "memories-table" }, h("thead", {}, h("tr", {}, ["occurred", "session", "kind", "status", "content", "tags"].map((x) => h("th", { scope: "col" }, x)))), memRows),
        more("Load more memories", mems.next_cursor, async (cursor) => {
          const next = await api("GET", "/v1/memories", { query: { ...query, cursor } });
          data.memories.push(...next.items);
          return next;
        }),
      ),
      f.events
        ? h(
            "section",
            {},
            h("h2", {}, "Raw events"),
            h("table", { id: "events-table" }, h("thead", {}, h("tr", {}, ["occurred", "session", "source", "content", "became"].map((x) => h("th", { scope: "col" }, x)))), evRows),
            more("Load more events", evs.next_cursor, async (cursor) => {
              const next = await api("GET", "/v1/events", { query: { namespace: state.ns, text: f.text, kind: f.kind, session_id: f.session, since: f.since, until: f.until, limit: 100, cursor } });
              data.events.push(...next.items);
              return next;
            }),
          )
        : null,
    );
    redraw();
  }

  function timelineFilters(f) {
    const text = h("input", { type: "search", value: f.text });
    const kind = h("select", {}, h("option", { value: "" }, "any"), KINDS.map((k) => h("option", { value: k, selected: f.kind === k }, k)));
    const status = h("select", {}, h("option", { value: "" }, "any"), STATUSES.map((s) => h("option", { value: s, selected: f.status === s }, s)));
    const tag = h("input", { type: "text", value: f.tag });
    const entity = h("input", { type: "text", value: f.entity });
    const session = h("input", { type: "text", value: f.session });
    const since = h("input", { type: "datetime-local", value: f.since ? f.since.slice(0, 16) : "" });
    const until = h("input", { type: "datetime-local", value: f.until ? f.until.slice(0, 16) : "" });
    const events = h("input", { type: "checkbox", checked: f.events });
    const form = h(
      "form",
      { class: "filters", role: "search", "aria-label": "Timeline filters" },
      field("f-text", "Text contains", text),
      field("f-kind", "Kind", kind),
      field("f-status", "Status", status),
      field("f-tag", "Tag", tag),
      field("f-entity", "Entity", entity),
      field("f-session", "Session", session),
      field("f-since", "Occurred since (UTC)", since),
      field("f-until", "Occurred before (UTC)", until),
      h("p", { class: "field check" }, events, h("label", { for: "f-events" }, "Show raw events")),
      h("p", { class: "field" }, h("button", { type: "submit" }, "Apply filters")),
    );
    events.id = "f-events";
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const utc = (v) => (v ? v + ":00Z" : "");
      go("timeline", {
        text: text.value.trim(),
        kind: kind.value,
        status: status.value,
        tag: tag.value.trim(),
        entity: entity.value.trim(),
        session: session.value.trim(),
        since: utc(since.value),
        until: utc(until.value),
        events: events.checked ? "" : "0",
      });
    });
    return form;
  }

  function memoryRow(m) {
    const rel = [];
    if (m.supersedes) rel.push(h("span", { class: "rel" }, "supersedes ", memLink(m.supersedes)));
    if (m.superseded_by) rel.push(h("span", { class: "rel" }, "superseded by ", memLink(m.superseded_by)));
    const derived = m.source_ids.filter((s) => s !== m.id).length;
    if (derived) rel.push(h("span", { class: "rel" }, "derived from " + derived + " source(s)"));
    return h(
      "tr",
      { "data-id": m.id },
      h("td", {}, fmt(m.occurred_at)),
      h("td", {}, m.session_id ? link("timeline", { session: m.session_id }, excerpt(m.session_id, 24)) : "–"),
      h("td", {}, badge(m.kind, "kind-" + m.kind)),
      h("td", {}, badge(m.table === "cold" ? "archived" : m.status, "status-" + m.status)),
      h("td", { class: "content" }, memLink(m.id, excerpt(m.content, 160)), rel.length ? h("span", { class: "rels" }, rel) : null),
      h("td", {}, m.tags.join(", ")),
    );
  }

  function eventRow(e) {
    return h(
      "tr",
      { "data-id": e.id },
      h("td", {}, fmt(e.occurred_at)),
      h("td", {}, e.session_id ? excerpt(e.session_id, 24) : "–"),
      h("td", {}, e.source),
      h("td", { class: "content" }, excerpt(e.content, 160)),
      h("td", {}, e.memory_id ? memLink(e.memory_id) : "–"),
    );
  }

  function timelineChart(memories, events) {
    const items = [...memories.map((m) => ({ t: +new Date(m.occurred_at), m })), ...events.map((e) => ({ t: +new Date(e.occurred_at), e }))];
    if (!items.length) return h("p", {}, "Nothing matches these filters.");
    const lanes = [];
    for (const it of items.sort((a, b) => a.t - b.t)) {
      const s = (it.m || it.e).session_id || "";
      if (!lanes.includes(s)) lanes.push(s);
    }
    const t0 = items[0].t;
    const t1 = Math.max(items[items.length - 1].t, t0 + 1);
    const left = 170;
    const width = 1000;
    const laneH = 30;
    const height = 40 + lanes.length * laneH;
    const x = (t) => left + 10 + ((t - t0) / (t1 - t0)) * (width - left - 30);
    const y = (s) => 20 + lanes.indexOf(s || "") * laneH + laneH / 2;
    const pos = {};
    const marks = [];
    for (const e of events) {
      const cx = x(+new Date(e.occurred_at));
      const cy = y(e.session_id) + 7;
      pos[e.id] = pos[e.id] || [cx, cy];
      marks.push(h("svg:path", { d: `M${cx} ${cy - 5} l5 5 l-5 5 l-5 -5 z`, class: "event" }, h("svg:title", {}, "event: " + excerpt(e.content, 120))));
    }
    for (const m of memories) {
      const cx = x(+new Date(m.occurred_at));
      const cy = y(m.session_id) - 5;
      pos[m.id] = [cx, cy];
      marks.push(
        h(
          "svg:a",
          { href: hashFor("memory/" + m.id, {}), "aria-label": m.kind + " memory: " + excerpt(m.content, 80) },
          h("svg:circle", { cx: cx.toFixed(1), cy: cy.toFixed(1), r: 6, class: "mem kind-" + m.kind + " status-" + (m.table === "cold" ? "archived" : m.status) }, h("svg:title", {}, m.kind + " · " + m.status + ": " + excerpt(m.content, 120))),
        ),
      );
    }
    const links = [];
    const line = (a, b, cls) => {
      if (pos[a] && pos[b] && a !== b) links.push(h("svg:line", { x1: pos[a][0].toFixed(1), y1: pos[a][1].toFixed(1), x2: pos[b][0].toFixed(1), y2: pos[b][1].toFixed(1), class: cls }));
    };
    for (const m of memories) {
      if (m.supersedes) line(m.supersedes, m.id, "link-supersede");
      for (const s of m.source_ids) if (s !== m.id) line(s, m.id, "link-derived");
    }
    const labels = lanes.map((s) => h("svg:text", { x: 4, y: y(s) + 4, class: "lane" }, excerpt(s || "(no session)", 22)));
    const grid = lanes.map((s) => h("svg:line", { x1: left, x2: width - 10, y1: y(s), y2: y(s), class: "lane-line" }));
    return h(
      "svg:svg",
      { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "group", "aria-label": "Timeline: " + memories.length + " memories and " + events.length + " events in " + lanes.length + " session lane(s); each memory is a link" },
      grid,
      labels,
      links,
      marks,
      h("svg:text", { x: left, y: height - 4, class: "axis" }, fmt(new Date(t0).toISOString())),
      h("svg:text", { x: width - 10, y: height - 4, class: "axis", "text-anchor": "end" }, fmt(new Date(t1).toISOString())),
    );
  }

  // ------------------------------------------------------------------ one memory
  async function viewMemory(id) {
    const d = await api("GET", "/v1/memories/" + encodeURIComponent(id), { query: { namespace: state.ns } });
    const m = d.memory;
    const status = m.table === "cold" ? "archived" : m.status;
    const actions = h("div", { class: "actions" });
    const editor = h("div", { id: "editor" });
    if (m.status === "active" && m.table !== "cold") {
      actions.append(
        h("button", { type: "button", id: "edit-open", onclick: () => openEditor(editor, m) }, "Edit (new version)"),
        h("button", { type: "button", id: "forget", onclick: () => forget(m, false) }, "Forget"),
      );
    }
    if (m.status === "forgotten" || m.table === "cold") {
      actions.append(h("button", { type: "button", id: "restore", onclick: () => restore(m) }, "Restore"));
    }
    const purge = h("button", { type: "button", id: "purge", class: "danger" }, "Purge…");
    purge.addEventListener("click", () => {
      const confirm = h("button", { type: "button", id: "purge-confirm", class: "danger", onclick: () => forget(m, true) }, "Erase for good");
      purge.replaceWith(h("span", { class: "confirm" }, "Purge erases this memory, its events and what was derived only from them, from every table and old version. ", confirm));
      confirm.focus();
    });
    actions.append(purge);
    page(
      "Memory " + short(m.id),
      h("p", { class: "badges" }, badge(m.kind, "kind-" + m.kind), badge(status, "status-" + m.status), badge("source: " + m.source), badge("tier: " + m.tier)),
      h("blockquote", { class: "memory-content", id: "memory-content" }, m.content),
      m.status === "superseded" && m.superseded_by ? h("p", { class: "notice" }, "This is an old version. The current one: ", memLink(m.superseded_by)) : null,
      actions,
      editor,
      section("Provenance", provenance(d)),
      section(
        "History",
        table(
          "Versions, oldest first",
          ["version", "content", "status", "source", "valid from", "valid until", "correction note"],
          d.versions.map((v, i) => [
            v.id === m.id ? h("span", { "aria-current": "true" }, "#" + (i + 1) + " (this one)") : memLink(v.id, "#" + (i + 1) + " " + short(v.id)),
            h("span", { class: "content" }, v.content),
            v.table === "cold" ? "archived" : v.status,
            v.source,
            fmt(v.valid_from),
            v.valid_until ? fmt(v.valid_until) : "current",
            v.correction ? v.correction.note || "(" + v.correction.fields.join(", ") + ")" : "",
          ]),
        ),
      ),
      section(
        "Fields",
        dl([
          ["id", h("code", {}, m.id)],
          ["namespace", m.namespace],
          ["occurred", fmt(m.occurred_at)],
          ["stored", fmt(m.stored_at)],
          ["updated", fmt(m.updated_at)],
          ["session", m.session_id ? link("timeline", { session: m.session_id }, m.session_id) : "–"],
          ["position in session", String(m.seq)],
          ["importance", num(m.importance, 2)],
          ["confidence", num(m.confidence, 2)],
          ["tags", m.tags.join(", ") || "–"],
          ["entities", m.entities.join(", ") || "–"],
          ["fact slot", m.slot || "–"],
          ["embedding model", m.embed_model],
          m.context ? ["context (searched, not returned to agents)", h("pre", {}, m.context)] : null,
        ]),
      ),
      section(
        "Usage and merges",
        dl([
          ["recalled", d.usage.access_count + " time(s), last " + fmt(d.usage.last_accessed_at)],
          ["seen", d.usage.seen_count + " time(s), last " + fmt(d.usage.last_seen_at)],
          ["last confirmed", fmt(d.usage.last_confirmed_at)],
          ["feedback", Object.entries(d.usage.feedback).map(([k, v]) => k + ": " + v).join(", ") || "–"],
          ["merged by compaction", d.merged_from.length ? d.merged_from.map((x) => short(x)).join(", ") : "–"],
          ["duplicates merged at store", d.merged_events.length ? d.merged_events.map((e) => excerpt(e.content, 60) + " (" + fmt(e.stored_at) + ")").join("; ") : "–"],
        ]),
      ),
      d.reflection ? section("Reflection", reflectionScores(d.reflection)) : null,
      section("Metadata", h("pre", { class: "json" }, JSON.stringify(m.metadata, null, 2))),
    );
  }

  function provenance(d) {
    const col = (title, items) => h("li", { class: "flow-step" }, h("h3", {}, title), items.length ? h("ul", {}, items) : h("p", { class: "hint" }, "none"));
    const memItem = (b) => h("li", {}, badge(b.kind, "kind-" + b.kind), " ", memLink(b.id, excerpt(b.content, 90)), " ", h("span", { class: "hint" }, b.status + (b.tags.length ? " · " + b.tags.join(", ") : "")));
    return h(
      "ol",
      { class: "flow", "aria-label": "Provenance: events, the memories it came from, this memory, and what was derived from it" },
      col("Raw events", d.source_events.map((e) => h("li", {}, excerpt(e.content, 90), " ", h("span", { class: "hint" }, e.source + " · " + fmt(e.occurred_at))))),
      col("Derived from (episodes, earlier versions)", d.source_memories.map(memItem)),
      col("This memory", [h("li", {}, badge(d.memory.kind, "kind-" + d.memory.kind), " ", excerpt(d.memory.content, 90))]),
      col("Derived from it (lessons, facts, corrections)", d.derived.map(memItem)),
    );
  }

  function reflectionScores(r) {
    const s = r.scores || {};
    return dl([
      ["mode", r.mode || "–"],
      ["trigger", r.trigger || "–"],
      r.episode_id ? ["episode", memLink(r.episode_id)] : null,
      ["novelty", num(s.novelty)],
      ["reusability", num(s.reusability)],
      ["causal relevance", num(s.causal_relevance)],
      ["score / threshold", num(s.score) + " / " + num(s.threshold, 2)],
      r.why ? ["why", r.why] : null,
      r.decision ? ["decision", r.decision] : null,
    ]);
  }

  function openEditor(box, m) {
    const content = h("textarea", { rows: 4 }, m.content);
    const tags = h("input", { type: "text", value: m.tags.join(", ") });
    const entities = h("input", { type: "text", value: m.entities.join(", ") });
    const importance = h("input", { type: "number", min: 0, max: 1, step: 0.05, value: m.importance.toFixed(2) });
    const confidence = h("input", { type: "number", min: 0, max: 1, step: 0.05, value: m.confidence.toFixed(2) });
    const note = h("input", { type: "text", maxlength: 1000 });
    const form = h(
      "form",
      { class: "editor", "aria-label": "Correct this memory" },
      h("h2", {}, "Correct this memory"),
      h("p", { class: "hint" }, "Saving writes a new version that supersedes this one; this one stays in the history."),
      field("edit-content", "Content", content),
      field("edit-tags", "Tags (comma-separated)", tags),
      field("edit-entities", "Entities (comma-separated)", entities),
      field("edit-importance", "Importance (0–1)", importance),
      field("edit-confidence", "Confidence (0–1)", confidence),
      field("edit-note", "Why (kept with the new version)", note),
      h("p", { class: "field" }, h("button", { type: "submit", id: "edit-save" }, "Save correction"), " ", h("button", { type: "button", onclick: () => box.replaceChildren() }, "Cancel")),
    );
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const body = {};
      if (content.value.trim() !== m.content) body.content = content.value;
      const t = list(tags.value);
      if (t.join("\n") !== m.tags.join("\n")) body.tags = t;
      const e = list(entities.value);
      if (e.join("\n") !== m.entities.join("\n")) body.entities = e;
      if (Number(importance.value) !== Number(m.importance.toFixed(2))) body.importance = Number(importance.value);
      if (Number(confidence.value) !== Number(m.confidence.toFixed(2))) body.confidence = Number(confidence.value);
      if (!Object.keys(body).length) return say("Nothing changed.", "error");
      if (note.value.trim()) body.note = note.value.trim();
      try {
        const res = await api("PATCH", "/v1/memories/" + m.id, { query: { namespace: state.ns }, body });
        go("memory/" + res.id, {});
        say("Saved as a new version; the old one is kept in its history.");
      } catch (err) {
        say(err.message, "error");
      }
    });
    box.replaceChildren(form);
    content.focus();
  }

  async function forget(m, purge) {
    try {
      const res = await api("DELETE", "/v1/memories/" + m.id, { query: { namespace: state.ns, purge: purge ? "true" : null } });
      if (purge) {
        go("timeline", {});
        say("Purged " + res.purged + " memory(ies).");
      } else {
        await route();
        say("Forgotten: hidden from recall, restorable.");
      }
    } catch (err) {
      say(err.message, "error");
    }
  }

  async function restore(m) {
    try {
      await api("POST", "/v1/memories/" + m.id + "/restore", { query: { namespace: state.ns } });
      await route();
      say("Restored.");
    } catch (err) {
      say(err.message, "error");
    }
  }

  // ------------------------------------------------------------------ recall playground
  async function viewRecall(_, params) {
    const query = h("textarea", { rows: 2, required: true }, params.get("q") || "");
    const topK = h("input", { type: "number", min: 1, max: 100, value: 5 });
    const kinds = KINDS.map((k) => h("input", { type: "checkbox", value: k, id: "r-kind-" + k }));
    const channels = ["vector", "fts"].map((c) => h("input", { type: "checkbox", value: c, id: "r-ch-" + c, checked: true }));
    const tags = h("input", { type: "text" });
    const entities = h("input", { type: "text" });
    const session = h("input", { type: "text" });
    const since = h("input", { type: "datetime-local" });
    const until = h("input", { type: "datetime-local" });
    const now = h("input", { type: "datetime-local" });
    const minScore = h("input", { type: "number", min: 0, max: 1, step: 0.01, placeholder: "server default" });
    const history = h("input", { type: "checkbox", id: "r-history" });
    const archived = h("input", { type: "checkbox", id: "r-archived" });
    const results = h("div", { id: "recall-results", "aria-live": "polite" });
    const checks = (legend, boxes, labels) => h("fieldset", {}, h("legend", {}, legend), boxes.map((b, i) => h("span", { class: "check" }, b, h("label", { for: b.id }, labels[i]))));
    const form = h(
      "form",
      { class: "recall-form", "aria-label": "Recall query" },
      field("r-query", "Query", query),
      field("r-topk", "Top k", topK),
      checks("Kinds (none = all)", kinds, KINDS),
      checks("Channels", channels, ["vector", "full text (BM25)"]),
      field("r-tags", "Tags (comma-separated, any)", tags),
      field("r-entities", "Entities (comma-separated, any)", entities),
      field("r-session", "Session", session),
      field("r-since", "Occurred since (UTC)", since),
      field("r-until", "Occurred before (UTC)", until),
      field("r-now", "Now (UTC, for 'yesterday'…)", now),
      field("r-min", "Minimum relevance (0–1)", minScore),
      h("fieldset", {}, h("legend", {}, "Include"), h("span", { class: "check" }, history, h("label", { for: "r-history" }, "superseded versions")), h("span", { class: "check" }, archived, h("label", { for: "r-archived" }, "archived (cold tier)"))),
      h("p", { class: "field" }, h("button", { type: "submit", id: "r-submit" }, "Recall with explain")),
    );
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const utc = (v) => (v ? v + ":00Z" : null);
      const body = {
        namespace: state.ns,
        query: query.value,
        top_k: Number(topK.value) || 5,
        explain: true,
        include_history: history.checked,
        include_archived: archived.checked,
        channels: channels.filter((c) => c.checked).map((c) => c.value),
      };
      const ks = kinds.filter((k) => k.checked).map((k) => k.value);
      if (ks.length) body.kinds = ks;
      if (list(tags.value).length) body.tags = list(tags.value);
      if (list(entities.value).length) body.entities = list(entities.value);
      if (session.value.trim()) body.session_id = session.value.trim();
      if (since.value) body.since = utc(since.value);
      if (until.value) body.until = utc(until.value);
      if (now.value) body.now = utc(now.value);
      if (minScore.value !== "") body.min_score = Number(minScore.value);
      results.replaceChildren(h("p", {}, "Recalling…"));
      try {
        renderRecall(results, await api("POST", "/v1/memories/recall", { body }));
      } catch (err) {
        results.replaceChildren(h("p", { class: "error" }, err.message));
      }
    });
    page("Recall playground", h("p", { class: "hint" }, "Runs a real recall (it counts as usage) with explain on: every candidate's rank and score per channel, the fusion and the factors, and why it was kept or dropped."), form, results);
    query.focus();
  }

  // One row per candidate, kept or dropped: each channel's rank and raw score, the fusion, the factors, the verdict.
  function traceTable(kept, dropped, contents) {
    const ch = (t, name, key) => (t.ranks[name] ? "#" + t.ranks[name] + " · " + num(t.raw[key]) : "–");
    const f = (t, key) => (key in t.factors ? num(t.factors[key]) : "–");
    const row = (t, label) =>
      h(
        "tr",
        { "data-id": t.id, class: t.dropped ? "dropped" : "kept" },
        h("th", { scope: "row" }, label),
        h("td", { class: "content" }, memLink(t.id, excerpt(contents[t.id] || short(t.id), 70))),
        h("td", {}, ch(t, "vector", "vector")),
        h("td", {}, ch(t, "fts", "fts")),
        h("td", {}, f(t, "rrf")),
        h("td", {}, f(t, "relevance")),
        h("td", {}, f(t, "decay")),
        h("td", {}, f(t, "importance")),
        h("td", {}, f(t, "usage")),
        h("td", {}, f(t, "neighbour")),
        h("td", {}, num(t.score, 4)),
        h("td", {}, t.dropped ? "dropped: " + t.dropped : "kept", h("span", { class: "hint why" }, t.why)),
      );
    return h(
      "table",
      { id: "explain-table", class: "explain" },
      h("caption", {}, "Explain: every candidate, kept then dropped"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["rank", "memory", "vector (rank · cosine)", "full text (rank · BM25)", "fusion (RRF)", "relevance", "time decay", "importance", "usage", "neighbour", "score", "verdict"].map((x) =>
            h("th", { scope: "col" }, x),
          ),
        ),
      ),
      h("tbody", {}, kept.map((t, i) => row(t, String(i + 1))), dropped.map((t) => row(t, "–"))),
    );
  }

  function renderRecall(box, res) {
    const ex = res.explain || {};
    const contents = {};
    for (const m of res.memories) contents[m.id] = m.content;
    for (const d of ex.dropped || []) contents[d.id] = d.content;
    const out = [];
    out.push(h("h2", {}, res.missing ? "Nothing relevant (missing: true)" : res.memories.length + " result(s)"));
    if (ex.time_window) out.push(h("p", {}, "Time expression “" + ex.time_window.expression + "” became a filter: " + fmt(ex.time_window.since) + " – " + fmt(ex.time_window.until) + (ex.time_window_fallback ? " (nothing there: searched all time)" : "")));
    out.push(h("p", { class: "hint" }, "Minimum relevance " + num(ex.min_relevance, 2) + "; query terms: " + (ex.query_terms || []).join(", ")));
    out.push(
      h(
        "ol",
        { class: "results" },
        res.memories.map((m) =>
          h(
            "li",
            { class: "result", "data-id": m.id },
            h("p", {}, h("strong", {}, "score " + num(m.score, 4)), " ", badge(m.kind, "kind-" + m.kind), " ", badge(m.status, "status-" + m.status), " ", memLink(m.id)),
            h("blockquote", { class: "memory-content" }, m.content),
          ),
        ),
      ),
    );
    out.push(h("div", { class: "scroll" }, traceTable(ex.results || [], ex.dropped || [], contents)));
    const channel = (name, rows, key) =>
      table(name + " (top " + rows.length + ")", ["rank", "memory", key], rows.map((r) => [String(r.rank), memLink(r.id, contents[r.id] ? excerpt(contents[r.id], 70) : short(r.id)), num(r[key], 4)]));
    const ch = ex.channels || {};
    out.push(section("Channels", h("div", { class: "two" }, channel("Vector channel", ch.vector || [], "cosine"), channel("Full-text channel", ch.fts || [], "bm25"))));
    box.replaceChildren(...out);
  }

  // ------------------------------------------------------------------ reflection runs
  async function viewReflection(runId) {
    if (runId) return viewRun(runId);
    const res = await api("GET", "/v1/reflection/runs", { query: { namespace: state.ns, limit: 100 } });
    const body = h("tbody");
    const add = (items) =>
      body.append(
        ...items.map((r) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, link("reflection/" + r.id, {}, fmt(r.at))),
            h("td", {}, r.trigger),
            h("td", {}, r.session_id ? excerpt(r.session_id, 24) : "–"),
            h("td", {}, badge(r.status, "run-" + r.status), r.resolved_by ? h("span", { class: "hint" }, " resolved later") : null),
            h("td", {}, r.mode),
            h("td", {}, String(r.llm_calls)),
            h("td", {}, String(r.prompt_tokens + r.completion_tokens)),
            h("td", {}, num(r.cost_usd, 6)),
            h("td", {}, String(r.lessons_kept)),
          ),
        ),
      );
    add(res.items);
    page(
      "Reflection runs",
      h("p", {}, res.pending_deferred + " deferred run(s) waiting for budget (the periodic run retries them)."),
      res.items.length
        ? h("table", { id: "runs-table" }, h("thead", {}, h("tr", {}, ["when", "trigger", "session", "status", "mode", "LLM calls", "tokens", "cost (USD)", "lessons kept"].map((x) => h("th", { scope: "col" }, x)))), body)
        : h("p", {}, "No reflection has run in this namespace yet."),
    );
  }

  async function viewRun(id) {
    const r = await api("GET", "/v1/reflection/runs/" + encodeURIComponent(id), { query: { namespace: state.ns } });
    const ep = r.episode || {};
    const items = (xs) => (xs && xs.length ? h("ol", {}, xs.map((x) => h("li", {}, String(x)))) : "–");
    page(
      "Reflection run " + short(r.id),
      dl([
        ["when", fmt(r.at)],
        ["trigger", r.trigger],
        ["status", r.status],
        ["mode", r.mode],
        r.reason ? ["reason", r.reason] : null,
        ["session", r.session_id || "–"],
        ["LLM calls", String(r.llm_calls)],
        ["tokens (prompt + completion)", r.prompt_tokens + " + " + r.completion_tokens],
        ["cost (USD)", num(r.cost_usd, 6)],
        r.resolves ? ["completes the deferred run", link("reflection/" + r.resolves, {}, short(r.resolves))] : null,
        r.resolved_by ? ["completed later by", link("reflection/" + r.resolved_by, {}, short(r.resolved_by))] : null,
      ]),
      r.episode
        ? section(
            "Episode",
            dl([
              ["intent", ep.intent || "–"],
              ["steps", items(ep.steps)],
              ["tools", (ep.tools || []).join(", ") || "–"],
              ["obstacles", items(ep.obstacles)],
              ["outcome", ep.outcome || "–"],
              ["entities", (ep.entities || []).join(", ") || "–"],
              r.episode_memory ? ["stored as", memLink(r.episode_memory.id, excerpt(r.episode_memory.content, 90))] : null,
            ]),
          )
        : null,
      section(
        "Lessons",
        r.lessons.length
          ? table(
              null,
              ["lesson", "decision", "novelty", "reusability", "causality", "score", "threshold", "reason", "stored as"],
              r.lessons.map((l) => [
                h("span", { class: "content" }, l.text),
                l.decision,
                num(l.scores.novelty),
                num(l.scores.reusability),
                num(l.scores.causal_relevance),
                num(l.scores.score),
                num(l.scores.threshold, 2),
                l.reason,
                l.memory ? memLink(l.memory.id, short(l.memory.id) + " (" + l.memory.status + ")") : "–",
              ]),
            )
          : h("p", {}, "No lesson was proposed."),
      ),
      Object.keys(r.extra || {}).length ? section("Also recorded", h("pre", { class: "json" }, JSON.stringify(r.extra, null, 2))) : null,
    );
  }

  // ------------------------------------------------------------------ wiring
  document.getElementById("ns-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const value = document.getElementById("ns").value.trim();
    if (value) {
      state.ns = value;
      go(parseHash().view === "memory" ? "overview" : parseHash().view, { ns: value });
    }
  });
  document.getElementById("signout").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    state.who = null;
    location.hash = "";
    showLogin("Signed out.");
  });
  window.addEventListener("hashchange", route);
  start();
})();
