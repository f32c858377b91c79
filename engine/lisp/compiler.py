"""The compiler: nodes to a Python AST module, compiled once and run as ordinary Python.

Every `fn` becomes a module-level factory taking the values it captures (so closures capture
values, as in Clojure); `loop` and `for`/`doseq` become functions with a real `while`/`for`;
`let` becomes walrus assignments; tail positions become statements, so `recur` is `continue`.
User text only ever reaches the code as constants or as escaped identifiers, never as source.
Every generated node carries its form's Span, so a runtime error knows its line and column.
"""

from __future__ import annotations

import ast
import re

from engine.lisp import nodes as N
from engine.lisp.builtins.registry import BUILTINS
from engine.lisp.fused import constant_time, fused_call
from engine.lisp.inline import inline_call
from engine.lisp.helpers import helper
from engine.lisp.running import check_deadline
from engine.lisp.values import FnInfo, Keyword

FILENAME = "<ptc>"
_SIMPLE_CONSTANTS = (type(None), bool, int, float, str)
_PLAIN_KEYS = (Keyword, str, int)   # map keys that need no size check and no BoolKey


def mangle(name: str) -> str:
    """A user-namespace name as a Python identifier (reversible, ASCII only)."""
    return "u_" + re.sub(r"[^a-zA-Z0-9]", lambda m: f"_{ord(m.group()):x}_", name)


def demangle(pyname: str) -> str:
    return re.sub(r"_([0-9a-f]+)_", lambda m: chr(int(m.group(1), 16)), pyname[2:])


def _load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _store(name: str) -> ast.Name:
    return ast.Name(name, ast.Store())


def _call(fn: str | ast.expr, *args) -> ast.Call:
    return ast.Call(_load(fn) if type(fn) is str else fn, list(args), [])


