"""Finding the program in an LLM reply (ptc-lisp-upstream §0.6, with its defects fixed)."""

from __future__ import annotations

import re

NO_CODE_MESSAGE = ("No valid PTC-Lisp code found in response. Please provide code in a "
                   "```clojure or ```lisp code block, or as a raw s-expression starting with '('.")

_FENCE = re.compile(r"```([^\n`]*)\n?(.*?)```", re.DOTALL)
_LISP_TAGS = {"clojure", "lisp", "clj", "ptc-lisp", "ptc"}
# zero-width characters go; the odd spaces LLMs emit (no-break, thin, ...) become spaces
_INVISIBLE = {**dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060\ufffe\u00ad\u180e"), None),
              **dict.fromkeys(map(ord, "\u00a0\u202f\u2000\u2001\u2002\u2003\u2004\u2005"
                                       "\u2006\u2007\u2008\u2009\u200a"), " ")}
_SMART_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "‶": '"',
                               "‘": "'", "’": "'", "‚": "'", "‛": "'"})


def extract_program(reply: str) -> str | None:
    """The program in `reply`, or None when it has none.

    Fenced ```clojure / ```lisp blocks first (several run one after another), else any
    fenced block that starts with `(`, else the whole reply if it starts with `(`. Invisible
    characters are removed, odd spaces made plain and smart quotes straightened. `#_` forms stay: the reader
    discards them itself, so error positions match the code as the LLM wrote it.
    """
    text, spans = program_blocks(reply)
    if not spans:
        return None
    code = "\n\n".join(_body(text, span) for span in spans)
    code = _clean(code)
    return code or None


def program_blocks(reply: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """`reply` with its line ends made `\n`, and the (start, end) of each part of it that
    `extract_program` runs: whole fenced blocks, fences included, or the whole reply."""
    text = reply.replace("\r\n", "\n").replace("\r", "\n")
    fenced = list(_FENCE.finditer(text))
    chosen = [m for m in fenced
              if m.group(1).strip().lower() in _LISP_TAGS and m.group(2).strip()]
    if not chosen:
        chosen = [m for m in fenced if _clean(m.group(2)).startswith("(")]
    if chosen:
        return text, tuple(m.span() for m in chosen)
    return text, ((0, len(text)),) if _clean(text.strip()).startswith("(") else ()


def _body(text: str, span: tuple[int, int]) -> str:
    """The code inside the block at `span` (the whole reply when it is not fenced)."""
    match = _FENCE.fullmatch(text, *span)
    return (match.group(2) if match else text[span[0]:span[1]]).strip()


def _clean(code: str) -> str:
    return code.translate(_INVISIBLE).translate(_SMART_QUOTES).strip()

