"""The writer lease: which one of several store workers outside Lambda may write (a rolling deploy starts the new
worker before the old one stops). An object in the bucket written with S3 conditional requests: created only if
absent (If-None-Match), renewed or taken over from an expired holder only if unchanged since read (If-Match), so
two workers can never both believe they hold it. The holder renews it before every batch; the others wait."""

import json
import logging
import os
import time
import uuid
from typing import Any
from urllib.parse import urlparse

log = logging.getLogger(__name__)

LEASE_NAME = "_writer.lease"


class WriterLease:
    def __init__(self, store_uri: str, ttl_s: float, client: Any = None, owner: str | None = None) -> None:
        parsed = urlparse(store_uri)
        if parsed.scheme != "s3":
            raise ValueError("the writer lease lives in an S3 bucket (s3://bucket/prefix)")
        self.bucket = parsed.netloc
        self.key = f"{parsed.path.strip('/')}/{LEASE_NAME}".lstrip("/")
        self.ttl_s = ttl_s
        self.owner = owner or f"{os.uname().nodename}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._etag: str | None = None
        if client is None:
            import boto3

            client = boto3.client("s3")
        self._s3 = client

    @property
    def held(self) -> bool:
        return self._etag is not None

    def hold(self) -> bool:
        """Take or renew the lease for ttl_s from now; False while another live worker holds it."""
        from botocore.exceptions import ClientError

        body = json.dumps({"owner": self.owner, "expires_at": time.time() + self.ttl_s}).encode()
        try:
            if self._etag is not None:  # renew what we hold, unless someone took it over meanwhile
                return self._put(body, IfMatch=self._etag)
            if self._put(body, IfNoneMatch="*"):
                return True
            current = self._s3.get_object(Bucket=self.bucket, Key=self.key)
            holder = json.loads(current["Body"].read() or b"{}")
            if float(holder.get("expires_at", 0)) > time.time():
                return False
            log.warning("taking over an expired writer lease", extra={"from": holder.get("owner")})
            return self._put(body, IfMatch=current["ETag"])
        except ClientError as exc:
            if exc.response["Error"]["Code"] in ("NoSuchKey", "404"):
                return False  # released between our two requests: try again next time
            raise

    def _put(self, body: bytes, **condition: str) -> bool:
        from botocore.exceptions import ClientError

        try:
            out = self._s3.put_object(Bucket=self.bucket, Key=self.key, Body=body, **condition)
        except ClientError as exc:
            if exc.response["Error"]["Code"] in ("PreconditionFailed", "412", "ConditionalRequestConflict"):
                self._etag = None
                return False
            raise
        self._etag = out["ETag"]
        return True

    def release(self) -> None:
        """Give the lease up (on shutdown), so that a waiting worker takes over at once."""
        from botocore.exceptions import ClientError

        if self._etag is None:
            return
        try:
            self._s3.delete_object(Bucket=self.bucket, Key=self.key, IfMatch=self._etag)
        except ClientError as exc:  # taken over meanwhile: not ours to delete
            log.warning("writer lease not released", extra={"error": exc.response["Error"]["Code"]})
        self._etag = None