def _locate(tree, span):
    if span is not None and isinstance(tree, (ast.expr, ast.stmt)) and not hasattr(tree, "lineno"):
        tree.lineno, tree.col_offset = span.line, span.col - 1
        tree.end_lineno, tree.end_col_offset = span.end_line, max(span.end_col - 1, 0)
        if tree.end_lineno == tree.lineno and tree.end_col_offset < tree.col_offset:
            tree.end_col_offset = tree.col_offset
    return tree


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

    # --- entry -------------------------------------------------------------------------
    def compile_top(self, frame: N.Frame, node) -> tuple[object, str]:
        body = [_enter()] + self.tail(node, None)
        main = ast.FunctionDef(frame.pyname, _arguments([]), body, [], None)
        self.module.append(_locate(main, getattr(node, "span", None)))
        tree = _fill_locations(ast.Module(self.module, []))
        code = compile(tree, FILENAME, "exec")
        return code, frame.pyname

    def add_function(self, function: ast.FunctionDef, span) -> None:
        """A module-level function of this form's code (a fn's factory, a loop...)."""
        self.module.append(_locate(function, span))

    def located(self, tree, span):
        """`tree` placed at `span` of the source (for errors raised there)."""
        return _locate(tree, span)

    def temp(self) -> str:
        self.temp_count += 1
        return f"_t{self.temp_count}"

    def const(self, value) -> ast.expr:
        if type(value) in _SIMPLE_CONSTANTS:
            return ast.Constant(value)
        name = f"_c{len(self.constants)}{self.unit}"
        self.constants[name] = value
        return _load(name)

    # --- expressions -------------------------------------------------------------------
    def expr(self, node) -> ast.expr:
        self.steps += 1
        if self.steps % 1024 == 0:
            check_deadline()
        return _locate(_EXPRESSIONS[type(node)](self, node), node.span)

    def e_Const(self, n):
        return self.const(n.value)

    def e_LocalRef(self, n):
        return _load(n.binding.pyname)

    def e_GlobalRef(self, n):
        return ast.Subscript(_state("ns"), ast.Constant(n.name), ast.Load())

    def e_BuiltinRef(self, n):
        return _load(BUILTINS[n.name].pyname)

    def e_DataRef(self, n):
        return _method("data_get", ast.Constant(n.key))

    def e_VectorLit(self, n):
        return ast.Tuple([self.expr(x) for x in n.items], ast.Load())

    def e_MapLit(self, n):
        flat = [self.expr(x) for pair in n.pairs for x in pair]
        if all(type(k) is N.Const and type(k.value) in _PLAIN_KEYS for k, _ in n.pairs):
            # `{:id x :name y}`: keys known to be plain, so nothing to check or wrap
            return _call(helper("_make_plain_map"), ast.Tuple(flat, ast.Load()))
        return _call(helper("_make_map"), ast.Tuple(flat, ast.Load()))

    def e_SetLit(self, n):
        return _call(helper("_make_set"), ast.Tuple([self.expr(x) for x in n.items], ast.Load()))

    def e_If(self, n):
        return ast.IfExp(self.test(n.test), self.expr(n.then), self.expr(n.else_))

    def e_Do(self, n):
        return _last([self.expr(x) for x in n.body])

    def e_Let(self, n):
        items = [ast.NamedExpr(_store(b.pyname), self.expr(v)) for b, v in n.steps]
        return _last(items + [self.expr(n.body)])

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
            test = _truthy(ast.NamedExpr(_store(t), self.expr(item)), t)
            # and: a falsy item is the result; or: a truthy item is the result
            result = ast.IfExp(test, result, _load(t)) if is_and else \
                ast.IfExp(test, _load(t), result)
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
            fast = inline_call(fn.name, n.args, args, name, self.temp)
            if fast is not None:
                return fast
            return ast.Call(_locate(_load(name), fn.span), args, [])
        if type(fn) is N.LocalRef:
            f = self.expr(fn)
            callee = ast.IfExp(_is_function(self.expr(fn)), f, _call(helper("_as_fn"), self.expr(fn)))
        else:
            t = self.temp()
            walrus = ast.NamedExpr(_store(t), self.expr(fn))
            callee = ast.IfExp(_is_function(walrus), _load(t), _call(helper("_as_fn"), _load(t)))
        return ast.Call(callee, args, [])

    def e_Intrinsic(self, n):
        args = [self.expr(a) for a in n.args]
        if n.name == "is_missing":
            return ast.Compare(args[0], [ast.Is()], [helper("_MISSING")])
        if n.name == "define":
            return _method("define", *args)
        if n.name == "keyword_get" and len(args) == 2:   # (:k m): the usual field read
            return self.field(n.args[1], args[1], args[0], n.args[0].value.name)
        return _call(helper("_" + n.name), *args)

    def field(self, node, m: ast.expr, kw: ast.expr, name: str) -> ast.expr:
        """`(:k m)` in place when m is a map: the keyword's entry, else the name's (maps from
        JSON have string keys), else nil; `_field` for anything else (nil, sets, errors)."""
        if type(node) is not N.LocalRef:
            t = self.temp()
            m, test_m = _load(t), ast.NamedExpr(_store(t), m)
        else:
            test_m = m
        value = self.temp()
        by_keyword = ast.NamedExpr(_store(value), ast.Call(ast.Attribute(m, "get", ast.Load()),
                                                           [kw, helper("_MISSING")], []))
        by_name = ast.Call(ast.Attribute(m, "get", ast.Load()), [ast.Constant(name)], [])
        read = ast.IfExp(ast.Compare(by_keyword, [ast.IsNot()], [helper("_MISSING")]),
                         _load(value), by_name)
        is_map = ast.Compare(_call(helper("_type"), test_m), [ast.In()], [helper("_MAPS")])
        return ast.IfExp(is_map, read, _call(helper("_field"), m, kw, ast.Constant(name)))

    def e_ToolCall(self, n):
        args = ast.Tuple([self.expr(a) for a in n.args], ast.Load())
        return _method("call_tool", ast.Constant(n.name), args)

    def e_ToolRef(self, n):
        return _method("tool_value", ast.Constant(n.name))

    def e_Fn(self, n):
        factory = self.fn_factory(n)
        return _call(factory, *[_load(b.pyname) for b in n.frame.captures])

    def e_Letfn(self, n):
        return _last(self.letfn_assignments(n, as_walrus=True) + [self.expr(n.body)])

    def e_Loop(self, n):
        return self.loop_function(n)

    def e_For(self, n):
        return self.for_function(n)

    def e_Recur(self, n):
        raise AssertionError("recur outside tail position reached the compiler")

    # --- tests (Python truth of a PTC value) -------------------------------------------
    def test(self, node) -> ast.expr:
        if _is_boolean(node):
            return self.expr(node)
        if type(node) is N.LocalRef:
            return _truthy(self.expr(node), node.binding.pyname)
        t = self.temp()
        return _truthy(ast.NamedExpr(_store(t), self.expr(node)), t)

    # --- statements in tail position ----------------------------------------------------
    def tail(self, node, recur) -> list[ast.stmt]:
        """Statements that end by returning `node`'s value (or by recurring)."""
        statements = _TAIL_STATEMENTS.get(type(node))
        if statements is not None:
            return statements(self, node, recur)
        return [_locate(ast.Return(self.expr(node)), node.span)]

    def t_If(self, node, recur):
        stmt = ast.If(self.test(node.test), self.tail(node.then, recur),
                      self.tail(node.else_, recur))
        return [_locate(stmt, node.span)]

    def t_Let(self, node, recur):
        stmts = [_locate(ast.Assign([_store(b.pyname)], self.expr(v)), v.span)
                 for b, v in node.steps]
        return stmts + self.tail(node.body, recur)

    def t_Do(self, node, recur):
        stmts = [_locate(ast.Expr(self.expr(x)), x.span) for x in node.body[:-1]]
        return stmts + self.tail(node.body[-1], recur)

    def t_Letfn(self, node, recur):
        return [_locate(s, node.span) for s in self.letfn_assignments(node, as_walrus=False)] + \
            self.tail(node.body, recur)

    def recur(self, node: N.Recur, recur) -> list[ast.stmt]:
        """`_n += 1`, the loop limit and the deadline checked, the new values, `continue`.
        A loop whose body takes constant time checks the clock every 1,024 jumps, as a
        builtin checks it between chunks of items."""
        params, prologue, cheap = recur
        span = node.span
        stmts = [_increment(_store("_n")), _over_limit(_load("_n"), "max_loop", "_loop_limit"),
                 _deadline_check(every_1024=cheap)]
        values = [self.expr(a) for a in node.args]
        if len(params) == 1:
            stmts.append(ast.Assign([_store(params[0].pyname)], values[0]))
        elif params:
            stmts.append(ast.Assign([ast.Tuple([_store(p.pyname) for p in params], ast.Store())],
                                    ast.Tuple(values, ast.Load())))
        stmts.extend(self.assignments(prologue))
        stmts.append(ast.Continue())
        return [_locate(s, span) for s in stmts]

    def assignments(self, steps) -> list[ast.stmt]:
        return [_locate(ast.Assign([_store(b.pyname)], self.expr(v)), v.span) for b, v in steps]

    # --- frames ------------------------------------------------------------------------
    def fn_def(self, n: N.Fn) -> ast.FunctionDef:
        """The Python function of a `fn`, to be placed inside its factory."""
        name = self.fn_pyname(n)
        label = n.label or (n.name.name if n.name else None)
        arities = n.arities
        if len(arities) == 1:
            a = arities[0]
            args = _arguments([p.pyname for p in a.params], a.rest.pyname if a.rest else None)
            body = self.arity_body(a)
        else:
            args = _arguments([], "_args")
            body = self.dispatch(arities, label)
        body = self.guard(body, n.frame.leaf)
        fn = ast.FunctionDef(name, args, body, [], None)
        self.fn_infos[name] = FnInfo(label, _param_names(arities[0]), tuple(
            _arity_text(a) for a in arities))
        return _locate(fn, n.span)

    def fn_pyname(self, n: N.Fn) -> str:
        """`fn_<mangled label>_<frame>`: arity errors read the label back from it."""
        label = n.label or (n.name.name if n.name else "fn")
        return f"fn_{mangle(label)[2:]}_{n.frame.pyname}"

    def fn_factory(self, n: N.Fn) -> str:
        factory = "mk_" + n.frame.pyname
        inner = self.fn_def(n)
        params = [b.pyname for b in n.frame.captures]
        body = [inner]
        if n.name is not None:   # (fn self [x] ...) refers to itself by name
            body.append(ast.Assign([_store(n.name.pyname)], _load(inner.name)))
        body.append(ast.Return(_load(inner.name)))
        self.module.append(_locate(ast.FunctionDef(factory, _arguments(params), body, [],
                                                        None), n.span))
        return factory

    def arity_body(self, a: N.Arity) -> list[ast.stmt]:
        prologue = self.assignments(a.prologue)
        params = list(a.params) + ([a.rest] if a.rest else [])
        cheap = constant_time(a.body) and not a.prologue
        body = self.tail(a.body, (params, a.prologue, cheap) if a.has_recur else None)
        if a.has_recur:
            return [_assign("_n", ast.Constant(0)),
                    ast.While(ast.Constant(True), prologue + body, [])]
        return prologue + body

    def dispatch(self, arities, label) -> list[ast.stmt]:
        """Multi-arity: choose the arity by argument count."""
        stmts: list[ast.stmt] = [ast.Assign([_store("_argc")], _call(helper("_len"), _load("_args")))]
        for a in sorted(arities, key=lambda a: (a.rest is not None, len(a.params))):
            count = len(a.params)
            op = ast.GtE() if a.rest else ast.Eq()
            unpack = []
            if a.params:
                target = ast.Tuple([_store(p.pyname) for p in a.params], ast.Store())
                source = ast.Subscript(_load("_args"), ast.Slice(None, ast.Constant(count)),
                                       ast.Load())
                unpack.append(ast.Assign([target], source))
            if a.rest:
                rest = ast.Subscript(_load("_args"), ast.Slice(ast.Constant(count), None),
                                     ast.Load())
                unpack.append(ast.Assign([_store(a.rest.pyname)], rest))
            test = ast.Compare(_load("_argc"), [op], [ast.Constant(count)])
            stmts.append(ast.If(test, unpack + self.arity_body(a), []))
        expected = " or ".join(_arity_text(a) for a in arities)
        stmts.append(ast.Expr(_call(helper("_arity_mismatch"), ast.Constant(label or "fn"),
                                    ast.Constant(expected), _load("_argc"))))
        return stmts

    def guard(self, body, leaf: bool) -> list[ast.stmt]:
        """Deadline check on entry; non-leaf functions also count their nesting depth."""
        check = [_enter(), _deadline_check()]
        if leaf:
            return check + body
        enter = [_increment(_state("depth", ast.Store())),
                 _over_limit(_state("depth"), "max_depth", "_too_deep")]
        leave = [_increment(_state("depth", ast.Store()), -1)]
        return check + enter + [ast.Try(body, [], [], leave)]

    def letfn_assignments(self, n: N.Letfn, as_walrus: bool) -> list:
        factory = "mk_" + n.frame.pyname
        defs: list[ast.stmt] = []
        for b, fn in n.fns:
            inner = self.fn_def(fn)
            defs += [inner, ast.Assign([_store(b.pyname)], _load(inner.name))]
        returned = ast.Tuple([_load(b.pyname) for b, _ in n.fns], ast.Load())
        params = [b.pyname for b in n.frame.captures]
        self.module.append(_locate(ast.FunctionDef(
            factory, _arguments(params), defs + [ast.Return(returned)], [], None), n.span))
        made = _call(factory, *[_load(b.pyname) for b in n.frame.captures])
        t = self.temp()
        if as_walrus:
            items = [ast.NamedExpr(_store(t), made)]
            items += [ast.NamedExpr(_store(b.pyname), _index(t, i)) for i, (b, _) in enumerate(n.fns)]
            return items
        stmts = [ast.Assign([_store(t)], made)]
        stmts += [ast.Assign([_store(b.pyname)], _index(t, i)) for i, (b, _) in enumerate(n.fns)]
        return stmts

    def loop_function(self, n: N.Loop) -> ast.expr:
        name = n.frame.pyname
        params = [b.pyname for b in n.frame.captures]
        init = self.assignments(n.steps)
        counter = [_assign("_n", ast.Constant(0))]
        cheap = constant_time(n.body) and not n.prologue
        body = self.tail(n.body, (list(n.params), n.prologue, cheap))
        fn = ast.FunctionDef(name, _arguments(params), [_enter()] + init + counter +
                             [ast.While(ast.Constant(True), body, [])], [], None)
        self.module.append(_locate(fn, n.span))
        return _call(name, *[_load(p) for p in params])

    def for_function(self, n: N.For) -> ast.expr:
        name = n.frame.pyname
        params = [b.pyname for b in n.frame.captures]
        if n.collect:
            value = self.expr(n.body)
            innermost = [ast.Expr(ast.Call(ast.Attribute(_load("_out"), "append", ast.Load()),
                                           [value], [])),
                         _over_limit(_call(helper("_len"), _load("_out")), "max_coll", "_too_big")]
        else:
            innermost = [ast.Expr(self.expr(n.body))]
        body = innermost
        for clause in reversed(n.clauses):
            body = self.for_clause(clause, body)
        start = [_assign("_out", ast.List([], ast.Load()))] if n.collect else []
        end = [ast.Return(_call(helper("_tuple"), _load("_out")) if n.collect else ast.Constant(None))]
        fn = ast.FunctionDef(name, _arguments(params), [_enter()] + start + body + end, [], None)
        self.module.append(_locate(fn, n.span))
        return _call(name, *[_load(p) for p in params])

    def for_clause(self, c: N.ForClause, inner: list[ast.stmt]) -> list[ast.stmt]:
        if c.kind == "bind":
            check = [_deadline_check()]
            loop = ast.For(_store(c.item.pyname), _call(helper("_iterate"), self.expr(c.coll)),
                           check + self.assignments(c.steps) + inner, [])
            return [_locate(loop, c.coll.span)]
        if c.kind == "let":
            return self.assignments(c.steps) + inner
        jump = ast.Continue() if c.kind == "when" else ast.Break()
        return [ast.If(ast.UnaryOp(ast.Not(), self.test(c.test)), [jump], [])] + inner


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


