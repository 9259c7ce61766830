// The overview: counts by kind, status and tier, growth, recall hit rate, reflection cost.
import { api } from "./api.js";
import { STATUSES, h, num, section, table } from "./dom.js";
import { link, page, state } from "./nav.js";

export async function viewOverview() {
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
