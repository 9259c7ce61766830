"""Namespace validation. A namespace is the unit of isolation inside a tenant, e.g. ``alice/project-x``.

One canonical form for every operation and both edges: the text must already match the pattern. Nothing is
stripped or rewritten (" alice" is refused, not read as "alice"), so the namespace a scope check sees is the one
the storage filter uses."""

import re
from typing import Annotated

from pydantic import BeforeValidator, Field

from .errors import InvalidInput

# Segments are conservative on purpose: a namespace is embedded in storage filters, so it may only ever
# contain characters that cannot change the meaning of a filter expression.
_SEGMENT = r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}"
_NAMESPACE = re.compile(rf"^{_SEGMENT}(?:/{_SEGMENT}){{0,3}}$")
NAMESPACE_RULE = (
    "namespace must be 1-4 '/'-separated segments of letters, digits, '_', '.', '-' "
    "(each starting with a letter or digit, at most 64 characters; no spaces)"
)


def validate_namespace(value: str) -> str:
    """Return the namespace unchanged if valid.

    Raises:
        InvalidInput: not 1-4 slash-separated segments of letters, digits, `_ . -`.
    """
    if not isinstance(value, str) or not _NAMESPACE.fullmatch(value):
        raise InvalidInput(NAMESPACE_RULE)
    return value


def _checked(value: object) -> str:
    # A ValueError, so pydantic reports it against the field; it never echoes the value.
    if not isinstance(value, str) or not _NAMESPACE.fullmatch(value):
        raise ValueError(NAMESPACE_RULE)
    return value


# The type every request model and tool argument uses. A before-validator: it sees the text as sent, before any
# model-wide whitespace stripping could turn " alice" into "alice".
Namespace = Annotated[str, BeforeValidator(_checked), Field(pattern=_NAMESPACE.pattern)]


def is_within(namespace: str, prefix: str) -> bool:
    """True if `namespace` equals `prefix` or lies below it (`a/b` is within `a`, `ab` is not)."""
    return namespace == prefix or namespace.startswith(prefix.rstrip("/") + "/")
