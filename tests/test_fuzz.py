"""Property tests: whatever the program or the host data, `run` returns a RunResult whose
error is None or a PtcError with a snake_case reason and a one-line message free of Python
internals, within its time limit plus a small grace, and nothing else ever escapes.

Programs run in a long-lived forked worker process (restarted if a program hangs it), so a
program that hangs in C code fails its example instead of hanging the suite.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import multiprocessing
import re
import resource
from decimal import Decimal
from enum import IntEnum
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.lisp import PtcError, RunResult, run
from engine.lisp.builtins import BUILTINS
from engine.lisp.convert import to_python
from tests.conformance.cases import parse_cases
from tests.test_sandbox import (GRACE_MS, MEMORY_CAP, REASON, Outcome, check_outcome,
                                internals, timed_run)

TIME_MS = 100
FUZZ_GRACE_MS = 700            # on top of check_outcome's grace: the machine may be busy
HANG_S = 6.0                   # a worker silent this long is killed: the program hung
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                       HealthCheck.data_too_large,
                                                       HealthCheck.filter_too_much])

FUZZ_DATA = {"items": [{"name": "a", "price": 10, "tags": ["x"]}, {"name": "b", "price": None}],
             "n": 5, "text": "a,b;c", "m": {"k": [1, 2, {"deep": True}]}}
FUZZ_TOOLS = {"echo": lambda *a, **k: a[0] if len(a) == 1 else (list(a) or k),
              "search": lambda query="", limit=5: [{"id": i, "q": query} for i in range(3)],
              "fails": lambda *a, **k: 1 / 0}


# --- the worker ----------------------------------------------------------------------------

def _serve(conn):
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    except (ValueError, OSError):
        pass
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        source, limits = job
        out = timed_run(source, limits=limits, data=FUZZ_DATA, tools=FUZZ_TOOLS)
        conn.send(out)


class Worker:
    """A forked process that runs one program at a time."""

    def __init__(self):
        self.proc = None
        self._start()

    def _start(self):
        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child,), daemon=True)
        self.proc.start()
        child.close()

    def _restart(self):
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.conn.close()
        self._start()

    def run(self, source: str, time_ms: int = TIME_MS, **limits) -> Outcome:
        self.conn.send((source, {"time_ms": time_ms, **limits}))
        if not self.conn.poll(time_ms / 1000 + HANG_S):
            self._restart()
            pytest.fail(f"run hung (worker killed after {HANG_S} s): {source[:300]!r}")
        try:
            return self.conn.recv()
        except EOFError:
            code = self.proc.exitcode
            self._restart()
            pytest.fail(f"the worker died (exit code {code}) running {source[:300]!r}")

    def close(self):
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(2)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


def check(worker: Worker, source: str, time_ms: int = TIME_MS, **limits) -> Outcome:
    out = worker.run(source, time_ms, **limits)
    for _ in range(2):     # a busy machine may slow one run down; a real overshoot repeats
        if out.escaped or out.cpu_ms <= time_ms + GRACE_MS + FUZZ_GRACE_MS:
            break
        again = worker.run(source, time_ms, **limits)
        out = again if again.cpu_ms < out.cpu_ms else out
    check_outcome(out, source, time_ms, FUZZ_GRACE_MS)
    return out


# --- 1. token soup -------------------------------------------------------------------------

TOKENS = [
    "(", ")", "(", ")", "[", "]", "{", "}", "#{", "#(", "#'", "#_", "'", "@", "^", "`", "~",
    "~@", "#?", "#=", "#inst", "#", "##", '"s"', '"a\\nb"', '"\\u00e9"', '"\\q"', '"', "\\a",
    "\\newline", "\\", ":k", ":a/b", "::x", ":", "1", "-1", "0", "1.5", "1e308", "-0.0",
    "9223372036854775807", "-9223372036854775808", "99999999999999999999", "0x1F", "08",
    "1/2", "1/0", "2r102", "##Inf", "##NaN", "##x", "nil", "true", "false", "x", "y", "%",
    "%1", "%&", "&", "def", "defn", "fn", "let", "loop", "recur", "if", "do", "when", "cond",
    "case", "->", "->>", "for", "doseq", "and", "or", "return", "fail", "map", "filter",
    "reduce", "range", "repeat", "str", "apply", "concat", "into", "conj", "assoc", "get",
    "count", "first", "rest", "sort", "sort-by", "frequencies", "println", "format",
    "re-find", '#"a+"', '#"("', "str/join", "inc", "+", "*", "-", "/", "=", "<", "tool/echo",
    "tool/fails", "tool/nope", "data/items", "data/n", "__import__", ".__class__", "os/system",
    "; c\n", "\n", " ", ",", "\t", "\x00", "\u202e", "\u200b", "\ufeff", "é", "😀",
]


@settings(max_examples=1000, **SETTINGS)
@given(st.lists(st.tuples(st.sampled_from(TOKENS), st.sampled_from([" ", " ", "", "\n"])),
                max_size=40))
def test_token_soup(worker, pieces):
    source = "".join(tok + sep for tok, sep in pieces)
    check(worker, source)


# --- 2. mutations of valid programs -----------------------------------------------------------

def _conformance_programs() -> list[str]:
    programs = []
    for path in sorted((Path(__file__).parent / "conformance").glob("*.ptc")):
        programs.extend(case.source for case in parse_cases(path))
    return programs or ["(+ 1 2)"]


PROGRAMS = _conformance_programs()
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|#\{|#\(|#_|#\'|[()\[\]{}]|[^\s()\[\]{}"]+|\s+', re.S)
EXTREMES = ["9223372036854775807", "-9223372036854775808", "0", "-1", "1e308", "##NaN",
            "1000000000", "(range 1000000)", '(apply str (repeat 999999 "a"))', "nil", "[]",
            "{}", '""', "(repeat 60 [1 2])", "\\u202e", '"\\u0000"']
UNICODE = st.characters(blacklist_categories=("Cs",)) | st.sampled_from(
    ["\x00", "\u202e", "\u2066", "\u200b", "\ufeff", "\ud800", "\x1b", "\u2028", "é", "😀"])


@st.composite
def mutated(draw):
    source = draw(st.sampled_from(PROGRAMS))
    tokens = _TOKEN.findall(source) or [source]
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "open", "close", "unicode",
                                   "extreme", "builtin", "drop-delims"]))
        i = draw(st.integers(0, max(len(tokens) - 1, 0)))
        if op == "delete" and tokens:
            del tokens[i]
        elif op == "duplicate" and tokens:
            tokens.insert(i, tokens[i])
        elif op == "swap" and len(tokens) > 1:
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == "open":
            tokens.insert(i, draw(st.sampled_from(["(", "[", "{", "#{", "#(", "#_", "#'"])))
        elif op == "close":
            tokens.insert(i, draw(st.sampled_from([")", "]", "}"])))
        elif op == "unicode":
            text = "".join(tokens)
            at = draw(st.integers(0, len(text)))
            tokens = [text[:at] + draw(UNICODE) + text[at:]]
        elif op == "extreme" and tokens:
            tokens[i] = " " + draw(st.sampled_from(EXTREMES)) + " "
        elif op == "builtin" and tokens:
            tokens[i] = " " + draw(st.sampled_from(sorted(BUILTINS))) + " "
        elif op == "drop-delims":
            tokens = [t for t in tokens if t not in ("(", ")", "[", "]")] or tokens
    return "".join(tokens)


@settings(max_examples=1000, **SETTINGS)
@given(mutated())
def test_mutated_conformance_programs(worker, source):
    check(worker, source)


def test_conformance_programs_unmutated(worker):
    """The seeds themselves, with a small time limit."""
    for source in PROGRAMS[:400]:
        check(worker, source)


# --- 3. generated well-formed programs -------------------------------------------------------

LITERALS = ["0", "1", "-1", "2", "42", "9223372036854775807", "-9223372036854775808", "1.5",
            "-0.0", "##Inf", "##-Inf", "##NaN", "1e300", "nil", "true", "false", '""',
            '"abc"', '"a,b,c"', '"é😀"', '"%s %d"', ":a", ":b", ":name", '"name"', "\\c",
            "[]", "{}", "#{}", "[1 2 3]", '["b" "a"]', "{:a 1 :b 2}", '{"name" "x" :price 3}',
            "#{1 2}", "[[1 2] [3 4]]", "[{:a 1} {:a 2}]", "data/items", "data/n", "data/text",
            "data/m", "data/missing", "x", "y", "inc", "str", "+", ":price", '#"[a-z]+"',
            "(range 5)", "(range 1000)", "1000000", "999999", "-5", "100"]
NAMES = sorted(n for n in BUILTINS if not BUILTINS[n].constant)


# Forms of the small grammar: (number of sub-expressions, template).
TEMPLATES = [
    (3, "(if {} {} {})"),
    (3, "(let [x {} y {}] {})"),
    (2, "((fn [x] {}) {})"),
    (2, "(map (fn [x] {}) {})"),
    (2, "(filter #(do {} %) {})"),
    (3, "(reduce (fn [acc x] {}) {} {})"),
    (2, "(do {} {})"),
    (2, "(when {} {})"),
    (4, "(cond {} {} :else (vector {} 1))"),
    (2, "(and {} {})"),
    (2, "(or {} {})"),
    (2, "(-> {} (conj {}))"),
    (2, "(->> {} (map inc) (take {}))"),
    (2, "(loop [i 0 acc {}] (if (< i 3) (recur (inc i) {}) acc))"),
    (2, "(for [x {} :when x] {})"),
    (2, "(doseq [x {}] (println x {}))"),
    (2, "(case {} 1 :one {} :two :other)"),
    (2, "(str/join \",\" (map str [{} {}]))"),
    (1, "(tool/echo {})"),
    (1, "(def z {})"),
    (2, "(sort-by {} {})"),
    (2, "(get-in {} [{}])"),
    (3, "(assoc {} {} {})"),
    (2, "(apply {} {})"),
    (2, '(format "%s-%s" {} {})'),
    (1, "(println {})"),
    (2, "(if-let [v {}] v {})"),
    (2, "(some-> {} {})"),
    (2, "(let [{{:keys [a b]}} {} [p q] {}] [a b p q])"),
]


def _extend(inner):
    call = st.tuples(st.sampled_from(NAMES), st.lists(inner, max_size=3)).map(
        lambda t: f"({t[0]} {' '.join(t[1])})")
    shaped = st.sampled_from(TEMPLATES).flatmap(
        lambda nt: st.tuples(*([inner] * nt[0])).map(lambda parts: nt[1].format(*parts)))
    return call | shaped


expressions = st.recursive(st.sampled_from(LITERALS), _extend, max_leaves=12)


@st.composite
def generated_programs(draw):
    defs = draw(st.lists(expressions, max_size=2))
    body = draw(expressions)
    head = "".join(f"(defn f{i} [x] {e})\n" for i, e in enumerate(defs))
    calls = " ".join(f"(f{i} {draw(st.sampled_from(LITERALS))})" for i in range(len(defs)))
    tail = draw(st.sampled_from(["", "(return z)", "(fail :x)", "(println z)"]))
    return f"{head}(def z {body})\n{calls}\n{tail}\n{body}"


@settings(max_examples=800, **SETTINGS)
@given(generated_programs())
def test_generated_programs(worker, source):
    check(worker, source)


@settings(max_examples=600, **SETTINGS)
@given(st.sampled_from(NAMES), st.lists(st.sampled_from(LITERALS), max_size=4))
def test_every_builtin_with_random_arguments(worker, name, args):
    source = f"({name} {' '.join(args)})"
    check(worker, source)


def test_every_builtin_with_awkward_arguments(worker):
    awkward = ["nil", "##NaN", "9223372036854775807", '"é😀"', "[nil]", "{nil nil}",
               "(fn [& xs] xs)", ":k", "#{}", "-1"]
    for name in NAMES:
        for a in awkward:
            check(worker, f"({name} {a})")
            check(worker, f"({name} {a} {a})")


# --- 4. random Python data from the host -------------------------------------------------------

class Color(IntEnum):
    RED = 1


@dataclasses.dataclass
class Point:
    x: int
    y: list


class Model:
    """Anything with model_dump() (pydantic-style) is data."""

    def __init__(self, payload):
        self.payload = payload

    def model_dump(self):
        return {"payload": self.payload}

    def __eq__(self, other):
        return type(other) is Model and other.payload == self.payload

    __hash__ = None


class Opaque:
    pass


def _cyclic_list():
    xs: list = [1]
    xs.append(xs)
    return xs


def _cyclic_dict():
    d: dict = {"a": 1}
    d["self"] = d
    return d


def _nested(depth):
    v: list = []
    for _ in range(depth):
        v = [v]
    return v


keys = st.one_of(st.text(max_size=8), st.integers(-5, 5), st.sampled_from(["", "__class__"]))
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2 ** 63, 2 ** 63 - 1),
    st.integers(2 ** 63, 2 ** 70), st.integers(-2 ** 70, -2 ** 63 - 1),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
    st.binary(max_size=4), st.sampled_from([Color.RED, Decimal("1.5"), Fraction(1, 3),
                                            1j, Opaque(), print, object, range(3)]),
)
hashables = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.text(max_size=4),
                      st.floats(allow_nan=False))
python_data = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(keys, inner, max_size=4),
        st.frozensets(hashables, max_size=4),
        st.sets(hashables, max_size=4),
        st.tuples(st.integers(-3, 3), st.lists(inner, max_size=2)).map(lambda t: Point(*t)),
        inner.map(Model),
        st.sampled_from([_cyclic_list, _cyclic_dict, lambda: _nested(150),
                         lambda: _nested(99)]).map(lambda f: f()),
    ),
    max_leaves=20,
)


def expected_valid(value, depth: int = 0, path: tuple = ()) -> bool:
    """Whether the host value is PTC-Lisp data under the default limits."""
    t = type(value)
    if value is None or t in (bool, str, float):
        return True
    if t is int:
        return -2 ** 63 <= value <= 2 ** 63 - 1
    if isinstance(value, IntEnum):
        return True
    if depth >= 100 or id(value) in path:
        return False
    path = path + (id(value),)
    if t is dict:
        return all(expected_valid(k, depth + 1, path) and type(k) is not dict and
                   expected_valid(v, depth + 1, path) for k, v in value.items())
    if t in (list, tuple):
        return all(expected_valid(v, depth + 1, path) for v in value)
    if t in (set, frozenset):
        return all(expected_valid(v, depth + 1, path) for v in value)
    if dataclasses.is_dataclass(value):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return expected_valid(fields, depth, path[:-1])
    if isinstance(value, Model):
        return expected_valid(value.model_dump(), depth, path[:-1])
    return False


def normal(value):
    """Plain Python data as it comes back from to_python (tuples become lists...)."""
    t = type(value)
    if isinstance(value, IntEnum):
        return int(value)
    if t in (list, tuple):
        return [normal(v) for v in value]
    if t is dict:
        return {_normal_key(k): normal(v) for k, v in value.items()}
    if t in (set, frozenset):
        return {_normal_key(v) for v in value}
    if dataclasses.is_dataclass(value):
        return normal({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
    if isinstance(value, Model):
        return normal(value.model_dump())
    return value


def _normal_key(k):
    if type(k) in (tuple, list):
        return tuple(_normal_key(x) for x in k)
    if type(k) in (set, frozenset):
        return frozenset(_normal_key(x) for x in k)
    return normal(k)


def _same(a, b) -> bool:
    """Equality where NaN equals NaN."""
    if type(a) is float and type(b) is float and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is list and type(b) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if type(a) is dict and type(b) is dict:
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def _snapshot(value):
    try:
        return copy.deepcopy(value)
    except Exception:
        return None


@settings(max_examples=250, **SETTINGS)
@given(python_data)
def test_host_data_is_converted_or_refused_with_invalid_data(value):
    data = {"x": value}
    before = _snapshot(data)
    valid = expected_valid(value, depth=1)    # data/x sits one level inside `data`
    try:
        r = run("data/x", data=data, limits={"time_ms": 1000})
    except Exception as e:  # run never raises for the content of data
        pytest.fail(f"run raised {type(e).__name__}: {e}")
    assert isinstance(r, RunResult)
    if r.error is not None and r.error.reason == "invalid_data":
        assert not valid, f"valid data refused: {r.error}"
        assert r.error.message.startswith("data/x") and "\n" not in r.error.message
        assert not internals(r.error.message, _keys_text(value)), r.error.message
        return
    assert valid, "invalid data was accepted"
    assert r.error is None, r.error
    if before is not None and not _has_nan(value):
        assert data == before, "run changed the caller's data"
    assert _same(to_python(r.value), normal(value))


def _keys_text(value, depth=0) -> str:
    """The string keys inside `value`: a message naming a place may quote them."""
    if depth > 200:
        return ""
    if type(value) is Model:
        return "payload " + _keys_text(value.payload, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _keys_text({f.name: getattr(value, f.name) for f in dataclasses.fields(value)},
                          depth + 1)
    if isinstance(value, dict):
        return " ".join((f"{k} " if isinstance(k, str) else "") + _keys_text(v, depth + 1)
                        for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " ".join(_keys_text(v, depth + 1) for v in value)
    return ""


def _has_nan(value, depth=0) -> bool:
    if depth > 200:
        return False
    if type(value) is float:
        return math.isnan(value)
    if type(value) in (list, tuple):
        return any(_has_nan(v, depth + 1) for v in value)
    if type(value) is dict:
        return any(_has_nan(v, depth + 1) or _has_nan(k, depth + 1) for k, v in value.items())
    if type(value) is Model:              # NaN inside makes the model unequal to its copy
        return _has_nan(value.payload, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_has_nan(getattr(value, f.name), depth + 1)
                   for f in dataclasses.fields(value))
    return False


@settings(max_examples=250, **SETTINGS)
@given(python_data)
def test_tool_results_are_converted_or_a_tool_error(value):
    r = run("(tool/t)", tools={"t": lambda: value}, limits={"time_ms": 1000})
    assert isinstance(r, RunResult)
    if expected_valid(value):
        assert r.error is None, r.error
        assert _same(to_python(r.value), normal(value))
        assert len(r.tool_calls) == 1 and r.tool_calls[0].error is None
    else:
        assert r.error is not None and r.error.reason == "tool_error", r.error
        assert "\n" not in r.error.message and r.error.message.strip()
        assert not internals(r.error.message, _keys_text(value)), r.error.message
        assert len(r.tool_calls) == 1 and r.tool_calls[0].error


@settings(max_examples=100, **SETTINGS)
@given(python_data, st.sampled_from(["(count (str data/x))", "(tool/echo data/x)",
                                     "(= data/x data/x)", "#{data/x}", "(hash data/x)",
                                     "(frequencies [data/x data/x])", "(pr-str data/x)",
                                     "(keys data/x)", "(sort [data/x])", "{data/x 1}"]))
def test_valid_host_data_in_programs(value, program):
    assume(expected_valid(value, depth=1))
    r = run(program, data={"x": value}, tools=FUZZ_TOOLS, limits={"time_ms": TIME_MS})
    assert isinstance(r, RunResult)
    if r.error is not None:
        assert isinstance(r.error, PtcError)
        assert REASON.match(r.error.reason)
        assert "\n" not in r.error.message
        assert not internals(r.error.message, program), r.error.message


@pytest.mark.parametrize("bad", [
    {"x": _cyclic_list()}, {"x": _cyclic_dict()}, {"x": _nested(101)}, {"x": 2 ** 64},
    {"x": 10 ** 5000}, {"x": Opaque()}, {"x": b"b"}, {"x": print}, {"x": {1j: 1}},
    {"x": Decimal("1")}, {"x": [1, [2, [object()]]]}, {"x": {"k": {frozenset([Opaque()])}}},
    {"x": {"a": {"b": set()}, "c": Point(1, [Opaque()])}},
], ids=lambda d: type(next(iter(d.values()))).__name__)
def test_bad_host_data_is_an_invalid_data_error(bad):
    r = run("data/x", data=bad)
    assert r.error is not None and r.error.reason == "invalid_data", r.error
    assert r.error.message.startswith("data/x"), r.error.message


def test_data_that_is_not_a_dict_is_a_value_error():
    for bad in ([1, 2], "x", 5, None.__class__):
        with pytest.raises(ValueError):
            run("1", data=bad)


def test_bad_limits_and_tools_are_value_errors():
    for limits in ({"nope": 1}, {"time_ms": -1}, {"time_ms": 1.5}, {"time_ms": "1"},
                   {"time_ms": True}):
        with pytest.raises(ValueError):
            run("1", limits=limits)
    for tools in ({"t": 5}, {1: print}):
        with pytest.raises(ValueError):
            run("1", tools=tools)


def test_a_tool_returning_a_huge_structure_is_bounded():
    big = list(range(2_000_000))
    r = run("(count (tool/t))", tools={"t": lambda: big})
    # host data is the host's memory, not the program's: counted, within the run's limits
    assert r.error is None and r.value == 2_000_000, r.error
