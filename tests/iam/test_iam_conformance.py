"""IAM conformance: every function runs its real paths with exactly the permissions terraform gives its role.

1. The policies are rendered from the tenant module: `terraform plan` of infra/envs/aws (pointed at a plain moto
   server for its data sources) and `terraform show -json`; every role's policy is known at plan time.
2. A second moto server, in its own process, gets the tenant's bucket, queues and secret, one IAM user per
   function whose only policy is that function's rendered policy (same account, region and names, so every ARN
   matches), and then turns IAM enforcement on (moto's reset-auth with 0: every later request must be signed by a
   known key and be allowed by its user's policies; S3 and SQS requests are evaluated against their resources,
   LanceDB's own SigV4-signed S3 requests included).
3. Each function runs in its own process with its user's keys and the environment terraform gives it: the gateway
   (MCP and REST, Function URL events), the store function and the reflect function polling their queues as
   their event source mappings do, recall invoked directly, compact on its schedule event. Only the LLM is fake.
4. Reverse checks: writes a role must not make are refused.

What moto cannot evaluate (Secrets Manager and CloudWatch Logs statements, presigned URLs, the scheduler role) is
listed in README.md with how it is covered instead. `make test-iam` runs this module alone.
"""

import json
import os
import re
import subprocess
import sys
import urllib.request
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import boto3
import pytest

from hindsight_memory.gateway.auth import create_token
from hindsight_memory.storage.lance import LanceStore
from tests.fakes.fake_llm import FakeLLM
from tests.support.lambda_events import mcp_call, response_json, tool_result, url_event
from tests.support.moto import free_port, moto_server
from tests.support.terraform import (
    base_env,
    plan_json,
    planned_resources,
    point_at_emulator,
    require_terraform,
    scratch_infra,
)
from tests.support.wait import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.s3, pytest.mark.xdist_group("iam")]

ROOT = Path(__file__).resolve().parents[2]
TENANT = "acme"
NS = "alice/iam"
FUNCTIONS = ("gateway", "store", "recall", "reflect", "compact")
IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/hindsight@sha256:" + "0" * 64
REGION = "us-east-1"


# ---------------------------------------------------------------------------------------------- 1. render
@dataclass
class Rendered:
    """What the plan says a tenant gets: each role's policy, the resource names, the functions' environment."""

    policies: dict[str, dict]
    bucket: str
    queues: dict[str, dict]  # store, reflect, store-dlq, reflect-dlq, schedules-dlq -> name, fifo
    environment: dict[str, dict[str, str]]

    @classmethod
    def from_plan(cls, plan: dict) -> "Rendered":
        res = {(r["type"], r["name"], r.get("index")): r.get("values", {}) for r in planned_resources(plan)}
        policies = {}
        for fn in FUNCTIONS:
            values = res[("aws_iam_role_policy", "function", fn)]
            assert "policy" in values, f"{fn}'s policy is not known at plan time"
            policies[fn] = json.loads(values["policy"])
        queues = {k: res[("aws_sqs_queue", "this", k)] for k in ("store", "reflect")}
        queues |= {f"{k}-dlq": res[("aws_sqs_queue", "dlq", k)] for k in ("store", "reflect")}
        queues["schedules-dlq"] = res[("aws_sqs_queue", "schedules_dlq", None)]
        return cls(
            policies=policies,
            bucket=res[("aws_s3_bucket", "this", None)]["bucket"],
            queues={k: {"name": v["name"], "fifo": bool(v.get("fifo_queue"))} for k, v in queues.items()},
            environment={
                fn: {k: v for k, v in env.items() if v is not None}
                for fn, env in plan["planned_values"]["outputs"]["function_settings"]["value"].items()
            },
        )


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Rendered:
    require_terraform()
    root = tmp_path_factory.mktemp("iam-terraform")
    env_dir = scratch_infra(root) / "envs" / "aws"
    with moto_server() as endpoint:  # answers the plan's data sources (account, region, partition)
        point_at_emulator(env_dir, endpoint)
        # The module's own account of each function's environment (the queue URLs come after apply).
        (env_dir / "function_settings_output.tf").write_text(
            f'output "function_settings" {{\n  value = module.tenant["{TENANT}"].function_settings\n}}\n'
        )
        plan = plan_json(
            env_dir,
            {**base_env(), "TF_DATA_DIR": str(root / "data")},
            {"tenants": [TENANT], "image_uri": IMAGE, "region": REGION},
        )
    return Rendered.from_plan(plan)


