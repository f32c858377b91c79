"""Literal text: trace text (LLM output, prints, tool results) as Rich `Text`, never markup,
with terminal control characters shown escaped so they cannot drive the terminal."""

from __future__ import annotations

import re

from rich.text import Text

# C0 controls except newline and tab, DEL and the C1 controls (ESC and CSI among them).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    """`text` with every control character written as `\\xNN` (newlines and tabs kept)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def literal(text: str, style: str = "") -> Text:
    """`text` exactly as written, as a `Text` (so `[bold]` stays `[bold]`)."""
    return Text(escape_controls(text), style=style)
