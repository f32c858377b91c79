"""`format`: Java's String.format as Clojure exposes it (%s %d %.2f %-10s %05d %x %e %,d %%...),
with widths and precisions capped so that one directive cannot build a huge string."""

from __future__ import annotations

import math
import re as _py_re
from decimal import Context, Decimal, localcontext, ROUND_HALF_UP

from engine.lisp.builtins.conversion import str_value
from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.support import check_length, limits, show, type_error
from engine.lisp.errors import error
from engine.lisp.values import INT_MIN


_DIRECTIVE = _py_re.compile(r"%(?:(\d+)\$)?([-#+ 0,(<]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])?")
_MAX_FORMAT_NUMBER = 100


_ALLOWED_FLAGS = {
    "s": "-", "b": "-", "c": "-", "d": "-+ 0,(", "o": "-#0", "x": "-#0",
    "f": "-#+ 0,(", "e": "-#+ 0(", "g": "-+ 0,(", "%": "-", "n": "",
}


_UNSUPPORTED = {"h": "a hash code", "a": "hexadecimal floats", "t": "dates"}
_DECIMAL = Context(prec=1000, rounding=ROUND_HALF_UP)


def _format_error(message: str, hint: str | None = None):
    return error("type_error", f"format: {message}",
                 hint or "directives: %s %d %f %.2f %5d %-10s %05d %x %o %e %b %c %n %% %,d")


def _group(digits: str) -> str:
    """1234567 -> 1,234,567 (the integer part only)."""
    head = len(digits) % 3 or 3
    return ",".join([digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)])


def _grouped(text: str) -> str:
    whole, dot, frac = text.partition(".")
    return _group(whole) + dot + frac


def _signed(neg: bool, body: str, flags: str, width: int | None, suffix: str = "") -> str:
    """Java's sign, zero padding and parentheses around a magnitude (then `suffix`)."""
    lead = ("(" if "(" in flags else "-") if neg else ("+" if "+" in flags else
                                                      " " if " " in flags else "")
    if "0" in flags and width is not None:
        room = width - len(suffix) - (1 if neg and "(" in flags else 0)
        body = "0" * (room - len(lead) - len(body)) + body
    return lead + body + suffix + (")" if neg and "(" in flags else "")


def _decimal(x: float) -> Decimal:
    """The shortest decimal that reads back as x, which Java rounds half up."""
    return Decimal(repr(x))


def _fixed(d: Decimal, decimals: int) -> str:
    with localcontext(_DECIMAL):
        return format(d.quantize(Decimal(1).scaleb(-decimals)), "f")


def _scientific(d: Decimal, decimals: int) -> tuple[str, int]:
    """d as a mantissa with `decimals` decimals and an exponent (d > 0)."""
    with localcontext(_DECIMAL):
        exponent = d.adjusted()
        step = Decimal(1).scaleb(-decimals)
        mantissa = d.scaleb(-exponent).quantize(step)
        if mantissa >= 10:
            exponent += 1
            mantissa = d.scaleb(-exponent).quantize(step)
        return format(mantissa, "f"), exponent


def _exponent(e: int) -> str:
    return ("e-" if e < 0 else "e+") + f"{abs(e):02d}"


def _float_text(conv: str, x: float, flags: str, width, precision) -> str:
    if math.isnan(x):
        return "NaN"
    neg = math.copysign(1, x) < 0
    if math.isinf(x):
        lead = ("(" if "(" in flags else "-") if neg else ("+" if "+" in flags else
                                                          " " if " " in flags else "")
        return lead + "Infinity" + (")" if neg and "(" in flags else "")
    d = _decimal(abs(x))
    if conv == "f":
        decimals = 6 if precision is None else precision
        body = _fixed(d, decimals)
        if "#" in flags and decimals == 0:
            body += "."
        if "," in flags:
            body = _grouped(body)
        return _signed(neg, body, flags, width)
    if conv == "e":
        decimals = 6 if precision is None else precision
        if d == 0:
            body, exponent = _fixed(d, decimals), 0
        else:
            body, exponent = _scientific(d, decimals)
        if "#" in flags and decimals == 0:
            body += "."
        return _signed(neg, body, flags, width, _exponent(exponent))
    # conv == "g"
    digits = 6 if precision is None else max(precision, 1)
    if d == 0:
        body = _fixed(d, digits - 1)
    else:
        mantissa, exponent = _scientific(d, digits - 1)
        if -4 <= exponent < digits:
            with localcontext(_DECIMAL):
                body = _fixed(Decimal(mantissa).scaleb(exponent), digits - 1 - exponent)
        else:
            return _signed(neg, mantissa, flags, width, _exponent(exponent))
    if "," in flags:
        body = _grouped(body)
    return _signed(neg, body, flags, width)


def _general_text(x) -> str:
    """What Java's %s shows: the value as str shows it, nil as null."""
    if x is None:
        return "null"
    return x if type(x) is str else str_value(x)


