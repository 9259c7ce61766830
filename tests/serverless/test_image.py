"""The container image cannot be built here (no Docker engine), so its Dockerfile is checked statically: the base
image, the entrypoint switch, the paths it copies, and that every handler it (or terraform) names imports."""

import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from hindsight_memory.serverless.coldstart import measure_cold_starts
from hindsight_memory.serverless.entrypoint import plan

ROOT = Path(__file__).resolve().parents[2]
HANDLER = re.compile(r"functions\.(\w+)\.handler\.handler")


def instructions() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            op, _, rest = line.partition(" ")
            out.append((op.upper(), rest.strip()))
    return out


def named_handlers() -> set[str]:
    names = set(HANDLER.findall((ROOT / "Dockerfile").read_text()))
    main_tf = ROOT / "infra" / "modules" / "tenant" / "main.tf"
    if main_tf.exists():  # terraform's image_config.command must name handlers this image holds
        names |= set(HANDLER.findall(main_tf.read_text()))
    return names


def test_the_dockerfile_builds_on_the_lambda_python_base_image_with_manylinux_2_28_glibc():
    froms = [rest for op, rest in instructions() if op == "FROM"]
    assert len(froms) == 1
    image, _, tag = froms[0].partition(":")
    assert image == "public.ecr.aws/lambda/python"
    assert tuple(map(int, tag.split("."))) >= (3, 12)  # AL2023: lancedb wheels need glibc >= 2.28


def test_the_entrypoint_hands_the_command_to_lambda_inside_lambda_and_to_our_roles_elsewhere():
    ops = dict(instructions())
    entry = json.loads(ops["ENTRYPOINT"])
    script = entry[2]
    assert entry[:2] == ["/bin/sh", "-c"] and entry[3] == "--"  # "--" becomes $0, the command becomes "$@"
    assert 'exec /lambda-entrypoint.sh "$@"' in script and "AWS_LAMBDA_RUNTIME_API" in script
    assert 'exec python -m hindsight_memory.serverless.entrypoint "$@"' in script
    assert plan(json.loads(ops["CMD"])) == ("gateway", None)


def test_the_shell_switch_passes_the_command_through_unchanged(tmp_path):
    script = json.loads(dict(instructions())["ENTRYPOINT"])[2]
    fake = script.replace("/lambda-entrypoint.sh", "echo lambda").replace("python -m", "echo local")
    for env, expected in [
        ({"AWS_LAMBDA_RUNTIME_API": "127.0.0.1:9001"}, "lambda functions.store.handler.handler"),
        ({}, "local hindsight_memory.serverless.entrypoint functions.store.handler.handler"),
    ]:
        out = subprocess.run(
            ["/bin/sh", "-c", fake, "--", "functions.store.handler.handler"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        assert out == expected


def test_every_path_the_dockerfile_copies_exists():
    for op, rest in instructions():
        if op == "COPY":
            *sources, _ = shlex.split(rest)
            for src in sources:
                assert (ROOT / src).exists(), src


@pytest.mark.parametrize(
    "command, role",
    [
        (["functions.gateway.handler.handler"], ("gateway", None)),
        (["functions.recall.handler.handler"], ("gateway", None)),
        (["functions.store.handler.handler"], ("worker", "store")),
        (["functions.reflect.handler.handler"], ("worker", "reflect")),
        (["functions.compact.handler.handler"], ("run", "compact")),
        (["run", "reflect"], ("run", "reflect")),
    ],
)
def test_outside_lambda_each_handler_command_selects_a_long_running_role(command, role):
    assert plan(command) == role


def test_an_unknown_command_is_refused_with_the_usage():
    with pytest.raises(SystemExit, match="unknown command"):
        plan(["functions.nope.handler.handler"])


def test_every_handler_named_by_the_image_or_terraform_imports_in_a_fresh_process(tmp_path):
    names = named_handlers() | {"store", "recall", "reflect", "compact"}
    rows = measure_cold_starts(
        tuple(sorted(names)),
        env={"HINDSIGHT_EMBEDDER": "hashing", "HINDSIGHT_STORE_URI": str(tmp_path / "data")},
    )
    failed = {r["function"]: r.get("error") for r in rows if not r["ok"]}
    assert not failed
    loaded = {r["function"]: set(r["loaded"]) for r in rows}
    # cold start: the writer never pays for the web stack or the LLM client
    assert not loaded["store"] & {"mcp", "fastapi", "litellm", "uvicorn", "mangum"}
    assert not any("litellm" in mods for mods in loaded.values())
