"""Bearer tokens: only their SHA-256 hashes live in configuration; a token maps to one tenant and its scopes."""

import hashlib
import hmac
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..config import Settings
from ..errors import Forbidden, InvalidInput, Unauthorized
from ..namespaces import is_within, validate_namespace
from .token_sources import StaticTokens, TokenSource, token_source

log = logging.getLogger(__name__)

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
class Reach:
    """The namespaces a request reads, writes or deletes: one namespace, one with every namespace under it
    (`subtree`), or (namespace None) every namespace of the tenant; or (`listed`) a listing, which names only
    the namespaces this same check accepts one by one (Operations.execute hands it `covers`)."""

    namespace: str | None
    subtree: bool = False
    listed: bool = False


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

    def covers(self, reach: Reach) -> bool:
        """Whether every namespace `reach` may touch, existing now or created later, is in scope: a subtree
        needs a prefix scope at or above it, since an exact scope says nothing about what lies below. A listing
        is allowed to every token: what it returns is filtered namespace by namespace."""
        if reach.listed:
            return True
        if reach.namespace is None:
            return "*" in self.namespaces
        if not reach.subtree:
            return self.may_access(reach.namespace)
        return any(
            scope == "*" or (scope.endswith("/*") and is_within(reach.namespace, scope[:-2]))
            for scope in self.namespaces
        )

    def authorize(self, reach: Reach, *, admin: bool = False) -> None:
        """The one scope check of the gateway (operations.Operations.execute calls it for every operation).

        Raises:
            InvalidInput: malformed namespace.  Forbidden: not admin when needed, or not every namespace covered.
        """
        if admin:
            self.require_admin()
        if reach.namespace is not None:
            validate_namespace(reach.namespace)
        if self.covers(reach):
            return
        if reach.namespace is None:
            raise Forbidden("every namespace at once needs a token scoped to '*'")
        if reach.subtree and self.may_access(reach.namespace):
            raise Forbidden(
                f"include_subnamespaces needs a token scoped to '{reach.namespace}/*' (or wider): "
                "this token does not cover the namespaces below this one"
            )
        raise Forbidden("namespace is outside this token's scope")

    def require_admin(self) -> None:
        """Raises: Forbidden: not an admin token."""
        if not self.admin:
            raise Forbidden("this needs an admin token")

    def require(self, namespace: str) -> str:
        """Return the namespace if valid and in scope.

        Raises:
            InvalidInput: malformed namespace.  Forbidden: outside this token's scope.
        """
        self.authorize(Reach(namespace))
        return namespace


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


def parse_records(raw: list[dict[str, Any]]) -> list[_Record]:
    """Token records as configured (hashes only).

    Raises:
        InvalidInput: a malformed hash, tenant or scope.
    """
    out = []
    for r in raw:
        digest = str(r.get("hash", "")).lower()
        if not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise InvalidInput("token hash must be 64 hex characters (sha256)")
        principal = Principal(
            tenant=validate_tenant(r.get("tenant", "default")),
            namespaces=tuple(_parse_scope(s) for s in r.get("namespaces", [])),
            admin=bool(r.get("admin", False)),
            name=str(r.get("name", "")),
        )
        out.append(_Record(bytes.fromhex(digest), principal))
    return out


class TokenRegistry:
    """Resolves `Authorization: Bearer ...` headers to principals.

    Records are re-read from their source every `refresh_s` (a revoked token stops working within that time)
    and at once when an unknown token arrives (a new token works on its first request), but a miss re-reads at
    most once per `miss_refresh_s`, so a flood of bad tokens cannot hammer the secret store. If a re-read fails
    the records in force stay (logged): an outage of the secret store does not lock everyone out."""

    def __init__(
        self,
        source: TokenSource | str | None = None,
        local_tenant: str = "default",
        *,
        refresh_s: float = 30.0,
        miss_refresh_s: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._local = local_principal(validate_tenant(local_tenant))
        self._source: TokenSource = (
            source if source is not None and not isinstance(source, str) else StaticTokens(source)
        )
        self._refresh_s, self._miss_refresh_s, self._clock = refresh_s, miss_refresh_s, clock
        # Decided once: a registry that requires tokens never falls back to the local principal, even if a
        # source later holds none (then everyone is refused).
        self._enabled = self._source.configured
        self._lock = threading.Lock()
        self._records = parse_records(self._source.load()) if self._enabled else []
        self._loaded_at = self._clock()
        self.reloads = 0

    @classmethod
    def from_settings(cls, settings: Settings, secrets_client: Any = None) -> "TokenRegistry":
        return cls(
            token_source(settings, secrets_client),
            settings.tenant,
            refresh_s=settings.token_refresh_s,
            miss_refresh_s=settings.token_miss_refresh_s,
        )

    @property
    def enabled(self) -> bool:
        return self._enabled

    def _reload(self, *, unless_newer_than: float) -> None:
        with self._lock:
            if self._loaded_at > unless_newer_than:  # another thread re-read while this one waited
                return
            try:
                records = parse_records(self._source.load())
            except Exception as exc:  # keep the records in force; try again at the next interval
                log.warning(
                    "token records not re-read; keeping those in force", extra={"error": type(exc).__name__}
                )
            else:
                self._records = records
                self.reloads += 1
            self._loaded_at = self._clock()

    def _match(self, digest: bytes) -> Principal | None:
        found: Principal | None = None
        # Compare against every record (no early exit) so timing does not reveal which hash matched.
        for rec in self._records:
            if hmac.compare_digest(rec.hash, digest):
                found = rec.principal
        return found

    def authenticate(self, authorization: str | None) -> Principal:
        """Map an Authorization header to its principal; with no tokens configured, the local principal.
        May re-read the token source (a network call for a secret): call it off the event loop.

        Raises:
            Unauthorized: missing, malformed or unknown token.
        """
        if not self._enabled:
            return self._local
        scheme, _, token = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("missing bearer token")
        digest = hashlib.sha256(token.strip().encode()).digest()
        now = self._clock()
        if now - self._loaded_at >= self._refresh_s:
            self._reload(unless_newer_than=now - self._refresh_s)
        found = self._match(digest)
        if found is None and self._clock() - self._loaded_at >= self._miss_refresh_s:
            self._reload(unless_newer_than=self._clock() - self._miss_refresh_s)
            found = self._match(digest)
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
