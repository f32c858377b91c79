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


def inline_call(name: str, nodes: list, args: list, builtin: str, temp,
                ints=frozenset()) -> ast.expr | None:
    """`(name args...)` with an integer fast path, or None when `name` has none. `nodes` are
    the argument nodes, `args` their compiled forms, `builtin` the function to call otherwise,
    `temp()` makes a fresh local name and `ints` are locals known to hold integers (whose
    type need not be tested, see `int_valued`)."""
    if name in _STEP and len(args) == 1:
        op, test, bound = _STEP[name]
        guard, (x,), (x1,) = _prepared(nodes, args, temp, ints)
        fast = ast.IfExp(ast.Compare(x1, [test()], [ast.Constant(bound)]),
                         ast.BinOp(x, op(), ast.Constant(1)), P.call(builtin, x))
        return _guarded(guard, fast, P.call(builtin, x))
    if name in _SIGN and len(args) == 1:
        guard, (x,), (x1,) = _prepared(nodes, args, temp, ints, "_NUMS")
        fast = ast.Compare(x1, [_SIGN[name]()], [ast.Constant(0)])
        return _guarded(guard, fast, P.call(builtin, x))
    if name in _PARITY and len(args) == 1:
        guard, (x,), (x1,) = _prepared(nodes, args, temp, ints)
        remainder = ast.BinOp(x1, ast.Mod(), ast.Constant(2))
        fast = ast.Compare(remainder, [_PARITY[name]()], [ast.Constant(0)])
        return _guarded(guard, fast, P.call(builtin, x))
    if name == "mod" and len(args) == 2 and type(nodes[1]) is N.Const and \
            type(nodes[1].value) is int and nodes[1].value != 0:
        guard, (a, b), (a1, b1) = _prepared(nodes, args, temp, ints)   # floored, as Python's
        return _guarded(guard, ast.BinOp(a1, ast.Mod(), b1), P.call(builtin, a, b))
    if name == "str" and 1 <= len(args) <= _STR_ARGUMENTS:
        return _str_call(nodes, args, builtin, temp)
    if len(args) != 2 or (name not in _COMPARE and name not in _ARITHMETIC):
        return None
    if not (_simple(nodes[0]) or _simple(nodes[1])):
        return None           # both would need evaluating before the test: keep the call
    if name in _COMPARE:      # numbers of either kind compare as Python compares them
        guard, (a, b), (a1, b1) = _prepared(nodes, args, temp, ints, "_NUMS")
        fast = ast.Compare(a1, [_COMPARE[name]()], [b1])
        return _guarded(guard, fast, P.call(builtin, a, b))
    guard, (a, b), (a1, b1) = _prepared(nodes, args, temp, ints)
    result = temp()
    value = ast.NamedExpr(ast.Name(result, ast.Store()), ast.BinOp(a1, _ARITHMETIC[name](), b1))
    in_range = ast.Compare(ast.Constant(INT_MIN), [ast.LtE(), ast.LtE()],
                           [value, ast.Constant(INT_MAX)])
    fast = ast.IfExp(in_range, P.load(result), P.call(builtin, a, b))
    return _guarded(guard, fast, P.call(builtin, a, b))


# Builtins giving an integer (or failing) when their arguments are integers: name -> arity
_INT_RESULT = {"inc": 1, "dec": 1, "+": 2, "-": 2, "*": 2, "mod": 2}


def int_valued(node, ints) -> bool:
    """Whether `node`'s value is an integer whenever it has one (its evaluation may fail):
    an integer constant, a local in `ints`, `count`, inc/dec/+/-/*/mod of such values (on
    integers, the builtins give an integer or an overflow error), an `if` of such values."""
    t = type(node)
    if t is N.Const:
        return type(node.value) is int
    if t is N.LocalRef:
        return node.binding in ints
    if t is N.If:
        return int_valued(node.then, ints) and int_valued(node.else_, ints)
    if t is N.Call and type(node.fn) is N.BuiltinRef:
        name = node.fn.name
        if name == "count":
            return len(node.args) == 1
        return _INT_RESULT.get(name) == len(node.args) and all(
            int_valued(a, ints) for a in node.args)
    return False


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


def _prepared(nodes: list, args: list, temp, ints, kind: str = "_int") -> tuple:
    """(the type test of the arguments, or None when all are known to be integers; their
    reads; their first reads in the fast form). With no test to evaluate it, the argument
    bound by a walrus is bound where the fast form first reads it."""
    first, reads = _evaluated(nodes, args, temp)
    guard = _ints(first, reads, nodes, kind, ints)
    if guard is not None or first is None:
        return guard, reads, reads
    return None, reads, [read if _simple(node) else first for node, read in zip(nodes, reads)]


def _guarded(guard, fast: ast.expr, slow: ast.expr) -> ast.expr:
    return fast if guard is None else ast.IfExp(guard, fast, slow)


def _ints(first, reads: list, nodes: list, kind: str, ints) -> ast.expr | None:
    """`_type(x) is _int and ...` for each argument not known to be an integer (with kind
    "_NUMS": `_type(x) in _NUMS`, a number of either kind), or None when all are known; the
    argument evaluated by a walrus is tested first, so it is evaluated whatever the others
    are."""
    known = (int,) if kind == "_int" else (int, float)
    unknown = [not (type(node) is N.Const and type(node.value) in known
                    or _read_before(node, nodes[:i]) or int_valued(node, ints))
               for i, node in enumerate(nodes)]
    if not any(unknown):
        return None
    tests = []
    for read, node, test_it in zip(reads, nodes, unknown):
        if _simple(node) and not test_it:
            continue
        value = first if first is not None and not _simple(node) else read
        op = ast.Is() if kind == "_int" else ast.In()
        test = ast.Compare(P.call(helper("_type"), value), [op], [helper(kind)])
        tests.insert(0, test) if value is first else tests.append(test)
    return tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)


def _read_before(node, earlier: list) -> bool:
    return type(node) is N.LocalRef and any(
        type(e) is N.LocalRef and e.binding is node.binding for e in earlier)
