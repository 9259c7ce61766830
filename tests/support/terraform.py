"""Running the real terraform binary in tests: offline (the provider from the machine's mirror), in a scratch copy
of infra/, against an emulator. Missing terraform or mirror skips a test locally and fails it under CI."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

INFRA = Path(__file__).resolve().parents[2] / "infra"
CLI_CONFIG = INFRA / "terraformrc"
MIRROR = Path("/opt/tf-plugins")
SERVICES = (
    "cloudformation",
    "cloudwatch",
    "iam",
    "lambda",
    "logs",
    "s3",
    "scheduler",
    "secretsmanager",
    "sqs",
    "sts",
)


def require_terraform() -> None:
    """Skip (or, under CI=true, fail) unless terraform and its provider mirror are installed."""
    missing = [
        what
        for what, there in (
            ("the terraform binary", shutil.which("terraform") is not None),
            (f"the provider mirror {MIRROR}", MIRROR.is_dir()),
        )
        if not there
    ]
    if not missing:
        return
    reason = f"missing {' and '.join(missing)}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: a missing prerequisite fails)", pytrace=False)
    pytest.skip(reason)


def base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "TF_"))}
    env.update(TF_CLI_CONFIG_FILE=str(CLI_CONFIG), TF_IN_AUTOMATION="1", TF_INPUT="0", CHECKPOINT_DISABLE="1")
    return env


def terraform(
    *args: str, cwd: Path, env: dict[str, str], timeout: float = 300
) -> subprocess.CompletedProcess:
    """Run terraform without colour or prompts; the caller decides what a return code means."""
    return subprocess.run(
        ["terraform", *args, "-no-color"], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def ok(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert result.returncode == 0, f"{' '.join(result.args)} failed:\n{result.stdout}\n{result.stderr}"
    return result


def scratch_infra(root: Path) -> Path:
    """A copy of infra/ (terraform writes lock files and state next to the code)."""
    shutil.copytree(INFRA, root / "infra", ignore=shutil.ignore_patterns(".terraform*", "*.tfstate*"))
    return root / "infra"


def point_at_emulator(env_dir: Path, endpoint: str) -> None:
    """An override file that sends every AWS call of an env meant for real AWS to an emulator instead."""
    endpoints = "\n".join(f'    {s} = "{endpoint}"' for s in SERVICES)
    (env_dir / "emulator_override.tf").write_text(
        'provider "aws" {\n'
        '  access_key                  = "test"\n'
        '  secret_key                  = "test"\n'
        "  skip_credentials_validation = true\n"
        "  skip_metadata_api_check     = true\n"
        "  s3_use_path_style           = true\n"
        f"  endpoints {{\n{endpoints}\n  }}\n"
        "}\n"
    )


def plan_json(env_dir: Path, env: dict[str, str], variables: dict[str, object]) -> dict:
    """`terraform init` + `plan -out` + `show -json` of an env: the planned resources with their values."""
    ok(terraform("init", cwd=env_dir, env=env))
    args = [f"-var={k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in variables.items()]
    ok(terraform("plan", "-out=plan.bin", *args, cwd=env_dir, env=env))
    return json.loads(ok(terraform("show", "-json", "plan.bin", cwd=env_dir, env=env)).stdout)


def planned_resources(plan: dict) -> list[dict]:
    """Every planned resource (in every module) with its address, type, index and values."""

    def walk(module: dict):
        yield from module.get("resources", [])
        for child in module.get("child_modules", []):
            yield from walk(child)

    return list(walk(plan["planned_values"]["root_module"]))
