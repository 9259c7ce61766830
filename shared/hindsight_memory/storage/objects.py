"""Plain objects beside the tables (large exports): written to a folder or an s3://bucket/prefix URI and handed
out by URL (a presigned GET on S3, a file:// path locally)."""

import uuid
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlparse

from ..config import Settings


class ObjectStore:
    def __init__(self, uri: str, settings: Settings, client: Any = None) -> None:
        self.uri = uri.rstrip("/")
        parsed = urlparse(self.uri)
        self._s3 = parsed.scheme == "s3"
        self._bucket, self._prefix = parsed.netloc, parsed.path.strip("/")
        self._client = client
        self._settings = settings

    def _s3_client(self) -> Any:
        if self._client is None:
            import boto3

            self._client = boto3.client(
                "s3", region_name=self._settings.s3_region, endpoint_url=self._settings.s3_endpoint or None
            )
        return self._client

    def put(self, folder: str, suffix: str, data: IO[bytes], expires_s: int) -> dict:
        """Store `data` under a new name; returns where to fetch it: {"url", "key", "expires_in_s"}."""
        name = f"{folder}/{uuid.uuid4().hex}{suffix}"
        if not self._s3:
            path = Path(self.uri) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as out:
                while chunk := data.read(1 << 20):
                    out.write(chunk)
            return {"url": path.as_uri(), "key": name, "expires_in_s": None}
        key = f"{self._prefix}/{name}" if self._prefix else name
        client = self._s3_client()
        client.upload_fileobj(data, self._bucket, key, ExtraArgs={"ContentType": "application/x-ndjson"})
        url = client.generate_presigned_url(
            "get_object", Params={"Bucket": self._bucket, "Key": key}, ExpiresIn=expires_s
        )
        return {"url": url, "key": key, "expires_in_s": expires_s}
