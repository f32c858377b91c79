"""Fast paths for the commonest arithmetic builtins and `str`, compiled inline.

`(< i n)`, `(+ acc x)`, `(inc i)`, `(mod n 13)` on integers, `(> price 100)`, `(pos? x)` on
numbers and `(even? n)` on integers are one Python operation instead of a call of the builtin;
`(str "k" i)` on strings and integers is an f-string, its length checked against the limit.
Anything else (nil, a float, a result past 64 bits or past the string limit) calls the
builtin itself, which gives the result or the error it always gives.
"""

from __future__ import annotations

import ast

from engine.lisp import nodes as N
from engine.lisp import pyast as P
from engine.lisp.helpers import helper
from engine.lisp.values import INT_MAX, INT_MIN

_COMPARE = {"<": ast.Lt, ">": ast.Gt, "<=": ast.LtE, ">=": ast.GtE}
_ARITHMETIC = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult}
_STEP = {"inc": (ast.Add, ast.Lt, INT_MAX), "dec": (ast.Sub, ast.Gt, INT_MIN)}
_SIGN = {"pos?": ast.Gt, "neg?": ast.Lt, "zero?": ast.Eq}     # compared with 0, any number
_PARITY = {"even?": ast.Eq, "odd?": ast.NotEq}                # n % 2 compared with 0, integers
INLINE_ONE_ARGUMENT = frozenset({*_STEP, *_SIGN, *_PARITY})   # (f x) with an inline form
_STR_ARGUMENTS = 8     # (str ...) of at most this many arguments is inlined


def inline_call(name: str, nodes: list, args: list, builtin: str, temp) -> ast.expr | None:
    """`(name args...)` with an integer fast path, or None when `name` has none. `nodes` are
    the argument nodes, `args` their compiled forms, `builtin` the function to call otherwise
    and `temp()` makes a fresh local name."""
    if name in _STEP and len(args) == 1:
        op, test, bound = _STEP[name]
        first, (x,) = _evaluated(nodes, args, temp)
        fast = ast.IfExp(ast.Compare(x, [test()], [ast.Constant(bound)]),
                         ast.BinOp(x, op(), ast.Constant(1)), P.call(builtin, x))
        return ast.IfExp(_ints(first, [x], nodes), fast, P.call(builtin, x))
    if name in _SIGN and len(args) == 1:
        first, (x,) = _evaluated(nodes, args, temp)
        fast = ast.Compare(x, [_SIGN[name]()], [ast.Constant(0)])
        return ast.IfExp(_ints(first, [x], nodes, "_NUMS"), fast, P.call(builtin, x))
    if name in _PARITY and len(args) == 1:
        first, (x,) = _evaluated(nodes, args, temp)
        remainder = ast.BinOp(x, ast.Mod(), ast.Constant(2))
        fast = ast.Compare(remainder, [_PARITY[name]()], [ast.Constant(0)])
        return ast.IfExp(_ints(first, [x], nodes), fast, P.call(builtin, x))
    if name == "mod" and len(args) == 2 and type(nodes[1]) is N.Const and \
            type(nodes[1].value) is int and nodes[1].value != 0:
        first, (a, b) = _evaluated(nodes, args, temp)       # (mod n 13): floored, as Python's
        fast = ast.BinOp(a, ast.Mod(), b)
        return ast.IfExp(_ints(first, [a, b], nodes), fast, P.call(builtin, a, b))
    if name == "str" and 1 <= len(args) <= _STR_ARGUMENTS:
        return _str_call(nodes, args, builtin, temp)
    if len(args) != 2 or (name not in _COMPARE and name not in _ARITHMETIC):
        return None
    if not (_simple(nodes[0]) or _simple(nodes[1])):
        return None           # both would need evaluating before the test: keep the call
    first, (a, b) = _evaluated(nodes, args, temp)
    if name in _COMPARE:      # numbers of either kind compare as Python compares them
        fast = ast.Compare(a, [_COMPARE[name]()], [b])
        return ast.IfExp(_ints(first, [a, b], nodes, "_NUMS"), fast, P.call(builtin, a, b))
    else:
        result = temp()
        value = ast.NamedExpr(ast.Name(result, ast.Store()), ast.BinOp(a, _ARITHMETIC[name](), b))
        in_range = ast.Compare(ast.Constant(INT_MIN), [ast.LtE(), ast.LtE()],
                               [value, ast.Constant(INT_MAX)])
        fast = ast.IfExp(in_range, P.load(result), P.call(builtin, a, b))
    return ast.IfExp(_ints(first, [a, b], nodes), fast, P.call(builtin, a, b))


