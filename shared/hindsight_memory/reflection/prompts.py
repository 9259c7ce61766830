"""Prompt files. Defaults ship in `hindsight_memory/prompts/`; a namespace overrides any of them with a file of
the same name under `<store_uri>/prompts/<namespace>/` (a local folder or the same S3 bucket as the data)."""

import logging
from functools import lru_cache
from importlib import resources
from string import Template

from ..namespaces import validate_namespace

log = logging.getLogger(__name__)

NAMES = ("reflect_system", "reflect_user", "questions", "induce_system", "induce_user")


@lru_cache(maxsize=16)
def default(name: str) -> str:
    return resources.files("hindsight_memory").joinpath("prompts", f"{name}.md").read_text(encoding="utf-8")


class Prompts:
    """Reads per-namespace overrides next to the data; falls back to the shipped defaults."""

    def __init__(self, store_uri: str, storage_options: dict[str, str] | None = None) -> None:
        self.root = store_uri.rstrip("/") + "/prompts"
        self.storage_options = storage_options or {}
        self._cache: dict[tuple[str, str], str] = {}

    def get(self, namespace: str, name: str) -> str:
        if name not in NAMES:
            raise ValueError(f"unknown prompt {name!r}")
        ns = validate_namespace(namespace)  # the namespace becomes a path: only validated names get there
        if (ns, name) not in self._cache:
            self._cache[(ns, name)] = self._read(f"{self.root}/{ns}/{name}.md") or default(name)
        return self._cache[(ns, name)]

    def render(self, namespace: str, name: str, **values: object) -> str:
        return Template(self.get(namespace, name)).safe_substitute({k: str(v) for k, v in values.items()})

    def _read(self, path: str) -> str | None:
        if not path.startswith("s3://"):
            try:
                with open(path, encoding="utf-8") as f:
                    return f.read()
            except FileNotFoundError:
                return None
        from pyarrow import fs

        opts = self.storage_options
        endpoint = opts.get("aws_endpoint", "")
        scheme, _, host = endpoint.rpartition("://")
        # Built from the settings, not FileSystem.from_uri (which looks the bucket's region up over the network).
        filesystem = fs.S3FileSystem(
            region=opts.get("region"), endpoint_override=host or None, scheme=scheme or "https"
        )
        try:
            with filesystem.open_input_stream(path.removeprefix("s3://")) as f:
                text: str = f.read().decode("utf-8")
                return text
        except (
            FileNotFoundError,
            OSError,
        ):  # no override for this namespace (or unreadable): use the default
            return None
