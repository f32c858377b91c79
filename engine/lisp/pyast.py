"""Small builders of Python AST nodes, shared by the compiler and its inliners (`inline`,
`fused`): names, calls, assignments, the running context `_r` and its limit and deadline
checks, and source positions."""

from __future__ import annotations

import ast
import re

from engine.lisp.helpers import helper


def mangle(name: str) -> str:
    """A user-namespace name as a Python identifier (reversible, ASCII only)."""
    return "u_" + re.sub(r"[^a-zA-Z0-9]", lambda m: f"_{ord(m.group()):x}_", name)


def demangle(pyname: str) -> str:
    return re.sub(r"_([0-9a-f]+)_", lambda m: chr(int(m.group(1), 16)), pyname[2:])


def attr(name: str, attr: str) -> ast.Attribute:
    return ast.Attribute(load(name), attr, ast.Load())


def load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def store(name: str) -> ast.Name:
    return ast.Name(name, ast.Store())


def call(fn: str | ast.expr, *args) -> ast.Call:
    return ast.Call(load(fn) if type(fn) is str else fn, list(args), [])


def locate(tree, span):
    if span is not None and isinstance(tree, (ast.expr, ast.stmt)) and not hasattr(tree, "lineno"):
        tree.lineno, tree.col_offset = span.line, span.col - 1
        tree.end_lineno, tree.end_col_offset = span.end_line, max(span.end_col - 1, 0)
        if tree.end_lineno == tree.lineno and tree.end_col_offset < tree.col_offset:
            tree.end_col_offset = tree.col_offset
    return tree


_LOCATED = (ast.expr, ast.stmt, ast.excepthandler, ast.arg, ast.keyword)


def fill_locations(tree):
    """Give every node without a position its parent's (a faster, narrower
    ast.fix_missing_locations: most nodes here already carry their form's span)."""
    stack = [(tree, 1, 0, 1, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, line, col, end_line, end_col = pop()
        d = node.__dict__
        if "lineno" in d:
            line, col, end_line, end_col = (d["lineno"], d["col_offset"], d["end_lineno"],
                                            d["end_col_offset"])
        elif isinstance(node, _LOCATED):
            d["lineno"], d["col_offset"] = line, col
            d["end_lineno"], d["end_col_offset"] = end_line, end_col
        for name in node._fields:
            value = d.get(name)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        push((item, line, col, end_line, end_col))
            elif isinstance(value, ast.AST):
                push((value, line, col, end_line, end_col))
    return tree


def assign(name: str, value: ast.expr) -> ast.stmt:
    return ast.Assign([store(name)], value)


def increment(target: ast.expr, by: int = 1) -> ast.stmt:
    return ast.AugAssign(target, ast.Add(), ast.Constant(by))


def state(attr: str, ctx=None) -> ast.expr:
    """`_r.attr`: `_r` is the running program's RunContext, fetched on entry to every
    generated function, so compiled code works in whichever run calls it."""
    return ast.Attribute(load("_r"), attr, ctx or ast.Load())


def method(name: str, *args) -> ast.expr:
    return ast.Call(state(name), list(args), [])


def enter() -> ast.stmt:
    """`_r = _h.s`: the RunContext of the run on this thread."""
    return assign("_r", ast.Attribute(helper("_h"), "s", ast.Load()))


def over_limit(value: ast.expr, limit: str, fail: str) -> ast.stmt:
    """`if value > _r.<limit>: fail()`"""
    test = ast.Compare(value, [ast.Gt()], [state(limit)])
    return ast.If(test, [ast.Expr(call(helper(fail)))], [])


def deadline_check(every_1024: bool = False) -> ast.stmt:
    """`if _clock() > _r.deadline: _timeout()` (every_1024: `if not _n & 1023 and ...`,
    checked on one loop jump in 1,024)."""
    late = ast.Compare(call(helper("_clock")), [ast.Gt()], [state("deadline")])
    if every_1024:
        turn = ast.UnaryOp(ast.Not(), ast.BinOp(load("_n"), ast.BitAnd(), ast.Constant(1023)))
        late = ast.BoolOp(ast.And(), [turn, late])
    return ast.If(late, [ast.Expr(call(helper("_timeout")))], [])


def arguments(names, vararg: str | None = None) -> ast.arguments:
    return ast.arguments([], [ast.arg(n) for n in names], ast.arg(vararg) if vararg else None,
                         [], [], None, [])


def last(items: list) -> ast.expr:
    if len(items) == 1:
        return items[0]
    return ast.Subscript(ast.Tuple(items, ast.Load()), ast.Constant(-1), ast.Load())


def index(name: str, i: int) -> ast.expr:
    return ast.Subscript(load(name), ast.Constant(i), ast.Load())


def truthy(value: ast.expr, name: str) -> ast.expr:
    """`value is not None and name is not False` (value may bind `name` with a walrus)."""
    return ast.BoolOp(ast.And(), [ast.Compare(value, [ast.IsNot()], [ast.Constant(None)]),
                                  ast.Compare(load(name), [ast.IsNot()], [ast.Constant(False)])])


def is_function(value: ast.expr) -> ast.expr:
    return ast.Compare(call(helper("_type"), value), [ast.Is()], [helper("_Function")])
