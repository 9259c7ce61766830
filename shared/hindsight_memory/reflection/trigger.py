"""Entry point for the reflect function: task-end and anomaly triggers reflect one session; the periodic trigger
retries deferred work and runs induction for every namespace with recent activity."""

from datetime import datetime, timedelta
from typing import Any, Protocol

from ..errors import InvalidInput
from ..models import Kind, Source, Status, utcnow
from ..namespaces import validate_namespace
from ..ports import MemoryPort
from .reflect import Reflector

ACTIVE_LOOKBACK_DAYS = (
    7  # a namespace with events or reflection runs this recent is visited by the periodic run
)


class ReflectingService(MemoryPort, Protocol):
    """The service as the reflect function drives it (MemoryService provides this)."""

    @property
    def reflector(self) -> Reflector: ...

    def reflect(
        self,
        namespace: str,
        session_id: str | None = None,
        trajectory: list[dict[str, Any]] | None = None,
        trigger: str = "task_end",
        run_id: str | None = None,
    ) -> dict[str, Any]: ...

    def induce(self, namespace: str) -> dict[str, Any]: ...


def run_trigger(service: ReflectingService, event: dict[str, Any]) -> dict[str, Any]:
    """{"trigger": "task_end"|"anomaly", "namespace", "session_id" | "trajectory", "run_id"?} or
    {"trigger": "periodic" | "induction", "namespaces"?: [...]}.

    Raises:
        InvalidInput: unknown trigger or missing fields.
    """
    trigger = event.get("trigger")
    if trigger in ("task_end", "anomaly"):
        ns = event.get("namespace")
        if not isinstance(ns, str):
            raise InvalidInput("a reflect trigger needs a namespace")
        # A trigger often follows its session's last stores by milliseconds, and another process committed them:
        # read the latest, not a version within the read-consistency interval (one listing; reflection is slow)
        service.store.refresh()
        return service.reflect(
            ns,
            session_id=event.get("session_id"),
            trajectory=event.get("trajectory"),
            trigger=trigger,
            run_id=event.get("run_id"),
        )
    if trigger in ("periodic", "induction"):
        namespaces = event.get("namespaces")
        if namespaces is None:
            namespaces = sorted(
                service.store.active_namespaces(utcnow() - timedelta(days=ACTIVE_LOOKBACK_DAYS))
            )
        elif not isinstance(namespaces, list):
            raise InvalidInput("namespaces must be a list")
        return {
            "trigger": trigger,
            "namespaces": {ns: periodic(service, validate_namespace(ns), trigger) for ns in namespaces},
        }
    raise InvalidInput("trigger must be task_end, anomaly, periodic or induction")


def periodic(service: ReflectingService, namespace: str, trigger: str = "periodic") -> dict[str, Any]:
    """Retry deferred reflections (oldest first), then induce if new episodes arrived since the last induction."""
    reflector = service.reflector
    out: dict[str, Any] = {"retried": []}
    if trigger == "periodic":
        for row in reflector.runs.deferred(namespace):
            if not row["session_id"]:
                continue
            res = reflector.reflect(
                namespace, session_id=row["session_id"], trigger="deferred", resolves=row["id"]
            )
            out["retried"].append({"session_id": row["session_id"], "status": res["status"]})
            if res["status"] == "deferred":
                break  # still over budget: the rest waits for the next run
    last = reflector.runs.last(namespace, "induce")
    if trigger == "induction" or last is None or _new_episodes(service, namespace, last):
        out["induction"] = service.induce(namespace)
    return out


def _new_episodes(service: MemoryPort, namespace: str, since: datetime) -> bool:
    rows = service.store.find(
        namespace,
        lambda w: (
            w.enum_in("kind", [Kind.episodic])
            .enum_in("status", [Status.active])
            .time("stored_at", ">=", since)
        ),
        limit=50,
    )
    return any(m.source == Source.reflection for m, _ in rows)
