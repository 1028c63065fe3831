"""The shape of the code: imports run downhill, from the engine up to the pages.

The graph is built from the source with ``ast`` (nothing is imported), every import
counted, those inside functions too: a cycle hidden in a function is still a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "games"
LONGEST = 800  # lines; migrations aside: modules are split by meaning, not by length
# The modules that may sit directly under games/: the few every room shares.
MOST_AT_THE_TOP = 12

Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    return {
        module_name(path): path
        for path in sorted(root.rglob("*.py"))
        if "migrations" not in path.relative_to(ROOT).parts
    }


def source_of(node: ast.ImportFrom, name: str, is_package: bool) -> str:
    """The absolute name of the module a ``from ... import`` statement of ``name`` reads."""
    if not node.level:
        return node.module or ""
    base = name.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, node.module] if node.module else base)


def imported(
    tree: ast.AST, name: str, is_package: bool, known: Iterable[str] = ()
) -> Iterator[str]:
    """Every module an import statement of the module names, resolved to absolute.

    ``from games import reports`` imports the module ``games.reports`` when it is one of
    ``known``; otherwise a name of the package ``games`` itself. (The package of a module
    is always imported before it, so that edge makes no cycle of its own.)
    """
    submodules = set(known)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = source_of(node, name, is_package)
            names = [f"{target}.{alias.name}" for alias in node.names]
            modules_named = [full for full in names if full in submodules]
            yield from modules_named
            if len(modules_named) < len(names):
                yield target


def import_graph(known: dict[str, Path]) -> Graph:
    """Module -> the modules of ``known`` it imports (a package's own ``__init__`` aside)."""
    graph: Graph = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(), str(path))
        targets = imported(tree, name, path.name == "__init__.py", known)
        graph[name] = {t for t in targets if t in known and t != name}
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def reachable(graph: Graph, start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


GRAPH = import_graph(modules())


def test_the_graph_is_read_from_the_source() -> None:
    assert "games.services.deals" in GRAPH["games.services"]
    assert "games.reports.ledger" in GRAPH["games.services.sessions"]
    assert "games.engine" in GRAPH["games.services.deals"]


def test_no_import_cycle_under_games() -> None:
    assert cycles(GRAPH) == []


def test_a_cycle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize(
    ("source", "name", "is_package", "expected"),
    [
        ("from games import reports", "games.web.x", False, {"games.reports"}),
        ("from games.reports import x", "games.web.x", False, {"games.reports"}),
        (
            "from games.reports import ledger, x",
            "games.web.x",
            False,
            {"games.reports", "games.reports.ledger"},
        ),
        ("from . import ledger", "games.reports", True, {"games.reports.ledger"}),
        ("from .ledger import x", "games.reports.summary", False, {"games.reports.ledger"}),
        (
            "def f():\n    import games.sheets.pdf",
            "games.sheets.compose",
            False,
            {"games.sheets.pdf"},
        ),
    ],
)
def test_imports_are_resolved(source: str, name: str, is_package: bool, expected: set[str]) -> None:
    known = {"games.reports", "games.reports.ledger", "games.sheets.pdf"}
    found = set(imported(ast.parse(source), name, is_package, known))
    assert found == expected


def is_private(name: str) -> bool:
    """``_name`` is private to its module; a dunder such as ``__name__`` is not."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of names and attributes, None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (head := dotted(node.value)) is not None:
        return f"{head}.{node.attr}"
    return None


def private_uses(tree: ast.AST, name: str, is_package: bool, known: Iterable[str]) -> list[str]:
    """Every private name of another module of ``known`` that the module ``name`` uses.

    Two ways count: ``from games.x import _y`` (relative too), and ``x._y`` where ``x`` is
    bound to a module of ``known`` by an import of this file. An attribute of anything else,
    such as a model's ``_meta``, is not a module's name and does not count.
    """
    submodules = set(known)
    aliases: dict[str, str] = {}  # a name bound by an import -> the module it stands for
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:  # ``import a.b`` binds ``a``; ``a.b`` is then reached by attribute
                    parts = alias.name.split(".")
                    for end in range(1, len(parts) + 1):
                        aliases[".".join(parts[:end])] = ".".join(parts[:end])
        elif isinstance(node, ast.ImportFrom):
            source = source_of(node, name, is_package)
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full in submodules:
                    aliases[alias.asname or alias.name] = full
                elif is_private(alias.name) and source in submodules and source != name:
                    found.append(full)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            module = aliases.get(dotted(node.value) or "")
            if module in submodules and module != name:
                found.append(f"{module}.{node.attr}")
    return sorted(found)


def test_no_module_uses_another_modules_private_name() -> None:
    known = modules()
    used = {
        name: uses
        for name, path in known.items()
        if (uses := private_uses(ast.parse(path.read_text()), name, is_package(name), known))
    }
    assert used == {}


@pytest.mark.parametrize(
    ("source", "name", "is_package", "expected"),
    [
        (
            "from games.reports.ledger import _rows",
            "games.web.x",
            False,
            ["games.reports.ledger._rows"],
        ),
        (
            "from .ledger import _rows as rows",
            "games.reports.x",
            False,
            ["games.reports.ledger._rows"],
        ),
        (
            "from . import ledger\nledger._rows()",
            "games.reports",
            True,
            ["games.reports.ledger._rows"],
        ),
        (
            "import games.reports.ledger as l\nl._Row",
            "games.web.x",
            False,
            ["games.reports.ledger._Row"],
        ),
        (
            "import games.reports.ledger\ngames.reports.ledger._x",
            "games.x",
            False,
            ["games.reports.ledger._x"],
        ),
        (
            "def f():\n    from .ledger import _rows",
            "games.reports.x",
            False,
            ["games.reports.ledger._rows"],
        ),
        ("from games.reports import _total", "games.web.x", False, ["games.reports._total"]),
        ("from .ledger import rows, __all__", "games.reports.x", False, []),
        ("from . import ledger\nledger.__name__", "games.reports", True, []),
        ("from games.models import Player\nPlayer._meta", "games.web.x", False, []),
        ("from games import reports\nreports.Row._meta", "games.web.x", False, []),
        ("_rows = []\n_rows.append(1)", "games.reports.ledger", False, []),
        ("from os import _exit\nimport os\nos._exit", "games.web.x", False, []),
    ],
)
def test_private_uses_are_found(
    source: str, name: str, is_package: bool, expected: list[str]
) -> None:
    known = {"games", "games.models", "games.reports", "games.reports.ledger"}
    assert private_uses(ast.parse(source), name, is_package, known) == expected


def room(module: str) -> str:
    """The folder a module of games/ lives in (``games.live.push`` -> ``live``), or
    ``top`` for the modules directly under games/."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and is_package(module)) else "top"


def is_package(module: str) -> bool:
    return (PACKAGE.parent / module.replace(".", "/") / "__init__.py").exists()


def imports_of_room(name: str) -> set[str]:
    """Every games module that a module of the room ``name`` imports directly."""
    return {
        target for module, targets in GRAPH.items() if room(module) == name for target in targets
    }


def test_the_rooms_are_where_contributing_says() -> None:
    rooms = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()}
    assert {
        "engine",
        "models",
        "services",
        "reports",
        "sheets",
        "live",
        "api",
        "web",
        "lib",
    } <= rooms
    assert room("games.live.push") == "live"
    assert room("games.models") == "models"
    assert room("games.present") == "top"


