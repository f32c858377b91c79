"""HistoryOpts: the `compress_history` option, normalised (docs/history-rules.md, API-001..007)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

SAMPLE_RULES = ("turn", "global")
ERROR_DISPLAYS = ("all", "unrecovered")


@dataclass(frozen=True)
class HistoryOpts:
    """Which strategy renders the history, and every limit it uses, defaults filled in."""

    strategy: str = "full"
    println_limit: int = 15               # API-004: most recent println calls shown
    tool_call_limit: int = 20             # API-005: most recent tool calls shown
    sample_limit: int = 3                 # TRN-002: items per collection in a sample
    sample_printable_limit: int = 80      # TRN-002: characters per string in a sample
    args_limit: int = 3                   # TRN-003: tool-call arguments
    args_printable_limit: int = 60
    sample_rule: str = "turn"             # "turn" (SAM-001/002) or "global" (SAM-002)
    errors: str = "all"                   # "all" failed turns, or "unrecovered" (last only)
    compaction_turns: int = 8             # compaction: trigger after this many turns
    compaction_tokens: int | None = None  # compaction: or above this estimated token count
    keep_recent_turns: int = 3            # compaction: assistant/user pairs kept verbatim

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
        from engine.history.strategies import STRATEGIES
        if self.strategy not in STRATEGIES:
            raise ValueError(f"unknown history strategy {self.strategy!r}; "
                             f"known: {', '.join(STRATEGIES)}")
        for name in ("println_limit", "tool_call_limit", "sample_limit", "sample_printable_limit",
                     "args_limit", "args_printable_limit", "compaction_turns", "keep_recent_turns"):
            v = getattr(self, name)
            if type(v) is not int or v < 0:
                raise ValueError(f"{name} must be a whole number ≥ 0, not {v!r}")
        if self.compaction_tokens is not None and (type(self.compaction_tokens) is not int
                                                   or self.compaction_tokens < 0):
            raise ValueError(f"compaction_tokens must be a whole number ≥ 0 or None, "
                             f"not {self.compaction_tokens!r}")
        if self.sample_rule not in SAMPLE_RULES:
            raise ValueError(f"sample_rule must be one of {', '.join(SAMPLE_RULES)}")
        if self.errors not in ERROR_DISPLAYS:
            raise ValueError(f"errors must be one of {', '.join(ERROR_DISPLAYS)}")
        return self