def _str_call(nodes: list, args: list, builtin: str, temp) -> ast.expr | None:
    """`(str "k" i)` as `f"k{i}"` when each argument not written as a string or integer
    is a string or an integer at run time (Python writes those as Clojure does), and the
    text is within the string limit; else the builtin's call, which gives the text or the
    error. Every argument is evaluated once, in order, before any is tested (`&` does not
    stop early), as for the call."""
    pieces, reads, tests = [], [], []
    for node, arg in zip(nodes, args):
        if type(node) is N.Const and type(node.value) in (str, int):
            pieces.append(ast.Constant(str(node.value)))
            reads.append(arg)
            continue
        if _simple(node):
            read = value = arg
        else:
            name = temp()
            read, value = P.load(name), ast.NamedExpr(ast.Name(name, ast.Store()), arg)
        reads.append(read)
        pieces.append(ast.FormattedValue(read, -1, None))
        tests.append(ast.Compare(P.call(helper("_type"), value), [ast.In()],
                                 [helper("_STR_INT")]))
    if not tests:
        return None                  # all written out: the builtin, once
    test = tests[0]
    for more in tests[1:]:
        test = ast.BinOp(test, ast.BitAnd(), more)
    text = temp()
    made = ast.NamedExpr(ast.Name(text, ast.Store()), ast.JoinedStr(pieces))
    fits = ast.Compare(P.call(helper("_len"), made), [ast.LtE()], [P.attr("_r", "max_string")])
    fast = ast.IfExp(fits, P.load(text), P.call(builtin, *reads))
    return ast.IfExp(test, fast, P.call(builtin, *reads))


def _simple(node) -> bool:
    """A local or a constant: reading it twice, or after another argument, changes nothing."""
    return type(node) is N.LocalRef or type(node) is N.Const


def _evaluated(nodes: list, args: list, temp) -> tuple:
    """(the one argument that is not simple, bound to a temporary by a walrus, or None;
    each argument as an expression that may be read more than once)."""
    first, reads = None, []
    for node, arg in zip(nodes, args):
        if _simple(node):
            reads.append(arg)
        else:
            name = temp()
            first = ast.NamedExpr(ast.Name(name, ast.Store()), arg)
            reads.append(P.load(name))
    return first, reads


def _ints(first, reads: list, nodes: list, kind: str = "_int") -> ast.expr:
    """`_type(x) is _int and ...` for each argument not known to be an integer (with kind
    "_NUMS": `_type(x) in _NUMS`, a number of either kind); the argument evaluated by a
    walrus comes first, so it is evaluated whatever the others are."""
    known = (int,) if kind == "_int" else (int, float)
    tests = []
    for i, (read, node) in enumerate(zip(reads, nodes)):
        if type(node) is N.Const and type(node.value) in known or _read_before(node, nodes[:i]):
            continue       # known to be a number, or the same local as an argument before
        value = first if first is not None and not _simple(node) else read
        op = ast.Is() if kind == "_int" else ast.In()
        test = ast.Compare(P.call(helper("_type"), value), [op], [helper(kind)])
        tests.insert(0, test) if value is first else tests.append(test)
    if not tests:
        return ast.Constant(True)
    return tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)


def _read_before(node, earlier: list) -> bool:
    return type(node) is N.LocalRef and any(
        type(e) is N.LocalRef and e.binding is node.binding for e in earlier)
