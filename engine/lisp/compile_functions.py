"""`fn`, `letfn`, `loop` and `for`/`doseq` compiled to generated Python functions: a factory
per `fn` taking the values it captures, one body per arity with its arity dispatch, and
`loop`/`for` as functions with a real `while`/`for`. Each takes the Compiler `c` at work."""

from __future__ import annotations

import ast

from engine.lisp import nodes as N
from engine.lisp import pyast as P
from engine.lisp.fused import constant_time
from engine.lisp.helpers import helper
from engine.lisp.inline import int_valued
from engine.lisp.pyast import mangle
from engine.lisp.values import FnInfo


def fn_def(c, n: N.Fn) -> ast.FunctionDef:
    """The Python function of a `fn`, to be placed inside its factory."""
    name = fn_pyname(c, n)
    label = n.label or (n.name.name if n.name else None)
    arities = n.arities
    if len(arities) == 1:
        a = arities[0]
        args = P.arguments([p.pyname for p in a.params], a.rest.pyname if a.rest else None)
        body = arity_body(c, a)
    else:
        args = P.arguments([], "_args")
        body = dispatch(c, arities, label)
    body = guard(c, body, n.frame.leaf)
    fn = ast.FunctionDef(name, args, body, [], None)
    c.fn_infos[name] = FnInfo(label, _param_names(arities[0]), tuple(
        _arity_text(a) for a in arities))
    return P.locate(fn, n.span)

def fn_pyname(c, n: N.Fn) -> str:
    """`fn_<mangled label>_<frame>`: arity errors read the label back from it."""
    label = n.label or (n.name.name if n.name else "fn")
    return f"fn_{mangle(label)[2:]}_{n.frame.pyname}"

def fn_factory(c, n: N.Fn) -> str:
    factory = "mk_" + n.frame.pyname
    inner = fn_def(c, n)
    params = [b.pyname for b in n.frame.captures]
    body = [inner]
    if n.name is not None:   # (fn self [x] ...) refers to itself by name
        body.append(ast.Assign([P.store(n.name.pyname)], P.load(inner.name)))
    body.append(ast.Return(P.load(inner.name)))
    c.module.append(P.locate(ast.FunctionDef(factory, P.arguments(params), body, [],
                                                    None), n.span))
    return factory

def arity_body(c, a: N.Arity) -> list[ast.stmt]:
    prologue = c.assignments(a.prologue)
    params = list(a.params) + ([a.rest] if a.rest else [])
    cheap = constant_time(a.body) and not a.prologue
    body = c.tail(a.body, (params, a.prologue, cheap) if a.has_recur else None)
    if a.has_recur:
        return [P.assign("_n", ast.Constant(0)),
                ast.While(ast.Constant(True), prologue + body, [])]
    return prologue + body

def dispatch(c, arities, label) -> list[ast.stmt]:
    """Multi-arity: choose the arity by argument count."""
    stmts: list[ast.stmt] = [ast.Assign([P.store("_argc")], P.call(helper("_len"), P.load("_args")))]
    for a in sorted(arities, key=lambda a: (a.rest is not None, len(a.params))):
        count = len(a.params)
        op = ast.GtE() if a.rest else ast.Eq()
        unpack = []
        if a.params:
            target = ast.Tuple([P.store(p.pyname) for p in a.params], ast.Store())
            source = ast.Subscript(P.load("_args"), ast.Slice(None, ast.Constant(count)),
                                   ast.Load())
            unpack.append(ast.Assign([target], source))
        if a.rest:
            rest = ast.Subscript(P.load("_args"), ast.Slice(ast.Constant(count), None),
                                 ast.Load())
            unpack.append(ast.Assign([P.store(a.rest.pyname)], rest))
        test = ast.Compare(P.load("_argc"), [op], [ast.Constant(count)])
        stmts.append(ast.If(test, unpack + arity_body(c, a), []))
    expected = " or ".join(_arity_text(a) for a in arities)
    stmts.append(ast.Expr(P.call(helper("_arity_mismatch"), ast.Constant(label or "fn"),
                                ast.Constant(expected), P.load("_argc"))))
    return stmts

def guard(c, body, leaf: bool) -> list[ast.stmt]:
    """Deadline check on entry; non-leaf functions also count their nesting depth."""
    check = [P.enter(), P.deadline_check()]
    if leaf:
        return check + body
    enter = [P.increment(P.state("depth", ast.Store())),
             P.over_limit(P.state("depth"), "max_depth", "_too_deep")]
    leave = [P.increment(P.state("depth", ast.Store()), -1)]
    return check + enter + [ast.Try(body, [], [], leave)]

