"""The engine's modules import one another without circles at import time (imports written at
module level, not those for annotations only), so each module can be read, tested and moved
on its own floor; and compiled code loads only the globals helpers.GLOBALS lists."""

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


# the imports still written inside a function: compare.key_order prints (the recursion above),
# and values.as_key checks a collection key's size with compare.check_key
LATE_IMPORTS_LEFT = {"compare": 1, "values": 1}


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
