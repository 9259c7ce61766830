"""For the inspector's browser tests and screenshots: a live gateway with tokens and a fake LLM for reflection, a
seeded store (two tenants, several namespaces, sessions, a superseded fact, a reflection with lessons, stored
markup), and headless Chromium from Debian driven by Selenium."""

import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import httpx

from hindsight_memory.config import Settings
from hindsight_memory.gateway.app import create_app
from hindsight_memory.gateway.tenants import TenantRegistry
from hindsight_memory.llm import LLMClient
from hindsight_memory.service import build_service
from tests.fakes.fake_llm import FakeLLM
from tests.gateway.conftest import UvicornThread, make_tokens
from tests.reflection.conftest import draft
from tests.support.moto import free_port

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
# As the machine notes say: without the background-networking flags Chromium keeps calling out, and this
# machine's closed network refuses it many times over.
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--window-size=1360,1000",
)
NS, OTHER_NS = "alice/project-x", "bob/notes"
T0 = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)
SECRET_OF_BOB = "Bob's vault code is 4242."
SECRET_OF_GLOBEX = "Globex roadmap: the Falcon launch moves to March."
XSS = [
    '<img src="x" onerror="window.__pwned = \'img\'">',
    "<script>window.__pwned = 'script'</script> remember this",
]
DEPLOY = [
    ("user", "Deploy the billing service to staging."),
    ("agent", "Running the deploy script."),
    ("tool", "Error: migration 042 failed: relation invoices_tmp already exists"),
    ("agent", "The previous migration left a temp table. Dropping invoices_tmp and retrying."),
    ("tool", "deployed billing@1.8.2 to staging"),
    ("user", "Thanks, staging looks right."),
]


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not shutil.which(p)]
    if missing:
        return (
            f"{' and '.join(missing)} not installed: `apt-get install -y chromium chromium-driver` "
            "(scripts/test.sh installs them when missing)"
        )
    return None


