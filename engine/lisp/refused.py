"""What PTC-Lisp refuses, each with what to write instead: Clojure's forms for exceptions,
state, laziness, Java interop and namespaces (`try`, `while`, `lazy-seq`, `ns`...), and the
names of its functions that have no place in a sandbox (`atom`, `rand`, `slurp`...)."""

from __future__ import annotations

from engine.lisp.analyzer import SPECIAL_FORMS, UNSUPPORTED
from engine.lisp.scope import invalid


def unsupported(message: str, hint: str, reason: str = "invalid_form"):
    def handler(an, form, env, tail):
        raise invalid(message, form.span, hint, reason=reason)
    return handler


# Names that are not special forms but would be unbound: say what to use instead.
UNSUPPORTED.update({
    name: ("unbound_var", f"{name} is not supported: there is no mutable state",
           "use let for local values, def to keep a value, reduce or loop to accumulate")
    for name in ("atom", "swap!", "reset!", "deref", "volatile!", "vswap!", "vreset!", "ref",
                 "alter", "agent", "send", "compare-and-set!")
})
UNSUPPORTED.update({
    name: ("unbound_var", f"{name} is not supported: programs are deterministic",
           "pass the values you need as data or get them from a tool")
    for name in ("rand", "rand-int", "rand-nth", "shuffle", "random-uuid", "random-sample")
})
UNSUPPORTED.update({
    name: ("unbound_var", f"{name} is not supported: sequences are finite",
           "use (range n), (repeat n x), or loop/recur")
    for name in ("iterate", "cycle")
})
UNSUPPORTED.update({
    name: ("unbound_var", f"{name} is not supported in the sandbox", "use tools for I/O")
    for name in ("eval", "read-string", "slurp", "spit", "load-file", "load-string", "future",
                 "promise", "deliver", "pmap-async", "System/exit", "resolve", "intern")
})


SPECIAL_FORMS.update({
    "try": unsupported("try/catch is not supported", "check values with if, stop with (fail ...)"),
    "catch": unsupported("catch is not supported", "check values with if, stop with (fail ...)"),
    "finally": unsupported("finally is not supported", "check values with if"),
    "throw": unsupported("throw is not supported", "stop with (fail {:reason ...})"),
    "while": unsupported("while is not supported: there is no mutable state",
                         "use loop/recur, doseq, or reduce"),
    "lazy-seq": unsupported("lazy-seq is not supported: sequences are finite",
                            "build the vector with range, map, or loop/recur",
                            reason="unbound_var"),
    "delay": unsupported("delay is not supported", "compute the value directly"),
    "binding": unsupported("binding is not supported", "pass values as arguments or use let"),
    "set!": unsupported("set! is not supported: there is no mutable state", "use let or def"),
    "new": unsupported("Java interop is not supported", "use the builtin functions"),
    ".": unsupported("(. obj method) is not supported", "use the builtin functions"),
    "defmacro": unsupported("defmacro is not supported", "write a function with defn"),
    "ns": unsupported("ns is not needed", "builtins such as str/join are always available"),
    "require": unsupported("require is not needed",
                           "builtins such as str/join and set/union are always available"),
    "import": unsupported("import is not supported", "use the builtin functions"),
    "defrecord": unsupported("defrecord is not supported", "use a map"),
    "deftype": unsupported("deftype is not supported", "use a map"),
    "defprotocol": unsupported("defprotocol is not supported", "use functions and maps"),
    "reify": unsupported("reify is not supported", "use functions and maps"),
    "locking": unsupported("locking is not supported", "programs run alone"),
    "dosync": unsupported("dosync is not supported", "there is no mutable state"),
    "call": unsupported("(call \"tool\" args) is not supported", "call tools as (tool/name args)"),
})
