"""LazyTurns: the turns of a trace file, decoded from their JSON one by one, in order, as they are
asked for. A 1,000-turn trace then opens after decoding the turns of its first screen; the rest
are decoded by whoever asks next (the app's counting thread). A broken turn is a TraceError
naming the file and the field when it is reached, every time it is asked for again."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from engine.history import Turn


class LazyTurns(Sequence):
    """Turn i is decoded from `raw[i]` by `decode(raw[i], i, memory)` (memory: the turn before's,
    {} for the first), which raises the loader's TraceError for a broken turn. Each turn's JSON
    is let go once it is decoded. The UI thread and a counting thread may both ask: a lock
    keeps one decoding."""

    def __init__(self, raw: Sequence, decode: Callable[[object, int, dict], Turn]):
        # a list's items are let go one by one as they are decoded; another sequence (a file's
        # text, its turns parsed when asked for: engine.trace.lazy_json) once all are
        self._raw = list(raw) if isinstance(raw, list) else raw
        self._count = len(raw)
        self._decode = decode
        self._done: list[Turn] = []
        self._error: Exception | None = None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(self._count)))
        if i < 0:
            i += self._count
        if not 0 <= i < self._count:
            raise IndexError(i)
        if i >= len(self._done):
            self._decode_to(i)
        return self._done[i]

    def _decode_to(self, i: int) -> None:
        with self._lock:
            if self._error is not None:
                raise self._error
            while len(self._done) <= i:
                k = len(self._done)
                memory = self._done[-1].memory if self._done else {}
                try:
                    turn = self._decode(self._raw[k], k, memory)
                except Exception as e:
                    self._error = e
                    raise
                self._done.append(turn)
                if isinstance(self._raw, list):
                    self._raw[k] = None           # its JSON is not needed any more
            if len(self._done) == self._count:
                self._raw = ()                    # nor any turn's

    def decode_all(self) -> None:
        """Decode every turn now (the loader's TraceError for the first broken one)."""
        if self._count:
            self[self._count - 1]

    @property
    def decoded(self) -> int:
        """How many turns (from the first) are decoded so far."""
        return len(self._done)

    @property
    def error(self) -> Exception | None:
        """The broken turn's error, once a turn was found broken."""
        return self._error

    def __eq__(self, other) -> bool:
        """Equal to the same turns, lazy or not (a trace read twice is the same trace)."""
        if isinstance(other, (LazyTurns, tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None                               # turns hold dicts: never hashable anyway

    def __repr__(self) -> str:
        return f"<LazyTurns {self.decoded} of {len(self)} decoded>"


def decoded_turns(turns: Sequence) -> int:
    """How many of `turns` (from the first) can be read without decoding: all but those a
    LazyTurns has not decoded yet."""
    return turns.decoded if isinstance(turns, LazyTurns) else len(turns)


def known_error(turns: Sequence, i: int) -> Exception | None:
    """The error asking for turn `i` (0-based) of `turns` raises at once, without decoding:
    a LazyTurns found a broken turn at or before it; else None."""
    if isinstance(turns, LazyTurns) and turns.error is not None and i >= turns.decoded:
        return turns.error
    return None
