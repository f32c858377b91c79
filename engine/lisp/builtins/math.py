"""Numbers: arithmetic with 64-bit overflow checks, rounding, bits, Math/ functions and constants."""

from __future__ import annotations

import math

from engine.lisp.builtins.registry import NAME, builtin, constant, variant
from engine.lisp.builtins.support import checked_int, integer, number, type_error
from engine.lisp.errors import error
from engine.lisp.values import INT_MAX, INT_MIN


_NUM = (int, float)


def _add2(a, b):
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        r = a + b
        if INT_MIN <= r <= INT_MAX:
            return r
        return checked_int(r)
    if (ta is float or ta is int) and (tb is float or tb is int):
        return a + b
    raise type_error("+", "numbers", b if ta in _NUM else a)


@builtin("+", "math")
def add(*xs):
    """(+ x y ...) sum; (+) is 0."""
    if len(xs) > 8 and all(type(x) is int for x in xs):   # (apply + big-coll): in C
        return checked_int(sum(xs))
    total = 0
    for x in xs:
        total = _add2(total, x)
    return total


variant("+", 2)(_add2)


def _sub2(a, b):
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        r = a - b
        if INT_MIN <= r <= INT_MAX:
            return r
        return checked_int(r)
    if (ta is float or ta is int) and (tb is float or tb is int):
        return a - b
    raise type_error("-", "numbers", b if ta in _NUM else a)


@builtin("-", "math")
def sub(x, *xs):
    """(- x) negates; (- x y ...) subtracts."""
    if not xs:
        return checked_int(-number(NAME, x)) if type(x) is int else -number(NAME, x)
    for y in xs:
        x = _sub2(x, y)
    return x


variant("-", 2)(_sub2)


def _mul2(a, b):
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        r = a * b
        if INT_MIN <= r <= INT_MAX:
            return r
        return checked_int(r)
    if (ta is float or ta is int) and (tb is float or tb is int):
        return a * b
    raise type_error("*", "numbers", b if ta in _NUM else a)


@builtin("*", "math")
def mul(*xs):
    """(* x y ...) product; (*) is 1."""
    total = 1
    for x in xs:
        total = _mul2(total, x)
    return total


variant("*", 2)(_mul2)


def _div2(a, b):
    a, b = number("/", a), number("/", b)
    if b == 0:
        if a == 0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1, b)
    return a / b


@builtin("/", "math")
def div(x, *xs):
    """(/ x y ...) always returns a float; dividing by zero gives ##Inf, ##-Inf or ##NaN."""
    if not xs:
        return _div2(1, x)
    x = float(number(NAME, x))
    for y in xs:
        x = _div2(x, y)
    return x


variant("/", 2)(lambda a, b: float(_div2(a, b)))


def _int_division(fname, a, b):
    a, b = number(fname, a), number(fname, b)
    if b == 0:
        raise error("arithmetic_error", f"{fname}: division by zero")
    return a, b


@builtin("mod", "math")
def mod(a, b):
    """(mod a b) remainder with the sign of b (floored)."""
    a, b = _int_division(NAME, a, b)
    if type(a) is float or type(b) is float:
        r = math.fmod(a, b)
        return r + b if r != 0 and (r < 0) != (b < 0) else r
    return a % b


@builtin("rem", "math")
def rem(a, b):
    """(rem a b) remainder with the sign of a (truncated)."""
    a, b = _int_division(NAME, a, b)
    if type(a) is float or type(b) is float:
        return math.fmod(a, b)
    r = abs(a) % abs(b)
    return -r if a < 0 else r


@builtin("quot", "math")
def quot(a, b):
    """(quot a b) integer division rounding toward zero."""
    a, b = _int_division(NAME, a, b)
    if type(a) is float or type(b) is float:
        return float(math.trunc(a / b))
    q = abs(a) // abs(b)
    return checked_int(q if (a < 0) == (b < 0) else -q)


@builtin("inc", "math")
def inc(x):
    """(inc x) is x + 1."""
    if type(x) is int:
        return x + 1 if x < INT_MAX else checked_int(x + 1)
    return number(NAME, x) + 1


@builtin("dec", "math")
def dec(x):
    """(dec x) is x - 1."""
    if type(x) is int:
        return x - 1 if x > INT_MIN else checked_int(x - 1)
    return number(NAME, x) - 1


@builtin("abs", "math")
def abs_(x):
    """(abs x) absolute value."""
    return checked_int(abs(x)) if type(x) is int else abs(number(NAME, x))


def _extreme(fname, xs, pick):
    best = number(fname, xs[0])
    for x in xs[1:]:
        x = number(fname, x)
        if x != x or best != best:
            best = math.nan
        elif pick(x, best):
            best = x
    return best


@builtin("max", "math")
def max_(x, *xs):
    """(max x y ...) the largest number; for a collection use (apply max coll)."""
    if not xs and type(x) is tuple:
        raise type_error(NAME, "numbers", x, "(apply max coll) for a collection")
    return _extreme(NAME, (x, *xs), lambda a, b: a > b)


@builtin("min", "math")
def min_(x, *xs):
    """(min x y ...) the smallest number; for a collection use (apply min coll)."""
    if not xs and type(x) is tuple:
        raise type_error(NAME, "numbers", x, "(apply min coll) for a collection")
    return _extreme(NAME, (x, *xs), lambda a, b: a < b)


