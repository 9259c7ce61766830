"""The tenant module, end to end against moto: format, validate, apply, inspect, re-plan (no drift), destroy.

Runs the real terraform binary with the offline provider mirror (infra/terraformrc). Lambda code never runs:
moto stores image functions, URLs and event source mappings without executing them.
"""

import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import boto3
import pytest

from tests.support.moto import moto_server

INFRA = Path(__file__).resolve().parents[2] / "infra"
CLI_CONFIG = INFRA / "terraformrc"
MIRROR = Path("/opt/tf-plugins")
ENVS = ("local", "aws")
FAKE_IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/hindsight:test"
TENANT = "acme"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("terraform") is None, reason="terraform is not installed"),
    pytest.mark.skipif(not MIRROR.is_dir(), reason=f"no provider mirror at {MIRROR}"),
]


def terraform(
    *args: str, cwd: Path, env: dict[str, str], timeout: float = 300
) -> subprocess.CompletedProcess:
    """Run terraform without colour or prompts; the caller decides what a return code means."""
    return subprocess.run(
        ["terraform", *args, "-no-color"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def ok(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert result.returncode == 0, f"{' '.join(result.args)} failed:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A scratch copy of infra/ (terraform writes lock files next to the code) plus one env dict per env."""
    root = tmp_path_factory.mktemp("tf")
    shutil.copytree(INFRA, root / "infra", ignore=shutil.ignore_patterns(".terraform*", "*.tfstate*"))
    base = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "TF_"))}
    base.update(
        TF_CLI_CONFIG_FILE=str(CLI_CONFIG), TF_IN_AUTOMATION="1", TF_INPUT="0", CHECKPOINT_DISABLE="1"
    )
    envs = {name: {**base, "TF_DATA_DIR": str(root / f"data-{name}")} for name in ENVS}
    return root / "infra", envs


@pytest.fixture(scope="module")
def initialised(workspace):
    """Both envs initialised from the mirror, in parallel (each init starts the provider)."""
    infra, envs = workspace
    with ThreadPoolExecutor(len(ENVS)) as pool:
        results = list(pool.map(lambda e: terraform("init", cwd=infra / "envs" / e, env=envs[e]), ENVS))
    for result in results:
        ok(result)
    return infra, envs


@pytest.fixture(scope="module")
def emulator():
    with moto_server() as endpoint:
        yield endpoint


def aws(service: str, endpoint: str):
    return boto3.client(
        service,
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )


def test_terraform_sources_are_canonically_formatted():
    result = terraform(
        "fmt", "-check", "-recursive", "-diff", cwd=INFRA, env={**os.environ, "CHECKPOINT_DISABLE": "1"}
    )
    assert result.returncode == 0, f"run `terraform fmt -recursive infra`:\n{result.stdout}"


def test_every_environment_validates(initialised):
    infra, envs = initialised
    with ThreadPoolExecutor(len(ENVS)) as pool:
        results = list(pool.map(lambda e: terraform("validate", cwd=infra / "envs" / e, env=envs[e]), ENVS))
    for result in results:
        ok(result)


BAD_TENANT_IDS = ("ab", "Acme", "acme-", "a" * 33)


def test_tenant_ids_outside_the_naming_rule_are_rejected(workspace):
    # GIVEN a root module that instantiates the tenant module once per malformed id
    infra, envs = workspace
    root = infra / "bad-tenants"
    root.mkdir()
    calls = [
        f'module "t{i}" {{\n  source    = "../modules/tenant"\n  tenant_id = "{tid}"\n  image_uri = "x"\n}}\n'
        for i, tid in enumerate(BAD_TENANT_IDS)
    ]
    (root / "main.tf").write_text("\n".join(calls))
    env = {**envs["local"], "TF_DATA_DIR": str(root / ".terraform")}

    # WHEN it is validated THEN every call fails on the tenant_id rule
    ok(terraform("init", cwd=root, env=env))
    result = terraform("validate", cwd=root, env=env)
    assert result.returncode != 0
    assert result.stderr.count("tenant_id must be") == len(BAD_TENANT_IDS), result.stderr


def test_local_env_applies_to_an_emulator_without_drift_and_destroys(initialised, emulator):
    infra, envs = initialised
    local = infra / "envs" / "local"
    env = {**envs["local"], "TF_VAR_endpoint": emulator, "TF_VAR_image_uri": FAKE_IMAGE}

    try:
        # WHEN the local env is applied against the emulator
        ok(terraform("apply", "-auto-approve", cwd=local, env=env))
        raw = json.loads(ok(terraform("output", "-json", cwd=local, env=env)).stdout)
        outputs = {name: out["value"] for name, out in raw.items()}

        # THEN the tenant has an HTTPS MCP endpoint and its two queues
        assert outputs["mcp_urls"][TENANT].startswith("https://")
        assert outputs["mcp_urls"][TENANT].endswith(".on.aws/mcp")
        assert outputs["store_queue_urls"][TENANT].endswith(f"/hindsight-{TENANT}-store")
        assert outputs["reflect_queue_urls"][TENANT].endswith(f"/hindsight-{TENANT}-reflect")

        assert_bucket_is_private_versioned_and_encrypted(aws("s3", emulator), outputs["bucket_names"][TENANT])
        assert_store_queue_feeds_a_single_writer(
            aws("lambda", emulator), outputs["function_names"][TENANT]["store"]
        )
        assert_reflect_runs_at_low_concurrency(
            aws("lambda", emulator), outputs["function_names"][TENANT]["reflect"]
        )
        assert_reflect_may_write_only_its_run_log(
            aws("iam", emulator), outputs["function_names"][TENANT]["reflect"]
        )
        assert_schedules_target_reflect_and_compact(aws("scheduler", emulator))
        assert_gateway_is_public_only_through_its_url(
            aws("lambda", emulator), outputs["function_names"][TENANT]["gateway"]
        )

        # AND planning again finds nothing to change (exit code 0, not 2)
        replan = terraform("plan", "-detailed-exitcode", cwd=local, env=env)
        assert replan.returncode == 0, f"drift after apply:\n{replan.stdout}\n{replan.stderr}"
    finally:
        # The state is as fresh as the apply (even a failed one): refreshing it again would only cost time.
        destroyed = terraform("destroy", "-auto-approve", "-refresh=false", cwd=local, env=env)

    ok(destroyed)
    assert aws("lambda", emulator).list_functions()["Functions"] == []
    assert aws("sqs", emulator).list_queues().get("QueueUrls", []) == []


