"""The compiler: nodes to a Python AST module, compiled once and run as ordinary Python.

Every `fn` becomes a module-level factory taking the values it captures (so closures capture
values, as in Clojure); `loop` and `for`/`doseq` become functions with a real `while`/`for`;
`let` becomes walrus assignments; tail positions become statements, so `recur` is `continue`.
User text only ever reaches the code as constants or as escaped identifiers, never as source.
Every generated node carries its form's Span, so a runtime error knows its line and column.
"""

from __future__ import annotations

import ast

from engine.lisp import nodes as N
from engine.lisp import compile_functions as F
from engine.lisp import pyast as P
from engine.lisp.builtins.registry import BUILTINS
from engine.lisp.fused import fused_call
from engine.lisp.inline import inline_call
from engine.lisp.helpers import helper
from engine.lisp.running import check_deadline
from engine.lisp.values import FnInfo, Keyword

FILENAME = "<ptc>"
_SIMPLE_CONSTANTS = (type(None), bool, int, float, str)
_PLAIN_KEYS = (Keyword, str, int)   # map keys that need no size check and no BoolKey


class Compiler:
    """Compiles one top-level node; `constants` collects values the code reads as globals.
    Generated names end in `unit`, unique to the run, so compiled code of different runs
    can share one globals dict (a function passed to a later run in memory does)."""

    def __init__(self, constants: dict, unit: str = "u"):
        self.unit = unit
        self.module: list[ast.stmt] = []
        self.constants = constants     # shared by all the forms of one run
        self.fn_infos: dict[str, FnInfo] = {}
        self.temp_count = 0
        self.steps = 0     # nodes compiled: the deadline is checked every 1024
        self.ints: set[N.Binding] = set()    # locals known to hold integers (loop counters)

    # --- entry -------------------------------------------------------------------------
    def compile_top(self, frame: N.Frame, node) -> tuple[object, str]:
        body = [P.enter()] + self.tail(node, None)
        main = ast.FunctionDef(frame.pyname, P.arguments([]), body, [], None)
        self.module.append(P.locate(main, getattr(node, "span", None)))
        tree = P.fill_locations(ast.Module(self.module, []))
        code = compile(tree, FILENAME, "exec")
        return code, frame.pyname

    def add_function(self, function: ast.FunctionDef, span) -> None:
        """A module-level function of this form's code (a fn's factory, a loop...)."""
        self.module.append(P.locate(function, span))

    def located(self, tree, span):
        """`tree` placed at `span` of the source (for errors raised there)."""
        return P.locate(tree, span)

    def temp(self) -> str:
        self.temp_count += 1
        return f"_t{self.temp_count}"

    def const(self, value) -> ast.expr:
        if type(value) in _SIMPLE_CONSTANTS:
            return ast.Constant(value)
        name = f"_c{len(self.constants)}{self.unit}"
        self.constants[name] = value
        return P.load(name)

    # --- expressions -------------------------------------------------------------------
    def expr(self, node) -> ast.expr:
        self.steps += 1
        if self.steps % 1024 == 0:
            check_deadline()
        return P.locate(_EXPRESSIONS[type(node)](self, node), node.span)

    def e_Const(self, n):
        return self.const(n.value)

    def e_LocalRef(self, n):
        return P.load(n.binding.pyname)

    def e_GlobalRef(self, n):
        return ast.Subscript(P.state("ns"), ast.Constant(n.name), ast.Load())

    def e_BuiltinRef(self, n):
        return P.load(BUILTINS[n.name].pyname)

    def e_DataRef(self, n):
        return P.method("data_get", ast.Constant(n.key))

    def e_VectorLit(self, n):
        return ast.Tuple([self.expr(x) for x in n.items], ast.Load())

    def e_MapLit(self, n):
        flat = [self.expr(x) for pair in n.pairs for x in pair]
        if all(type(k) is N.Const and type(k.value) in _PLAIN_KEYS for k, _ in n.pairs):
            # `{:id x :name y}`: keys known to be plain, so nothing to check or wrap
            return P.call(helper("_make_plain_map"), ast.Tuple(flat, ast.Load()))
        return P.call(helper("_make_map"), ast.Tuple(flat, ast.Load()))

    def e_SetLit(self, n):
        return P.call(helper("_make_set"), ast.Tuple([self.expr(x) for x in n.items], ast.Load()))

    def e_If(self, n):
        return ast.IfExp(self.test(n.test), self.expr(n.then), self.expr(n.else_))

    def e_Do(self, n):
        return P.last([self.expr(x) for x in n.body])

    def e_Let(self, n):
        items = [ast.NamedExpr(P.store(b.pyname), self.expr(v)) for b, v in n.steps]
        return P.last(items + [self.expr(n.body)])

    def e_And(self, n):
        return self._short_circuit(n.items, is_and=True)

    def e_Or(self, n):
        return self._short_circuit(n.items, is_and=False)

    def _short_circuit(self, items, is_and: bool):
        if all(map(_is_boolean, items)):     # true or false each: Python's and/or is the same
            return ast.BoolOp(ast.And() if is_and else ast.Or(), [self.expr(x) for x in items])
        result = self.expr(items[-1])
        for item in reversed(items[:-1]):
            t = self.temp()
            test = P.truthy(ast.NamedExpr(P.store(t), self.expr(item)), t)
            # and: a falsy item is the result; or: a truthy item is the result
            result = ast.IfExp(test, result, P.load(t)) if is_and else \
                ast.IfExp(test, P.load(t), result)
        return result

    def e_Call(self, n):
        fn = n.fn
        if type(fn) is N.BuiltinRef:
            fused = fused_call(self, fn.name, n)
            if fused is not None:
                return fused
        args = [self.expr(a) for a in n.args]
        if type(fn) is N.BuiltinRef:
            b = BUILTINS[fn.name]
            name = f"{b.pyname}__{len(args)}" if len(args) in b.variants else b.pyname
            fast = inline_call(fn.name, n.args, args, name, self.temp, self.ints)
            if fast is not None:
                return fast
            return ast.Call(P.locate(P.load(name), fn.span), args, [])
        if type(fn) is N.LocalRef:
            f = self.expr(fn)
            callee = ast.IfExp(P.is_function(self.expr(fn)), f, P.call(helper("_as_fn"), self.expr(fn)))
        else:
            t = self.temp()
            walrus = ast.NamedExpr(P.store(t), self.expr(fn))
            callee = ast.IfExp(P.is_function(walrus), P.load(t), P.call(helper("_as_fn"), P.load(t)))
        return ast.Call(callee, args, [])

    def e_Intrinsic(self, n):
        args = [self.expr(a) for a in n.args]
        if n.name == "is_missing":
            return ast.Compare(args[0], [ast.Is()], [helper("_MISSING")])
        if n.name == "define":
            return P.method("define", *args)
        if n.name == "keyword_get" and len(args) == 2:   # (:k m): the usual field read
            return self.field(n.args[1], args[1], args[0], n.args[0].value.name)
        return P.call(helper("_" + n.name), *args)

    def field(self, node, m: ast.expr, kw: ast.expr, name: str) -> ast.expr:
        """`(:k m)` in place when m is a map: the keyword's entry, else the name's (maps from
        JSON have string keys), else nil; `_field` for anything else (nil, sets, errors)."""
        if type(node) is not N.LocalRef:
            t = self.temp()
            m, test_m = P.load(t), ast.NamedExpr(P.store(t), m)
        else:
            test_m = m
        value = self.temp()
        by_keyword = ast.NamedExpr(P.store(value), ast.Call(ast.Attribute(m, "get", ast.Load()),
                                                           [kw, helper("_MISSING")], []))
        by_name = ast.Call(ast.Attribute(m, "get", ast.Load()), [ast.Constant(name)], [])
        read = ast.IfExp(ast.Compare(by_keyword, [ast.IsNot()], [helper("_MISSING")]),
                         P.load(value), by_name)
        is_map = ast.Compare(P.call(helper("_type"), test_m), [ast.In()], [helper("_MAPS")])
        return ast.IfExp(is_map, read, P.call(helper("_field"), m, kw, ast.Constant(name)))

    def e_ToolCall(self, n):
        args = ast.Tuple([self.expr(a) for a in n.args], ast.Load())
        return P.method("call_tool", ast.Constant(n.name), args)

    def e_ToolRef(self, n):
        return P.method("tool_value", ast.Constant(n.name))

    def e_Fn(self, n):
        factory = F.fn_factory(self, n)
        return P.call(factory, *[P.load(b.pyname) for b in n.frame.captures])

    def e_Letfn(self, n):
        return P.last(F.letfn_assignments(self, n, as_walrus=True) + [self.expr(n.body)])

    def e_Loop(self, n):
        return F.loop_function(self, n)

    def e_For(self, n):
        return F.for_function(self, n)

    def e_Recur(self, n):
        raise AssertionError("recur outside tail position reached the compiler")

    # --- tests (Python truth of a PTC value) -------------------------------------------
    def test(self, node) -> ast.expr:
        if _is_boolean(node):
            return self.expr(node)
        if type(node) is N.LocalRef:
            return P.truthy(self.expr(node), node.binding.pyname)
        t = self.temp()
        return P.truthy(ast.NamedExpr(P.store(t), self.expr(node)), t)

    # --- statements in tail position ----------------------------------------------------
    def tail(self, node, recur) -> list[ast.stmt]:
        """Statements that end by returning `node`'s value (or by recurring)."""
        statements = _TAIL_STATEMENTS.get(type(node))
        if statements is not None:
            return statements(self, node, recur)
        return [P.locate(ast.Return(self.expr(node)), node.span)]

    def t_If(self, node, recur):
        stmt = ast.If(self.test(node.test), self.tail(node.then, recur),
                      self.tail(node.else_, recur))
        return [P.locate(stmt, node.span)]

    def t_Let(self, node, recur):
        stmts = [P.locate(ast.Assign([P.store(b.pyname)], self.expr(v)), v.span)
                 for b, v in node.steps]
        return stmts + self.tail(node.body, recur)

    def t_Do(self, node, recur):
        stmts = [P.locate(ast.Expr(self.expr(x)), x.span) for x in node.body[:-1]]
        return stmts + self.tail(node.body[-1], recur)

    def t_Letfn(self, node, recur):
        return [P.locate(s, node.span) for s in F.letfn_assignments(self, node, as_walrus=False)] + \
            self.tail(node.body, recur)

    def recur(self, node: N.Recur, recur) -> list[ast.stmt]:
        """`_n += 1`, the loop limit and the deadline checked, the new values, `continue`.
        A loop whose body takes constant time checks the clock every 1,024 jumps, as a
        builtin checks it between chunks of items."""
        params, prologue, cheap = recur
        span = node.span
        stmts = [P.increment(P.store("_n")), P.over_limit(P.load("_n"), "max_loop", "_loop_limit"),
                 P.deadline_check(every_1024=cheap)]
        values = [self.expr(a) for a in node.args]
        if len(params) == 1:
            stmts.append(ast.Assign([P.store(params[0].pyname)], values[0]))
        elif params:
            stmts.append(ast.Assign([ast.Tuple([P.store(p.pyname) for p in params], ast.Store())],
                                    ast.Tuple(values, ast.Load())))
        stmts.extend(self.assignments(prologue))
        stmts.append(ast.Continue())
        return [P.locate(s, span) for s in stmts]

    def assignments(self, steps) -> list[ast.stmt]:
        return [P.locate(ast.Assign([P.store(b.pyname)], self.expr(v)), v.span) for b, v in steps]

    # --- frames ------------------------------------------------------------------------
