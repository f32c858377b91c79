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
from engine.lisp import pyast as P
from engine.lisp.builtins.registry import BUILTINS
from engine.lisp.helpers import helper
from engine.lisp.inline import INLINE_ONE_ARGUMENT, inline_call
from engine.lisp.values import Keyword

# the builtin each one is, as errors name it (filterv is filter)
_ONE_ITEM = {"map": "map", "mapv": "map", "filter": "filter", "filterv": "filter",
             "remove": "remove"}


def fused_call(compiler, name: str, n: N.Call) -> ast.expr | None:
    """`(name fn coll)` (or `(reduce fn init coll)`) as a loop in place, or None."""
    if name in _ONE_ITEM and len(n.args) == 2 and _inlinable(n.args[0], 1):
        return _comprehension(compiler, _ONE_ITEM[name], n.args[0], n.args[1])
    if name in _ONE_ITEM and len(n.args) == 2 and type(n.args[0]) is N.BuiltinRef \
            and n.args[0].name in INLINE_ONE_ARGUMENT:
        return _builtin_comprehension(compiler, _ONE_ITEM[name], n.args[0], n.args[1])
    if name == "reduce" and len(n.args) == 3 and _inlinable(n.args[0], 2):
        return _reduce_loop(compiler, n)
    return None


def _inlinable(fn, params: int) -> bool:
    if type(fn) is not N.Fn or fn.name is not None or len(fn.arities) != 1:
        return False
    a = fn.arities[0]
    return (len(a.params) == params and a.rest is None and not a.prologue
            and not a.has_recur and fn.frame.leaf)


# Builtins whose call takes a time bounded by a constant (numbers, a type test, a count):
# a body made only of these, locals, constants, field reads, if/and/or/let, never runs long.
_CONSTANT_TIME = frozenset({
    "+", "-", "*", "/", "inc", "dec", "mod", "rem", "quot", "abs", "max", "min", "<", ">", "<=",
    ">=", "==", "pos?", "neg?", "zero?", "even?", "odd?", "nil?", "some?", "true?", "false?",
    "not", "identity", "number?", "string?", "keyword?", "vector?", "map?", "count"})
# get, = and not= take constant time too with a scalar constant after their first argument
# (contains? does not: on a vector it looks at every item)
_BY_CONSTANT_KEY = frozenset({"get", "=", "not="})
_SCALARS = (type(None), bool, int, float, str, Keyword)


def constant_time(node) -> bool:
    """Whether evaluating `node` takes a time bounded by a constant, whatever the values of
    its locals: then checking the deadline between chunks of items (as a builtin function
    given to `map` is checked) bounds the run as well as checking it before each item."""
    t = type(node)
    if t is N.Const or t is N.LocalRef:
        return True
    if t is N.If:
        return constant_time(node.test) and constant_time(node.then) and \
            constant_time(node.else_)
    if t is N.And or t is N.Or or t is N.Do:
        return all(map(constant_time, node.items if t is not N.Do else node.body))
    if t is N.Let:
        return all(constant_time(v) for _, v in node.steps) and constant_time(node.body)
    if t is N.Intrinsic:
        return node.name == "keyword_get" and all(map(constant_time, node.args))
    if t is N.Recur:
        return all(map(constant_time, node.args))
    if t is N.Call and type(node.fn) is N.BuiltinRef and all(map(constant_time, node.args)):
        name = node.fn.name
        return name in _CONSTANT_TIME or name in _BY_CONSTANT_KEY and any(
            type(a) is N.Const and type(a.value) in _SCALARS for a in node.args[1:])
    return False


def _comprehension(c, kind: str, fn: N.Fn, coll) -> ast.expr:
    a = fn.arities[0]
    value = c.expr(a.body) if kind == "map" else c.test(a.body)
    return _in_place(c, kind, a.params[0].pyname, value, coll, constant_time(a.body))