def letfn_assignments(c, n: N.Letfn, as_walrus: bool) -> list:
    factory = "mk_" + n.frame.pyname
    defs: list[ast.stmt] = []
    for b, fn in n.fns:
        inner = fn_def(c, fn)
        defs += [inner, ast.Assign([P.store(b.pyname)], P.load(inner.name))]
    returned = ast.Tuple([P.load(b.pyname) for b, _ in n.fns], ast.Load())
    params = [b.pyname for b in n.frame.captures]
    c.module.append(P.locate(ast.FunctionDef(
        factory, P.arguments(params), defs + [ast.Return(returned)], [], None), n.span))
    made = P.call(factory, *[P.load(b.pyname) for b in n.frame.captures])
    t = c.temp()
    if as_walrus:
        items = [ast.NamedExpr(P.store(t), made)]
        items += [ast.NamedExpr(P.store(b.pyname), P.index(t, i)) for i, (b, _) in enumerate(n.fns)]
        return items
    stmts = [ast.Assign([P.store(t)], made)]
    stmts += [ast.Assign([P.store(b.pyname)], P.index(t, i)) for i, (b, _) in enumerate(n.fns)]
    return stmts

def loop_function(c, n: N.Loop) -> ast.expr:
    name = n.frame.pyname
    c.ints |= loop_ints(n, c.ints)
    params = [b.pyname for b in n.frame.captures]
    init = c.assignments(n.steps)
    counter = [P.assign("_n", ast.Constant(0))]
    cheap = constant_time(n.body) and not n.prologue
    body = c.tail(n.body, (list(n.params), n.prologue, cheap))
    fn = ast.FunctionDef(name, P.arguments(params), [P.enter()] + init + counter +
                         [ast.While(ast.Constant(True), body, [])], [], None)
    c.module.append(P.locate(fn, n.span))
    return P.call(name, *[P.load(p) for p in params])

def loop_ints(n: N.Loop, ints) -> set:
    """The loop's parameters that hold an integer on every pass: each starts as one, and
    every recur gives it one when the others so found do (`ints`: locals outside known to
    hold integers). `(loop [i 0] ... (recur (inc i)))`: i."""
    if n.prologue:
        return set()
    found = set()
    for b, value in n.steps:
        if int_valued(value, ints | found):
            found.add(b)
    recurs = [r for r in N.walk(n.body) if type(r) is N.Recur and r.frame is n.frame]
    changed = True
    while changed:
        changed = False
        for r in recurs:
            for b, value in zip(n.params, r.args):
                if b in found and not int_valued(value, ints | found):
                    found.discard(b)
                    changed = True
    return found


def for_function(c, n: N.For) -> ast.expr:
    name = n.frame.pyname
    params = [b.pyname for b in n.frame.captures]
    if n.collect:
        value = c.expr(n.body)
        innermost = [ast.Expr(ast.Call(ast.Attribute(P.load("_out"), "append", ast.Load()),
                                       [value], [])),
                     P.over_limit(P.call(helper("_len"), P.load("_out")), "max_coll", "_too_big")]
    else:
        innermost = [ast.Expr(c.expr(n.body))]
    body = innermost
    for clause in reversed(n.clauses):
        body = for_clause(c, clause, body)
    start = [P.assign("_out", ast.List([], ast.Load()))] if n.collect else []
    end = [ast.Return(P.call(helper("_tuple"), P.load("_out")) if n.collect else ast.Constant(None))]
    fn = ast.FunctionDef(name, P.arguments(params), [P.enter()] + start + body + end, [], None)
    c.module.append(P.locate(fn, n.span))
    return P.call(name, *[P.load(p) for p in params])

def for_clause(c, clause: N.ForClause, inner: list[ast.stmt]) -> list[ast.stmt]:
    if clause.kind == "bind":
        check = [P.deadline_check()]
        loop = ast.For(P.store(clause.item.pyname), P.call(helper("_iterate"), c.expr(clause.coll)),
                       check + c.assignments(clause.steps) + inner, [])
        return [P.locate(loop, clause.coll.span)]
    if clause.kind == "let":
        return c.assignments(clause.steps) + inner
    jump = ast.Continue() if clause.kind == "when" else ast.Break()
    return [ast.If(ast.UnaryOp(ast.Not(), c.test(clause.test)), [jump], [])] + inner


def _param_names(a: N.Arity) -> tuple[str, ...]:
    names = [p.name.strip() if not p.name.startswith(" ") else "_" for p in a.params]
    if a.rest:
        names += ["&", a.rest.name if not a.rest.name.startswith(" ") else "_"]
    return tuple(names)


def _arity_text(a: N.Arity) -> str:
    return f"at least {len(a.params)}" if a.rest else str(len(a.params))
