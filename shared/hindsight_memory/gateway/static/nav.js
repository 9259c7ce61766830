// Where the inspector is: the hash route (#/view/arg?ns=...&filters), the shared state, and page-level helpers.
import { TOKEN_KEY } from "./api.js";
import { h, say, short } from "./dom.js";

export const state = { who: null, ns: "", onUnauthorized: null, route: null };
export const main = document.getElementById("main");

export function parseHash() {
  const raw = location.hash.replace(/^#\/?/, "");
  const [path, query] = raw.split("?");
  const params = new URLSearchParams(query || "");
  const parts = (path || "overview").split("/").map(decodeURIComponent);
  return { view: parts[0] || "overview", arg: parts[1] || "", params };
}

export function hashFor(view, params) {
  const p = new URLSearchParams();
  p.set("ns", (params && params.ns) || state.ns);
  for (const [k, v] of Object.entries(params || {})) {
    if (k !== "ns" && v !== null && v !== undefined && v !== "") p.set(k, v);
  }
  return "#/" + view + "?" + p.toString();
}

export function go(view, params) {
  location.hash = hashFor(view, params);
}

export function link(view, params, ...kids) {
  return h("a", { href: hashFor(view, params) }, ...kids);
}

export function memLink(id, text) {
  return link("memory/" + encodeURIComponent(id), {}, text || short(id));
}

export function page(title, ...kids) {
  main.replaceChildren(h("h1", { tabindex: "-1" }, title), ...kids.filter((k) => k !== null && k !== undefined));
}

export function fail(e) {
  if (e && e.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    return state.onUnauthorized("Your token was refused; sign in again.");
  }
  say((e && e.message) || String(e), "error");
  main.replaceChildren(h("h1", { tabindex: "-1" }, "Could not load this view"), h("p", { class: "error" }, (e && e.message) || String(e)));
}

// Rows per page of a list view: 100, or `limit` in the hash (1-100) to page in smaller steps.
export function pageSize(params) {
  const n = Number(params && params.get("limit"));
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : 100;
}

// A "load more" button for a cursor-paged list: fetchMore(cursor) adds the next page and returns it; the button
// gives way to the next one, or to nothing on the last page.
export function moreButton(label, cursor, fetchMore) {
  if (!cursor) return null;
  const b = h("button", { type: "button" }, label);
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      const next = await fetchMore(cursor);
      b.replaceWith(moreButton(label, next.next_cursor, fetchMore) || "");
      say(next.items.length + " more loaded");
    } catch (e) {
      fail(e);
    }
  });
  return b;
}
