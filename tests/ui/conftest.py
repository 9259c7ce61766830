"""The browser tests share one seeded gateway and one headless Chromium per module (one xdist worker)."""

import os
from urllib.parse import urlencode

import pytest

from tests.ui.support import NS, browser_missing, chromium, inspected_gateway, quit_chromium, seed

TOKEN_KEY = "hindsight.token"


@pytest.fixture(scope="module")
def gw(tmp_path_factory):
    with inspected_gateway(str(tmp_path_factory.mktemp("inspector") / "data")) as g:
        seed(g)
        yield g


@pytest.fixture(scope="module")
def driver():
    why = browser_missing()
    if why:
        if os.environ.get("CI") == "true":  # CI must run the browser tests, never skip them
            pytest.fail(why)
        pytest.skip(why)
    d = chromium()
    yield d
    quit_chromium(d)


class Page:
    """Drives the inspector: every open is a full page load, then a wait for the view's heading."""

    def __init__(self, driver, gw) -> None:
        self.d, self.gw = driver, gw

    def wait(self, condition, timeout: float = 20.0):
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait

        # The page re-renders a view after each fetch: an element read mid-render is stale, not a failure.
        ignored = (StaleElementReferenceException,)
        return WebDriverWait(self.d, timeout, ignored_exceptions=ignored).until(lambda d: condition())

    def css(self, selector: str):
        from selenium.webdriver.common.by import By

        return self.d.find_elements(By.CSS_SELECTOR, selector)

    def one(self, selector: str):
        self.wait(lambda: self.css(selector))
        return self.css(selector)[0]

    def buttons(self, label: str):
        return [b for b in self.css("main button") if b.text == label]

    def button(self, label: str):
        self.wait(lambda: self.buttons(label))
        return self.buttons(label)[0]

    def heading(self) -> str:
        found = self.css("main h1")
        return found[0].text if found else ""

    def text(self) -> str:
        return self.d.execute_script("return document.body.innerText")

    def sign_in(self, who: str = "admin") -> None:
        self.d.get("about:blank")
        self.d.get(f"{self.gw.url}/ui")
        self.d.execute_script(f"sessionStorage.removeItem('{TOKEN_KEY}')")
        self.d.refresh()
        self.one("#token").send_keys(self.gw.tokens[who])
        self.one("#login button[type=submit]").click()
        self.wait(lambda: self.heading().startswith("Overview of"))

    def open(self, view: str, ns: str = NS, expect: str = "", **params: str) -> None:
        self.d.get("about:blank")
        self.d.get(f"{self.gw.url}/ui#/{view}?{urlencode({'ns': ns, **params})}")
        self.wait(
            lambda: self.css("main h1") and not self.css("main[aria-busy]") and expect in self.heading()
        )

    def pwned(self):
        return self.d.execute_script("return window.__pwned === undefined ? null : window.__pwned")


@pytest.fixture
def page(driver, gw):
    return Page(driver, gw)
