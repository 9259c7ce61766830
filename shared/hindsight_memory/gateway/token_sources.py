"""Where token records come from: HINDSIGHT_TOKENS (fixed for the life of the process), a tokens file, and the
tenant's secret (serverless). The registry re-reads them (auth.py), so a revoked token stops working without a
restart or a new Lambda sandbox."""

import json
import logging
from pathlib import Path
from typing import Any, Protocol

from ..config import Settings
from ..errors import InvalidInput

log = logging.getLogger(__name__)


class TokenSource(Protocol):
    # Whether tokens are required at all: a configured source with no records refuses everyone (fail closed).
    configured: bool

    def load(self) -> list[dict[str, Any]]:
        """The raw token records as they are now.

        Raises:
            InvalidInput: the source does not hold a JSON list of records.  Anything else: unreachable.
        """
        ...


def _records(raw: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(raw, list) or not all(isinstance(r, dict) for r in raw):
        raise InvalidInput(f"{where} must hold a JSON list of token records")
    return raw


class StaticTokens:
    """HINDSIGHT_TOKENS: read once; changing it needs a restart."""

    def __init__(self, tokens_json: str | None) -> None:
        self._records = _records(json.loads(tokens_json), "HINDSIGHT_TOKENS") if tokens_json else []
        self.configured = bool(self._records)

    def load(self) -> list[dict[str, Any]]:
        return self._records


class FileTokens:
    """HINDSIGHT_TOKENS_FILE: a JSON list of records, re-read on every refresh (replace it atomically)."""

    configured = True

    def __init__(self, path: str) -> None:
        self.path = Path(path)

    def load(self) -> list[dict[str, Any]]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{self.path} is not JSON") from exc
        return _records(raw, str(self.path))


class SecretTokens:
    """The tenant's secret (HINDSIGHT_SECRET_ARN): `{"tokens": [...], "env": {...}}`, re-read on every refresh."""

    configured = True

    def __init__(self, secret_arn: str, client: Any = None, region: str | None = None) -> None:
        self.secret_arn, self._client, self._region = secret_arn, client, region

    def load(self) -> list[dict[str, Any]]:
        if self._client is None:
            import boto3

            self._client = boto3.client("secretsmanager", region_name=self._region)
        raw = self._client.get_secret_value(SecretId=self.secret_arn).get("SecretString") or "{}"
        try:
            doc = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidInput("the tenant secret must be a JSON object") from exc
        if not isinstance(doc, dict):
            raise InvalidInput("the tenant secret must be a JSON object")
        return _records(doc.get("tokens") or [], "the tenant secret's 'tokens'")


class AllTokens:
    """Every configured source at once: a token is valid if any of them holds its hash."""

    def __init__(self, sources: list[TokenSource]) -> None:
        self.sources = sources
        self.configured = any(s.configured for s in sources)

    def load(self) -> list[dict[str, Any]]:
        return [r for s in self.sources for r in s.load()]


def token_source(settings: Settings, secrets_client: Any = None) -> AllTokens:
    """The sources `settings` configure (HINDSIGHT_TOKENS, HINDSIGHT_TOKENS_FILE, HINDSIGHT_SECRET_ARN)."""
    sources: list[TokenSource] = [StaticTokens(settings.tokens)]
    if settings.tokens_file:
        sources.append(FileTokens(settings.tokens_file))
    if settings.secret_arn:
        sources.append(SecretTokens(settings.secret_arn, secrets_client, settings.s3_region))
    return AllTokens(sources)