_LOCATED = (ast.expr, ast.stmt, ast.excepthandler, ast.arg, ast.keyword)


def _fill_locations(tree):
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


def _assign(name: str, value: ast.expr) -> ast.stmt:
    return ast.Assign([_store(name)], value)


def _increment(target: ast.expr, by: int = 1) -> ast.stmt:
    return ast.AugAssign(target, ast.Add(), ast.Constant(by))


def _state(attr: str, ctx=None) -> ast.expr:
    """`_r.attr`: `_r` is the running program's RunContext, fetched on entry to every
    generated function, so compiled code works in whichever run calls it."""
    return ast.Attribute(_load("_r"), attr, ctx or ast.Load())


def _method(name: str, *args) -> ast.expr:
    return ast.Call(_state(name), list(args), [])


def _enter() -> ast.stmt:
    """`_r = _h.s`: the RunContext of the run on this thread."""
    return _assign("_r", ast.Attribute(helper("_h"), "s", ast.Load()))


def _over_limit(value: ast.expr, limit: str, fail: str) -> ast.stmt:
    """`if value > _r.<limit>: fail()`"""
    test = ast.Compare(value, [ast.Gt()], [_state(limit)])
    return ast.If(test, [ast.Expr(_call(helper(fail)))], [])


def _deadline_check(every_1024: bool = False) -> ast.stmt:
    """`if _clock() > _r.deadline: _timeout()` (every_1024: `if not _n & 1023 and ...`,
    checked on one loop jump in 1,024)."""
    late = ast.Compare(_call(helper("_clock")), [ast.Gt()], [_state("deadline")])
    if every_1024:
        turn = ast.UnaryOp(ast.Not(), ast.BinOp(_load("_n"), ast.BitAnd(), ast.Constant(1023)))
        late = ast.BoolOp(ast.And(), [turn, late])
    return ast.If(late, [ast.Expr(_call(helper("_timeout")))], [])