def _directive_value(directive: str, conv: str, x, flags: str, width, precision) -> str:
    if conv == "b":
        return "false" if x is None or x is False else "true"
    if conv == "s":
        return _general_text(x)
    if x is None:
        return "null"
    t = type(x)
    if conv == "c":
        if t is str and len(x) == 1:
            return x
        if t is int and 0 <= x <= 0x10FFFF and not 0xD800 <= x <= 0xDFFF:
            return chr(x)
        raise type_error("format", f"a character or a character code for {directive}", x)
    if conv in "dox":
        if t is not int:
            hint = "for a float use %.0f or %.2f, or convert with (long x)" if t is float else None
            raise type_error("format", f"an integer for {directive}", x, hint)
        if conv == "d":
            body = str(abs(x))
            if "," in flags:
                body = _group(body)
            return _signed(x < 0, body, flags, width)
        value = x & 0xFFFFFFFFFFFFFFFF if INT_MIN <= x < 0 else x
        body = format(value, "o" if conv == "o" else "x")
        prefix = ("0" if conv == "o" else "0x") if "#" in flags else ""
        if "0" in flags and width is not None:
            body = "0" * (width - len(prefix) - len(body)) + body
        return prefix + body
    # e, f, g
    if t is int:
        x = float(x)
    elif t is not float:
        hint = "convert it first: (parse-double s)" if t is str else None
        raise type_error("format", f"a number for {directive}", x, hint)
    return _float_text(conv, x, flags, width, precision)


def _check_directive(directive: str, conv: str, flags: str, width, precision) -> None:
    allowed = _ALLOWED_FLAGS[conv]
    for flag in flags:
        if flag not in allowed:
            raise _format_error(f"flag '{flag}' cannot be used with %{conv} (in {directive})")
        if flags.count(flag) > 1:
            raise _format_error(f"flag '{flag}' is repeated in {directive}")
    if "-" in flags and "0" in flags:
        raise _format_error(f"flags '-' and '0' cannot be combined (in {directive})")
    if "+" in flags and " " in flags:
        raise _format_error(f"flags '+' and ' ' cannot be combined (in {directive})")
    if ("-" in flags or "0" in flags) and width is None:
        raise _format_error(f"flag '{'-' if '-' in flags else '0'}' needs a width, such as "
                            f"%-10s or %05d (in {directive})")
    if precision is not None and conv in "cdoxn%":
        raise _format_error(f"%{conv} takes no precision (in {directive})")
    if width is not None and conv == "n":
        raise _format_error(f"%n takes no width (in {directive})")


@builtin("format", "string-format")
def format_(fmt, *args):
    """(format fmt x ...) Java-style formatting: %s %d %.2f %5d %-10s %05d %,d %x %e %b %c %n %%.

    Also %f %o %X %E %g %S, flags + ( and #, and argument indices (%2$s, %<s); nil prints as
    null; widths and precisions are at most 100."""
    if type(fmt) is not str:
        raise type_error(NAME, "a format string", fmt)
    cap = limits().string_length
    out: list[str] = []
    total = 0
    ordinary = 0
    last = -1
    pos = 0
    while True:
        at = fmt.find("%", pos)
        if at < 0:
            out.append(fmt[pos:])
            total += len(fmt) - pos
            break
        out.append(fmt[pos:at])
        total += at - pos
        m = _DIRECTIVE.match(fmt, at)
        index, flags, width, precision, conv = m.groups()
        directive = m.group(0)
        if conv is None:
            raise _format_error(f"unfinished directive {show(directive)}",
                                "write %% for a literal percent sign")
        pos = m.end()
        lower = conv.lower()
        if lower in _UNSUPPORTED:
            raise _format_error(f"%{conv} ({_UNSUPPORTED[lower]}) is not supported")
        if lower not in _ALLOWED_FLAGS or (conv.isupper() and lower not in "sbcxeg"):
            raise _format_error(f"unknown directive %{conv}", "write %% for a literal percent "
                                "sign; directives: %s %d %f %.2f %x %o %e %g %b %c %n")
        width = int(width) if width is not None else None
        precision = int(precision) if precision is not None else None
        for what, n in (("width", width), ("precision", precision)):
            if n is not None and n > _MAX_FORMAT_NUMBER:
                raise _format_error(f"{what} {n} in {directive} is more than "
                                    f"{_MAX_FORMAT_NUMBER}")
        relative = "<" in flags
        flags = flags.replace("<", "")
        _check_directive(directive, lower, flags, width, precision)
        if lower == "n":
            text = "\n"
        elif lower == "%":
            text = "%"
        else:
            if relative:
                i = last
            elif index is not None:
                i = int(index) - 1
                if i < 0:
                    raise _format_error(f"argument index 0 in {directive}; they start at 1$")
            else:
                i = ordinary
                ordinary += 1
            if not 0 <= i < len(args):
                got = f"{len(args)} argument" + ("" if len(args) == 1 else "s")
                raise error("arity_error", f"{NAME}: no argument for {directive} "
                                           f"(after the format string, got {got})")
            last = i
            text = _directive_value(directive, lower, args[i], flags, width, precision)
            if lower in "sb" and precision is not None:
                text = text[:precision]
        if conv.isupper():
            text = text.upper()
        if width is not None:
            text = text.ljust(width) if "-" in flags else text.rjust(width)
        total += len(text)
        if total > cap:
            check_length(NAME, total)
        out.append(text)
    check_length(NAME, total)
    return "".join(out)