def assert_bucket_is_private_versioned_and_encrypted(s3, bucket: str) -> None:
    assert s3.get_bucket_versioning(Bucket=bucket)["Status"] == "Enabled"
    rules = s3.get_bucket_encryption(Bucket=bucket)["ServerSideEncryptionConfiguration"]["Rules"]
    assert rules[0]["ApplyServerSideEncryptionByDefault"]["SSEAlgorithm"] in {"AES256", "aws:kms"}
    block = s3.get_public_access_block(Bucket=bucket)["PublicAccessBlockConfiguration"]
    assert all(
        block[k]
        for k in ("BlockPublicAcls", "IgnorePublicAcls", "BlockPublicPolicy", "RestrictPublicBuckets")
    )
    lifecycle = {r["ID"]: r for r in s3.get_bucket_lifecycle_configuration(Bucket=bucket)["Rules"]}
    assert lifecycle["cold-tier"]["Filter"]["Prefix"] == "cold/"
    assert "NoncurrentVersionExpiration" in lifecycle["noncurrent-versions"]


def assert_store_queue_feeds_a_single_writer(lam, function_name: str) -> None:
    function = lam.get_function(FunctionName=function_name)["Configuration"]
    assert function["PackageType"] == "Image"
    assert function["ImageConfigResponse"]["ImageConfig"]["Command"] == ["functions.store.handler.handler"]
    assert lam.get_function_concurrency(FunctionName=function_name)["ReservedConcurrentExecutions"] == 1

    mappings = lam.list_event_source_mappings(FunctionName=function["FunctionArn"])["EventSourceMappings"]
    assert len(mappings) == 1
    assert mappings[0]["EventSourceArn"].endswith(f":hindsight-{TENANT}-store")
    assert mappings[0]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]


def assert_reflect_runs_at_low_concurrency(lam, function_name: str) -> None:
    # reflect appends reflection_runs rows itself: two at most, and its pollers never outnumber them
    assert lam.get_function_concurrency(FunctionName=function_name)["ReservedConcurrentExecutions"] == 2
    function_arn = lam.get_function(FunctionName=function_name)["Configuration"]["FunctionArn"]
    mappings = lam.list_event_source_mappings(FunctionName=function_arn)["EventSourceMappings"]
    assert [m["ScalingConfig"] for m in mappings] == [{"MaximumConcurrency": 2}]


def assert_reflect_may_write_only_its_run_log(iam, function_name: str) -> None:
    policy = iam.get_role_policy(RoleName=function_name, PolicyName=f"{function_name}-access")[
        "PolicyDocument"
    ]
    document = json.loads(policy) if isinstance(policy, str) else policy
    writes = [st for st in document["Statement"] if st.get("Sid") == "WriteObjects"]
    assert len(writes) == 1
    assert writes[0]["Resource"] == f"arn:aws:s3:::hindsight-{TENANT}/tables/reflection_runs.lance/*"


def assert_schedules_target_reflect_and_compact(scheduler) -> None:
    group = f"hindsight-{TENANT}"
    reflect = scheduler.get_schedule(Name=f"{group}-reflect", GroupName=group)["Target"]
    compact = scheduler.get_schedule(Name=f"{group}-compact", GroupName=group)["Target"]
    assert reflect["Arn"].endswith(f":function:{group}-reflect")
    assert json.loads(reflect["Input"]) == {"trigger": "periodic"}
    assert compact["Arn"].endswith(f":function:{group}-compact")
    assert json.loads(compact["Input"]) == {"task": "compact"}


def assert_gateway_is_public_only_through_its_url(lam, function_name: str) -> None:
    assert lam.get_function_url_config(FunctionName=function_name)["AuthType"] == "NONE"
    statements = json.loads(lam.get_policy(FunctionName=function_name)["Policy"])["Statement"]
    actions = {(st["Action"], st["Principal"]): st for st in statements}
    assert actions[("lambda:InvokeFunctionUrl", "*")]["FunctionUrlAuthType"] == "NONE"
    # The plain invoke grant is usable only through the URL, never as a public Invoke API.
    assert actions[("lambda:InvokeFunction", "*")]["InvokedViaFunctionUrl"] is True
