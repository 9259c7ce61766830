"""Namespace validation. A namespace is the unit of isolation inside a tenant, e.g. ``alice/project-x``."""

import re

from .errors import InvalidInput

# Segments are conservative on purpose: a namespace is embedded in storage filters, so it may only ever
# contain characters that cannot change the meaning of a filter expression.
_SEGMENT = r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}"
_NAMESPACE = re.compile(rf"^{_SEGMENT}(?:/{_SEGMENT}){{0,3}}$")


def validate_namespace(value: str) -> str:
    """Return the namespace unchanged if valid.

    Raises:
        InvalidInput: not 1-4 slash-separated segments of letters, digits, `_ . -`.
    """
    if not isinstance(value, str) or not _NAMESPACE.fullmatch(value):
        raise InvalidInput(
            "namespace must be 1-4 '/'-separated segments of letters, digits, '_', '.', '-' "
            "(each starting with a letter or digit, at most 64 characters)"
        )
    return value


def is_within(namespace: str, prefix: str) -> bool:
    """True if `namespace` equals `prefix` or lies below it (`a/b` is within `a`, `ab` is not)."""
    return namespace == prefix or namespace.startswith(prefix.rstrip("/") + "/")
