"""Nodes: the analyzed program. Small frozen classes, each with the Span of its form.

Locals are `Binding`s (one per binding site, with a unique Python name); every piece of code
that becomes its own Python function (a `fn`, a `loop`, a `for`/`doseq`) is a `Frame` that
knows which outer bindings it captures.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.lisp.errors import Span


class Frame:
    """A unit compiled to one Python function; `captures` are outer bindings it reads."""

    def __init__(self, kind: str, parent: "Frame | None", pyname: str):
        self.kind = kind            # "main", "fn", "loop", "for"
        self.parent = parent
        self.pyname = pyname
        self.captures: dict[Binding, None] = {}   # ordered set
        self.leaf = True            # calls nothing that could call back into user code
        self.has_recur = False

    def __repr__(self) -> str:
        return f"Frame({self.kind}, {self.pyname})"


class Binding:
    """One local name at one binding site."""

    __slots__ = ("name", "pyname", "frame")

    def __init__(self, name: str, pyname: str, frame: Frame):
        self.name = name
        self.pyname = pyname
        self.frame = frame

    def __repr__(self) -> str:
        return f"Binding({self.name} -> {self.pyname})"


@dataclass(frozen=True, slots=True)
class Const:
    value: object
    span: Span


@dataclass(frozen=True, slots=True)
class LocalRef:
    binding: Binding
    span: Span


@dataclass(frozen=True, slots=True)
class GlobalRef:
    """A name in the user namespace (a def, or memory from earlier turns)."""
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class BuiltinRef:
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class DataRef:
    key: str
    span: Span


@dataclass(frozen=True, slots=True)
class VectorLit:
    items: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class MapLit:
    pairs: tuple   # ((key_node, value_node), ...)
    span: Span


@dataclass(frozen=True, slots=True)
class SetLit:
    items: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class If:
    test: object
    then: object
    else_: object
    span: Span


@dataclass(frozen=True, slots=True)
class Do:
    body: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class Let:
    """Sequential bindings, destructuring already flattened to (Binding, node) steps."""
    steps: tuple
    body: object
    span: Span


@dataclass(frozen=True, slots=True)
class And:
    items: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class Arity:
    params: tuple          # Bindings of the positional parameters
    rest: Binding | None   # the `& rest` parameter
    prologue: tuple        # destructuring steps run on entry (and after each recur)
    body: object
    has_recur: bool


@dataclass(frozen=True, slots=True)
class Fn:
    name: Binding | None   # for self-reference in (fn name [x] ...)
    arities: tuple
    frame: Frame
    label: str | None      # the defn name, for printing and errors
    span: Span


@dataclass(frozen=True, slots=True)
class Letfn:
    fns: tuple             # ((Binding, Fn), ...) sharing one frame
    frame: Frame
    body: object
    span: Span


@dataclass(frozen=True, slots=True)
class Loop:
    steps: tuple           # initial bindings (destructuring flattened)
    params: tuple          # Bindings rebound by recur
    prologue: tuple        # destructuring of params after recur
    body: object
    frame: Frame
    span: Span


@dataclass(frozen=True, slots=True)
class Recur:
    args: tuple
    frame: Frame
    span: Span


@dataclass(frozen=True, slots=True)
class Call:
    fn: object
    args: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class Intrinsic:
    """A call of a runtime helper the language itself needs (destructuring, where, def)."""
    name: str
    args: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class ToolCall:
    name: str
    args: tuple
    span: Span


@dataclass(frozen=True, slots=True)
class ToolRef:
    """`tool/name` used as a value, not called."""
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class ForClause:
    kind: str              # "bind", "let", "when", "while"
    steps: tuple = ()      # for bind/let: (Binding, node) steps; bind's first step reads `coll`
    coll: object = None
    item: Binding | None = None
    test: object = None


@dataclass(frozen=True, slots=True)
class For:
    """`for` (collects) and `doseq` (runs for effect): nested loops over clauses."""
    clauses: tuple
    body: object
    collect: bool
    frame: Frame
    span: Span


def walk(node):
    """`node` and every node inside it (nested fns included), for questions such as which
    locals a body reads; `node` may also be a tuple of nodes."""
    stack = [node]
    while stack:
        x = stack.pop()
        if type(x) is tuple:
            stack.extend(x)
            continue
        fields = getattr(type(x), "__dataclass_fields__", None)
        if fields is None or type(x) is Span:
            continue
        yield x
        if type(x) is not Const:
            stack.extend(getattr(x, f) for f in fields)


Node = (Const | LocalRef | GlobalRef | BuiltinRef | DataRef | VectorLit | MapLit | SetLit | If
        | Do | Let | And | Or | Fn | Letfn | Loop | Recur | Call | Intrinsic | ToolCall | ToolRef
        | For)