# ---------------------------------------------------------------------------------------------- 2. enforce
@dataclass
class Enforcing:
    endpoint: str
    admin: dict[str, str]  # the harness's own keys (inspection only)
    keys: dict[str, dict[str, str]]  # function -> its user's keys
    urls: dict[str, str]  # queue key -> URL
    secret_arn: str
    proc: subprocess.Popen = field(repr=False)

    def client(self, service: str, who: str | None = None):
        keys = self.admin if who is None else self.keys[who]
        return boto3.client(
            service,
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id=keys["id"],
            aws_secret_access_key=keys["secret"],
        )


def _post(url: str, data: bytes) -> None:
    req = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": "text/plain"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        assert resp.status == 200


@pytest.fixture(scope="module")
def enforcing(rendered: Rendered, tmp_path_factory):
    """A moto server of its own (enforcement is process-wide in moto), set up, then enforcing IAM."""
    port = free_port()
    log = tmp_path_factory.mktemp("moto") / "moto.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        assert wait_until(lambda: _answers(endpoint), 30), log.read_text()
        root = dict(
            endpoint_url=endpoint, region_name=REGION, aws_access_key_id="test", aws_secret_access_key="test"
        )
        s3, sqs, iam = (boto3.client(s, **root) for s in ("s3", "sqs", "iam"))
        s3.create_bucket(Bucket=rendered.bucket)
        s3.put_bucket_versioning(Bucket=rendered.bucket, VersioningConfiguration={"Status": "Enabled"})
        urls = {}
        for key in ("store-dlq", "reflect-dlq", "schedules-dlq", "store", "reflect"):
            q = rendered.queues[key]
            attrs = {"FifoQueue": "true", "ContentBasedDeduplication": "true"} if q["fifo"] else {}
            if key in ("store", "reflect"):
                dlq_arn = sqs.get_queue_attributes(QueueUrl=urls[f"{key}-dlq"], AttributeNames=["QueueArn"])
                redrive = {"deadLetterTargetArn": dlq_arn["Attributes"]["QueueArn"], "maxReceiveCount": 10}
                attrs |= {"RedrivePolicy": json.dumps(redrive), "VisibilityTimeout": "60"}
            urls[key] = sqs.create_queue(QueueName=q["name"], Attributes=attrs)["QueueUrl"]
        secret_arn = boto3.client("secretsmanager", **root).create_secret(
            Name=f"hindsight/{TENANT}/config", SecretString="{}"
        )["ARN"]
        keys = {}
        for who, policy in [*rendered.policies.items(), ("harness", ADMIN_POLICY)]:
            iam.create_user(UserName=f"hindsight-{TENANT}-{who}")
            iam.put_user_policy(
                UserName=f"hindsight-{TENANT}-{who}",
                PolicyName="access",
                PolicyDocument=json.dumps(as_moto_names_actions(policy)),
            )
            key = iam.create_access_key(UserName=f"hindsight-{TENANT}-{who}")["AccessKey"]
            keys[who] = {"id": key["AccessKeyId"], "secret": key["SecretAccessKey"]}
        _post(f"{endpoint}/moto-api/reset-auth", b"0")  # from here on every request is authorised
        yield Enforcing(endpoint, keys.pop("harness"), keys, urls, secret_arn, proc)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


# Two translations for moto's evaluation of batch APIs (README: "What the IAM test cannot check"):
# * AWS authorises SQS's batch APIs as their single action (DeleteMessageBatch needs sqs:DeleteMessage); moto
#   evaluates them under their API names, which are added next to the single action, to the same queues.
# * AWS authorises S3 DeleteObjects (LanceDB deletes old files in batches) as s3:DeleteObject on each key; moto
#   checks s3:DeleteObject on the bucket's ARN instead, which is added for a role allowed to delete objects.
MOTO_BATCH_NAMES = {
    "sqs:DeleteMessage": "sqs:DeleteMessageBatch",
    "sqs:ChangeMessageVisibility": "sqs:ChangeMessageVisibilityBatch",
    "sqs:SendMessage": "sqs:SendMessageBatch",
}


