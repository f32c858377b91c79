"""The editable history options: one `OptionField` per `HistoryOpts` field, with its kind, its
allowed values and its one-line help (all read from the field's metadata) and the parsing and
stepping the options panel relies on."""

from __future__ import annotations

from dataclasses import dataclass, fields

from engine.history import HistoryOpts


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


# what −/+ add to the options that move in bigger steps (1 for the others)
STEPS = {"sample_printable_limit": 10, "args_printable_limit": 10, "compaction_tokens": 1000}

FIELDS: tuple[OptionField, ...] = tuple(
    OptionField(f.name, f.metadata["kind"], f.metadata["help"], tuple(f.metadata["choices"]),
                STEPS.get(f.name, 1))
    for f in fields(HistoryOpts))

BY_NAME = {f.name: f for f in FIELDS}

