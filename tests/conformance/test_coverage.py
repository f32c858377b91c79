"""Every registered builtin is exercised by at least one conformance case."""

from pathlib import Path

from engine.lisp.builtins import BUILTINS
from engine.lisp.forms import FnLiteral, ListForm, MapForm, SetForm, Sym, VectorForm
from engine.lisp.reader import read
from tests.conformance.cases import parse_cases

HERE = Path(__file__).parent


def _symbols(forms, found: set) -> None:
    stack = list(forms)
    while stack:
        f = stack.pop()
        if type(f) is Sym:
            found.add(f.text)
            found.add(f.name)
        elif type(f) in (ListForm, VectorForm, MapForm, SetForm, FnLiteral):
            stack.extend(f.items)


def used_names() -> set:
    found: set = set()
    for path in HERE.glob("*.ptc"):
        for case in parse_cases(path):
            try:
                _symbols(read(case.source), found)
            except Exception:
                pass  # cases of reader errors do not name builtins
    return found


def test_every_builtin_has_a_case():
    used = used_names()
    missing = sorted(name for name in BUILTINS if name not in used)
    assert not missing, f"builtins without a conformance case: {missing}"
