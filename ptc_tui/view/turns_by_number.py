"""TurnsByNumber: a trace's turns looked up by their number, without reading the others."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.history import Turn
from engine.trace.lazy_turns import LazyTurns


class TurnsByNumber(Mapping):
    """A trace's turns by number. The numbers are known without reading a turn (a trace
    file's are 1, 2, ...: the loader checks them), so a long trace's later turns are only
    decoded when one is looked up."""

    def __init__(self, turns: Sequence[Turn]):
        self._turns = turns
        numbers = (range(1, len(turns) + 1) if isinstance(turns, LazyTurns)
                   else [t.number for t in turns])
        self._indexes = {n: i for i, n in enumerate(numbers)}

    def index_of(self, number: int) -> int:
        """The 0-based index of turn `number` in the trace (KeyError: no such turn)."""
        try:
            return self._indexes[number]
        except KeyError:
            raise KeyError(f"no turn {number}") from None

    def __getitem__(self, number: int) -> Turn:
        return self._turns[self.index_of(number)]

    def __contains__(self, number) -> bool:
        return number in self._indexes

    def __iter__(self):
        return iter(self._indexes)

    def __len__(self) -> int:
        return len(self._indexes)
