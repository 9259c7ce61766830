"""Settings for deployed functions: the environment, plus the tenant's secret (tokens, LLM provider keys)."""

import json
import os
from typing import Any

from ..config import Settings
from ..errors import InvalidInput

# Functions whose role may not write the tables (infra/modules/tenant/iam.tf): their writes go through the store
# queue, so they must never create a table either (reflect's own run log is written directly, and stays so).
READ_ONLY_FUNCTIONS = frozenset({"gateway", "recall", "reflect"})


def for_function(settings: Settings, function: str | None) -> Settings:
    """The settings as `function` must use them: a read-only function that is not its own writer (queue=sqs)
    does not create tables, unless HINDSIGHT_CREATE_TABLES says otherwise."""
    if (
        function in READ_ONLY_FUNCTIONS
        and settings.queue == "sqs"
        and "create_tables" not in settings.model_fields_set
    ):
        return settings.model_copy(update={"create_tables": False})
    return settings


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