def _to_int(fname, x):
    x = number(fname, x)
    if type(x) is int:
        return checked_int(x)
    if x != x or math.isinf(x):
        raise error("arithmetic_error", f"{fname}: cannot convert {x} to an integer")
    return checked_int(int(x))


@builtin("floor", "math", aliases=("Math/floor",))
def floor(x):
    """(floor x) largest integer not above x."""
    return _to_int(NAME, math.floor(number(NAME, x)) if _finite(x) else x)


@builtin("ceil", "math", aliases=("Math/ceil",))
def ceil(x):
    """(ceil x) smallest integer not below x."""
    return _to_int(NAME, math.ceil(number(NAME, x)) if _finite(x) else x)


@builtin("round", "math", aliases=("Math/round",))
def round_(x):
    """(round x) nearest integer, halves away from zero."""
    x = number(NAME, x)
    if type(x) is int:
        return x
    if not _finite(x):
        return _to_int(NAME, x)
    return _to_int(NAME, math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1))


@builtin("trunc", "math")
def trunc(x):
    """(trunc x) integer part of x, toward zero."""
    return _to_int(NAME, x)


def _finite(x) -> bool:
    return type(x) is int or (type(x) is float and math.isfinite(x))


@builtin("int", "math", aliases=("long",))
def int_(x):
    """(int x) truncates a number to an integer; (int "a") is the character's code."""
    if type(x) is str and len(x) == 1:
        return ord(x)
    return _to_int(NAME, x)


@builtin("double", "math", aliases=("float",))
def double(x):
    """(double x) the number as a float."""
    return float(number(NAME, x))


@builtin("sqrt", "math", aliases=("Math/sqrt",))
def sqrt(x):
    """(sqrt x) square root as a float; negative gives ##NaN."""
    x = number(NAME, x)
    return math.sqrt(x) if x >= 0 else math.nan


@builtin("pow", "math", aliases=("Math/pow",))
def pow_(x, y):
    """(pow x y) x to the power y, always a float, as Java's Math/pow."""
    x, y = float(number(NAME, x)), float(number(NAME, y))
    try:
        return math.pow(x, y)
    except OverflowError:     # past the largest float: negative only for x < 0 and y odd
        return -math.inf if x < 0 and _odd(y) else math.inf
    except ValueError:        # 0 to a negative power is infinite; (pow -2 0.5) is NaN
        if x == 0:
            return -math.inf if math.copysign(1, x) < 0 and _odd(y) else math.inf
        return math.nan


def _odd(y: float) -> bool:
    return y.is_integer() and y % 2 == 1


def _unary_math(name, fn, doc):
    def math_fn(x):
        try:
            return fn(float(number(name, x)))
        except ValueError:
            return math.nan
        except OverflowError:     # only exp overflows, and upward
            return math.inf
    math_fn.__name__ = math_fn.__qualname__ = "math_" + name.split("/")[-1]
    math_fn.__doc__ = doc
    builtin(name, "math")(math_fn)


def _log(fn):
    """A logarithm as in Java: of 0 it is ##-Inf (Python raises an error)."""
    return lambda v: -math.inf if v == 0 else fn(v)


for _name, _fn in (("exp", math.exp), ("log", _log(math.log)), ("log10", _log(math.log10)),
                   ("sin", math.sin), ("cos", math.cos), ("tan", math.tan),
                   ("asin", math.asin), ("acos", math.acos), ("atan", math.atan),
                   ("cbrt", lambda v: math.copysign(abs(v) ** (1 / 3), v))):
    _unary_math(f"Math/{_name}", _fn, f"(Math/{_name} x) as in Java, a float.")


constant("Math/PI", math.pi)
constant("Math/E", math.e)
constant("Double/POSITIVE_INFINITY", math.inf)
constant("Double/NEGATIVE_INFINITY", -math.inf)
constant("Double/NaN", math.nan)
constant("Long/MAX_VALUE", INT_MAX)
constant("Long/MIN_VALUE", INT_MIN)
constant("Integer/MAX_VALUE", 2**31 - 1)
constant("Integer/MIN_VALUE", -(2**31))


@builtin("bit-and", "math")
def bit_and(a, b, *more):
    """(bit-and a b ...)"""
    r = integer(NAME, a)
    for x in (b, *more):
        r &= integer(NAME, x)
    return r


@builtin("bit-or", "math")
def bit_or(a, b, *more):
    """(bit-or a b ...)"""
    r = integer(NAME, a)
    for x in (b, *more):
        r |= integer(NAME, x)
    return r


@builtin("bit-xor", "math")
def bit_xor(a, b, *more):
    """(bit-xor a b ...)"""
    r = integer(NAME, a)
    for x in (b, *more):
        r ^= integer(NAME, x)
    return r


@builtin("bit-not", "math")
def bit_not(a):
    """(bit-not a)"""
    return ~integer(NAME, a)


@builtin("bit-shift-left", "math")
def bit_shift_left(a, n):
    """(bit-shift-left a n); overflow beyond 64 bits is an error."""
    a, n = integer(NAME, a), integer(NAME, n)
    if not 0 <= n < 64:
        raise error("arithmetic_error", f"shift by {n} is out of range 0..63")
    return checked_int(a << n)


@builtin("bit-shift-right", "math")
def bit_shift_right(a, n):
    """(bit-shift-right a n) arithmetic shift."""
    a, n = integer(NAME, a), integer(NAME, n)
    if not 0 <= n < 64:
        raise error("arithmetic_error", f"shift by {n} is out of range 0..63")
    return a >> n
