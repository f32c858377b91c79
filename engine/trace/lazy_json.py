"""A trace file's two long lists, `messages` and `turns`, found in its bytes without parsing or
even decoding them, each item decoded and parsed only when it is first asked for: a 1,000-turn
trace's 24 MB took 200 ms to parse whole before its first screen, which needs 50 turns, and
40-60 ms more to decode as text.

This reads the layout our saver writes (save_trace: JSON indented by one space). JSON strings
hold no raw newline, so a line break is always layout, and its indentation is the depth: an item
of a top-level list of objects is a line "  {" (two spaces) and ends with a line "  }",
followed by ",", or by the line " ]" that closes the list. (In UTF-8 no byte of a character
past ASCII is one of those ASCII bytes.) A file laid out otherwise (written by hand, by another
program) is not split here: it is parsed whole, as before; a list found laid out otherwise only
when its items are looked for is parsed whole then."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence

from engine.trace import strict_json

ITEM_END = b"\n  }"               # the last line of an object two levels deep
NEXT_ITEM = b",\n  {"             # after ITEM_END: another item of the same list
LIST_END = b"\n ]"                # after ITEM_END: the list is closed
CLOSED_BEFORE = ITEM_END + LIST_END + b","   # a list's last bytes, right before the next key


def split_lists(raw: bytes, keys: tuple[str, ...]) -> tuple[bytes, dict[str, Spans]] | None:
    """`raw` (a JSON object in UTF-8, laid out as our saver lays it out) without the items of
    its top-level lists `keys`, which are left empty there, and each list's items' Spans; a list
    that is empty or not there is left in place. None for a file laid out otherwise.

    A list followed at once by another of `keys` (the saver writes `messages` right before
    `turns`) ends where that one's line starts, so its items are found only as they are asked
    for: the first screen of a long trace needs the first few of its 20 MB of messages. The
    last list's items are all found now (a trace's turns are counted at once)."""
    if not raw.startswith(b'{\n "'):
        return None
    heads = sorted((at, key) for key in keys if (at := raw.find(_head(key))) >= 0)
    found: dict[str, Spans] = {}
    cuts = []                                    # (start, end) of each list's items
    for n, (at, key) in enumerate(heads):
        first = at + len(_head(key)) - 1
        after = heads[n + 1][0] if n + 1 < len(heads) else -1
        if after > 0 and raw.startswith(CLOSED_BEFORE, after - len(CLOSED_BEFORE)):
            spans = Spans(raw, first, after - len(LIST_END) - 1)
        else:
            try:
                spans = Spans(raw, first)
            except NotLaidOut:
                return None
        found[key] = spans
        cuts.append((first, spans.end))
    if any(end > start for (_, end), (start, _) in zip(cuts, cuts[1:])):
        return None
    rest, done = [], 0
    for start, end in cuts:
        rest.append(raw[done:start])
        done = end
    rest.append(raw[done:])
    return b"".join(rest), found


def _head(key: str) -> bytes:
    return f'\n "{key}": [\n  {{'.encode()


class NotLaidOut(ValueError):
    """Bytes where an item of a list should be that are not one, as our saver lays it out."""


class Spans(Sequence):
    """The (start, end) of each item of a top-level list in `raw`, from the one that opens at
    `first`: found now, or, given `end` (where the last item ends), as they are asked for,
    scanning the list only that far. NotLaidOut for bytes that break the layout there."""

    def __init__(self, raw: bytes, first: int, end: int | None = None) -> None:
        self._raw, self._first, self._next, self._end = raw, first, first, end
        self._found: list[tuple[int, int]] = []
        self._lock = threading.Lock()
        if end is None:
            self._find(None)
            self._end = self._found[-1][1]

    @property
    def end(self) -> int:
        return self._end

    @property
    def whole_list(self) -> tuple[int, int]:
        """Where the list is in `raw`, from its "[" to its "]"."""
        return self._first - len(b"[\n  "), self._end + len(LIST_END)

    @property
    def complete(self) -> bool:
        """Whether every item is found (len() then scans nothing)."""
        return self._next is None

    def __len__(self) -> int:
        if self._next is not None:
            self._find(None)
        return len(self._found)

    def __getitem__(self, i: int) -> tuple[int, int]:
        if i < 0:
            i += len(self)
        if i >= len(self._found) and self._next is not None:
            self._find(i)
        return self._found[i]

    def _find(self, i: int | None) -> None:
        """Find items until item `i` (None: the last one) is found."""
        with self._lock:
            raw, found = self._raw, self._found
            while self._next is not None and (i is None or len(found) <= i):
                start = self._next
                if not raw.startswith(b"{\n", start):   # "{}": an empty object is on one line
                    raise NotLaidOut(start)
                end = raw.find(ITEM_END, start, self._end or len(raw))
                if end < 0:
                    raise NotLaidOut(start)
                end += len(ITEM_END)
                found.append((start, end))
                if end == self._end:
                    self._next = None
                elif raw.startswith(NEXT_ITEM, end):
                    self._next = end + len(NEXT_ITEM) - 1
                elif self._end is None and raw.startswith(LIST_END, end):
                    self._next = None
                else:                            # an object two levels deep but not an item
                    raise NotLaidOut(end)


class LazyItems(Sequence):
    """The items of the list `key` in `raw` at `spans` (split_lists), each decoded (UTF-8) and
    parsed strictly (strict_json) and given to `make(item, index)` when first asked for; an item
    that is not UTF-8 or not JSON a trace may hold raises `error(message)`, the message naming
    the item and its place in the file. `keep`: the made items are kept (and the bytes let go
    once all are made); else made again each time they are asked for. Threads may ask at once
    (the app's UI and counting threads)."""

    def __init__(self, raw: bytes, key: str, spans: Spans,
                 make: Callable[[object, int], object], keep: bool,
                 error: Callable[[str], Exception]) -> None:
        self._raw: bytes | None = raw
        self.key = key
        self._spans = spans
        self._make = make
        self._error = error
        self._made: dict[int, object] | None = {} if keep else None
        self._whole: list | None = None          # the list parsed whole, if it had to be
        self._lock = threading.Lock()

    def __len__(self) -> int:
        try:
            return len(self._spans) if self._whole is None else len(self._whole)
        except NotLaidOut:
            return len(self._whole_list())

    def __getitem__(self, i: int):
        if i < 0:
            i += len(self)
            if i < 0:
                raise IndexError(i)
        if self._made is None:
            return self._make(self._parsed(i), i)
        with self._lock:
            if i not in self._made:
                self._made[i] = self._make(self._parsed(i), i)
                counted = self._spans.complete or self._whole is not None
                if counted and len(self._made) == len(self):
                    self._raw = None             # every item is made: the bytes are not needed
            return self._made[i]

    def _parsed(self, i: int):
        """Item i parsed (IndexError past the last one)."""
        if self._whole is None:
            try:
                start, end = self._spans[i]
            except NotLaidOut:   # valid JSON laid out otherwise in the list: read it whole
                return self._whole_list()[i]
            return self._loads(start, end, f"{self.key}[{i}]")
        return self._whole[i]

    def _whole_list(self) -> list:
        if self._whole is None:
            self._whole = self._loads(*self._spans.whole_list, self.key)
        return self._whole

    def _loads(self, start: int, end: int, where: str):
        raw = self._raw
        try:
            return strict_json.loads(raw[start:end].decode("utf-8"))
        except UnicodeDecodeError as e:
            raise self._error(f"{where}: not UTF-8 text (byte {start + e.start})") from None
        except json.JSONDecodeError as e:       # its column counts characters, as written
            line = raw.count(b"\n", 0, start) + e.lineno
            column = e.colno + (start - raw.rfind(b"\n", 0, start) - 1 if e.lineno == 1 else 0)
            raise self._error(f"{where}: not valid JSON at line {line}, column {column}: "
                              f"{e.msg}") from None
        except (strict_json.DuplicateKey, strict_json.BadValue) as e:
            raise self._error(f"{where}: {e}") from None
        except RecursionError:
            raise self._error(f"{where}: JSON nested too deeply to be a trace") from None