def as_moto_names_actions(policy: dict) -> dict:
    statements = []
    for st in policy["Statement"]:
        actions = _list(st["Action"])
        extra = [MOTO_BATCH_NAMES[a] for a in actions if a in MOTO_BATCH_NAMES]
        statements.append({**st, "Action": actions + extra} if extra else st)
        if "s3:DeleteObject" in actions:
            buckets = sorted({r.split("/", 1)[0] for r in _list(st["Resource"])})
            statements.append({"Effect": "Allow", "Action": ["s3:DeleteObject"], "Resource": buckets})
    return {**policy, "Statement": statements}


ADMIN_POLICY = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}


def _answers(endpoint: str) -> bool:
    try:
        with urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=2):
            return True
    except OSError:
        return False


# ---------------------------------------------------------------------------------------------- 3. run
class Sandbox:
    """One function's process (tests/iam/sandbox.py): its keys, its environment, JSON commands over a pipe."""

    def __init__(self, function: str, env: dict[str, str], log: Path) -> None:
        self.function, self.log = function, log
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.iam.sandbox", function],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.open("w"),
            text=True,
        )

    def ready(self) -> None:
        line = self.proc.stdout.readline()
        assert line and json.loads(line) == {"ok": "ready"}, (
            f"{self.function} did not start:\n{self.stderr()}"
        )

    def call(self, **cmd) -> object:
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"{self.function} died:\n{self.stderr()}"
        reply = json.loads(line)
        assert "error" in reply or "ok" in reply
        if "error" in reply:
            raise AssertionError(f"{self.function}: {reply['error']}\n{reply.get('trace', '')}")
        return reply["ok"]

    def invoke(self, event: dict) -> dict:
        return self.call(invoke=event)

    def stderr(self) -> str:
        return self.log.read_text()[-6000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@dataclass
class Stack:
    enforcing: Enforcing
    rendered: Rendered
    fn: dict[str, Sandbox]
    token: str
    llm: FakeLLM

    def mcp(self, tool: str, **args) -> dict:
        return tool_result(self.fn["gateway"].invoke(mcp_call(tool, args, self.token)))

    def rest(self, path: str, body: dict | None = None, method: str = "POST") -> dict:
        out = self.fn["gateway"].invoke(url_event(path, body, self.token, method))
        assert out["statusCode"] == 200, (out["statusCode"], out.get("body"))
        return response_json(out)

    def settled(self) -> bool:
        """Both queues drained by their functions (nothing waiting, nothing in flight)."""
        sqs = self.enforcing.client("sqs")
        for key in ("store", "reflect"):
            a = sqs.get_queue_attributes(
                QueueUrl=self.enforcing.urls[key],
                AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
            )["Attributes"]
            if int(a["ApproximateNumberOfMessages"]) + int(a["ApproximateNumberOfMessagesNotVisible"]):
                return False
        return True

    def tables(self) -> LanceStore:
        """The tables as the harness (not a function) reads them."""
        keys = self.enforcing.admin
        options = {
            "aws_endpoint": self.enforcing.endpoint,
            "allow_http": "true",
            "region": REGION,
            "aws_access_key_id": keys["id"],
            "aws_secret_access_key": keys["secret"],
        }
        env = self.rendered.environment["store"]
        store = LanceStore(
            env["HINDSIGHT_STORE_URI"],
            model_id="hashing-256",
            dim=256,
            storage_options=options,
            cold_uri=env["HINDSIGHT_COLD_URI"],
            create_tables=False,
            read_consistency=timedelta(0),
        )
        assert not store.waiting_for(), f"tables not found: {store.waiting_for()}"
        return store


def _function_env(function: str, rendered: Rendered, enforcing: Enforcing, extra: dict[str, str]) -> dict:
    """The function's environment as terraform sets it, its user's keys, and the emulator's endpoint."""
    keys = enforcing.keys[function]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "HINDSIGHT_"))}
    env.update(rendered.environment[function])
    env.update(
        AWS_ENDPOINT_URL=enforcing.endpoint,
        AWS_DEFAULT_REGION=REGION,
        AWS_REGION=REGION,
        AWS_ACCESS_KEY_ID=keys["id"],
        AWS_SECRET_ACCESS_KEY=keys["secret"],
        HINDSIGHT_S3_ENDPOINT=enforcing.endpoint,
        HINDSIGHT_STORE_QUEUE_URL=enforcing.urls["store"],
        HINDSIGHT_STORE_DLQ_URL=enforcing.urls["store-dlq"],
        HINDSIGHT_REFLECT_QUEUE_URL=enforcing.urls["reflect"],
        HINDSIGHT_EMBEDDER="hashing",
        PYTHONPATH=str(ROOT),
        LITELLM_LOCAL_MODEL_COST_MAP="True",
    )
    # The tokens come from the environment here: moto cannot evaluate a statement on a secret's ARN (see the
    # README); reading them from the secret is tested in tests/serverless/test_container_mode.py.
    env.pop("HINDSIGHT_SECRET_ARN", None)
    env.update(extra)
    return env


