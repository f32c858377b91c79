"""Type labels, on values made by real programs, and as the summary shows them (docs/history-rules.md,
TYP-001..012)."""

import pytest

from engine.history import type_of
from engine.lisp import run
from tests.history.rendering import summary

CASES = [
    ("TYP-001", "[]", "list[0]"),
    ("TYP-002", "[1 2 3]", "list[3]"),
    ("TYP-003", "{}", "map[0]"),
    ("TYP-004", "{:a 1}", "map[1]"),
    ("TYP-005", '"hello"', "string"),
    ("TYP-006", "42", "integer"),
    ("TYP-007", "3.5", "float"),
    ("TYP-008", "true", "boolean"),
    ("TYP-009", ":done", "keyword"),
    ("TYP-010", "nil", "nil"),
    ("TYP-011", "(fn [x] x)", "#fn[...]"),
    ("TYP-012", "#{1 2 3}", "set[3]"),
]


@pytest.mark.parametrize("source, label", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_type_label(source, label):
    r = run(source)
    assert r.error is None
    assert type_of(r.value) == label


@pytest.mark.parametrize("source, label", [
    ("false", "boolean"),            # a boolean is never an integer, though Python says so
    ("(list 1 2)", "list[2]"),       # lists and vectors share the label
    ("(range 10)", "list[10]"),
    ("{:a 1 :b {:c 2}}", "map[2]"),  # only top-level keys count
    ("#{}", "set[0]"),
    ("0.0", "float"),
    ("-7", "integer"),
    ('""', "string"),
    ('#"a+"', "unknown"),            # no label of its own: "unknown", as upstream says
])
def test_type_label_corner_cases(source, label):
    assert type_of(run(source).value) == label


@pytest.mark.parametrize("source, label", [c[1:] for c in CASES if c[0] != "TYP-011"],
                         ids=[c[0] + "-defined" for c in CASES if c[0] != "TYP-011"])
def test_defined_line_carries_the_label(source, label):
    lines = summary([f"(def v {source})"]).splitlines()
    assert lines[0] == "; No tool calls made"
    assert lines[1].startswith(f"; Defined: v = {label}")


def test_TYP_011_closure_is_listed_as_a_function_not_a_value():
    assert summary(["(def g (fn [x] x))"]) == "; No tool calls made\n; Function: g"
