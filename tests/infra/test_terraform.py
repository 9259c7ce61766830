"""The tenant module, end to end against moto: format, validate, apply, inspect, re-plan (no drift), destroy; and a
plan of the env for real AWS (infra/envs/aws) pointed at moto.

Runs the real terraform binary with the offline provider mirror (infra/terraformrc); missing either fails under
CI=true and skips elsewhere. Lambda code never runs: moto stores image functions, URLs and event source mappings
without executing them.
"""

import json
from concurrent.futures import ThreadPoolExecutor

import boto3
import pytest

from tests.support.moto import moto_server
from tests.support.terraform import (
    INFRA,
    base_env,
    ok,
    plan_json,
    planned_resources,
    point_at_emulator,
    require_terraform,
    scratch_infra,
    terraform,
)

ENVS = ("local", "aws")
FAKE_IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/hindsight:test"
TENANT = "acme"

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _terraform_installed():
    require_terraform()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A scratch copy of infra/ (terraform writes lock files next to the code) plus one env dict per env."""
    require_terraform()
    root = tmp_path_factory.mktemp("tf")
    infra = scratch_infra(root)
    envs = {name: {**base_env(), "TF_DATA_DIR": str(root / f"data-{name}")} for name in ENVS}
    return infra, envs


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
    result = terraform("fmt", "-check", "-recursive", "-diff", cwd=INFRA, env=base_env())
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


@pytest.mark.timeout(
    900
)  # about 3 minutes on 2 quiet cores; the default 300 s is too tight on a loaded machine
def test_local_env_applies_to_an_emulator_without_drift_and_destroys(initialised, emulator):
    infra, envs = initialised
    local = infra / "envs" / "local"
    env = {**envs["local"], "TF_VAR_endpoint": emulator, "TF_VAR_image_uri": FAKE_IMAGE}

    try:
        # WHEN the local env is applied against the emulator
        ok(terraform("apply", "-auto-approve", cwd=local, env=env))
        raw = json.loads(ok(terraform("output", "-json", cwd=local, env=env)).stdout)
        outputs = {name: out["value"] for name, out in raw.items()}
        names = outputs["function_names"][TENANT]

        # THEN the tenant has an HTTPS MCP endpoint, a FIFO store queue and a reflect queue
        assert outputs["mcp_urls"][TENANT].startswith("https://")
        assert outputs["mcp_urls"][TENANT].endswith(".on.aws/mcp")
        assert outputs["store_queue_urls"][TENANT].endswith(f"/hindsight-{TENANT}-store.fifo")
        assert outputs["reflect_queue_urls"][TENANT].endswith(f"/hindsight-{TENANT}-reflect")

        assert_bucket_is_private_versioned_and_encrypted(aws("s3", emulator), outputs["bucket_names"][TENANT])
        assert_store_queue_feeds_one_writer_at_a_time(
            aws("lambda", emulator), aws("sqs", emulator), names["store"]
        )
        assert_reflect_batches_are_capped_and_unreserved(aws("lambda", emulator), names["reflect"])
        assert_only_the_store_role_writes_the_tables(aws("iam", emulator), names)
        assert_schedules_target_reflect_and_compact_with_a_dead_letter_queue(
            aws("scheduler", emulator), aws("lambda", emulator)
        )
        assert_every_function_and_the_store_queue_are_alarmed(aws("cloudwatch", emulator), names)
        assert_gateway_is_public_only_through_its_url(aws("lambda", emulator), names["gateway"])

        # AND planning again finds nothing to change (exit code 0, not 2)
        replan = terraform("plan", "-detailed-exitcode", cwd=local, env=env)
        assert replan.returncode == 0, f"drift after apply:\n{replan.stdout}\n{replan.stderr}"
    finally:
        # The state is as fresh as the apply (even a failed one): refreshing it again would only cost time.
        destroyed = terraform("destroy", "-auto-approve", "-refresh=false", cwd=local, env=env)

    ok(destroyed)
    # Only this tenant's resources: moto's state is per process, so other tests' tenants may share it.
    mine = f"hindsight-{TENANT}-"
    functions = aws("lambda", emulator).list_functions()["Functions"]
    assert [f["FunctionName"] for f in functions if f["FunctionName"].startswith(mine)] == []
    assert aws("sqs", emulator).list_queues(QueueNamePrefix=mine).get("QueueUrls", []) == []


def test_the_aws_env_plans_against_an_emulator_with_every_policy_known(workspace, tmp_path):
    # GIVEN infra/envs/aws, the env for real AWS, with its example variables, its provider pointed at moto
    infra, envs = workspace
    env_dir = infra / "envs" / "aws"
    example = (env_dir / "tenants.tfvars.example").read_text()
    with moto_server() as endpoint:
        point_at_emulator(env_dir, endpoint)
        (env_dir / "tenants.auto.tfvars").write_text(example)

        # WHEN it is planned
        plan = plan_json(
            env_dir, {**envs["aws"], "TF_DATA_DIR": str(tmp_path / "data")}, {"region": "us-east-1"}
        )

    # THEN every example tenant gets its stack, and every role's policy is known before anything exists
    resources = planned_resources(plan)
    tenants = {r["address"].split('"')[1] for r in resources if r["address"].startswith("module.tenant[")}
    assert tenants == {"acme", "globex"}
    for tenant in tenants:
        mine = [r for r in resources if r["address"].startswith(f'module.tenant["{tenant}"]')]
        policies = {
            r.get("index"): r["values"].get("policy") for r in mine if r["type"] == "aws_iam_role_policy"
        }
        assert set(policies) == {
            "gateway",
            "store",
            "recall",
            "reflect",
            "compact",
            None,
        }  # None: the scheduler's
        assert all(policies.values()), "a policy is unknown at plan time"
        (store_queue,) = [
            r
            for r in mine
            if r["type"] == "aws_sqs_queue" and r["name"] == "this" and r.get("index") == "store"
        ]
        assert store_queue["values"]["fifo_queue"] is True
        assert store_queue["values"]["name"] == f"hindsight-{tenant}-store.fifo"


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
    assert lifecycle["exports"]["Filter"]["Prefix"] == "exports/"
    assert "NoncurrentVersionExpiration" in lifecycle["noncurrent-versions"]


def assert_store_queue_feeds_one_writer_at_a_time(lam, sqs, function_name: str) -> None:
    function = lam.get_function(FunctionName=function_name)["Configuration"]
    assert function["PackageType"] == "Image"
    assert function["ImageConfigResponse"]["ImageConfig"]["Command"] == ["functions.store.handler.handler"]
    assert lam.get_function_concurrency(FunctionName=function_name)["ReservedConcurrentExecutions"] == 1

    (mapping,) = lam.list_event_source_mappings(FunctionName=function["FunctionArn"])["EventSourceMappings"]
    assert mapping["EventSourceArn"].endswith(f":hindsight-{TENANT}-store.fifo")
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert mapping["BatchSize"] <= 10  # the FIFO maximum
    url = sqs.get_queue_url(QueueName=f"hindsight-{TENANT}-store.fifo")["QueueUrl"]
    attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert attrs["FifoQueue"] == "true"
    # a crashed invocation holds the one message group for the visibility timeout: just over the function's
    assert int(attrs["VisibilityTimeout"]) == function["Timeout"] + 60


def assert_reflect_batches_are_capped_and_unreserved(lam, function_name: str) -> None:
    # reflect writes nothing itself: no reservation to collide with its mapping's pollers
    assert "ReservedConcurrentExecutions" not in lam.get_function_concurrency(FunctionName=function_name)
    function_arn = lam.get_function(FunctionName=function_name)["Configuration"]["FunctionArn"]
    mappings = lam.list_event_source_mappings(FunctionName=function_arn)["EventSourceMappings"]
    assert [m["ScalingConfig"] for m in mappings] == [{"MaximumConcurrency": 2}]


def assert_only_the_store_role_writes_the_tables(iam, names: dict[str, str]) -> None:
    writes = {}
    for fn, name in names.items():
        policy = iam.get_role_policy(RoleName=name, PolicyName=f"{name}-access")["PolicyDocument"]
        document = json.loads(policy) if isinstance(policy, str) else policy
        writes[fn] = sorted(
            r
            for st in document["Statement"]
            if st.get("Sid") == "WriteObjects"
            for r in (st["Resource"] if isinstance(st["Resource"], list) else [st["Resource"]])
        )
    bucket = f"arn:aws:s3:::hindsight-{TENANT}"
    assert writes == {
        "gateway": [f"{bucket}/exports/*"],
        "store": [f"{bucket}/cold/*", f"{bucket}/tables/*"],
        "recall": [],
        "reflect": [],
        "compact": [],
    }


def assert_schedules_target_reflect_and_compact_with_a_dead_letter_queue(scheduler, lam) -> None:
    group = f"hindsight-{TENANT}"
    reflect = scheduler.get_schedule(Name=f"{group}-reflect", GroupName=group)["Target"]
    compact = scheduler.get_schedule(Name=f"{group}-compact", GroupName=group)["Target"]
    assert reflect["Arn"].endswith(f":function:{group}-reflect")
    assert json.loads(reflect["Input"]) == {"trigger": "periodic"}
    assert compact["Arn"].endswith(f":function:{group}-compact")
    assert json.loads(compact["Input"]) == {"task": "compact"}
    dlq = f":hindsight-{TENANT}-schedules-dlq"
    for target, fn in ((reflect, "reflect"), (compact, "compact")):
        assert target["DeadLetterConfig"]["Arn"].endswith(dlq)
        invoke = lam.get_function_event_invoke_config(FunctionName=f"{group}-{fn}")
        assert invoke["DestinationConfig"]["OnFailure"]["Destination"].endswith(dlq)


def assert_every_function_and_the_store_queue_are_alarmed(cloudwatch, names: dict[str, str]) -> None:
    alarms = {a["AlarmName"]: a for a in cloudwatch.describe_alarms()["MetricAlarms"]}
    for fn in names:
        for metric in ("errors", "throttles"):
            alarm = alarms[f"hindsight-{TENANT}-{fn}-{metric}"]
            assert alarm["Namespace"] == "AWS/Lambda" and alarm["Threshold"] == 0
    age = alarms[f"hindsight-{TENANT}-store-queue-age"]
    assert age["MetricName"] == "ApproximateAgeOfOldestMessage"
    assert {f"hindsight-{TENANT}-{q}-dlq-not-empty" for q in ("store", "reflect", "schedules")} <= set(alarms)


def assert_gateway_is_public_only_through_its_url(lam, function_name: str) -> None:
    assert lam.get_function_url_config(FunctionName=function_name)["AuthType"] == "NONE"
    statements = json.loads(lam.get_policy(FunctionName=function_name)["Policy"])["Statement"]
    actions = {(st["Action"], st["Principal"]): st for st in statements}
    assert actions[("lambda:InvokeFunctionUrl", "*")]["FunctionUrlAuthType"] == "NONE"
    # The plain invoke grant is usable only through the URL, never as a public Invoke API.
    assert actions[("lambda:InvokeFunction", "*")]["InvokedViaFunctionUrl"] is True
