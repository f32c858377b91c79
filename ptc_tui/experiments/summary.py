"""The result of an experiment per option set: runs, success rate with its Wilson 95% interval,
mean and spread (sample standard deviation) of turns, input tokens and cost, and the difference
of each to the first option set. Plain data for the table, `--json` and the app."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

Z95 = 1.959964          # the normal quantile of a two-sided 95% interval


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (0..1); (0, 1) with no runs."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Spread:
    mean: float
    sd: float                   # 0 for a single run

    @classmethod
    def of(cls, values: list[float]) -> "Spread | None":
        """None when there are no values or one is unknown (a cost without a price)."""
        if not values or any(v is None for v in values):
            return None
        return cls(statistics.fmean(values), statistics.stdev(values) if len(values) > 1 else 0.0)

    def as_json(self) -> dict:
        return {"mean": self.mean, "sd": self.sd}


@dataclass(frozen=True)
class SetSummary:
    label: str
    runs: int
    successes: int
    turns: Spread | None
    input_tokens: Spread | None
    cost: Spread | None         # None: a price is unknown (or no runs)

    @property
    def rate(self) -> float | None:
        return self.successes / self.runs if self.runs else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.successes, self.runs)

    def difference(self, first: "SetSummary") -> dict:
        """This set minus `first`: success rate (in points of 0..1), mean turns, mean input
        tokens and mean cost; None where either side is unknown."""
        def minus(a, b):
            return None if a is None or b is None else a - b
        return {"success_rate": minus(self.rate, first.rate),
                "turns": minus(_mean(self.turns), _mean(first.turns)),
                "input_tokens": minus(_mean(self.input_tokens), _mean(first.input_tokens)),
                "cost": minus(_mean(self.cost), _mean(first.cost))}

    def as_json(self, first: "SetSummary") -> dict:
        low, high = self.interval
        return {"option_set": self.label, "runs": self.runs, "successes": self.successes,
                "success_rate": self.rate, "wilson_95": [low, high],
                "turns": _json(self.turns), "input_tokens": _json(self.input_tokens),
                "cost": _json(self.cost), "difference_to_first": self.difference(first)}


def summarize(labels: list[str], rows: list[dict]) -> list[SetSummary]:
    """One summary per option set, in the order of `labels`."""
    out = []
    for label in labels:
        mine = [r for r in rows if r["option_set"] == label]
        out.append(SetSummary(label, len(mine), sum(r["success"] for r in mine),
                              Spread.of([r["turns"] for r in mine]),
                              Spread.of([r["input_tokens"] for r in mine]),
                              Spread.of([r.get("cost") for r in mine])))
    return out


def _mean(spread: Spread | None) -> float | None:
    return None if spread is None else spread.mean


def _json(spread: Spread | None) -> dict | None:
    return None if spread is None else spread.as_json()
