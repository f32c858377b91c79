"""A trace file's two long lists, `messages` and `turns`, found in its bytes without parsing or
even decoding them, each item decoded and parsed only when it is first asked for: a 1,000-turn
trace's 24 MB took 200 ms to parse whole before its first screen, which needs 50 turns, and
40-60 ms more to decode as text.

This reads the layout our saver writes (save_trace: JSON indented by one space). JSON strings
hold no raw newline, so a line break is always layout, and its indentation is the depth: an item
of a top-level list of objects is a line "  {" (two spaces) and ends with a line "  }",
followed by ",", or by the line " ]" that closes the list. (In UTF-8 no byte of a character
past ASCII is one of those ASCII bytes.) A file laid out otherwise (written by hand, by another
program) is not split here: it is parsed whole, as before."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence

from engine.trace import strict_json

ITEM_END = b"\n  }"               # the last line of an object two levels deep
NEXT_ITEM = b",\n  {"             # after ITEM_END: another item of the same list
LIST_END = b"\n ]"                # after ITEM_END: the list is closed


def split_lists(raw: bytes, keys: tuple[str, ...]) -> tuple[bytes, dict[str, list]] | None:
    """`raw` (a JSON object in UTF-8, laid out as our saver lays it out) without the items of
    its top-level lists `keys`, which are left empty there, and each list's items as (start,
    end) offsets into `raw`; a list that is empty or not there is left in place. None for a
    file laid out otherwise."""
    if not raw.startswith(b'{\n "'):
        return None
    found: dict[str, list] = {}
    cuts = []                                    # (start, end) of each list's items
    for key in keys:
        head = f'\n "{key}": [\n  {{'.encode()
        at = raw.find(head)
        if at < 0:
            continue
        spans = _items(raw, at + len(head) - 1)
        if spans is None:
            return None
        found[key] = spans
        cuts.append((spans[0][0], spans[-1][1]))
    cuts.sort()
    if any(end > start for (_, end), (start, _) in zip(cuts, cuts[1:])):
        return None
    rest, done = [], 0
    for start, end in cuts:
        rest.append(raw[done:start])
        done = end
    rest.append(raw[done:])
    return b"".join(rest), found


def _items(raw: bytes, start: int) -> list[tuple[int, int]] | None:
    """The (start, end) of each item of the list whose first item opens at `start`."""
    spans = []
    while True:
        if not raw.startswith(b"{\n", start):     # "{}": an empty object is written on one line
            return None
        end = raw.find(ITEM_END, start)
        if end < 0:
            return None
        end += len(ITEM_END)
        spans.append((start, end))
        if raw.startswith(NEXT_ITEM, end):
            start = end + len(NEXT_ITEM) - 1
        elif raw.startswith(LIST_END, end):
            return spans
        else:                                    # an object two levels deep but not an item
            return None


class LazyItems(Sequence):
    """The items of the list `key` in `raw` at `spans` (split_lists), each decoded (UTF-8) and
    parsed strictly (strict_json) and given to `make(item, index)` when first asked for; an item
    that is not UTF-8 or not JSON a trace may hold raises `error(message)`, the message naming
    the item and its place in the file. `keep`: the made items are kept (and the bytes let go
    once all are made); else made again each time they are asked for. Threads may ask at once
    (the app's UI and counting threads)."""

    def __init__(self, raw: bytes, key: str, spans: list[tuple[int, int]],
                 make: Callable[[object, int], object], keep: bool,
                 error: Callable[[str], Exception]) -> None:
        self._raw: bytes | None = raw
        self.key = key
        self._spans = spans
        self._make = make
        self._error = error
        self._made: dict[int, object] | None = {} if keep else None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._spans)

    def __getitem__(self, i: int):
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        if self._made is None:
            return self._make(self._parsed(i), i)
        with self._lock:
            if i not in self._made:
                self._made[i] = self._make(self._parsed(i), i)
                if len(self._made) == len(self._spans):
                    self._raw = None             # every item is made: the bytes are not needed
            return self._made[i]

    def _parsed(self, i: int):
        raw = self._raw
        start, end = self._spans[i]
        try:
            return strict_json.loads(raw[start:end].decode("utf-8"))
        except UnicodeDecodeError as e:
            raise self._error(f"{self.key}[{i}]: not UTF-8 text (byte {start + e.start})") \
                from None
        except json.JSONDecodeError as e:       # its column counts characters, as written
            line = raw.count(b"\n", 0, start) + e.lineno
            column = e.colno + (start - raw.rfind(b"\n", 0, start) - 1 if e.lineno == 1 else 0)
            raise self._error(f"{self.key}[{i}]: not valid JSON at line {line}, column "
                              f"{column}: {e.msg}") from None
        except (strict_json.DuplicateKey, strict_json.BadValue) as e:
            raise self._error(f"{self.key}[{i}]: {e}") from None
        except RecursionError:
            raise self._error(f"{self.key}[{i}]: JSON nested too deeply to be a trace") from None