def _llm_reply(body: dict) -> dict:
    system = body["messages"][0]["content"]
    if "several similar episodes" in system:
        return {
            "lesson": "Deploys need the database secret in the vault before they run.",
            "consistent": True,
        }
    return {
        "episode": {
            "intent": "Deploy the billing service",
            "steps": ["deployed", "added the secret", "deployed again"],
            "tools": ["deploy"],
            "obstacles": ["missing secret"],
            "outcome": "success",
            "entities": ["billing service"],
        },
        "lessons": [
            {
                "text": "Put the database secret in the vault before deploying the billing service.",
                "reusability": 0.9,
                "causal_relevance": 0.9,
                "rationale": "the first deploy failed without it",
            }
        ],
    }


@pytest.fixture(scope="module")
def stack(rendered: Rendered, enforcing: Enforcing, tmp_path_factory):
    logs = tmp_path_factory.mktemp("sandboxes")
    token, record = create_token(TENANT, ["*"], admin=True, name="iam-admin")
    llm = FakeLLM(default=_llm_reply).start()
    extra = {
        "gateway": {
            "HINDSIGHT_TOKENS": json.dumps([record]),
            "HINDSIGHT_EXPORT_INLINE_MAX_BYTES": "4000",
        },
        "reflect": {
            "HINDSIGHT_LLM_MODEL": "openai/fake-reflector",
            "HINDSIGHT_LLM_API_BASE": llm.url,
            "OPENAI_API_KEY": "test-key",
        },
        # compaction that archives, builds indexes and prunes every old version: every write path of upkeep
        "compact": {
            "HINDSIGHT_ARCHIVE_AFTER_DAYS": "-1",
            "HINDSIGHT_SCALAR_INDEX_MIN_ROWS": "1",
            "HINDSIGHT_VERSION_RETENTION_HOURS": "0",
        },
    }
    fns = {
        f: Sandbox(f, _function_env(f, rendered, enforcing, extra.get(f, {})), logs / f"{f}.log")
        for f in FUNCTIONS
    }
    try:
        for sandbox in fns.values():
            sandbox.ready()
        fns["store"].call(start_queue=enforcing.urls["store"])
        fns["reflect"].call(start_queue=enforcing.urls["reflect"])
        yield Stack(enforcing, rendered, fns, token, llm)
    finally:
        for sandbox in fns.values():
            sandbox.stop()
        llm.stop()


