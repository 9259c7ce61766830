"""A reflection request for the reflect function's queue (serverless): checked here, so that bad input is an
error for the caller now and never a poison message later."""

from typing import Any

from ..errors import InvalidInput
from ..namespaces import validate_namespace
from .reflect import TRIGGERS
from .runs import new_run_id
from .trajectory import inline_items


def queued_request(
    namespace: str, session_id: str | None, trajectory: list[dict[str, Any]] | None, trigger: str
) -> dict[str, Any]:
    """The message to queue, with a new run id the caller can poll (an inline trajectory travels in it).

    Raises:
        InvalidInput: bad namespace, trigger or trajectory, or neither a session nor a trajectory.
    """
    validate_namespace(namespace)
    if trigger not in TRIGGERS:
        raise InvalidInput(f"trigger must be one of {', '.join(TRIGGERS)}")
    if not session_id and not trajectory:
        raise InvalidInput("give a session_id or an inline trajectory")
    if trajectory:
        session_id = session_id or f"reflect-{new_run_id()[:16]}"
        inline_items(namespace, session_id, trajectory)
    payload = {"trigger": trigger, "namespace": namespace, "session_id": session_id, "run_id": new_run_id()}
    return payload | ({"trajectory": trajectory} if trajectory else {})
