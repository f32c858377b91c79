"""One run of an experiment: run the agent under one option set and seed, save its trace, and
make its row (outcome, success under the experiment's rule, turns, tokens, cost)."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

from engine.agent import Failure, Step
from engine.agent.files import NO_EXPECTED, AgentFile
from engine.lisp import format_value, from_python, to_python
from engine.llm import LLMError, SimulatedLLM
from engine.tokens import TokenCounter, encoding_for_model, price_for, run_costs, total_cost
from engine.trace import save_trace
from ptc_tui.experiments.plan import Run


class Stopped(Exception):
    """The experiment was stopped while this run was going on; the run is not kept."""


def success_rule(agent_file: AgentFile) -> str:
    """`check` (the file's check(step) -> bool), `expected` (its return value equals the file's
    `expected`, both as plain Python) or `returned` (it returned: no fail, not out of turns)."""
    if agent_file.check is not None:
        return "check"
    return "expected" if agent_file.expected is not NO_EXPECTED else "returned"


def judge(agent_file: AgentFile, step: Step) -> tuple[bool, str | None]:
    """Whether the run succeeded under the file's rule, and why not (None when it did)."""
    rule = success_rule(agent_file)
    if rule == "check":
        try:
            verdict = agent_file.check(step)
        except Exception as e:           # the user's function: its failure is this run's
            return False, f"check raised {type(e).__name__}: {e}"
        if not isinstance(verdict, bool):
            return False, f"check returned {type(verdict).__name__}, not True or False"
        return verdict, None if verdict else "check said no"
    if step.failed:
        return False, f"{step.fail.reason}: {step.fail.message}"
    if rule == "expected":
        try:
            got, want = step.python_value(), to_python(from_python(agent_file.expected))
        except ValueError as e:
            return False, f"cannot compare with `expected`: {e}"
        if got != want:
            return False, "returned another value than `expected`"
    return True, None


def llm_for_run(make_llm, seed: int):
    """A fresh LLM for one run (clients keep state); a simulated model gets the run's seed."""
    llm = make_llm()
    return llm.reseeded(seed) if isinstance(llm, SimulatedLLM) else llm


def make_run(run: Run, agent_file: AgentFile, make_llm, out_dir: Path, model: str | None,
             stop: threading.Event, spans=None) -> dict:
    """Run `run` to its end, save its trace in `out_dir`, and return its row. Stopped when
    `stop` is set between two turns. With `spans` (a SpanStream), its spans go there."""
    started = time.perf_counter()
    agent = agent_file.agent
    if run.option_set.max_turns is not None:
        agent = dataclasses.replace(agent, max_turns=run.option_set.max_turns)
    session = agent.start(llm_for_run(make_llm, run.seed), compress_history=run.option_set.opts)
    if spans is not None:
        spans.follow(session)
    while not session.done:
        if stop.is_set():
            raise Stopped()
        try:
            session.step()
        except LLMError as e:
            session.finish(fail=Failure("llm_error", str(e)))
    save_trace(session.trace(), out_dir / run.trace_name)
    success, reason = judge(agent_file, session.result)
    return {"set": run.index, "option_set": run.option_set.label, "repeat": run.repeat,
            "seed": run.seed, **outcome(session.result), "success": success, "reason": reason, **totals(session.result, model),
            "trace": run.trace_name, "seconds": round(time.perf_counter() - started, 3)}


def outcome(step: Step) -> dict:
    """`outcome`: returned, or why the run failed (`failed`, `max_turns_exceeded`,
    `llm_error`...); `answer`: the value it returned or failed with, or the failure's message."""
    if step.fail is not None and step.fail.reason != "failed":
        return {"outcome": step.fail.reason, "answer": step.fail.message}
    return {"outcome": "failed" if step.failed else "returned",
            "answer": format_value(step.return_value, 20, 200)[0]}


def totals(step: Step, model: str | None) -> dict:
    """Turns, counted input and output tokens, what the provider reported (None unless every
    turn has it) and the cost at `model`'s price, priced as every recorded call is
    (`run_costs`: the provider's usage where reported, the prompt-cache model's reads and
    writes where it reported none; None: unknown)."""
    counter = TokenCounter(encoding_for_model(model))
    inputs = sum(counter.count_messages(t.messages).total for t in step.turns)
    outputs = sum(counter.count(t.raw_response) for t in step.turns)
    usages = [t.usage for t in step.turns]

    def reported(name):
        values = [getattr(u, name, None) if u is not None else None for u in usages]
        return sum(values) if values and None not in values else None

    price = price_for(model) if model else None
    return {"turns": len(step.turns), "input_tokens": inputs, "output_tokens": outputs,
            "reported_input_tokens": reported("input_tokens"),
            "reported_output_tokens": reported("output_tokens"),
            "cost": total_cost(run_costs(step.turns, price, counter, model)).usd}
