"""Where commands write: Rich tables on a terminal, plain aligned text in pipes and CI.

Text from traces (programs, prints, messages) is never read as Rich markup, and its control
characters are written escaped (`\\x1b`), in a pipe too (a pipe often ends in a terminal:
`| head`, `| less -R`, a CI log); `--json` keeps every character.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TextIO

from ptc_tui.view.plain_text import escape_controls


@dataclass(frozen=True)
class Column:
    header: str
    right: bool = False                  # numbers align right


class Output:
    """Plain text to `stream`; `RichOutput` draws the same things with Rich."""

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream if stream is not None else sys.stdout

    def line(self, text: str = "", style: str | None = None) -> None:
        """One line (or several), literally."""
        print(escape_controls(text), file=self.stream)

    def heading(self, text: str) -> None:
        """A separator naming what follows (a message's role and size)."""
        print(f"----- {escape_controls(text)} -----", file=self.stream)

    def verbatim(self, text: str) -> None:
        """Text from a trace as it is, but for its control characters, escaped."""
        print(escape_controls(text), file=self.stream)

    def table(self, columns: list[Column], rows: list[list[str]],
              footer: list[str] | None = None) -> None:
        all_rows = [[escape_controls(cell) for cell in row]
                    for row in ([c.header for c in columns], *rows, *([footer] if footer else []))]
        widths = [max(len(r[i]) for r in all_rows) for i in range(len(columns))]
        for row in all_rows:
            cells = [cell.rjust(w) if col.right else cell.ljust(w)
                     for cell, w, col in zip(row, widths, columns)]
            print("  ".join(cells).rstrip(), file=self.stream)


class RichOutput(Output):
    """The same output drawn by a Rich console (markup, emoji and highlighting off)."""

    def __init__(self, console=None):
        from rich.console import Console
        self.console = console if console is not None else Console(
            markup=False, emoji=False, highlight=False)
        super().__init__(self.console.file)

    def line(self, text: str = "", style: str | None = None) -> None:
        from rich.text import Text
        self.console.print(Text(escape_controls(text), style=style or ""), soft_wrap=True)

    def heading(self, text: str) -> None:
        from rich.text import Text
        self.console.rule(Text(escape_controls(text), style="bold"), align="left")

    def verbatim(self, text: str) -> None:
        from rich.text import Text
        self.console.print(Text(escape_controls(text)), soft_wrap=True)

    def table(self, columns: list[Column], rows: list[list[str]],
              footer: list[str] | None = None) -> None:
        from rich import box
        from rich.table import Table
        from rich.text import Text
        table = Table(box=box.SIMPLE_HEAD, show_footer=footer is not None, pad_edge=False)
        for i, c in enumerate(columns):
            table.add_column(Text(c.header), justify="right" if c.right else "left",
                             footer=Text(escape_controls(footer[i])) if footer else "")
        for row in rows:
            table.add_row(*(Text(escape_controls(cell)) for cell in row))
        self.console.print(table)


def for_stdout() -> Output:
    """Rich when stdout is a terminal, plain text otherwise."""
    return RichOutput() if sys.stdout.isatty() else Output(sys.stdout)
