"""A moto server (S3, SQS, ...) on a free loopback port. LanceDB's own S3 client only reaches a real server,
never moto's in-process mock."""

import os
import socket
import uuid
from contextlib import contextmanager

import boto3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def moto_server():
    from moto.server import ThreadedMotoServer

    os.environ.setdefault("AWS_ACCESS_KEY_ID", "test")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "test")
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


@contextmanager
def recording_moto_server(path: str):
    """A moto server of its own plus moto's request recorder (process-wide), writing to `path`; yields
    (endpoint, calls) where calls() lists the requests recorded so far to this server only."""
    import json

    from moto.moto_api import recorder

    with moto_server() as endpoint:
        recorder._location = path  # noqa: SLF001 - the recorder reads its path once, at import
        recorder.reset_recording()

        def calls() -> list[dict]:
            rows = [json.loads(line) for line in recorder.download_recording().splitlines() if line]
            return [r for r in rows if r["url"].startswith(endpoint)]

        recorder.start_recording()
        try:
            yield endpoint, calls
        finally:
            recorder.stop_recording()


def new_bucket(endpoint: str, *, versioned: bool = False) -> str:
    """A fresh bucket; `versioned` as the tenant module's bucket is (old object versions are kept)."""
    name = f"hs-{uuid.uuid4().hex[:12]}"
    s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
    s3.create_bucket(Bucket=name)
    if versioned:
        s3.put_bucket_versioning(Bucket=name, VersioningConfiguration={"Status": "Enabled"})
    return name