def chromium(width: int = 1360, height: int = 1000):
    """Headless Debian Chromium through Debian's chromedriver (never a downloaded browser)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never try to fetch a driver or a browser
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--window-size={width},{height}")
    profile = tempfile.mkdtemp(prefix="hs-chromium-")
    opts.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.profile_dir = profile
    return driver


def quit_chromium(driver) -> None:
    driver.quit()
    shutil.rmtree(driver.profile_dir, ignore_errors=True)


@dataclass
class Inspected:
    """A live gateway with tokens (acme: alice, bob, admin; globex) and the ids the seed wrote."""

    url: str
    tokens: dict[str, str]
    app: object
    llm: FakeLLM
    ids: dict[str, str] = field(default_factory=dict)

    def http(self, who: str = "admin") -> httpx.Client:
        return httpx.Client(
            base_url=self.url,
            headers={"Authorization": f"Bearer {self.tokens[who]}"},
            timeout=60,
            trust_env=False,
        )

    def service(self, tenant: str = "acme"):
        return self.app.state.ops.tenants.get(tenant)


@contextmanager
def inspected_gateway(data_dir: str, embedder: str = "hashing"):
    """Start the gateway (uvicorn on a free loopback port) with reflection wired to a fake LLM."""
    fake = FakeLLM().start()
    tokens, tokens_json = make_tokens()
    settings = Settings(
        store_uri=data_dir,
        embedder=embedder,
        tokens=tokens_json,
        batch_window_ms=5,
        llm_model="openai/fake-reflector",
    )
    client = LLMClient(
        "openai/fake-reflector", api_base=fake.url, api_key="test-key", timeout_s=10, backoff_s=0.01
    )
    tenants = TenantRegistry(settings, factory=lambda s: build_service(s, llm=client))
    app = create_app(settings, tenants=tenants)
    port = free_port()
    try:
        with UvicornThread(app, port):
            yield Inspected(url=f"http://127.0.0.1:{port}", tokens=tokens, app=app, llm=fake)
    finally:
        fake.stop()


def _store(http: httpx.Client, namespace: str, items: list[dict]) -> list[str]:
    res = http.post("/v1/memories/store", json={"namespace": namespace, "items": items, "wait": True})
    res.raise_for_status()
    return res.json()["ids"]


def seed(gw: Inspected) -> dict[str, str]:
    """Write the seeded store through the REST API (and reflection through the service), return ids by label."""
    at = lambda days, minutes=0: (T0 + timedelta(days=days, minutes=minutes)).isoformat()  # noqa: E731
    ids: dict[str, str] = {}
    with gw.http("admin") as admin:
        turns = [
            {
                "content": text,
                "session_id": "deploy-billing",
                "source": source,
                "occurred_at": at(4, i),
                "tags": ["deploy"] + (["error"] if text.startswith("Error") else []),
                "entities": ["billing"],
            }
            for i, (source, text) in enumerate(DEPLOY)
        ]
        deploy = _store(admin, NS, turns)
        ids["deploy_error"] = deploy[2]
        ids["budget_old"] = _store(
            admin,
            NS,
            [
                {
                    "content": "My budget for the offsite is 5000 EUR.",
                    "session_id": "offsite",
                    "occurred_at": at(1),
                }
            ],
        )[0]
        ids["metric"] = _store(
            admin,
            NS,
            [
                {
                    "content": "I prefer answers in metric units.",
                    "session_id": "offsite",
                    "occurred_at": at(1, 3),
                    "kind": "semantic",
                    "tags": ["preference"],
                }
            ],
        )[0]
        ids["budget_new"] = _store(
            admin,
            NS,
            [
                {
                    "content": "My budget for the offsite is now 8000 EUR.",
                    "session_id": "planning",
                    "occurred_at": at(8),
                }
            ],
        )[0]
        ids["port"] = _store(
            admin,
            NS,
            [
                {
                    "content": "The staging database listens on port 5433.",
                    "kind": "semantic",
                    "occurred_at": at(2),
                    "tags": ["infra"],
                    "entities": ["staging-db"],
                    "importance": 0.7,
                }
            ],
        )[0]
        ids["reviews"] = _store(
            admin,
            NS,
            [
                {
                    "content": "Alice reviews every pull request that touches billing.",
                    "kind": "semantic",
                    "occurred_at": at(3),
                    "entities": ["billing", "Alice"],
                }
            ],
        )[0]
        xss = _store(
            admin,
            NS,
            [
                {"content": c, "session_id": "pasted", "occurred_at": at(5, i), "tags": ["<b>tag</b>"]}
                for i, c in enumerate(XSS)
            ],
        )
        ids["xss_img"], ids["xss_script"] = xss
        ids["bob"] = _store(admin, OTHER_NS, [{"content": SECRET_OF_BOB, "kind": "semantic"}])[0]
    with gw.http("globex") as globex:
        ids["globex"] = _store(globex, NS, [{"content": SECRET_OF_GLOBEX, "kind": "semantic"}])[0]

    gw.llm.script(
        draft(
            "Deploy the billing service to staging",
            [
                ("Before re-running a failed migration, drop the temp tables it left behind.", 0.9, 0.95),
                ("Staging deploys of billing take about five minutes.", 0.3, 0.2),
            ],
            steps=[
                "ran the deploy script",
                "migration 042 failed",
                "dropped invoices_tmp",
                "re-ran the deploy",
            ],
            tools=["deploy"],
            obstacles=["migration 042: relation invoices_tmp already exists"],
            entities=["billing", "staging"],
        )
    )
    svc = gw.service("acme")
    run = svc.reflect(NS, session_id="deploy-billing")
    ids["episode"] = run["episode_id"]
    ids["lesson"] = next(x["id"] for x in run["lessons"] if x["decision"] == "insert")
    ids["run"] = run["run_id"]
    with gw.http("admin") as admin:
        for q in ("which port does staging use", "offsite budget", "how do I fix a failed migration"):
            admin.post("/v1/memories/recall", json={"namespace": NS, "query": q}).raise_for_status()
    gw.ids = ids
    return ids


def dump(obj: object) -> str:
    return json.dumps(obj, indent=2, default=str)
