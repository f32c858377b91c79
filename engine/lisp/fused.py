"""`map`, `filter`, `remove` and `reduce` over a function written in place, compiled as loops.

`(filter #(> (:price %) 100) items)` calls no function per item: the body of the `fn` runs in
a list comprehension (a loop, for `reduce`) in the calling code. Nothing else changes: each
item first checks the run's deadline, as entering the `fn` would; the collection is walked as
the builtin walks it (`items`, with its errors); `reduce` stops at `reduced`. Only a `fn` that
could not behave differently inlined is inlined: one arity of plain parameters taking exactly
the arguments the builtin passes, no name, no `recur`, and calling no user code (so no nested
call depth to count). Anything else is the builtin's call as before.
"""

from __future__ import annotations

import ast

from engine.lisp import nodes as N

# the builtin each one is, as errors name it (filterv is filter)
_ONE_ITEM = {"map": "map", "mapv": "map", "filter": "filter", "filterv": "filter",
             "remove": "remove"}


def fused_call(compiler, name: str, n: N.Call) -> ast.expr | None:
    """`(name fn coll)` (or `(reduce fn init coll)`) as a loop in place, or None."""
    if name in _ONE_ITEM and len(n.args) == 2 and _inlinable(n.args[0], 1):
        return _comprehension(compiler, _ONE_ITEM[name], n.args[0], n.args[1])
    if name == "reduce" and len(n.args) == 3 and _inlinable(n.args[0], 2):
        return _reduce_loop(compiler, n)
    return None


def _inlinable(fn, params: int) -> bool:
    if type(fn) is not N.Fn or fn.name is not None or len(fn.arities) != 1:
        return False
    a = fn.arities[0]
    return (len(a.params) == params and a.rest is None and not a.prologue
            and not a.has_recur and fn.frame.leaf)


def _comprehension(c, kind: str, fn: N.Fn, coll) -> ast.expr:
    """`(t := coll, tuple([... for x in items(kind, t) if in time ...]))[-1]`: the
    collection is evaluated first, outside the comprehension (whose iterable may not bind
    names), then each item checks the deadline before the body runs."""
    a = fn.arities[0]
    item = a.params[0].pyname
    source = c.temp()
    in_time = ast.BoolOp(ast.Or(), [
        ast.Compare(_call("_clock"), [ast.LtE()], [_attr("_r", "deadline")]),
        _call("_timeout")])
    if kind == "map":
        element, tests = c.expr(a.body), [in_time]
    else:
        test = c.test(a.body)
        if kind == "remove":
            test = ast.UnaryOp(ast.Not(), test)
        element, tests = _load(item), [ast.BoolOp(ast.And(), [in_time, test])]
    loop = ast.comprehension(ast.Name(item, ast.Store()),
                             _call("_items", ast.Constant(kind), _load(source)), tests, 0)
    made = _call("_tuple", ast.ListComp(element, [loop]))
    first = ast.NamedExpr(ast.Name(source, ast.Store()), c.expr(coll))
    return ast.Subscript(ast.Tuple([first, made], ast.Load()), ast.Constant(-1), ast.Load())


def _reduce_loop(c, n: N.Call) -> ast.expr:
    """A module-level function looping over the items, called with the fn's captures:

        def reduce_N(<captures>, acc, coll):
            _r = _h.s
            for x in _items("reduce", coll):
                if _clock() > _r.deadline: _timeout()
                acc = <body>
                if _type(acc) is _Reduced: return acc.value
            return acc
    """
    fn, init, coll = n.args
    a = fn.arities[0]
    acc, item = a.params[0].pyname, a.params[1].pyname
    name = "reduce_" + fn.frame.pyname
    captures = [b.pyname for b in fn.frame.captures]
    late = ast.If(ast.Compare(_call("_clock"), [ast.Gt()], [_attr("_r", "deadline")]),
                  [ast.Expr(_call("_timeout"))], [])
    stopped = ast.If(ast.Compare(_call("_type", _load(acc)), [ast.Is()], [_load("_Reduced")]),
                     [ast.Return(_attr(acc, "value"))], [])
    body = [late, ast.Assign([ast.Name(acc, ast.Store())], c.expr(a.body)), stopped]
    items = c.located(_call("_items", ast.Constant("reduce"), _load("_coll")), n.span)
    loop = ast.For(ast.Name(item, ast.Store()), items, body, [])
    enter = ast.Assign([ast.Name("_r", ast.Store())], _attr("_h", "s"))
    args = ast.arguments([], [ast.arg(p) for p in (*captures, acc, "_coll")], None, [], [],
                         None, [])
    function = ast.FunctionDef(name, args, [enter, loop, ast.Return(_load(acc))], [], None)
    c.add_function(function, fn.span)
    return _call(name, *map(_load, captures), c.expr(init), c.expr(coll))


def _load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _attr(name: str, attr: str) -> ast.Attribute:
    return ast.Attribute(_load(name), attr, ast.Load())


def _call(fn: str, *args) -> ast.Call:
    return ast.Call(_load(fn), list(args), [])
