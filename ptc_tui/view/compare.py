"""Comparison: two runs side by side, turn by turn (aligned on turn numbers), with outcomes,
final answers, totals and cost, and the first turn whose programs differ; plain data for the
`compare` command and the compare screen."""

from __future__ import annotations

from dataclasses import dataclass

from engine.lisp import format_value
from engine.llm import spec_model
from engine.tokens import TokenCounter, encoding_for_model, price_for, run_costs, total_cost
from engine.trace import Trace
from ptc_tui.view.status import outcome_text, status


@dataclass(frozen=True)
class SideTurn:
    """One run's turn as the compare rows show it; counts are of what was recorded."""

    number: int
    status: str                # ok, error, return, fail, no_code
    input_tokens: int          # the request as sent: the provider's count, else counted
    tool_calls: int
    prints: int
    origin: str = ""           # in a fork: "parent" (taken over as recorded there) or "fork"
                               # (run by the fork), as the turn list's; else ""

    @property
    def from_parent(self) -> bool:
        return self.origin == "parent"

    def as_json(self) -> dict:
        return {"status": self.status, "input_tokens": self.input_tokens,
                "tool_calls": self.tool_calls, "prints": self.prints,
                "from_parent": self.from_parent, "origin": self.origin}


@dataclass(frozen=True)
class TurnPair:
    number: int
    a: SideTurn | None         # None: that run has no such turn
    b: SideTurn | None
    same_program: bool


@dataclass(frozen=True)
class RunSummary:
    name: str
    llm: str
    outcome: str               # returned / failed: reason / out of turns / running
    answer: str                # the returned value, or why it failed
    turns: int
    input_tokens: int
    output_tokens: int         # the replies' (the provider's counts, else counted here)
    cost: float | None         # input, cached input and output each at its price; None:
                               # the model's price is unknown
    model: str | None
    fork_of: str | None        # "parent.json at turn 3" for a fork

    def as_json(self) -> dict:
        return {"name": self.name, "llm": self.llm, "outcome": self.outcome,
                "answer": self.answer, "turns": self.turns, "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens, "cost": self.cost, "model": self.model,
                "fork_of": self.fork_of}


def answer_text(trace: Trace) -> str:
    o = trace.outcome
    if o.status == "returned":
        return format_value(o.return_value, 10, 200)[0]
    if o.status == "failed":
        if o.fail_reason == "failed":
            return format_value(o.return_value, 10, 200)[0]
        return o.fail_message or o.fail_reason or ""
    return "(still running)"


def fork_text(trace: Trace) -> str | None:
    p = trace.parent
    if p is None:
        return None
    return f"{p.file or 'an unsaved run'} at turn {p.turn}"


def _side(trace: Trace, name: str) -> tuple[RunSummary, dict[int, SideTurn], dict]:
    model = spec_model(trace.agent.llm)
    counter = TokenCounter(encoding_for_model(model))
    first_own = trace.parent.turn if trace.parent is not None else None
    price = price_for(model) if model else None
    turns, programs = {}, {}
    # the provider's counts where it reported them, the prompt-cache model's reads where not
    calls = run_costs(trace.turns, price, counter, model)
    for t, call in zip(trace.turns, calls):
        origin = "" if first_own is None else "parent" if t.number < first_own else "fork"
        turns[t.number] = SideTurn(t.number, status(t), call.input_tokens, len(t.tool_calls),
                                   len(t.prints), origin)
        programs[t.number] = t.program
    total = total_cost(calls)
    summary = RunSummary(name, trace.agent.llm, outcome_text(trace), answer_text(trace),
                         len(trace.turns), total.input_tokens, total.output_tokens, total.usd,
                         model, fork_text(trace))
    return summary, turns, programs


@dataclass(frozen=True)
class Comparison:
    a: RunSummary
    b: RunSummary
    pairs: tuple[TurnPair, ...]
    first_divergent_turn: int | None      # None: every program is identical
    warnings: tuple[str, ...]
    traces: tuple[Trace, Trace]

    @classmethod
    def of(cls, a: Trace, b: Trace, a_name: str = "A", b_name: str = "B") -> "Comparison":
        sa, ta, pa = _side(a, a_name)
        sb, tb, pb = _side(b, b_name)
        numbers = sorted(set(ta) | set(tb))
        pairs = tuple(TurnPair(n, ta.get(n), tb.get(n),
                               n in pa and n in pb and pa[n] == pb[n]) for n in numbers)
        first = next((p.number for p in pairs if not p.same_program), None)
        warnings = []
        if a.agent.mission != b.agent.mission:
            warnings.append("the two runs have different missions (another agent?): "
                            "compared turn by turn all the same")
        return cls(sa, sb, pairs, first, tuple(warnings), (a, b))

    @property
    def start_turn(self) -> int:
        """Where a look at the comparison starts: the first divergent turn, else the first turn
        a fork ran itself, else the first turn (0: no turns)."""
        if self.first_divergent_turn is not None:
            return self.first_divergent_turn
        forked = [t.parent.turn for t in self.traces if t.parent is not None]
        numbers = [p.number for p in self.pairs]
        start = next((n for n in forked if n in numbers), None)
        return start if start is not None else (numbers[0] if numbers else 0)

    def turn_of(self, side: int, number: int):
        """The Turn `number` of run `side` (0: A, 1: B), or None."""
        return next((t for t in self.traces[side].turns if t.number == number), None)

    def as_json(self) -> dict:
        return {"a": self.a.as_json(), "b": self.b.as_json(),
                "first_divergent_turn": self.first_divergent_turn,
                "warnings": list(self.warnings),
                "turns": [{"turn": p.number, "same_program": p.same_program,
                           "a": p.a.as_json() if p.a else None,
                           "b": p.b.as_json() if p.b else None} for p in self.pairs]}
