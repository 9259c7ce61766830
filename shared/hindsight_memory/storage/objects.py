"""The store's location as plain objects or files, below LanceDB: a side-effect-free reachability probe (for
/health) and the removal of noncurrent S3 object versions (for purge)."""

import logging
import os
from pathlib import Path
from typing import Any

from ..errors import PurgeIncomplete

log = logging.getLogger(__name__)


def _split(uri: str) -> tuple[str, str]:
    bucket, _, prefix = uri.removeprefix("s3://").partition("/")
    return bucket, (prefix.rstrip("/") + "/") if prefix else ""


def _s3(storage_options: dict[str, str], client: Any) -> Any:
    if client is not None:
        return client
    import boto3

    return boto3.client(
        "s3", endpoint_url=storage_options.get("aws_endpoint"), region_name=storage_options.get("region")
    )


def probe(uri: str, storage_options: dict[str, str] | None = None, client: Any = None) -> None:
    """Raise unless the store's location answers. Creates nothing: a folder not made yet is fine if its nearest
    existing parent is a readable directory (lancedb.connect would create it, so it is not used here).

    Raises:
        OSError: the folder cannot be used.  botocore errors: the bucket does not answer a listing.
    """
    if not uri.startswith("s3://"):
        path = Path(uri).expanduser()
        while not path.exists() and path != path.parent:
            path = path.parent
        if not path.is_dir() or not os.access(path, os.R_OK | os.X_OK):
            raise OSError("the store's folder is not a readable directory")
        return
    bucket, prefix = _split(uri)
    _s3(storage_options or {}, client).list_objects_v2(Bucket=bucket, Prefix=prefix, MaxKeys=1)


def drop_noncurrent_versions(
    uri: str, storage_options: dict[str, str] | None = None, client: Any = None
) -> int:
    """On a versioned bucket, an object LanceDB deletes or overwrites keeps its bytes as a noncurrent version
    (for the bucket's noncurrent-version retention). After a purge, delete every noncurrent version under the
    store's prefix, so the purged text cannot be read back from one. Delete markers carry no data and are left
    to the bucket's lifecycle rule. Returns how many versions were deleted; 0 on a folder or an unversioned
    bucket (where every listed version is current).

    Needs s3:ListBucketVersions on the bucket and s3:DeleteObjectVersion on the prefix (the store function's
    role, infra/modules/tenant/iam.tf).

    Raises:
        PurgeIncomplete: some versions could not be deleted.
    """
    if not uri.startswith("s3://"):
        return 0
    bucket, prefix = _split(uri)
    s3 = _s3(storage_options or {}, client)
    old = []
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket, Prefix=prefix):
        old += [
            {"Key": v["Key"], "VersionId": v["VersionId"]}
            for v in page.get("Versions", [])
            if not v["IsLatest"]
        ]
    for start in range(0, len(old), 1000):  # DeleteObjects takes at most 1000 keys
        res = s3.delete_objects(Bucket=bucket, Delete={"Objects": old[start : start + 1000], "Quiet": True})
        if res.get("Errors"):
            raise PurgeIncomplete(
                f"{len(res['Errors'])} old object versions could not be deleted after a purge"
            )
    if old:
        log.info("purge: noncurrent object versions deleted", extra={"versions": len(old)})
    return len(old)
