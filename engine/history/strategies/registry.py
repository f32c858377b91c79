"""The strategies by name: each strategy module registers its class here when imported.

`engine.history.strategies` imports the strategies shipped with the engine, so the table is
full once that package is loaded (importing this module loads it first)."""

from __future__ import annotations

STRATEGIES: dict[str, type] = {}


def register(cls):
    """Class decorator: make a strategy available under its `name`."""
    STRATEGIES[cls.name] = cls
    return cls