def _builtin_comprehension(c, kind: str, fn: N.BuiltinRef, coll) -> ast.expr:
    """`(filter even? coll)`: the builtin's inline form on each item (a builtin calls no
    user code and takes constant time here)."""
    item = c.temp()
    b = BUILTINS[fn.name]
    pyname = f"{b.pyname}__1" if 1 in b.variants else b.pyname
    ref = N.LocalRef(N.Binding(item, item, None), fn.span)
    value = inline_call(fn.name, [ref], [P.load(item)], pyname, c.temp)
    if kind != "map" and not b.returns_bool:
        value = _truthy(c, value)
    return _in_place(c, kind, item, value, coll, True)


def _in_place(c, kind: str, item: str, value: ast.expr, coll, constant: bool) -> ast.expr:
    """`(t := coll, tuple([... for x in items(kind, t) if ...]))[-1]`, `value` being the
    item's new value (map) or whether to keep it (filter, remove). The collection is
    evaluated first, outside the comprehension (whose iterable may not bind names). The
    deadline is checked before each item, as entering the fn would, or between chunks of
    8,192 items (as the builtin checks it) when each item takes constant time."""
    source = c.temp()
    items = P.call(helper("_items"), ast.Constant(kind), P.load(source))
    if kind == "map":
        element, tests = value, []
    else:
        element, tests = P.load(item), [ast.UnaryOp(ast.Not(), value) if kind == "remove"
                                       else value]
    if constant:
        part = c.temp()
        loops = [ast.comprehension(ast.Name(part, ast.Store()), P.call(helper("_chunks"), items), [], 0),
                 ast.comprehension(ast.Name(item, ast.Store()), P.load(part), tests, 0)]
    else:
        in_time = ast.BoolOp(ast.Or(), [
            ast.Compare(P.call(helper("_clock")), [ast.LtE()], [P.attr("_r", "deadline")]),
            P.call(helper("_timeout"))])
        tests = [ast.BoolOp(ast.And(), [in_time, *tests])] if tests else [in_time]
        loops = [ast.comprehension(ast.Name(item, ast.Store()), items, tests, 0)]
    made = P.call(helper("_tuple"), ast.ListComp(element, loops))
    first = ast.NamedExpr(ast.Name(source, ast.Store()), c.expr(coll))
    return ast.Subscript(ast.Tuple([first, made], ast.Load()), ast.Constant(-1), ast.Load())


def _truthy(c, value: ast.expr) -> ast.expr:
    t = c.temp()
    return ast.BoolOp(ast.And(), [
        ast.Compare(ast.NamedExpr(ast.Name(t, ast.Store()), value), [ast.IsNot()],
                    [ast.Constant(None)]),
        ast.Compare(P.load(t), [ast.IsNot()], [ast.Constant(False)])])


def _reduce_loop(c, n: N.Call) -> ast.expr:
    """A module-level function looping over the items, called with the fn's captures:

        def reduce_N(<captures>, acc, coll):
            _r = _h.s
            for x in _items("reduce", coll):
                if _clock() > _r.deadline: _timeout()
                acc = <body>
                if _type(acc) is _Reduced: return acc.value
            return acc

    (or over chunks of the items, checking the deadline between them, when the body takes
    constant time). A body `(assoc acc k v)` that reads acc nowhere else first tries
    `_assoc_loop`: into a map, the entries go into one mutation of it."""
    fn, init, coll = n.args
    a = fn.arities[0]
    acc, item = a.params[0].pyname, a.params[1].pyname
    name = "reduce_" + fn.frame.pyname
    captures = [b.pyname for b in fn.frame.captures]
    stopped = ast.If(ast.Compare(P.call(helper("_type"), P.load(acc)), [ast.Is()], [helper("_Reduced")]),
                     [ast.Return(P.attr(acc, "value"))], [])
    step = [ast.Assign([ast.Name(acc, ast.Store())], c.expr(a.body)), stopped]
    enter = ast.Assign([ast.Name("_r", ast.Store())], ast.Attribute(helper("_h"), "s", ast.Load()))
    body = [enter, _items_loop(c, n, a, item, step), ast.Return(P.load(acc))]
    if _assoc_into(a):
        body[1:1] = _assoc_loop(c, n, a)
    args = ast.arguments([], [ast.arg(p) for p in (*captures, acc, "_coll")], None, [], [],
                         None, [])
    function = ast.FunctionDef(name, args, body, [], None)
    c.add_function(function, fn.span)
    return P.call(name, *map(P.load, captures), c.expr(init), c.expr(coll))


