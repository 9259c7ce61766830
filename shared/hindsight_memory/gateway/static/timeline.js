// The timeline: memories and raw events by session on a time axis, with supersede and derivation links.
import { api } from "./api.js";
import { KINDS, STATUSES, badge, excerpt, field, fmt, h } from "./dom.js";
import { go, hashFor, link, memLink, moreButton, page, pageSize, state } from "./nav.js";

export async function viewTimeline(_, params) {
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
  const limit = pageSize(params);
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
    limit,
  };
  const [mems, evs] = await Promise.all([
    api("GET", "/v1/memories", { query }),
    f.events && !f.tag && !f.entity && !f.status
      ? api("GET", "/v1/events", { query: { namespace: state.ns, text: f.text, kind: f.kind, session_id: f.session, since: f.since, until: f.until, limit } })
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
      moreButton("Load more memories", mems.next_cursor, async (cursor) => {
        const next = await api("GET", "/v1/memories", { query: { ...query, cursor } });
        data.memories.push(...next.items);
        redraw();
        return next;
      }),
    ),
    f.events
      ? h(
          "section",
          {},
          h("h2", {}, "Raw events"),
          h("table", { id: "events-table" }, h("thead", {}, h("tr", {}, ["occurred", "session", "source", "content", "became"].map((x) => h("th", { scope: "col" }, x)))), evRows),
          moreButton("Load more events", evs.next_cursor, async (cursor) => {
            const next = await api("GET", "/v1/events", { query: { namespace: state.ns, text: f.text, kind: f.kind, session_id: f.session, since: f.since, until: f.until, limit, cursor } });
            data.events.push(...next.items);
            redraw();
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