def _arguments(names, vararg: str | None = None) -> ast.arguments:
    return ast.arguments([], [ast.arg(n) for n in names], ast.arg(vararg) if vararg else None,
                         [], [], None, [])


def _last(items: list) -> ast.expr:
    if len(items) == 1:
        return items[0]
    return ast.Subscript(ast.Tuple(items, ast.Load()), ast.Constant(-1), ast.Load())


def _index(name: str, i: int) -> ast.expr:
    return ast.Subscript(_load(name), ast.Constant(i), ast.Load())


def _truthy(value: ast.expr, name: str) -> ast.expr:
    """`value is not None and name is not False` (value may bind `name` with a walrus)."""
    return ast.BoolOp(ast.And(), [ast.Compare(value, [ast.IsNot()], [ast.Constant(None)]),
                                  ast.Compare(_load(name), [ast.IsNot()], [ast.Constant(False)])])


def _is_function(value: ast.expr) -> ast.expr:
    return ast.Compare(_call(helper("_type"), value), [ast.Is()], [helper("_Function")])


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


def _param_names(a: N.Arity) -> tuple[str, ...]:
    names = [p.name.strip() if not p.name.startswith(" ") else "_" for p in a.params]
    if a.rest:
        names += ["&", a.rest.name if not a.rest.name.startswith(" ") else "_"]
    return tuple(names)


def _arity_text(a: N.Arity) -> str:
    return f"at least {len(a.params)}" if a.rest else str(len(a.params))
