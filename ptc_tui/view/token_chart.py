"""ColumnChart: the token view's chart as plain data (no Textual, no Rich): every turn a group of
columns, one per strategy, side by side, in eighths of a cell; a panel of each turn's input
tokens over a panel of the running totals. A line is a tuple of `Run`s (text and what it is),
so the widget only picks a style per run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate

from engine.tokens import CacheSplit
from ptc_tui.view.token_stats import TokenStats

LEVELS = " ▁▂▃▄▅▆▇█"        # a column's top cell, in eighths
MARK = "▼"                  # over the selected turn's columns
MIN_PLOT_HEIGHT = 2
PANEL_TITLES = ("input tokens per turn", "running total of input tokens")


@dataclass(frozen=True)
class Run:
    text: str
    role: str | None = None     # a strategy's name, "axis", "mark", "title" or None (blank)
    selected: bool = False      # part of the selected turn's columns
    cached: bool = False        # a column's cells that stand for tokens read from the cache


def column_cells(value: int, largest: int, height: int) -> list[str]:
    """One column `height` cells tall, top cell first, filled to `value` / `largest` in eighths
    (a count above zero shows at least one eighth)."""
    eighths = round(value * height * 8 / largest) if largest else 0
    eighths = max(eighths, 1 if value else 0)
    return [LEVELS[min(max(eighths - level * 8, 0), 8)] for level in reversed(range(height))]


@dataclass(frozen=True)
class ColumnChart:
    strategies: tuple[str, ...]
    numbers: tuple[int, ...]               # the turns, in order
    per_turn: tuple[tuple[int, ...], ...]  # per turn: the input tokens of each strategy
    selected: int
    cached: tuple[tuple[int, ...], ...] = ()   # per turn: of those, read from the prompt cache

    @classmethod
    def of(cls, stats: TokenStats, selected: int,
           cache: tuple[Mapping[str, CacheSplit], ...] = ()) -> "ColumnChart":
        """`cache[i]` (when given) splits turn i's requests, so each column shows the part a
        prompt cache would serve."""
        return cls(stats.strategies, tuple(t.number for t in stats.turns),
                   tuple(tuple(t.tokens[s] for s in stats.strategies) for t in stats.turns),
                   selected, tuple(tuple(c[s].read for s in stats.strategies) for c in cache))

    @property
    def running(self) -> tuple[tuple[int, ...], ...]:
        """Per turn: each strategy's input tokens through that turn."""
        return tuple(accumulate(self.per_turn, lambda a, b: tuple(x + y for x, y in zip(a, b))))

    def layout(self, width: int, gutter: int) -> tuple[int, int]:
        """(cells per strategy column, cells between turns): as wide as `width` allows; one cell
        and no gap at the least (the chart then scrolls sideways)."""
        turns, per_group = len(self.numbers), len(self.strategies)
        if not turns or not per_group:
            return 1, 0
        room = width - gutter
        for gap in (1, 0):
            column = (room // turns - gap) // per_group
            if column >= 1:
                return min(column, 3), gap
        return 1, 0

    def gutter(self) -> int:
        """Cells left of the plot: the largest running total and the axis."""
        largest = max((sum(t) for t in zip(*self.per_turn)), default=0)
        return len(f"{largest:,}") + 2

    def lines(self, width: int, height: int) -> list[tuple[Run, ...]]:
        """Both panels in `height` lines (each: title, mark, plot, turn numbers), 3/5 of the
        plot lines for the per-turn panel."""
        plots = max(height - 6, 2 * MIN_PLOT_HEIGHT)
        upper = max(plots * 3 // 5, MIN_PLOT_HEIGHT)
        gutter = self.gutter()
        column, gap = self.layout(width, gutter)
        return [*self.panel(PANEL_TITLES[0], self.per_turn, upper, gutter, column, gap,
                            self.cached),
                *self.panel(PANEL_TITLES[1], self.running, plots - upper, gutter, column, gap)]

    def panel(self, title: str, values: tuple[tuple[int, ...], ...], height: int, gutter: int,
              column: int, gap: int, cached: tuple[tuple[int, ...], ...] = ()
              ) -> list[tuple[Run, ...]]:
        largest = max((n for group in values for n in group), default=0)
        group_width = column * len(self.strategies) + gap
        where = self.numbers.index(self.selected) if self.selected in self.numbers else None
        mark = [Run(" " * gutter)]
        if where is not None:
            mark += [Run(" " * (where * group_width)),
                     Run(f"{MARK} turn {self.selected}", "mark")]
        cells = [[column_cells(n, largest, height) for n in group] for group in values]
        # per column, the cells (from the bottom) wholly standing for cached tokens
        whole_cached = [[int(n * height / largest) if largest else 0 for n in group]
                        for group in cached] or [[0] * len(self.strategies)] * len(values)
        plot = []
        for y in range(height):
            label = f"{largest:,}" if y == 0 else "0" if y == height - 1 else ""
            runs = [Run(f"{label:>{gutter - 2}} ", "axis"), Run("│", "axis")]
            for i, (group, served) in enumerate(zip(cells, whole_cached)):
                runs += [Run(col[y] * column, name, i == where, height - 1 - y < c)
                         for name, col, c in zip(self.strategies, group, served)]
                runs.append(Run(" " * gap))
            plot.append(tuple(runs))
        return [(Run(title, "title"),), tuple(mark), *plot, self.axis(gutter, group_width)]

    def axis(self, gutter: int, group_width: int) -> tuple[Run, ...]:
        """Turn numbers under their columns, the selected one always, others where they fit
        without touching a number already placed."""
        row = [" "] * (len(self.numbers) * group_width + 8)
        chosen = sorted(range(len(self.numbers)),
                        key=lambda i: (self.numbers[i] != self.selected, i))
        selected_at = None
        for i in chosen:
            start, text = i * group_width, str(self.numbers[i])
            if all(c == " " for c in row[max(start - 1, 0):start + len(text) + 1]):
                row[start:start + len(text)] = text
                if self.numbers[i] == self.selected:
                    selected_at = (start, start + len(text))
        line = "".join(row).rstrip()
        runs = [Run(" " * (gutter - 1) + "└", "axis")]
        if selected_at is None:
            return (*runs, Run(line, "axis"))
        start, end = selected_at
        return (*runs, Run(line[:start], "axis"), Run(line[start:end], "mark"),
                Run(line[end:], "axis"))
