// One memory: its content and fields, provenance, history, usage; edit (a correction), forget, restore, purge.
import { api } from "./api.js";
import { badge, dl, excerpt, field, fmt, h, list, num, say, section, short, table } from "./dom.js";
import { go, link, memLink, page, state } from "./nav.js";

export async function viewMemory(id) {
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
      await state.route();
      say("Forgotten: hidden from recall, restorable.");
    }
  } catch (err) {
    say(err.message, "error");
  }
}

async function restore(m) {
  try {
    await api("POST", "/v1/memories/" + m.id + "/restore", { query: { namespace: state.ns } });
    await state.route();
    say("Restored.");
  } catch (err) {
    say(err.message, "error");
  }
}
