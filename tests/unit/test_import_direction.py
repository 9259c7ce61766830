"""Imports point one way: no cycle between the parts of hindsight_memory (its subpackages and top-level modules).
The graph is read from the source with `ast`, counting every import, lazy ones inside functions included."""

import ast
from pathlib import Path

import hindsight_memory

ROOT = Path(hindsight_memory.__file__).parent


def _part(module: str) -> str | None:
    """`hindsight_memory.storage.lance` -> `storage`; None outside the package or for the package itself."""
    parts = module.split(".")
    return parts[1] if parts[0] == "hindsight_memory" and len(parts) > 1 else None


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Absolute names of the modules `path` imports (relative imports resolved)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            out.add(target)
            out |= {f"{target}.{alias.name}" for alias in node.names}  # `from . import x` imports module x
    return out


def part_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        src = _part(_module_name(path))
        if src is None:
            continue
        for target in _imports(path):
            dst = _part(target)
            if dst is not None and dst != src and (ROOT / dst).exists() | (ROOT / f"{dst}.py").exists():
                graph.setdefault(src, set()).add(dst)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a path [a, b, ..., a], or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle_between_the_parts_of_hindsight_memory():
    cycle = find_cycle(part_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle_it_is_given():
    cycle = find_cycle({"writer": {"storage", "lifecycle"}, "lifecycle": {"writer"}, "storage": set()})
    assert cycle is not None and cycle[0] == cycle[-1] and set(cycle) == {"writer", "lifecycle"}
    assert find_cycle({"writer": {"storage"}, "lifecycle": {"writer", "storage"}}) is None


def test_the_graph_sees_lazy_imports_inside_functions():
    graph = part_graph()
    assert "lifecycle" in graph["service"]  # service imports lifecycle only inside its methods
    assert "lifecycle" not in graph.get("writer", set())
