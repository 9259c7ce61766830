// Reflection runs: what each cost and decided, and one run with its episode and lessons.
import { api } from "./api.js";
import { badge, dl, excerpt, fmt, h, num, section, short, table } from "./dom.js";
import { link, memLink, moreButton, page, pageSize, state } from "./nav.js";

export async function viewReflection(runId, params) {
  if (runId) return viewRun(runId);
  const query = { namespace: state.ns, limit: pageSize(params) };
  const res = await api("GET", "/v1/reflection/runs", { query });
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
    moreButton("Load more runs", res.next_cursor, async (cursor) => {
      const next = await api("GET", "/v1/reflection/runs", { query: { ...query, cursor } });
      add(next.items);
      return next;
    }),
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
