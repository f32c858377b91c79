"""What an experiment runs: the option sets (every combination of the strategies and the `--set`
values), K repeats of each, and the seed of every run.

An option set changes only what its strategy reads (`full` has no `println_limit`), so
combinations that would run the same are one set. `max_turns` applies to every strategy.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from dataclasses import asdict, dataclass, fields

from engine.history import STRATEGIES, HistoryOpts

TURN_BUDGET = "max_turns"
MAX_REPEAT = 10_000     # pins a success rate within about ±1 point (Wilson 95%): more only waits
MAX_RUNS = 100_000      # in all: weeks of LLM calls; a plan past it is a typo, and would fill
                        # the memory before the first run
MAX_JOBS = 256          # runs at once: each is a thread waiting on its LLM
TEXT_OPTIONS = ("sample_rule", "errors")


def option_names() -> list[str]:
    """The names `--set` accepts: every HistoryOpts field but the strategy, and max_turns."""
    return [f.name for f in fields(HistoryOpts) if f.name != "strategy"] + [TURN_BUDGET]


@dataclass(frozen=True)
class OptionSet:
    label: str                 # "coalesced println_limit=3"
    opts: HistoryOpts
    changes: tuple[tuple[str, object], ...]    # the `--set` values it runs with, in order
    max_turns: int | None = None               # None: the agent's own

    def as_json(self) -> dict:
        return {"label": self.label, "strategy": self.opts.strategy, "options": dict(self.changes),
                "history": asdict(self.opts), "max_turns": self.max_turns}


@dataclass(frozen=True)
class Run:
    """One run to make: option set `index`, repeat `repeat` (from 0), with its own seed."""

    index: int
    option_set: OptionSet
    repeat: int
    seed: int

    @property
    def trace_name(self) -> str:
        slug = self.option_set.label.replace(" ", "_").replace("/", "_")
        return f"{self.index + 1:02d}-{slug}-r{self.repeat + 1:03d}.json"


def parse_setting(text: str) -> tuple[str, list]:
    """`name=v1,v2` from --set: the option's name and its values, checked (ValueError: one line)."""
    name, sep, values = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or not values.strip():
        raise ValueError(f"--set {text}: expected NAME=VALUE[,VALUE...]")
    if name not in option_names():
        raise ValueError(f"--set {text}: unknown option {name!r}; known: "
                         f"{', '.join(option_names())}")
    parsed = [option_value(name, v.strip(), text) for v in values.split(",")]
    for value in parsed:
        if name == TURN_BUDGET:
            if value < 1:
                raise ValueError(f"--set {text}: max_turns must be 1 or more")
        else:
            try:
                HistoryOpts().with_changes(**{name: value})
            except ValueError as e:
                raise ValueError(f"--set {text}: {e}") from None
    return name, list(dict.fromkeys(parsed))


def option_value(name: str, text: str, setting: str):
    if name in TEXT_OPTIONS:
        return text
    if name == "compaction_tokens" and text.lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"--set {setting}: {name} takes whole numbers, not {text!r}") from None


def option_sets(base: HistoryOpts, strategies: list[str],
                settings: list[tuple[str, list]]) -> list[OptionSet]:
    """Every combination, in the order given (strategies first, then each --set in turn),
    each over `base` (the agent's own options); duplicates dropped."""
    for s in strategies:
        if s not in STRATEGIES:
            raise ValueError(f"--compress: unknown strategy {s!r}; known: {', '.join(STRATEGIES)}")
    def applying(strategy: str) -> list[tuple[str, list]]:
        return [(n, vs) for n, vs in settings
                if n == TURN_BUDGET or n in STRATEGIES[strategy].options]
    combinations = sum(math.prod(len(vs) for _, vs in applying(s))
                       for s in dict.fromkeys(strategies))
    if combinations > MAX_RUNS:
        raise ValueError(f"--set: {combinations:,} combinations of values to try; an experiment "
                         f"makes at most {MAX_RUNS:,} runs")
    out: dict[str, OptionSet] = {}
    for strategy in dict.fromkeys(strategies):
        applies = applying(strategy)
        for values in itertools.product(*(vs for _, vs in applies)):
            changes = tuple((n, v) for (n, _), v in zip(applies, values))
            history = {n: v for n, v in changes if n != TURN_BUDGET}
            label = " ".join([strategy, *(f"{n}={'none' if v is None else v}" for n, v in changes)])
            out.setdefault(label, OptionSet(label, base.with_changes(strategy=strategy, **history),
                                            changes, dict(changes).get(TURN_BUDGET)))
    return list(out.values())


def run_seed(seed: int, label: str, repeat: int) -> int:
    """The seed of one run, from the experiment's seed, its option set and its repeat: the same
    whatever the order runs are made in."""
    digest = hashlib.sha256(f"{seed}\n{label}\n{repeat}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def plan_runs(sets: list[OptionSet], repeat: int, seed: int) -> list[Run]:
    if len(sets) * repeat > MAX_RUNS:
        raise ValueError(f"{len(sets):,} option sets × --repeat {repeat:,} = "
                         f"{len(sets) * repeat:,} runs; an experiment makes at most "
                         f"{MAX_RUNS:,}")
    return [Run(i, s, r, run_seed(seed, s.label, r))
            for i, s in enumerate(sets) for r in range(repeat)]
