"""Dropped: what a strategy left out of one request, as readable lines for the message pane."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.history import CallRef, HistoryOpts, RenderStats, Turn
from engine.lisp import format_value
from ptc_tui.view.plain_text import text_lines

LINE_CHARS = 80


@dataclass(frozen=True)
class Dropped:
    kind: str          # "tool_call", "print", "failed_turn", "sample", "unseen_result", "turn"
    turn: int | None   # the turn the item came from (None for a definition's sample)
    text: str          # `turn 3: search("x")`


def one_line(text: str, limit: int = LINE_CHARS) -> str:
    """The first line of `text`, cut to `limit` characters, `…` marking anything left out."""
    lines = text_lines(text) or [""]
    first = lines[0]
    cut = len(first) > limit or len(lines) > 1
    return first[:limit] + ("…" if cut else "")


def dropped_items(stats: RenderStats, turns: Mapping[int, Turn], opts: HistoryOpts,
                  made: dict | None = None) -> tuple[Dropped, ...]:
    """Every item `stats` says the request left out, oldest first within each kind. `made`
    keeps each item made between calls (a late turn of a long run leaves out hundreds of the
    items its predecessors did: the counting worker makes them all before a key shows the
    turn, and the key then only looks them up)."""
    made = {} if made is None else made
    call_limits = (opts.args_limit, opts.args_printable_limit)
    result_limits = (opts.sample_limit, opts.sample_printable_limit)

    def kept(key: tuple, make) -> Dropped:
        found = made.get(key)
        if found is None:
            found = made[key] = make()
        return found

    def call(ref: CallRef) -> str:
        return turns[ref.turn].tool_calls[ref.index].call_text(*call_limits)

    def result(ref: CallRef) -> str:
        return one_line(_result(turns[ref.turn].tool_calls[ref.index].result, opts))
    items = [kept(("tool_call", r, call_limits),
                  lambda r=r: Dropped("tool_call", r.turn, f"turn {r.turn}: {call(r)}"))
             for r in stats.tool_calls_dropped]
    items += [kept(("print", r), lambda r=r: Dropped(
                   "print", r.turn, f"turn {r.turn}: {one_line(turns[r.turn].prints[r.index])}"))
              for r in stats.prints_dropped]
    items += [Dropped("failed_turn", n, f"turn {n}: failed turn collapsed"
                      + _error_suffix(turns[n])) for n in stats.failed_turns_collapsed]
    items += [Dropped("sample", None, f"{name}: shown without a sample")
              for name in stats.samples_omitted]
    items += [kept(("unseen_result", r, call_limits, result_limits), lambda r=r: Dropped(
                   "unseen_result", r.turn,
                   f"turn {r.turn}: {call(r)} → {result(r)} (result not seen)"))
              for r in stats.results_unseen]
    items += [Dropped("turn", n, f"turn {n}: left out by compaction") for n in stats.turns_dropped]
    return tuple(items)


def _error_suffix(turn: Turn) -> str:
    return f" ({turn.error.reason})" if turn.error is not None else ""


def _result(value, opts: HistoryOpts) -> str:
    return format_value(value, opts.sample_limit, opts.sample_printable_limit)[0]