def test_few_modules_sit_directly_under_games() -> None:
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top) <= MOST_AT_THE_TOP, top


def test_models_import_only_the_engine_and_infrastructure() -> None:
    assert {room(m) for m in imports_of_room("models")} <= {"models", "engine", "lib"}


@pytest.mark.parametrize("layer", ["services", "reports"])
def test_services_and_reports_reach_neither_the_web_nor_the_api(layer: str) -> None:
    starts = [name for name in GRAPH if room(name) == layer]
    reached = set().union(*(reachable(GRAPH, start) for start in starts))
    assert not {m for m in reached if room(m) in {"web", "api"}}


def test_reports_only_read() -> None:
    reached = set().union(*(reachable(GRAPH, m) for m in GRAPH if room(m) == "reports"))
    assert not {m for m in reached if room(m) == "services"}
    assert not {m for m in imports_of_room("reports") if room(m) in {"live", "sheets"}}


# What the rest of the code may use of the live table: its announcements, the close of a
# deal in progress when its session closes, and the seat links a new session hands out.
LIVE_HOOKS = {"games.live.push", "games.live.close", "games.live.seat_links"}


def test_services_use_only_the_live_tables_hooks() -> None:
    used = {m for m in imports_of_room("services") if room(m) == "live"}
    assert used <= LIVE_HOOKS


def test_nothing_below_the_pages_imports_a_sheet() -> None:
    for layer in ("engine", "models", "services", "reports", "live", "lib"):
        assert not {m for m in imports_of_room(layer) if room(m) == "sheets"}, layer


def test_sheets_are_not_pages() -> None:
    assert not {m for m in imports_of_room("sheets") if room(m) in {"web", "api", "live"}}


def test_infrastructure_holds_no_card_game() -> None:
    allowed = {"games.errors"}
    outside = {m for m in imports_of_room("lib") if room(m) != "lib" and m not in allowed}
    assert outside == set()


def test_the_engine_imports_only_itself() -> None:
    for name, path in modules().items():
        if not name.startswith("games.engine"):
            continue
        tree = ast.parse(path.read_text())
        outside = {
            target
            for target in imported(tree, name, path.name == "__init__.py")
            if target.startswith("games") and not target.startswith("games.engine")
        }
        assert not outside, name


def test_scoring_never_imports_the_arrangement_search() -> None:
    arrangement = "games.engine.arrangement"
    scoring = [m for m in GRAPH if m.startswith("games.engine") and not m.startswith(arrangement)]
    assert {m for m in scoring if any(t.startswith(arrangement) for t in GRAPH[m])} == set()
    assert "games.engine.arrangement.splits" in GRAPH["games.engine.arrangement.review"]


def test_only_pdf_imports_weasyprint() -> None:
    importers = {
        name
        for name, path in modules().items()
        if any(
            t.split(".")[0] == "weasyprint"
            for t in imported(ast.parse(path.read_text()), name, False)
        )
    }
    assert importers == {"games.sheets.pdf"}


def test_no_module_is_too_long() -> None:
    long = {
        name: lines
        for name, path in modules().items()
        if (lines := len(path.read_text().splitlines())) > LONGEST
    }
    assert long == {}
