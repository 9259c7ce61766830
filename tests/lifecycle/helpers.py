"""Helpers for lifecycle tests: storing, recalling, and reading the raw bytes a backend keeps."""

import os
from pathlib import Path

import boto3

from hindsight_memory.models import RecallQuery, StoreRequest


def store(svc, ns, *items):
    return svc.store_memories(
        StoreRequest(
            namespace=ns, items=[i if isinstance(i, dict) else {"content": i} for i in items], wait=True
        )
    )


def recall(svc, ns, query, **kw):
    return svc.recall(RecallQuery(namespace=ns, query=query, **{"min_score": 0.0, "top_k": 10, **kw}))


def raw_files_containing(settings, needle: str | bytes) -> list[str]:
    """Every stored object whose bytes contain `needle` (text as UTF-8): local files, or on S3 every version of
    every object (a versioned bucket keeps the bytes of deleted and overwritten objects as noncurrent versions)."""
    data = needle.encode() if isinstance(needle, str) else needle
    uri = settings.store_uri
    if not uri.startswith("s3://"):
        return [str(p) for p in Path(uri).rglob("*") if p.is_file() and data in p.read_bytes()]
    bucket, _, prefix = uri.removeprefix("s3://").partition("/")
    s3 = boto3.client(
        "s3",
        endpoint_url=settings.s3_endpoint,
        region_name=settings.s3_region,
        aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID", "test"),
        aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY", "test"),
    )
    hits = []
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket, Prefix=prefix):
        for v in page.get("Versions", []):
            body = s3.get_object(Bucket=bucket, Key=v["Key"], VersionId=v["VersionId"])["Body"].read()
            if data in body:
                hits.append(v["Key"] if v["IsLatest"] else f"{v['Key']}?versionId={v['VersionId']}")
    return hits


def object_versions(settings) -> int:
    """How many object versions (current and noncurrent) the store's S3 prefix holds."""
    bucket, _, prefix = settings.store_uri.removeprefix("s3://").partition("/")
    s3 = boto3.client("s3", endpoint_url=settings.s3_endpoint, region_name=settings.s3_region)
    pages = s3.get_paginator("list_object_versions").paginate(Bucket=bucket, Prefix=prefix)
    return sum(len(page.get("Versions", [])) for page in pages)
