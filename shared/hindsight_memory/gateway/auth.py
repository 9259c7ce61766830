"""Bearer tokens: only their SHA-256 hashes live in configuration; a token maps to one tenant and its scopes."""

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from ..errors import Forbidden, InvalidInput, Unauthorized
from ..namespaces import is_within, validate_namespace

TENANT_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
TOKEN_PREFIX = "hs_"


def validate_tenant(tenant: str) -> str:
    """Return the tenant id unchanged if valid (it becomes a storage path segment).

    Raises:
        InvalidInput: not 1-40 lowercase letters, digits or '-'.
    """
    if not isinstance(tenant, str) or not TENANT_RE.fullmatch(tenant):
        raise InvalidInput(
            "tenant must be 1-40 lowercase letters, digits or '-', starting with a letter or digit"
        )
    return tenant


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Principal:
    """Who is calling: a tenant, the namespaces it may touch, and whether it may use admin tools."""

    tenant: str
    namespaces: tuple[str, ...]
    admin: bool = False
    name: str = ""

    def may_access(self, namespace: str) -> bool:
        for scope in self.namespaces:
            if scope == "*":
                return True
            if scope.endswith("/*") and is_within(namespace, scope[:-2]):
                return True
            if namespace == scope:
                return True
        return False

    def require(self, namespace: str) -> str:
        """Return the namespace if valid and in scope.

        Raises:
            InvalidInput: malformed namespace.  Forbidden: outside this token's scope.
        """
        validate_namespace(namespace)
        if not self.may_access(namespace):
            raise Forbidden("namespace is outside this token's scope")
        return namespace

    def require_admin(self) -> None:
        if not self.admin:
            raise Forbidden("this tool needs an admin token")


def local_principal(tenant: str = "default") -> Principal:
    """Embedded mode on loopback without tokens: one local user who owns everything."""
    return Principal(tenant=tenant, namespaces=("*",), admin=True, name="local")


@dataclass(frozen=True)
class _Record:
    hash: bytes
    principal: Principal


def _parse_scope(scope: str) -> str:
    if scope == "*":
        return scope
    validate_namespace(scope[:-2] if scope.endswith("/*") else scope)
    return scope


class TokenRegistry:
    """Resolves `Authorization: Bearer ...` headers to principals."""

    def __init__(self, tokens_json: str | None, local_tenant: str = "default") -> None:
        self._local = local_principal(validate_tenant(local_tenant))
        self._records: list[_Record] = []
        for raw in json.loads(tokens_json) if tokens_json else []:
            digest = str(raw["hash"]).lower()
            if not re.fullmatch(r"[0-9a-f]{64}", digest):
                raise InvalidInput("token hash must be 64 hex characters (sha256)")
            principal = Principal(
                tenant=validate_tenant(raw.get("tenant", "default")),
                namespaces=tuple(_parse_scope(s) for s in raw.get("namespaces", [])),
                admin=bool(raw.get("admin", False)),
                name=str(raw.get("name", "")),
            )
            self._records.append(_Record(bytes.fromhex(digest), principal))

    @property
    def enabled(self) -> bool:
        return bool(self._records)

    def authenticate(self, authorization: str | None) -> Principal:
        """Map an Authorization header to its principal; with no tokens configured, the local principal.

        Raises:
            Unauthorized: missing, malformed or unknown token.
        """
        if not self.enabled:
            return self._local
        scheme, _, token = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("missing bearer token")
        digest = hashlib.sha256(token.strip().encode()).digest()
        found: Principal | None = None
        # Compare against every record (no early exit) so timing does not reveal which hash matched.
        for rec in self._records:
            if hmac.compare_digest(rec.hash, digest):
                found = rec.principal
        if found is None:
            raise Unauthorized("invalid token")
        return found


def create_token(
    tenant: str, namespaces: list[str], admin: bool = False, name: str = ""
) -> tuple[str, dict[str, Any]]:
    """Generate a token and the record to put in HINDSIGHT_TOKENS (which holds the hash, never the token)."""
    validate_tenant(tenant)
    if not namespaces:
        raise InvalidInput("give at least one namespace scope (exact, 'prefix/*' or '*')")
    scopes = [_parse_scope(s) for s in namespaces]
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    record = {
        "hash": hash_token(token),
        "tenant": tenant,
        "namespaces": scopes,
        "admin": admin,
        "name": name or f"{tenant}-{secrets.token_hex(3)}",
    }
    return token, record


def token_create_command(tenant: str, namespaces: list[str], admin: bool = False, name: str = "") -> int:
    """CLI body for `hindsight token create`: print the token once, then the record to configure."""
    token, record = create_token(tenant, namespaces, admin, name)
    print(f"token (shown once, store it now): {token}")
    print("add this record to HINDSIGHT_TOKENS (a JSON list):")
    print(json.dumps(record))
    return 0