def _items_loop(c, n: N.Call, a: N.Arity, item: str, step: list) -> ast.stmt:
    """`for item in _items("reduce", _coll): <deadline check> <step>`, the deadline checked
    between chunks of items instead when the body takes constant time."""
    items = c.located(P.call(helper("_items"), ast.Constant("reduce"), P.load("_coll")), n.span)
    if constant_time(a.body):
        inner = ast.For(ast.Name(item, ast.Store()), P.load("_part"), step, [])
        return ast.For(ast.Name("_part", ast.Store()), P.call(helper("_chunks"), items), [inner], [])
    late = ast.If(ast.Compare(P.call(helper("_clock")), [ast.Gt()], [P.attr("_r", "deadline")]),
                  [ast.Expr(P.call(helper("_timeout")))], [])
    return ast.For(ast.Name(item, ast.Store()), items, [late, *step], [])


def _assoc_into(a: N.Arity) -> bool:
    """Whether the body is `(assoc acc k v)`, acc the first parameter, read by neither k nor v."""
    body, acc = a.body, a.params[0]
    return (type(body) is N.Call and type(body.fn) is N.BuiltinRef and body.fn.name == "assoc"
            and len(body.args) == 3 and type(body.args[0]) is N.LocalRef
            and body.args[0].binding is acc and not _reads(body.args[1:], acc))


def _reads(nodes: tuple, binding: N.Binding) -> bool:
    """Whether `binding` is read anywhere in `nodes`."""
    return any(type(x) is N.LocalRef and x.binding is binding for x in N.walk(nodes))


def _assoc_loop(c, n: N.Call, a: N.Arity) -> list[ast.stmt]:
    """`(reduce (fn [m x] (assoc m k v)) {} xs)` into a map: each entry is set in one
    mutation of the map, finished at the end, instead of a new map per item:

        if _type(acc) is _Map:
            _b = acc.mutate()
            for x in _items("reduce", coll):
                <deadline check>
                _k = <k>; _v = <v>
                if _type(_k) in _PLAIN_KEYS and _len(_b) < _r.max_coll: _b[_k] = _v
                else: _b = b_assoc__3(_b.finish(), _k, _v).mutate()
            return _b.finish()

    A key of another kind (true, a vector...), or a map at the collection limit, goes
    through the builtin, which gives the same result or error as ever; below the limit
    one entry more cannot pass it. The result is a map, never `reduced`."""
    acc, item = a.params[0].pyname, a.params[1].pyname
    key, value = a.body.args[1:]
    b = BUILTINS["assoc"]
    assoc = f"{b.pyname}__3" if 3 in b.variants else b.pyname
    plain = ast.BoolOp(ast.And(), [
        ast.Compare(P.call(helper("_type"), P.load("_k")), [ast.In()], [helper("_PLAIN_KEYS")]),
        ast.Compare(P.call(helper("_len"), P.load("_b")), [ast.Lt()], [P.attr("_r", "max_coll")])])
    builtin = P.call(ast.Attribute(P.call(assoc, P.call(P.attr("_b", "finish")), P.load("_k"),
                                          P.load("_v")), "mutate", ast.Load()))
    step = [P.assign("_k", c.expr(key)), P.assign("_v", c.expr(value)),
            ast.If(plain, [ast.Assign([ast.Subscript(P.load("_b"), P.load("_k"), ast.Store())],
                                      P.load("_v"))],
                   [P.assign("_b", c.located(builtin, a.body.span))])]
    batch = [P.assign("_b", P.call(P.attr(acc, "mutate"))), _items_loop(c, n, a, item, step),
             ast.Return(P.call(P.attr("_b", "finish")))]
    is_map = ast.Compare(P.call(helper("_type"), P.load(acc)), [ast.Is()], [helper("_Map")])
    return [ast.If(is_map, batch, [])]
