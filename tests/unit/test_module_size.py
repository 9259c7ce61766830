"""Every module of the core library does one job and reads in one sitting: none is longer than about 400 lines.
The benchmark's data generator (bench/quality) is data more than code and is left out."""

from pathlib import Path

import hindsight_memory

ROOT = Path(hindsight_memory.__file__).parent
MAX_LINES = 410


def test_no_module_of_the_core_library_grows_past_about_400_lines() -> None:
    sizes = {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
        for p in ROOT.rglob("*.py")
        if "quality" not in p.relative_to(ROOT).parts
    }
    assert len(sizes) > 100  # the walk found the package
    too_long = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not too_long, f"split these by job: {too_long}"
