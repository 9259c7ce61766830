// The hindsight memory inspector: ES modules of our own, loaded by the browser as they are (no framework, no
// build step). Everything it shows comes from the gateway's /v1 API.
import { TOKEN_KEY, api } from "./api.js";
import { field, h, say } from "./dom.js";
import { viewMemory } from "./memory.js";
import { fail, go, hashFor, main, parseHash, state } from "./nav.js";
import { viewOverview } from "./overview.js";
import { viewRecall } from "./recall.js";
import { viewReflection } from "./reflection.js";
import { viewTimeline } from "./timeline.js";

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
state.onUnauthorized = showLogin;
state.route = route;
start();