# ---------------------------------------------------------------------------------------------- tests
def test_each_role_is_rendered_from_the_module_and_only_the_store_role_writes_the_tables(rendered, enforcing):
    writes = {
        fn: sorted(
            r for st in doc["Statement"] if "s3:PutObject" in st["Action"] for r in _list(st["Resource"])
        )
        for fn, doc in rendered.policies.items()
    }
    bucket = f"arn:aws:s3:::{rendered.bucket}"
    assert writes == {
        "gateway": [f"{bucket}/exports/*"],
        "store": [f"{bucket}/cold/*", f"{bucket}/tables/*"],
        "recall": [],
        "reflect": [],
        "compact": [],
    }
    # The secret's statement names it by the pattern AWS advises (6 random characters after the name): it
    # matches the ARN the secret really gets, which moto's evaluation could not check.
    for fn, doc in rendered.policies.items():
        (secret,) = [st for st in doc["Statement"] if st["Sid"] == "TenantSecret"]
        assert _iam_match(secret["Resource"], enforcing.secret_arn), fn
    # Old object versions: only the store role lists them (under its own prefixes: a condition moto does not
    # evaluate, so it is checked here) and deletes them; no role reads one.
    old_versions = {
        fn: {a: st for st in doc["Statement"] for a in _list(st["Action"]) if "Version" in a}
        for fn, doc in rendered.policies.items()
    }
    assert {fn: sorted(acts) for fn, acts in old_versions.items()} == {
        "gateway": [],
        "store": ["s3:DeleteObjectVersion", "s3:ListBucketVersions"],
        "recall": [],
        "reflect": [],
        "compact": [],
    }
    listing = old_versions["store"]["s3:ListBucketVersions"]
    assert listing["Condition"] == {"StringLike": {"s3:prefix": ["tables/*", "cold/*"]}}
    assert sorted(_list(old_versions["store"]["s3:DeleteObjectVersion"]["Resource"])) == [
        f"{bucket}/cold/*",
        f"{bucket}/tables/*",
    ]


def test_gateway_writes_reach_the_tables_only_through_the_store_function(stack):
    turns = [
        ("user", "Deploy the billing service to staging."),
        ("agent", "Running the deploy with the old config."),
        ("tool", "deploy failed: secret DB_PASSWORD is missing"),
        ("agent", "Added the secret to the vault and ran the deploy again."),
        ("tool", "deploy succeeded"),
    ]
    items = [{"content": t, "kind": "working", "session_id": "s-1", "source": s} for s, t in turns]
    items += [
        {"content": "The staging database runs on port 5433.", "kind": "semantic"},
        {"content": "Someone said the office might move.", "confidence": 0.05},
    ]
    stored = stack.mcp("memory_store", namespace=NS, items=items)
    rest = stack.rest(
        "/v1/memories/store", {"namespace": NS, "items": [{"content": "Standups are at 9:30."}]}
    )
    assert stored["status"] == rest["status"] == "queued"

    assert wait_until(stack.settled, 120), stack.fn["store"].stderr()
    assert stack.tables().count(NS) == 8


def test_recall_through_mcp_rest_and_the_recall_function_sends_usage_through_the_queue(stack):
    query = {"namespace": NS, "query": "which port does the staging database use"}

    def found() -> bool:
        mcp = stack.mcp("memory_recall", **query)
        return bool(mcp["memories"]) and "5433" in mcp["memories"][0]["content"]

    # the read-only functions pick up tables the writer made meanwhile
    assert wait_until(found, 60), (
        stack.mcp("memory_recall", **query, explain=True),
        stack.fn["gateway"].stderr(),
    )
    assert "5433" in stack.rest("/v1/memories/recall", query)["memories"][0]["content"]

    # the recall function is a process of its own: it picks them up in its own time (one fresh-clone CI asked it
    # once, right after the gateway, and got nothing yet)
    def found_directly() -> bool:
        direct = stack.fn["recall"].invoke(query)
        return bool(direct["memories"]) and "5433" in direct["memories"][0]["content"]

    assert wait_until(found_directly, 60), stack.fn["recall"].invoke(query)
    assert stack.fn["gateway"].invoke(url_event("/health", None, None, "GET"))["statusCode"] == 200

    # THEN the usage counts sent at the end of those invocations were applied by the store function
    (port,) = [m for page in stack.tables().scan(NS) for m, _ in page if "5433" in m.content]
    assert wait_until(lambda: stack.settled() and _get(stack, port.id).access_count >= 3, 60)


