"""The shape of the code, held by tests: no import circles, pure rules, a core that names no
rule system, and within each system views above services above rules.

The import graph is read from the source (``ast``), every ``import`` counted, those inside
functions too: an import deferred into a function to dodge a circle is still a circle.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("campaign", "ledger", "battles")
SYSTEMS = "campaign.systems"
# Modules that may import views: URL tables, the shells that mount them, the middleware.
TOP_LAYER = ("urls", "shell", "middleware")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


def _imported(name: str, path: Path) -> set[str]:
    """The project modules that module ``name`` imports, anywhere in its body."""
    known = modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # Imports only a type checker reads (``if TYPE_CHECKING:``) are not run, so they cannot
    # make a circle.
    typing_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and getattr(node.test, "id", getattr(node.test, "attr", "")) == "TYPE_CHECKING"
                   for stmt in node.body for inner in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.add(f"{base}.{alias.name}")
                elif base in known:
                    found.add(base)
    found.discard(name)
    return found


@cache
def graph() -> dict[str, frozenset[str]]:
    return {name: frozenset(_imported(name, path)) for name, path in modules().items()}


def _circles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def _is_rules(name: str) -> bool:
    return ".rules." in name or name.endswith(".rules")


def _system_of(name: str) -> str | None:
    if not name.startswith(SYSTEMS + "."):
        return None
    return name.split(".")[2]


def _is_view(name: str) -> bool:
    leaf = name.rpartition(".")[2]
    return leaf == "views" or leaf.endswith("_views") or ".views." in name + "."


def test_no_import_circles() -> None:
    assert _circles(graph()) == []


def test_circle_finder_finds_a_circle() -> None:
    edges = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}),
             "d": frozenset({"a"})}
    assert _circles(edges) == [["a", "b", "c"]]


def test_rules_import_only_rules_and_never_django() -> None:
    """Rules are pure (DESIGN 1): no Django, and no project module but other rules."""
    bad = {}
    for name, path in modules().items():
        if not _is_rules(name):
            continue
        source = ast.parse(path.read_text(encoding="utf-8"))
        roots = {alias.name.split(".")[0] for node in ast.walk(source)
                 if isinstance(node, ast.Import) for alias in node.names}
        roots |= {(node.module or "").split(".")[0] for node in ast.walk(source)
                  if isinstance(node, ast.ImportFrom) and not node.level}
        impure = sorted(m for m in graph()[name] if not _is_rules(m))
        if "django" in roots or impure:
            bad[name] = impure or ["django"]
    assert bad == {}


def test_the_core_names_no_rule_system() -> None:
    """Outside campaign/systems/, no module imports a system: systems plug in by the registry."""
    bad = {name: sorted(m for m in deps if _system_of(m))
           for name, deps in graph().items()
           if _system_of(name) is None and name != SYSTEMS
           and any(_system_of(m) for m in deps)}
    assert bad == {}


def test_systems_do_not_import_each_other() -> None:
    bad = {name: sorted(m for m in deps if _system_of(m) not in (None, _system_of(name)))
           for name, deps in graph().items() if _system_of(name)}
    assert {k: v for k, v in bad.items() if v} == {}


def test_only_urls_and_shells_import_views() -> None:
    """Views call services, services call rules: nothing below a view imports one."""
    bad = {name: sorted(m for m in deps if _is_view(m))
           for name, deps in graph().items()
           if not _is_view(name) and not name.endswith(TOP_LAYER)}
    assert {k: v for k, v in bad.items() if v} == {}
