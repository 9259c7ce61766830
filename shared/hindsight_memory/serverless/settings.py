"""Settings for deployed functions: the environment, plus the tenant's secret (tokens, LLM provider keys)."""

import json
import os
from typing import Any

from ..config import Settings
from ..errors import InvalidInput

# Functions whose role may not write the tables (infra/modules/tenant/iam.tf): every write of theirs goes through
# the store queue, so they must never create a table either. Only the store function writes.
READ_ONLY_FUNCTIONS = frozenset({"gateway", "recall", "reflect", "compact"})


# How stale a read-only function's reads may be with respect to the writer's commits: each check is an object
# store listing, so a warm recall checks at most this often (wait=true waits this long past the commit, so
# that whichever process answers the next recall sees the items). The writer itself always reads the latest.
READER_CONSISTENCY_S = 1.0


def for_function(settings: Settings, function: str | None) -> Settings:
    """The settings as `function` must use them: a read-only function that is not its own writer (queue=sqs)
    does not create tables, and reads within READER_CONSISTENCY_S of the writer's commits, unless
    HINDSIGHT_CREATE_TABLES / HINDSIGHT_READ_CONSISTENCY_S say otherwise."""
    if function not in READ_ONLY_FUNCTIONS or settings.queue != "sqs":
        return settings
    update: dict[str, Any] = {}
    if "create_tables" not in settings.model_fields_set:
        update["create_tables"] = False
    if "read_consistency_s" not in settings.model_fields_set:
        update["read_consistency_s"] = READER_CONSISTENCY_S
    return settings.model_copy(update=update)


def load_settings(client: Any = None, *, function: str | None = None, **overrides: Any) -> Settings:
    """Settings from the environment for `function`; when HINDSIGHT_SECRET_ARN is set, the secret's JSON
    document `{"tokens": [...], "env": {"OPENAI_API_KEY": "..."}}` supplies the provider keys here, and the
    token hashes to the gateway's token registry, which re-reads them while serving (gateway/auth.py).

    Raises:
        InvalidInput: the secret is not such a JSON document.
    """
    settings = for_function(Settings(**overrides), function)
    if not settings.secret_arn:
        return settings
    if client is None:
        import boto3

        client = boto3.client("secretsmanager", region_name=settings.s3_region)
    raw = client.get_secret_value(SecretId=settings.secret_arn).get("SecretString") or "{}"
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInput("the tenant secret must be a JSON object") from exc
    if not isinstance(doc, dict):
        raise InvalidInput("the tenant secret must be a JSON object")
    # Provider keys go where litellm reads them; explicit environment variables win over the secret.
    for name, value in (doc.get("env") or {}).items():
        os.environ.setdefault(str(name), str(value))
    # Tokens are not copied into the settings: a copy taken at cold start would keep a revoked token valid.
    return settings
