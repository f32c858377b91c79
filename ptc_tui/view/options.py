"""The editable history options: one `OptionField` per `HistoryOpts` field, with its kind, its
allowed values, a one-line help and the parsing and stepping the options panel relies on."""

from __future__ import annotations

from dataclasses import dataclass

from engine.history import STRATEGIES, HistoryOpts
from engine.history.opts import ERROR_DISPLAYS, SAMPLE_RULES


@dataclass(frozen=True)
class OptionField:
    name: str                       # the HistoryOpts field
    kind: str                       # "choice", "count" (int ≥ 0), "optional" (count or None)
    help: str
    choices: tuple[str, ...] = ()
    step: int = 1                   # what −/+ add; big limits move in bigger steps

    @property
    def default(self):
        return getattr(HistoryOpts(), self.name)

    def show(self, value) -> str:
        """The text an input shows for `value` (None: empty)."""
        return "" if value is None else str(value)

    def parse(self, text: str):
        """The value typed as `text`; ValueError with a message the user can act on."""
        text = text.strip().replace("_", "")
        if self.kind == "choice":
            if text not in self.choices:
                raise ValueError(f"one of {', '.join(self.choices)}")
            return text
        if not text:
            if self.kind == "optional":
                return None
            raise ValueError("a whole number ≥ 0 is needed")
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"not a whole number: {text}") from None
        if value < 0:
            raise ValueError("must be ≥ 0")
        return value

    def stepped(self, value, direction: int):
        """`value` moved one step up (+1) or down (−1), never below 0; an optional field steps
        down from 0 to None (off) and up from None to its first step."""
        if value is None:
            return self.step if direction > 0 else None
        if direction < 0 and value == 0 and self.kind == "optional":
            return None
        return max(0, value + direction * self.step)


FIELDS: tuple[OptionField, ...] = (
    OptionField("strategy", "choice", "how the history is rendered (full: no compression)",
                tuple(STRATEGIES)),
    OptionField("println_limit", "count",
                "most recent println calls shown, however many lines each printed"),
    OptionField("tool_call_limit", "count",
                "most recent tool calls shown (equal ones in a row then shown as one, x3)"),
    OptionField("sample_limit", "count", "items shown per collection in a value sample"),
    OptionField("sample_printable_limit", "count", "characters shown per string in a sample",
                step=10),
    OptionField("args_limit", "count", "items shown per collection in tool-call arguments"),
    OptionField("args_printable_limit", "count", "characters shown per string in tool-call args",
                step=10),
    OptionField("sample_rule", "choice",
                "turn: sample a definition if its turn printed nothing; global: if no turn did",
                SAMPLE_RULES),
    OptionField("errors", "choice",
                "all: every failed turn; unrecovered: only the last, while still failing",
                ERROR_DISPLAYS),
    OptionField("compaction_turns", "count",
                "compaction: compact once more than this many turns have run"),
    OptionField("compaction_tokens", "optional",
                "compaction: or once over this many tokens, as characters / 4 (empty: off)",
                step=1000),
    OptionField("keep_recent_turns", "count",
                "compaction: most recent turns (reply and answer) kept verbatim"),
)

BY_NAME = {f.name: f for f in FIELDS}

