"""The builtin registry is the one place a builtin's facts live: its category names the module
its code is in, and its name is the one its error messages give."""

import ast
import re
from pathlib import Path

import pytest

from engine.lisp import PtcError, run
from engine.lisp.builtins import BUILTINS
from engine.lisp.builtins.registry import CATEGORIES, NAME, builtin, named

BUILTINS_DIR = Path(__file__).resolve().parent.parent / "engine" / "lisp" / "builtins"


def test_each_builtin_lives_in_the_module_named_after_its_category():
    misplaced = sorted(f"{name}: category {b.category}, in {b.fn.__module__}"
                       for name, b in BUILTINS.items()
                       if not b.constant and b.fn.__module__.rsplit(".", 1)[1]
                       != b.category.replace("-", "_"))
    assert misplaced == []


def test_each_category_has_its_module_and_no_builtin_module_is_long():
    modules = {p.stem: len(p.read_text(encoding="utf-8").splitlines())
               for p in BUILTINS_DIR.glob("*.py")}
    assert {c.replace("-", "_") for c in CATEGORIES} <= modules.keys()
    assert {m: n for m, n in modules.items() if n > 400} == {}


def test_a_builtin_of_an_unknown_category_is_refused():
    with pytest.raises(ValueError, match="unknown category 'misc'"):
        builtin("no-such-builtin", "misc")


# --- error messages: the registry names the builtin ---------------------------------------

def _own_names(name: str) -> set[str]:
    """How a builtin's body could spell its name: as registered, or with the short namespace
    programs write (`set/union` for `clojure.set/union`)."""
    ns, _, short = name.rpartition("/")
    aliases = {"clojure.set": "set", "clojure.string": "str"}
    return {name, f"{aliases[ns]}/{short}"} if ns in aliases else {name}


def _spelled_names(path: Path) -> list[str]:
    """Strings in the bodies of `path`'s builtins that spell the builtin's own name, or begin
    a message with it, instead of saying NAME."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        names = [d.args[0].value for d in fn.decorator_list if isinstance(d, ast.Call)
                 and getattr(d.func, "id", "") in ("builtin", "variant")]
        if not names:
            continue
        own = _own_names(names[0])
        docstring = fn.body[0].value if isinstance(fn.body[0], ast.Expr) else None
        for node in ast.walk(ast.Module(body=fn.body, type_ignores=[])):
            if node is docstring or not (isinstance(node, ast.Constant)
                                         and isinstance(node.value, str)):
                continue
            if any(node.value == n or node.value.startswith((n + " ", n + ":")) for n in own):
                found.append(f"{path.name}:{node.lineno} {names[0]}: {node.value[:40]!r}")
    return found


def test_no_builtin_spells_its_own_name_in_its_body():
    found = [s for p in sorted(BUILTINS_DIR.glob("*.py")) for s in _spelled_names(p)]
    assert found == []


def test_the_name_check_finds_a_spelled_name(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('@builtin("count", "collections")\ndef count(c):\n    """(count c)"""\n'
                      '    raise type_error("count", "a collection", c)\n')
    assert _spelled_names(module) == ["m.py:4 count: 'count'"]


# builtins that hand their arguments on to another, whose messages then name that one
HANDED_ON = {"mapv": "map", "filterv": "filter", "mapcat": "map"}
BAD_ARGUMENTS = [":k", '"s"', "nil", "1.5", "[1]", "{:a 1}", "#{1}"]
NAMED = re.compile(r"^\(?([^\s(:]+)(?::| expects| takes| needs| would| cannot)")


def _calls(name, b):
    """Calls of builtin `name` with each bad argument in every position, at each arity from
    its least up to two more."""
    top = b.min_arity + 2 if b.max_arity is None else min(b.max_arity, b.min_arity + 2)
    for n in range(max(b.min_arity, 1), top + 1):
        for bad in BAD_ARGUMENTS:
            yield f"({name} {' '.join([bad] * n)})"


def test_every_builtin_error_names_the_builtin_as_registered():
    wrong, checked = [], 0
    for name, b in sorted(BUILTINS.items()):
        if b.constant or b.category == "output":
            continue
        registered = b.fn.builtin_name          # an alias reports under the builtin's name
        for source in _calls(name, b):
            err = run(source).error
            if err is None:
                continue
            assert NAME not in err.message and NAME not in (err.hint or ""), source
            m = NAMED.match(err.message)
            if m is None or m.group(1) not in BUILTINS:
                continue                        # a message about a value, naming no builtin
            checked += 1
            if m.group(1) not in (registered, HANDED_ON.get(registered)):
                wrong.append(f"{source}: {err.message}")
    assert wrong == []
    assert checked > 300                        # the calls do reach the builtins' own checks


def test_a_helper_error_names_the_builtin_that_called_it():
    assert run("(filter odd? :k)").error.message.startswith("filter expects a collection")
    assert run("(clojure.set/union #{1} [2])").error.message.startswith(
        "clojure.set/union expects sets")
    assert run("(set/union #{1} [2])").error.message.startswith("clojure.set/union expects")


def test_a_hint_is_named_even_when_its_message_does_not_say_the_name():
    with pytest.raises(PtcError) as raised:
        BUILTINS["count"].fn(5)         # raised as count raises it, before a run names it
    err = raised.value
    err.message, err.hint = "a collection is needed", f"({NAME} coll) counts its items"
    named(err, raised.tb)
    assert (err.message, err.hint) == ("a collection is needed", "(count coll) counts its items")
