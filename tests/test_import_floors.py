"""The engine's modules import one another without circles at import time (imports written at
module level, not those for annotations only), so each module can be read, tested and moved
on its own floor; compiled code loads only the globals helpers.GLOBALS lists; and the app's
parts (ptc_tui) import only downward, with nothing below the app importing it."""

import ast
from pathlib import Path

import pytest

from engine.lisp.helpers import GLOBALS, base_globals, helper

ROOT = Path(__file__).resolve().parent.parent
# printing a map orders its keys (compare), and ordering keys of mixed kinds prints them:
# the one recursion left between modules
RECURSION = {"engine.lisp.printer", "engine.lisp.compare"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top_level_imports(path: Path) -> set[str]:
    """The engine modules `path` imports when it is imported: module-level imports outside
    `if TYPE_CHECKING:`, each with the packages whose __init__ runs on the way."""
    found = set()
    for stmt in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.module.startswith("engine"):
            names = [stmt.module] + [f"{stmt.module}.{a.name}" for a in stmt.names]
        elif isinstance(stmt, ast.Import):
            names = [a.name for a in stmt.names if a.name.startswith("engine")]
        else:
            continue
        for name in names:
            parts = name.split(".")
            found.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the engine modules it imports; a module's own packages are left out (they
    are already being imported when it runs)."""
    paths = {module_name(p): p for p in (ROOT / "engine").rglob("*.py")}
    graph = {}
    for m, p in paths.items():
        own = {".".join(m.split(".")[:i]) for i in range(1, m.count(".") + 2)}
        graph[m] = top_level_imports(p) & paths.keys() - own
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def test_the_engine_has_no_import_circles_but_printer_and_compare():
    found = [sorted(c) for c in circles(import_graph()) if c != RECURSION]
    assert found == []


def test_the_analyzer_imports_no_special_form_module():
    imports = import_graph()["engine.lisp.analyzer"]
    assert not imports & {"engine.lisp.special_forms", "engine.lisp.fn_forms", "engine.lisp.refused",
                          "engine.lisp.macros", "engine.lisp.destructure"}


def test_compiled_code_may_load_only_the_listed_helpers():
    assert helper("_field").id == "_field"
    with pytest.raises(KeyError, match="_call_in_thread"):
        helper("_call_in_thread")        # a runtime function, not one compiled code calls
    names = base_globals()
    assert set(GLOBALS) <= set(names)
    assert not {n for n in names if n.startswith("_") and n not in GLOBALS} - {"__builtins__"}


# the one import still written inside a function: compare.key_order prints (the recursion above)
LATE_IMPORTS_LEFT = {"compare": 1}


def late_engine_imports(path: Path) -> list[int]:
    """Lines of `path` that import an engine module inside a function."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith("engine") \
                        or isinstance(inner, ast.Import) and any(
                            a.name.startswith("engine") for a in inner.names):
                    lines.append(inner.lineno)
    return lines


def test_no_engine_import_is_hidden_inside_a_function_but_the_two_left():
    found = {}
    for path in (ROOT / "engine").rglob("*.py"):
        if lines := late_engine_imports(path):
            found[str(path.relative_to(ROOT))] = len(lines)
    assert found == {f"engine/lisp/{m}.py": n for m, n in LATE_IMPORTS_LEFT.items()}


# The app's floors: what each part of ptc_tui may import of the others at module level (the
# command line opens the app, and a few commands load their heavy parts, inside a function).
APP_FLOORS = {
    "signals": set(), "keymap": set(), "autosave": set(), "otlp_stream": set(),
    "experiments": {"signals"},
    "view": {"experiments"},
    "config": {"view"},
    "widgets": {"view"},
    "screens": {"widgets", "view"},
    "subcommands": {"view", "experiments", "config", "signals"},
    "app_what_if": {"screens", "widgets", "view"},
    "app_loading": {"screens", "widgets", "view"},
    "app_signals": {"screens", "widgets", "signals", "autosave"},
    "app_commands": {"screens"},
    "app": {"app_what_if", "app_loading", "app_signals", "app_commands", "screens", "widgets",
            "view", "experiments", "config"},
    "launch": {"app", "app_loading", "keymap", "config", "view", "experiments"},
    "cli": {"subcommands", "config", "view"},
    "__main__": {"cli"},
}
# parts that stay plain Python: the CLI and the view-model load no UI library when imported
NO_UI = {"signals", "otlp_stream", "experiments", "view", "config", "subcommands", "cli"}


def app_part(path: Path) -> str:
    """`view` for ptc_tui/view/tokens.py, `app` for ptc_tui/app.py."""
    return path.relative_to(ROOT / "ptc_tui").with_suffix("").parts[0]


def module_level_imports(path: Path) -> set[str]:
    """Every module `path` imports at module level (outside functions and TYPE_CHECKING)."""
    found = set()
    for stmt in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
            found.add(stmt.module)
        elif isinstance(stmt, ast.Import):
            found.update(a.name for a in stmt.names)
    return found


def test_every_part_of_the_app_is_on_a_floor():
    parts = {app_part(p) for p in (ROOT / "ptc_tui").rglob("*.py")} - {"__init__"}
    assert parts == set(APP_FLOORS)


def test_the_app_imports_only_downward():
    found = {}
    for path in (ROOT / "ptc_tui").rglob("*.py"):
        part = app_part(path)
        if part == "__init__":
            continue
        mine = {m.split(".")[1] for m in module_level_imports(path)
                if m.startswith("ptc_tui.")} - {part}
        if mine - APP_FLOORS[part]:
            found[str(path.relative_to(ROOT))] = sorted(mine - APP_FLOORS[part])
    assert found == {}


def test_the_cli_and_the_view_model_load_no_ui_library():
    found = {}
    for path in (ROOT / "ptc_tui").rglob("*.py"):
        ui = {m for m in module_level_imports(path) if m.split(".")[0] in ("textual", "rich")}
        if app_part(path) in NO_UI and ui:
            found[str(path.relative_to(ROOT))] = sorted(ui)
    assert found == {}


def test_nothing_below_the_app_imports_it():
    """The engine and the sample agents never import ptc_tui, not even inside a function."""
    found = []
    for path in [*(ROOT / "engine").rglob("*.py"), *(ROOT / "sample_traces").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if any(n.split(".")[0] == "ptc_tui" for n in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