def test_feedback_and_a_purging_forget_apply_under_the_store_role(stack):
    tables = stack.tables()
    standups = [m for page in tables.scan(NS) for m, _ in page if "9:30" in m.content]
    assert len(standups) == 1, (
        [m.content for p in tables.scan(NS) for m, _ in p],
        stack.fn["store"].stderr(),
    )
    (standup,) = standups
    stack.mcp("memory_feedback", namespace=NS, id=standup.id, useful=True)
    assert wait_until(lambda: stack.settled() and _get(stack, standup.id).importance > standup.importance, 60)

    stack.mcp("memory_forget", namespace=NS, ids=[standup.id], purge=True)

    assert wait_until(lambda: stack.settled() and not stack.tables().get(NS, [standup.id]), 120)
    assert not stack.tables().versions_containing("Standups are at 9:30")
    # AND on the versioned bucket no object version, current or old, under tables/ or cold/ holds the text: the
    # store role listed and deleted the old versions the purge left (s3:ListBucketVersions, DeleteObjectVersion)
    assert not _copies_in_bucket(stack, b"Standups are at 9:30"), stack.fn["store"].stderr()


def test_reflection_runs_under_the_reflect_role_and_its_run_is_recorded_by_the_store_role(stack):
    queued = stack.mcp("memory_reflect", namespace=NS, session_id="s-1")
    assert queued["status"] == "queued"

    def outcome():
        run = stack.mcp("memory_reflect", namespace=NS, run_id=queued["run_id"])
        return run if run["status"] != "queued" else None

    run = wait_until(outcome, 120)
    assert run and run["status"] == "done", (run, stack.fn["reflect"].stderr())
    assert stack.llm.requests  # the reflection went through litellm to the fake LLM

    # AND the scheduled periodic run (retries, induction) runs under the same role
    periodic = stack.fn["reflect"].invoke({"trigger": "periodic", "namespaces": [NS]})
    assert NS in periodic["namespaces"]
    assert wait_until(stack.settled, 60)


def test_compaction_with_upkeep_decides_under_its_role_and_the_store_role_applies_it(stack):
    versions_before = stack.tables().table_stats()["memories"]["versions"]

    out = stack.fn["compact"].invoke({"task": "compact"})

    assert out["result"]["archived"] == 1 and out["result"]["upkeep"] == {"queued": True}
    assert wait_until(lambda: stack.settled() and stack.tables().count(NS, table="cold") == 1, 180), stack.fn[
        "store"
    ].stderr()
    stats = stack.tables().table_stats()
    assert "namespace_idx" in " ".join(stats["memories"]["indices"])  # indexes built by the store role
    # the archive and nine index builds each made a version; pruning them (deleting their files) left fewer
    # than there were before compaction
    assert stats["memories"]["versions"] < versions_before
    keys = [
        o["Key"]
        for o in stack.enforcing.client("s3").list_objects_v2(Bucket=stack.rendered.bucket, Prefix="cold/")[
            "Contents"
        ]
    ]
    assert any(k.startswith("cold/cold.lance/data/") for k in keys)


def test_export_and_import_through_the_gateway(stack):
    small = stack.mcp("memory_export", namespace=NS, limit=2)
    assert len(small["records"]) == 2

    large = stack.mcp("memory_export", namespace=NS)
    # written to exports/ with the gateway's keys; its presigned URL is checked on a non-enforcing emulator
    # (tests/serverless/test_queued_writes.py): moto cannot evaluate presigned requests
    body = stack.enforcing.client("s3").get_object(Bucket=stack.rendered.bucket, Key=large["key"])["Body"]
    records = [json.loads(line) for line in body.read().decode().splitlines()]
    assert len(records) == large["count"] and records[0]["type"] == "header"

    imported = stack.mcp("memory_import", namespace="alice/iam-copy", records=records)
    assert imported["memories"] >= 1
    assert wait_until(lambda: stack.settled() and stack.tables().count("alice/iam-copy") >= 1, 60)


