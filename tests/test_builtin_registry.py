"""The builtin registry is the one place a builtin's facts live: its category names the module
its code is in."""

from pathlib import Path

from engine.lisp.builtins import BUILTINS
from engine.lisp.builtins.registry import CATEGORIES, builtin

import pytest

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
