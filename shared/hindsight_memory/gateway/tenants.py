"""Tenant -> MemoryService: each tenant has its own tables under <store_uri>/<tenant>."""

import logging
import threading
from collections.abc import Callable

from ..config import Settings
from ..errors import Forbidden, HindsightError
from ..service import MemoryService, build_service
from .auth import validate_tenant

log = logging.getLogger(__name__)


class TenantRegistry:
    """Builds one MemoryService per tenant on first use and keeps it for the life of the process."""

    def __init__(
        self,
        settings: Settings,
        *,
        single_tenant: bool = False,
        factory: Callable[[Settings], MemoryService] = build_service,
    ) -> None:
        self.settings = settings
        # Serverless: one stack per tenant, so a token of any other tenant is refused outright.
        self.single_tenant = single_tenant
        self._factory = factory
        self._services: dict[str, MemoryService] = {}
        self._lock = threading.Lock()

    def tenant_settings(self, tenant: str) -> Settings:
        """The settings of one tenant's service: its own tables, and its own journal beside them."""
        update: dict[str, object] = {"tenant": tenant, "store_uri": self.store_uri(tenant)}
        journal = self.settings.journal_path()
        if journal is not None and not self.single_tenant:
            update["journal_dir"] = str(journal / validate_tenant(tenant))
        return self.settings.model_copy(update=update)

    def recover(self) -> list[str]:
        """Start the services of tenants whose journal holds acknowledged writes an earlier process did not commit:
        building a service replays its journal. Returns those tenants."""
        root = self.settings.journal_path()
        if root is None or not root.is_dir():
            return []
        if self.single_tenant:
            found = [self.settings.tenant] if any(root.glob("*.sqlite3")) else []
        else:
            found = sorted(d.name for d in root.iterdir() if d.is_dir() and any(d.glob("*.sqlite3")))
        for tenant in found:
            try:
                self.get(tenant)
            except HindsightError:
                log.exception("could not recover a tenant's journal", extra={"tenant": tenant})
        return found

    def store_uri(self, tenant: str) -> str:
        # A single tenant's store_uri is already its own: worker functions and the CLI use it as is.
        if self.single_tenant:
            return self.settings.store_uri
        return f"{self.settings.store_uri.rstrip('/')}/{validate_tenant(tenant)}"

    def get(self, tenant: str) -> MemoryService:
        """Return the tenant's service, building it on first use.

        Raises:
            InvalidInput: bad tenant id.  Forbidden: another tenant than this single-tenant stack serves.
        """
        validate_tenant(tenant)
        if self.single_tenant and tenant != self.settings.tenant:
            raise Forbidden("this deployment serves another tenant")
        with self._lock:
            svc = self._services.get(tenant)
            if svc is None:
                svc = self._factory(self.tenant_settings(tenant))
                self._services[tenant] = svc
            return svc

    def loaded(self) -> dict[str, MemoryService]:
        with self._lock:
            return dict(self._services)

    def flush_usage(self) -> None:
        """Send every tenant's buffered usage counts (at the end of a serverless invocation)."""
        for svc in self.loaded().values():
            svc.flush_usage()

    def close(self) -> None:
        with self._lock:
            services, self._services = list(self._services.values()), {}
        for svc in services:
            svc.close()