PROBES = [
    # (function, probe, where) -> every one must be refused
    ("gateway", "s3_put", "tables/probe"),
    ("gateway", "s3_put", "cold/probe"),
    ("gateway", "lancedb_create", "tables"),
    ("recall", "s3_put", "tables/probe"),
    ("recall", "s3_put", "exports/probe"),
    ("recall", "sqs_send", "reflect"),
    ("reflect", "s3_put", "tables/reflection_runs.lance/probe"),
    ("reflect", "lancedb_create", "tables"),
    ("compact", "s3_put", "tables/catalog.lance/probe"),
    ("compact", "s3_delete", "cold/cold.lance/probe"),
    ("compact", "lancedb_create", "cold"),
    ("store", "s3_put", "exports/probe"),
    ("store", "sqs_send", "reflect"),
    # old object versions: only the store role may list and delete them, under its own prefixes; nobody reads one
    ("gateway", "s3_list_versions", "tables/"),
    ("compact", "s3_list_versions", "tables/"),
    ("gateway", "s3_delete_version", "tables/probe-old"),
    ("compact", "s3_delete_version", "cold/probe-old"),
    ("store", "s3_delete_version", "exports/probe-old"),
    ("gateway", "s3_get_version", "tables/probe-old"),
    ("store", "s3_get_version", "tables/probe-old"),
]


@pytest.mark.parametrize("function, probe, where", PROBES)
def test_a_role_is_refused_what_its_function_must_not_do(stack, function, probe, where):
    assert _probe(stack, function, probe, where).startswith("denied"), (function, probe, where)


def test_the_probes_can_succeed_where_a_role_allows_it(stack):
    assert _probe(stack, "store", "s3_put", "tables/probe") == "allowed"
    assert _probe(stack, "gateway", "sqs_send", "reflect") == "allowed"
    assert _probe(stack, "store", "s3_list_versions", "tables/") == "allowed"
    assert _probe(stack, "store", "s3_delete_version", "tables/probe-old") == "allowed"
    assert _probe(stack, "store", "s3_delete_version", "cold/probe-old") == "allowed"


def test_no_function_logged_a_refused_request_and_no_write_was_given_up(stack):
    refused = {
        f: s.stderr() for f, s in stack.fn.items() if re.search(r"AccessDenied|Forbidden|403", s.stderr())
    }
    assert not refused, refused
    sqs = stack.enforcing.client("sqs")
    for dlq in ("store-dlq", "reflect-dlq"):
        attrs = sqs.get_queue_attributes(QueueUrl=stack.enforcing.urls[dlq], AttributeNames=["All"])
        assert attrs["Attributes"]["ApproximateNumberOfMessages"] == "0", dlq


# ---------------------------------------------------------------------------------------------- helpers
def _probe(stack: Stack, function: str, probe: str, where: str) -> str:
    bucket, urls = stack.rendered.bucket, stack.enforcing.urls
    if probe in ("s3_put", "s3_delete", "s3_list_versions"):
        return stack.fn[function].call(probe=probe, bucket=bucket, key=where)
    if probe in ("s3_delete_version", "s3_get_version"):
        # an old version to aim at, made with the harness's keys: the object written twice
        s3 = stack.enforcing.client("s3")
        old = s3.put_object(Bucket=bucket, Key=where, Body=b"old")["VersionId"]
        s3.put_object(Bucket=bucket, Key=where, Body=b"new")
        return stack.fn[function].call(probe=probe, bucket=bucket, key=where, version=old)
    if probe == "sqs_send":
        return stack.fn[function].call(probe=probe, url=urls[where])
    return stack.fn[function].call(probe=probe, uri=f"s3://{bucket}/{where}", table=f"probe_{function}")


def _copies_in_bucket(stack: Stack, needle: bytes) -> list[str]:
    """Every object version (current or old) under tables/ and cold/ whose bytes hold `needle`."""
    s3, bucket, hits = stack.enforcing.client("s3"), stack.rendered.bucket, []
    for prefix in ("tables/", "cold/"):
        for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket, Prefix=prefix):
            for v in page.get("Versions", []):
                body = s3.get_object(Bucket=bucket, Key=v["Key"], VersionId=v["VersionId"])["Body"].read()
                if needle in body:
                    hits.append(f"{v['Key']}?versionId={v['VersionId']}" if not v["IsLatest"] else v["Key"])
    return hits


def _get(stack: Stack, memory_id: str):
    ((m, _),) = stack.tables().get(NS, [memory_id])
    return m


def _list(value) -> list:
    return value if isinstance(value, list) else [value]


def _iam_match(pattern: str, arn: str) -> bool:
    """IAM's wildcards: * any run of characters, ? exactly one."""
    regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, arn) is not None
