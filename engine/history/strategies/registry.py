"""The strategies by name: each strategy module registers its class here when imported.

`engine.history.strategies` imports the strategies shipped with the engine, so the table is
full once that package is loaded (importing this module loads it first)."""

from __future__ import annotations

STRATEGIES: dict[str, type] = {}
BASELINE = "full"          # what the others' savings are measured against


def register(cls):
    """Class decorator: make a strategy available under its `name`."""
    STRATEGIES[cls.name] = cls
    return cls


def strategy_order() -> tuple[str, ...]:
    """Every strategy, the `full` baseline first, then in the order they registered."""
    return (BASELINE, *(s for s in STRATEGIES if s != BASELINE))
