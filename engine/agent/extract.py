"""Finding the program in an LLM reply (docs/ptc-lisp-rules.md, "Finding the program")."""

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
    _, parts = _program_parts(reply)
    if not parts:
        return None
    code = _clean("\n\n".join(body for _, body in parts))
    return code or None


def program_spans(reply: str) -> tuple[str, list[tuple[int, int]]]:
    """Where the program is in `reply`: its text with line ends made `\n`, and the (start,
    end) of each part extract_program takes (a whole fenced block, fences included, or the
    whole reply); no parts when it has no program."""
    text, parts = _program_parts(reply)
    return text, [span for span, _ in parts]


def _program_parts(reply: str) -> tuple[str, list[tuple[tuple[int, int], str]]]:
    text = reply.replace("\r\n", "\n").replace("\r", "\n")
    blocks = [(m.span(), m.group(1).strip().lower(), m.group(2).strip())
              for m in _FENCE.finditer(text)]
    chosen = [(span, body) for span, tag, body in blocks if tag in _LISP_TAGS and body]
    if not chosen:
        chosen = [(span, body) for span, _, body in blocks if _clean(body).startswith("(")]
    if not chosen and _clean(text.strip()).startswith("("):
        chosen = [((0, len(text)), text.strip())]
    return text, chosen


def _clean(code: str) -> str:
    return code.translate(_INVISIBLE).translate(_SMART_QUOTES).strip()

