"""Text from traces (LLM output, prints, tool results, names) made safe to show anywhere, on a
screen, a terminal or a pipe that ends in one: control characters and the Unicode
bidirectional controls are written as escapes, so no terminal acts on them; and text is cut
into lines at its newlines only (str.splitlines also cuts at a carriage return, a form feed
and eight other characters, which would then vanish instead of showing escaped)."""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, the C1 controls (\x9b is a one-byte CSI), and the
# controls that reorder how a terminal lays out a line of mixed-direction text (the "Trojan
# Source" characters: marks, embeddings, overrides and isolates).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def escape_controls(text: str) -> str:
    """`text` with every control character written as `\\xNN`, and every bidirectional
    control as `\\uNNNN` (newlines and tabs kept)."""
    return _UNSAFE.sub(_escaped, text)


def _escaped(found: re.Match) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# What JSON leaves as it is of those (it escapes the C0 controls itself): DEL, C1, bidi.
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def escape_json_controls(json_text: str) -> str:
    """JSON text with the characters a terminal would act on written as `\\uNNNN` escapes:
    the same JSON, character for character, once parsed (they can only be inside strings)."""
    return _UNSAFE_IN_JSON.sub(lambda found: f"\\u{ord(found.group()):04x}", json_text)


def text_lines(text: str) -> list[str]:
    """`text` cut at its newlines, as str.splitlines cuts it at them (no last empty line for a
    text that ends with one), but only at them."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines if text else []
