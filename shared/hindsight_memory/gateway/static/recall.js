// The recall playground: every recall parameter, and the explain trace of every candidate.
import { api } from "./api.js";
import { KINDS, badge, excerpt, field, fmt, h, list, num, section, short, table } from "./dom.js";
import { memLink, page, state } from "./nav.js";

export async function viewRecall(_, params) {
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
