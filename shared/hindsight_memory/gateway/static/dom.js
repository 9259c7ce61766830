// DOM helpers for the inspector. h() builds elements; text is always added as text nodes, never parsed as
// HTML, so stored content that looks like markup is shown as the characters it is.
const SVG = "http://www.w3.org/2000/svg";
export const KINDS = ["working", "episodic", "semantic"];
export const STATUSES = ["active", "superseded", "forgotten", "archived"];

// h("tag", {attr: value, onclick: fn}, ...children): children are nodes or text (always text nodes).
export function h(tag, props, ...kids) {
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

export function say(message, kind) {
  document.getElementById("status").replaceChildren(message ? h("p", { class: kind || "info" }, message) : "");
}

export function fmt(ts) {
  if (!ts) return "–";
  const d = new Date(ts);
  return isNaN(d) ? String(ts) : d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

export function num(x, digits) {
  return typeof x === "number" ? x.toFixed(digits === undefined ? 3 : digits) : "–";
}

export function short(id) {
  return id ? id.slice(0, 8) : "";
}

export function excerpt(text, n) {
  const s = String(text || "");
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}


export function badge(text, cls) {
  return h("span", { class: "badge " + (cls || "") }, text);
}

export function table(caption, headers, rows) {
  return h(
    "table",
    {},
    caption ? h("caption", {}, caption) : null,
    h("thead", {}, h("tr", {}, headers.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c, i) => (i === 0 ? h("th", { scope: "row" }, c) : h("td", {}, c)))))),
  );
}

export function dl(pairs) {
  return h("dl", { class: "fields" }, pairs.filter(Boolean).map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

export function section(title, ...kids) {
  return h("section", {}, h("h2", {}, title), ...kids);
}

export function field(id, label, input, hint) {
  input.id = id;
  return h("p", { class: "field" }, h("label", { for: id }, label), input, hint ? h("span", { class: "hint" }, hint) : null);
}

export function list(text) {
  return String(text || "").split(",").map((s) => s.trim()).filter(Boolean);
}

function isoFromLocal(value) {
  if (!value) return null;
  const d = new Date(value);
  return isNaN(d) ? null : d.toISOString();
}
