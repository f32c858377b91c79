"""HistoryOpts: the `compress_history` option, normalised (docs/history-rules.md, API-001..007).

Each option's kind, allowed values and one-line help live on its field, as metadata (`kind`,
`choices`, `help`): `checked` here, the app's options panel (`ptc_tui.view.options`) and the
command line's `--option NAME=VALUE` all read them from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

from engine.history.strategies.registry import STRATEGIES

SAMPLE_RULES = ("turn", "global")
ERROR_DISPLAYS = ("all", "unrecovered")
KINDS = ("choice", "count", "optional")   # a listed value; a whole number ≥ 0; the same or None


def _option(default, kind: str, help: str, choices=()):
    """A HistoryOpts field with its kind, its choices (for "choice") and its help."""
    assert kind in KINDS
    return field(default=default, metadata={"kind": kind, "help": help, "choices": choices})


@dataclass(frozen=True)
class HistoryOpts:
    """Which strategy renders the history, and every limit it uses, defaults filled in."""

    strategy: str = _option("full", "choice", "how the history is rendered (full: no compression)",
                            STRATEGIES)
    println_limit: int = _option(
        15, "count", "most recent println calls shown, however many lines each printed")
    tool_call_limit: int = _option(
        20, "count", "most recent tool calls shown (equal ones in a row then shown as one, x3)")
    sample_limit: int = _option(3, "count", "items shown per collection in a value sample")
    sample_printable_limit: int = _option(80, "count", "characters shown per string in a sample")
    args_limit: int = _option(3, "count", "items shown per collection in tool-call arguments")
    args_printable_limit: int = _option(60, "count",
                                        "characters shown per string in tool-call args")
    sample_rule: str = _option(
        "turn", "choice",
        "turn: sample a definition if its turn printed nothing; global: if no turn did",
        SAMPLE_RULES)
    errors: str = _option(
        "all", "choice", "all: every failed turn; unrecovered: only the last, while still failing",
        ERROR_DISPLAYS)
    compaction_turns: int = _option(
        8, "count", "compaction: compact once more than this many turns have run")
    compaction_tokens: int | None = _option(
        None, "optional",
        "compaction: or once over this many tokens, as characters / 4 (empty: off)")
    keep_recent_turns: int = _option(
        3, "count", "compaction: most recent turns (reply and answer) kept verbatim")

    @property
    def enabled(self) -> bool:
        """Compression is on for every strategy but `full` (API-003)."""
        return self.strategy != "full"

    @classmethod
    def from_option(cls, value) -> "HistoryOpts":
        """Normalise any form of `compress_history` (API-001..003, API-006).

        None/False → `full`; True → `coalesced` with defaults; a strategy name → that strategy;
        a dict of options (with an optional "strategy", else `coalesced`); a HistoryOpts as is.
        """
        if value is None or value is False:
            return cls()
        if value is True:
            return cls(strategy="coalesced")
        if isinstance(value, HistoryOpts):
            return value
        if isinstance(value, str):
            return cls(strategy=value).checked()
        if isinstance(value, dict):
            known = {f.name for f in fields(cls)}
            unknown = sorted(set(value) - known)
            if unknown:
                raise ValueError(f"unknown history option {unknown[0]!r}; "
                                 f"known: {', '.join(sorted(known))}")
            return cls(**{"strategy": "coalesced", **value}).checked()
        raise ValueError(f"compress_history must be a bool, a strategy name or a dict of "
                         f"options, not {type(value).__name__}")

    def with_changes(self, **changes) -> "HistoryOpts":
        """A copy with some options changed (the app's live tuning)."""
        return replace(self, **changes).checked()

    def checked(self) -> "HistoryOpts":
        """This, when every option holds a value its field allows; else ValueError naming the
        first option that does not."""
        for f in fields(self):
            problem = _problem(f.name, getattr(self, f.name), **f.metadata)
            if problem:
                raise ValueError(problem)
        return self


def _problem(name: str, value, kind: str, choices, help: str) -> str | None:
    if name == "strategy":
        if value not in choices:
            return f"unknown history strategy {value!r}; known: {', '.join(choices)}"
    elif kind == "choice":
        if value not in choices:
            return f"{name} must be one of {', '.join(choices)}"
    elif kind == "optional":
        if value is not None and (type(value) is not int or value < 0):
            return f"{name} must be a whole number ≥ 0 or None, not {value!r}"
    elif type(value) is not int or value < 0:
        return f"{name} must be a whole number ≥ 0, not {value!r}"
    return None

