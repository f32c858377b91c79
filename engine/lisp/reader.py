"""The reader: PTC-Lisp source text to forms, each with its line and column.

Tokens come from lark's lexer, built once from the terminals of `grammar.lark`. Forms are
assembled here by a delimiter stack rather than by lark's LALR parser: the stack knows which
delimiter is unclosed and where it opened, which is the error an LLM can act on, and it is
several times faster. A test checks that both agree on the grammar's `start` rule.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from lark import Lark
from lark.lexer import BasicLexer
from lark.utils import TextSlice

from engine.lisp.errors import PtcError, Span
from engine.lisp.forms import (Const, FnLiteral, ListForm, MapForm, RegexForm, SetForm, Sym,
                               VarQuote, VectorForm)
from engine.lisp.values import INT_MAX, INT_MIN, Keyword

GRAMMAR = (Path(__file__).parent / "grammar.lark").read_text()
PARSER = Lark(GRAMMAR, parser="lalr", lexer="basic", propagate_positions=True)
_LEXER = BasicLexer(PARSER.lexer_conf)

_OPENERS = {"LPAR": ("(", ")", ListForm), "LSQB": ("[", "]", VectorForm),
            "LBRACE": ("{", "}", MapForm)}
_CLOSERS = {"RPAR": ")", "RSQB": "]", "RBRACE": "}"}
_NAMES = {"(": "parentheses", "[": "brackets", "{": "braces", "#{": "braces", "#(": "parentheses"}
_CHAR_NAMES = {"newline": "\n", "space": " ", "tab": "\t", "return": "\r",
               "backspace": "\b", "formfeed": "\f"}
_STRING_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "f": "\f", "r": "\r", '"': '"',
                   "'": "'", "\\": "\\"}
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|[0-3][0-7]{0,2}|[4-7][0-7]?|.)", re.S)
_INT = re.compile(r"([+-]?)(?:(0[xX][0-9a-fA-F]+)|(0[0-7]+)|([1-9][0-9]*|0)|([1-9][0-9]?)[rR]([0-9a-zA-Z]+)"
                  r"|(0[0-9]+))N?")
_FLOAT = re.compile(r"[+-]?[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?M?")
_RATIO = re.compile(r"([+-]?[0-9]+)/([0-9]+)")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_LITERALS = ("STRING", "REGEX", "CHAR")   # tokens in which any character is allowed
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
# Characters that must not hide in code: NUL and controls, zero-width and bidi controls.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2060-\u2064"
                        "\u2066-\u2069\ufeff\ufff9-\ufffb\ud800-\udfff]")

_RMACRO_HINTS = {
    "'": ("quote ('x) is not supported", "use a vector [1 2 3] for data, a keyword or string for a name"),
    "`": ("syntax-quote (`) is not supported", "there are no macros; write the code directly"),
    "~": ("unquote (~) is not supported", "there are no macros; write the code directly"),
    "~@": ("unquote-splicing (~@) is not supported", "there are no macros; write the code directly"),
    "@": ("deref (@x) is not supported", "there are no atoms: use let, def, or reduce"),
    "^": ("metadata (^) is not supported", "remove the type hint or metadata"),
    "#?": ("reader conditionals (#?) are not supported", "write the form for one platform"),
    "#?@": ("reader conditionals (#?@) are not supported", "write the form for one platform"),
    "#=": ("read-eval (#=) is not supported", "write the expression directly"),
    "#:": ("namespaced maps (#:ns{...}) are not supported", "write each key in full: {:ns/k v}"),
    "#": ("unexpected '#'", "# starts #{set}, #(fn), #\"regex\", #'var or #_ discard"),
}


def parse_error(message: str, span: Span | None, hint: str | None = None) -> PtcError:
    return PtcError("parse_error", message, span, hint)


def _span(tok, end=None) -> Span:
    end = end or tok
    return Span(tok.line, tok.column, end.end_line, end.end_column)


class Token:
    """A token: lark's terminal name, its text, its 1-based start and (exclusive) end, and its
    offsets in the source."""

    __slots__ = ("type", "value", "line", "column", "end_line", "end_column", "start_pos",
                 "end_pos")

    def __init__(self, type_, value, line, column, end_line, end_column, start_pos):
        self.type, self.value = type_, value
        self.line, self.column = line, column
        self.end_line, self.end_column = end_line, end_column
        self.start_pos, self.end_pos = start_pos, start_pos + len(value)


def tokens(source: str, deadline: float | None = None):
    """The tokens of `source`, matched by lark's scanner for grammar.lark (so lark decides
    every token and its priority), checking `deadline` (a perf_counter time) as it goes.
    Driving the scanner directly is several times faster than lark's lexer loop, which
    builds a Token and feeds a line counter for every piece of whitespace too."""
    text = TextSlice(source, 0, len(source))
    match = _LEXER.scanner.match
    ignore = _LEXER.ignore_types
    pos, line, line_start, end, count = 0, 1, 0, len(source), 0
    while pos < end:
        found = match(text, pos)
        if not found:
            raise _lex_error(source, pos, line, pos - line_start + 1)
        value, kind = found
        newlines = value.count("\n")
        if kind not in ignore:
            column = pos - line_start + 1
            if newlines:
                end_line, end_column = line + newlines, len(value) - value.rfind("\n")
            else:
                end_line, end_column = line, column + len(value)
            count += 1
            if deadline is not None and count % 512 == 0 and time.perf_counter() > deadline:
                raise PtcError("timeout", "reading the program took longer than the time limit")
            yield Token(kind, value, line, column, end_line, end_column, pos)
        if newlines:
            line += newlines
            line_start = pos + value.rfind("\n") + 1
        pos += len(value)


def _lex_error(source: str, pos: int, line: int, column: int) -> PtcError:
    """The parse error for text the lexer cannot split into tokens at `pos`."""
    char = source[pos] if pos < len(source) else ""
    following = source[pos + 1:pos + 2]
    span = Span(line, column, line, column + 1)
    where = f"{line}:{column}"
    if char == '"':
        return parse_error(f"unterminated string starting at {where}", span,
                           'close the string with "')
    if char == "#" and following == '"':
        return parse_error(f"unterminated regex literal starting at {where}", span,
                           'close the regex with "')
    if char == "#":
        return parse_error(f"unsupported reader macro #{following} at {where}", span,
                           _RMACRO_HINTS["#"][1])
    if char == "\\":
        return parse_error(f"invalid character literal at {where}", span,
                           "a character is \\a, \\newline, \\space, \\tab or \\uXXXX")
    return parse_error(f"unexpected character {_describe(char)} at {where}", span)


def _describe(char: str) -> str:
    if char.isprintable() and not _FORBIDDEN.match(char):
        return repr(char)
    return f"U+{ord(char):04X}"


class _Frame:
    __slots__ = ("open", "close", "kind", "token", "items", "prefixes")

    def __init__(self, open_, close, kind, token):
        self.open, self.close, self.kind, self.token = open_, close, kind, token
        self.items: list = []
        self.prefixes: list = []


def read(source: str, *, max_depth: int = 100, max_symbols: int = 10_000,
         deadline: float | None = None) -> list:
    """All top-level forms of `source`. Stray closing delimiters at top level are ignored."""
    if source.startswith("\ufeff"):
        source = source[1:]
    top = _Frame("", "", None, None)
    stack = [top]
    names: set[str] = set()
    hidden = _FORBIDDEN.finditer(source)
    bad = next(hidden, None)
    for tok in tokens(source, deadline):
        kind = tok.type
        frame = stack[-1]
        while bad is not None and bad.start() < tok.end_pos:
            if bad.start() < tok.start_pos or kind not in _LITERALS:
                raise _hidden_char(source, bad.start())
            bad = next(hidden, None)
        if kind in _OPENERS or kind in ("__ANON_0", "__ANON_1"):
            open_, close, form_kind = _OPENERS.get(kind) or (
                ("#{", "}", SetForm) if kind == "__ANON_0" else ("#(", ")", FnLiteral))
            if len(stack) > max_depth:
                raise parse_error(f"forms nested deeper than {max_depth} levels", _span(tok))
            stack.append(_Frame(open_, close, form_kind, tok))
            continue
        if kind in _CLOSERS:
            if frame is top:
                continue  # LLMs add stray closers after complete forms
            if _CLOSERS[kind] != frame.close:
                raise parse_error(
                    f"mismatched delimiter: '{tok.value}' at {tok.line}:{tok.column} cannot close "
                    f"'{frame.open}' opened at {frame.token.line}:{frame.token.column}",
                    _span(tok), f"close '{frame.open}' with '{frame.close}'")
            if frame.prefixes:
                _dangling_prefix(frame.prefixes[-1])
            stack.pop()
            _add(stack[-1], _build(frame, tok))
            continue
        if kind in ("__ANON_2", "__ANON_3"):  # #' and #_
            frame.prefixes.append(tok)
            continue
        form = _atom(tok, names)
        _add(frame, form)
    if bad is not None:    # in whitespace or a comment after the last token
        raise _hidden_char(source, bad.start())
    if len(stack) > 1:
        raise _unclosed(stack[1:])
    if top.prefixes:
        _dangling_prefix(top.prefixes[-1])
    if len(names) > max_symbols:
        raise PtcError("symbol_limit_exceeded", f"program contains {len(names)} unique symbols "
                       f"and keywords, more than the limit of {max_symbols}")
    return top.items


def _add(frame: _Frame, form) -> None:
    while frame.prefixes:
        prefix = frame.prefixes.pop()
        if prefix.value == "#_":
            return
        if type(form) is not Sym:
            raise parse_error(f"#' at {prefix.line}:{prefix.column} must be followed by a symbol",
                              _span(prefix), "write #'name or (var name)")
        form = VarQuote(form, _span(prefix, _end_token(form)))
    frame.items.append(form)


class _EndPos:
    __slots__ = ("end_line", "end_column")

    def __init__(self, span: Span):
        self.end_line, self.end_column = span.end_line, span.end_col


def _end_token(form):
    return _EndPos(form.span)


def _dangling_prefix(tok):
    raise parse_error(f"'{tok.value}' at {tok.line}:{tok.column} must be followed by a form",
                      _span(tok))


def _unclosed(frames: list) -> PtcError:
    outer = frames[0]
    opens = [f.open for f in frames]
    if len(set(opens)) == 1:
        what = _NAMES[outer.open]
        message = (f"unbalanced {what}: {len(frames)} unclosed '{outer.open}' opened at "
                   f"{outer.token.line}:{outer.token.column}")
    else:
        listed = ", ".join(f"'{f.open}' at {f.token.line}:{f.token.column}" for f in frames)
        message = f"unbalanced delimiters: {len(frames)} unclosed: {listed}"
    closers = "".join(f.close for f in reversed(frames))
    return parse_error(message, _span(outer.token), f"add {closers} at the end of the form")


def _build(frame: _Frame, close_tok):
    span = _span(frame.token, close_tok)
    items = tuple(frame.items)
    if frame.kind is MapForm and len(items) % 2:
        raise parse_error(f"map literal at {span} has {len(items)} forms; it needs key/value pairs",
                          span, "every key needs a value")
    return frame.kind(items, span)


def _atom(tok, names: set):
    kind, text = tok.type, tok.value
    span = _span(tok)
    if kind == "SYMBOL":
        if text == "nil":
            return Const(None, span)
        if text == "true":
            return Const(True, span)
        if text == "false":
            return Const(False, span)
        names.add(text)
        return _symbol(text, span)
    if kind == "KEYWORD":
        names.add(text)
        return Const(_keyword(text, span), span)
    if kind == "NUMBER":
        return Const(_number(text, span), span)
    if kind == "STRING":
        return Const(_unescape(text[1:-1], span), span)
    if kind == "CHAR":
        return Const(_char(text[1:], span), span)
    if kind == "REGEX":
        return RegexForm(text[2:-1], span)
    if kind == "SPECIAL_FLOAT":
        values = {"##Inf": float("inf"), "##-Inf": float("-inf"), "##NaN": float("nan")}
        if text not in values:
            raise parse_error(f"unknown symbolic value {text}", span, "use ##Inf, ##-Inf or ##NaN")
        return Const(values[text], span)
    if kind == "RMACRO":
        message, hint = _RMACRO_HINTS.get(text) or (
            f"tagged literals ({text}...) are not supported", "write the value as a string")
        raise parse_error(f"{message} (at {tok.line}:{tok.column})", span, hint)
    raise parse_error(f"unexpected {text!r}", span)


def _hidden_char(source: str, pos: int) -> PtcError:
    """NUL, controls, zero-width and bidi characters are allowed only inside string, regex
    and character literals: in code or comments they can hide what the program does."""
    line = source.count("\n", 0, pos) + 1
    col = pos - source.rfind("\n", 0, pos)
    return parse_error(f"invisible or control character U+{ord(source[pos]):04X} at {line}:{col}",
                       Span(line, col, line, col + 1),
                       "remove it; such characters are only allowed inside strings")


def _symbol(text: str, span: Span) -> Sym:
    if text == "/" or "/" not in text:
        return Sym(None, text, span)
    ns, _, name = text.partition("/")
    if not ns or not name or ("/" in name and name != "/"):
        raise parse_error(f"invalid symbol {text}", span)
    return Sym(ns, name, span)


def _keyword(text: str, span: Span) -> Keyword:
    name = text[1:]
    if name.startswith(":"):
        raise parse_error(f"auto-resolved keywords ({text}) are not supported", span,
                          f"write :{name.lstrip(':')}")
    if not name or name.endswith("/") or name.startswith("/"):
        raise parse_error(f"invalid keyword {text}", span)
    return Keyword(name)


def _number(text: str, span: Span):
    m = _INT.fullmatch(text)
    if m:
        sign, hex_, octal, dec, radix, digits, leading_zero = m.groups()
        if leading_zero:
            raise parse_error(f"invalid number {text}", span,
                              "a leading 0 makes an octal number (digits 0-7); remove the 0")
        if len(text) > 40:
            raise _out_of_range(text, span)
        if hex_:
            value = int(hex_[2:], 16)
        elif octal:
            value = int(octal, 8)
        elif dec:
            value = int(dec)
        else:
            base = int(radix)
            if not 2 <= base <= 36 or any(_DIGITS.find(c) >= base for c in digits.lower()):
                raise parse_error(f"invalid number {text}", span,
                                  "write NrDIGITS with a radix N from 2 to 36")
            value = int(digits, base)
        value = -value if sign == "-" else value
        if not INT_MIN <= value <= INT_MAX:
            raise _out_of_range(text, span)
        return value
    if _FLOAT.fullmatch(text):
        return float(text.rstrip("M"))
    m = _RATIO.fullmatch(text)
    if m:
        if len(m.group(1)) > 20 or len(m.group(2)) > 20:
            raise _out_of_range(text, span)
        numerator, denominator = int(m.group(1)), int(m.group(2))
        if not (INT_MIN <= numerator <= INT_MAX and denominator <= INT_MAX):
            raise _out_of_range(text, span)
        if denominator == 0:
            raise parse_error(f"invalid ratio {text}: division by zero", span)
        return numerator / denominator
    raise parse_error(f"invalid number {text}", span)


def _out_of_range(text: str, span: Span) -> PtcError:
    return PtcError("parse_error", f"integer {text[:30]} does not fit in 64 bits", span,
                    "integers are 64-bit; use a float such as 1.0e20")


def _unescape(body: str, span: Span) -> str:
    if "\\" not in body:
        return body

    def replace(m):
        esc = m.group(1)
        if esc in _STRING_ESCAPES:
            return _STRING_ESCAPES[esc]
        if len(esc) == 5 and esc[0] == "u":
            return chr(int(esc[1:], 16))
        if esc[0] in "01234567":
            return chr(int(esc, 8))
        if esc == "u":
            raise parse_error("invalid unicode escape in string: \\u needs 4 hex digits", span,
                              "write \\u followed by 4 hex digits, such as \\u00e9")
        shown = esc if esc.isprintable() else repr(esc)[1:-1]   # a message stays one line
        raise parse_error(f"unsupported escape \\{shown} in string", span,
                          f"write \\\\{shown} for a backslash, or use a regex literal #\"...\"")
    text = _ESCAPE.sub(replace, body)
    if "\\u" in body and _SURROGATE_PAIR.search(text):   # "\\uD83D\\uDE00" is one character
        text = _SURROGATE_PAIR.sub(_join_surrogates, text)
    return text


def _join_surrogates(m) -> str:
    high, low = ord(m.group()[0]), ord(m.group()[1])
    return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))


def _char(text: str, span: Span) -> str:
    if len(text) == 1:
        return text
    if text in _CHAR_NAMES:
        return _CHAR_NAMES[text]
    if re.fullmatch(r"u[0-9a-fA-F]{4}", text):
        return chr(int(text[1:], 16))
    if re.fullmatch(r"o[0-7]{1,3}", text) and int(text[1:], 8) <= 0o377:
        return chr(int(text[1:], 8))
    raise parse_error(f"unsupported character literal \\{text}", span,
                      "a character is \\a, \\newline, \\space, \\tab or \\uXXXX")