# Node dispatch, one table each way, keyed by node class: `expr` compiles any node to an
# expression; `tail` compiles these five to statements and every other node to `return expr`.
_EXPRESSIONS = {N.Const: Compiler.e_Const, N.LocalRef: Compiler.e_LocalRef,
    N.GlobalRef: Compiler.e_GlobalRef, N.BuiltinRef: Compiler.e_BuiltinRef,
    N.DataRef: Compiler.e_DataRef, N.VectorLit: Compiler.e_VectorLit,
    N.MapLit: Compiler.e_MapLit, N.SetLit: Compiler.e_SetLit, N.If: Compiler.e_If,
    N.Do: Compiler.e_Do, N.Let: Compiler.e_Let, N.And: Compiler.e_And, N.Or: Compiler.e_Or,
    N.Call: Compiler.e_Call, N.Intrinsic: Compiler.e_Intrinsic, N.ToolCall: Compiler.e_ToolCall,
    N.ToolRef: Compiler.e_ToolRef, N.Fn: Compiler.e_Fn, N.Letfn: Compiler.e_Letfn,
    N.Loop: Compiler.e_Loop, N.For: Compiler.e_For, N.Recur: Compiler.e_Recur}
_TAIL_STATEMENTS = {N.If: Compiler.t_If, N.Let: Compiler.t_Let, N.Do: Compiler.t_Do,
                    N.Letfn: Compiler.t_Letfn, N.Recur: Compiler.recur}


def _is_boolean(node) -> bool:
    t = type(node)
    if t is N.Const:
        return type(node.value) is bool
    if t is N.Call and type(node.fn) is N.BuiltinRef:
        return BUILTINS[node.fn.name].returns_bool
    if t is N.Intrinsic:
        return node.name == "is_missing"
    if t is N.If:
        return _is_boolean(node.then) and _is_boolean(node.else_)
    if t is N.And or t is N.Or:
        return all(map(_is_boolean, node.items))
    return False
