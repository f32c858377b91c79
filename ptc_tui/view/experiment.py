"""ExperimentView: an experiment folder as the experiment screen shows it (no Textual): one row
per option set, the runs of a set, and a text chart of success rate against mean input tokens."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ptc_tui.experiments.record import load_experiment
from ptc_tui.experiments.summary import SetSummary, summarize
from ptc_tui.view.formats import cost_text

RULES = {"check": "check(step)", "expected": "returns `expected`", "returned": "returned"}
MARKS = "123456789abcdefghijklmnopqrstuvwxyz"      # a set's mark in the chart: its place


STOPPED = " · stopped before its end"      # the title of an experiment a run is missing from

@dataclass(frozen=True)
class ExperimentView:
    folder: Path
    doc: dict                  # experiment.json, checked
    summaries: tuple[SetSummary, ...]

    @classmethod
    def of(cls, folder: Path) -> "ExperimentView":
        doc = load_experiment(folder)
        labels = [s.get("label", "?") if isinstance(s, dict) else "?" for s in doc["option_sets"]]
        return cls(folder, doc, tuple(summarize(labels, doc["runs"])))

    @property
    def title(self) -> str:
        d = self.doc
        done = "" if d.get("finished") else STOPPED
        return (f"{d.get('agent_name', '?')} · LLM {d['llm']} · seed {d['seed']} · "
                f"{len(d['runs'])} runs · success: {RULES.get(d.get('success_rule'), '?')}{done}")

    def set_rows(self) -> list[tuple[str, ...]]:
        """#, option set, runs, success, 95% interval, mean turns, mean input tokens, cost."""
        rows = []
        for i, s in enumerate(self.summaries):
            if not s.runs:
                rows.append((mark(i), s.label, "0", "-", "-", "-", "-", "-"))
                continue
            low, high = s.interval
            cost = cost_text(None if s.cost is None else s.cost.mean)
            rows.append((mark(i), s.label, str(s.runs), f"{s.rate:.0%}",
                         f"{low:.0%}–{high:.0%}", f"{s.turns.mean:.1f}",
                         f"{s.input_tokens.mean:,.0f}", cost))
        return rows

    def runs_of(self, index: int) -> list[dict]:
        """The rows of option set `index`, by repeat."""
        return [r for r in self.doc["runs"] if r["set"] == index]

    def trace_path(self, row: dict) -> Path:
        return self.folder / row["trace"]

    def chart(self, width: int = 44, height: int = 10) -> list[str]:
        """Success rate (up) against mean input tokens (right), each option set drawn as its
        mark; sets in one cell show as `*`."""
        points = [(i, s.input_tokens.mean, s.rate) for i, s in enumerate(self.summaries)
                  if s.runs]
        grid = [[" "] * width for _ in range(height)]
        if points:
            low = min(x for _, x, _ in points)
            high = max(x for _, x, _ in points)
            for i, x, rate in points:
                col = 0 if high == low else round((x - low) / (high - low) * (width - 1))
                row = height - 1 - round(rate * (height - 1))
                grid[row][col] = mark(i) if grid[row][col] == " " else "*"
        lines = []
        for r, cells in enumerate(grid):
            label = "100%" if r == 0 else "  0%" if r == height - 1 else "    "
            lines.append(f"{label} │{''.join(cells)}")
        lines.append("     └" + "─" * width)
        if points:
            left, right = f"{low:,.0f}", f"{high:,.0f}"
            lines.append("      " + left + right.rjust(width - len(left)))
        lines.append("      mean input tokens →".ljust(width + 6))
        return lines


def mark(index: int) -> str:
    return MARKS[index] if index < len(MARKS) else "+"
