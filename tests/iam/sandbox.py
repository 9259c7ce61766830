"""One function's sandbox for the IAM conformance test: a process holding only that function's credentials and
environment, which loads functions/<name>/handler.py (its cold start) and then answers commands, one JSON line
each on stdin, one JSON line each on stdout:

    {"invoke": <event>}            the handler with a Lambda-like context -> {"ok": <response>}
    {"start_queue": <queue url>}   poll that queue in the background, as the event source mapping does (with
                                   this function's credentials, as Lambda's pollers use its role)
    {"probe": <name>, ...}         try one AWS call (one its role must refuse, or one it must allow) ->
                                   {"ok": "allowed"} or {"ok": "denied: <error>"}

    python -m tests.iam.sandbox <function>
"""

import json
import logging
import sys
import traceback
from typing import Any

from hindsight_memory.serverless.runner import LocalContext, LocalRunner, QueueSource, load_handler


def probe(name: str, args: dict) -> str:
    """One request as the function would make it, with its credentials: a write (or an old version's read) its
    role must refuse, or one it must allow."""
    import boto3
    from botocore.exceptions import ClientError

    try:
        if name == "s3_put":
            boto3.client("s3").put_object(Bucket=args["bucket"], Key=args["key"], Body=b"probe")
        elif name == "s3_delete":
            boto3.client("s3").delete_object(Bucket=args["bucket"], Key=args["key"])
        elif name == "s3_delete_version":  # what a purge does to the old copies of a table's files
            boto3.client("s3").delete_object(
                Bucket=args["bucket"], Key=args["key"], VersionId=args["version"]
            )
        elif name == "s3_get_version":
            boto3.client("s3").get_object(Bucket=args["bucket"], Key=args["key"], VersionId=args["version"])
        elif name == "s3_list_versions":
            boto3.client("s3").list_object_versions(Bucket=args["bucket"], Prefix=args["key"])
        elif name == "sqs_send":
            extra = {"MessageGroupId": "probe"} if args["url"].endswith(".fifo") else {}
            boto3.client("sqs").send_message(QueueUrl=args["url"], MessageBody="{}", **extra)
        elif name == "lancedb_create":  # LanceDB's own (Rust) S3 client, SigV4-signed with these credentials
            import lancedb

            from hindsight_memory.config import Settings

            db = lancedb.connect(
                args["uri"], storage_options=Settings(store_uri=args["uri"]).storage_options()
            )
            db.create_table(args["table"], data=[{"id": 1, "vector": [0.1, 0.2]}])
        else:
            raise ValueError(f"unknown probe {name!r}")
    except ClientError as exc:
        return f"denied: {exc.response['Error']['Code']}"
    except OSError as exc:  # LanceDB reports a refused request as an IO error
        return f"denied: {type(exc).__name__}: {str(exc)[:300]}"
    except RuntimeError as exc:
        return f"denied: {type(exc).__name__}: {str(exc)[:300]}"
    return "allowed"


def main(function: str) -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    handler = load_handler(function)  # the cold start: settings, service, tables, under this role
    runner: LocalRunner | None = None
    print(json.dumps({"ok": "ready"}), flush=True)
    for line in sys.stdin:
        cmd = json.loads(line)
        try:
            if "invoke" in cmd:
                out: Any = handler(cmd["invoke"], LocalContext(function, timeout_s=cmd.get("timeout_s", 900)))
            elif "start_queue" in cmd:
                import boto3

                src = QueueSource(function, cmd["start_queue"], handler, batch_size=10, retry_delay_s=None)
                runner = LocalRunner(boto3.client("sqs"), [src], wait_s=1)
                runner.start()
                out = "polling"
            elif "probe" in cmd:
                out = probe(cmd["probe"], cmd)
            else:
                raise ValueError(f"unknown command {sorted(cmd)}")
            reply = {"ok": out}
        except Exception as exc:  # noqa: BLE001 - reported to the test, which decides
            reply = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()[-3000:]}
        print(json.dumps(reply, default=str), flush=True)
    if runner is not None:
        runner.stop(timeout_s=5)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
