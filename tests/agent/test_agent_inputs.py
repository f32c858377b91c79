"""What a SubAgent is given: None for none, data checked when the agent is made and converted
once per session, and the run limits (tool time included) applied to every turn."""

import threading

import pytest

from engine.agent import SubAgent
from engine.llm import ScriptedLLM


def code(program: str) -> str:
    return f"```clojure\n{program}\n```"


def _deep(n: int):
    v: list = []
    for _ in range(n):
        v = [v]
    return v


def test_none_means_no_tools_and_no_data():
    agent = SubAgent(mission="Add numbers", tools=None, data=None)
    assert agent.tools == {} and agent.data == {}
    step = agent.run(ScriptedLLM([code("(return (+ 1 2))")]))
    assert (step.failed, step.return_value) == (False, 3)
    assert agent.tool_list() == [] and agent.start(ScriptedLLM([])).tools == {}


def test_bad_data_is_refused_when_the_agent_is_made_saying_where():
    with pytest.raises(ValueError, match=r"SubAgent data: data/products\[1\]\.tags\[0\].*"
                                         r"nested deeper than 100 levels"):
        SubAgent(mission="m", data={"products": [{}, {"tags": _deep(300)}]})
    with pytest.raises(ValueError, match=r"data/when: an object cannot be used as data"):
        SubAgent(mission="m", data={"when": object()})
    with pytest.raises(ValueError, match="SubAgent data must be a dict"):
        SubAgent(mission="m", data=[1, 2])
    with pytest.raises(ValueError, match="SubAgent tools must be a dict"):
        SubAgent(mission="m", tools=[print])


def test_data_deeper_than_the_default_is_fine_when_the_limits_allow_it():
    agent = SubAgent(mission="m", data={"x": _deep(150)}, limits={"nesting_depth": 200})
    step = agent.run(ScriptedLLM([code("(return (count data/x))")]))
    assert step.return_value == 1, step.turns[0].error


def test_data_is_converted_once_per_session_not_once_per_turn(monkeypatch):
    import engine.lisp.interpreter as interpreter
    converted = []
    real = interpreter.from_python
    monkeypatch.setattr(interpreter, "from_python",
                        lambda *a, **k: converted.append(a[2] if len(a) > 2 else "?") or real(*a, **k))
    agent = SubAgent(mission="m", data={"products": [{"name": "Laptop", "price": 1200}]})
    step = agent.run(ScriptedLLM([code("(def n (count data/products))"),
                                  code("(def p (:price (first data/products)))"),
                                  code("(return [n p])")]))
    assert step.python_value() == [1, 1200]
    assert converted == [], converted


def test_tool_timeout_from_the_agents_limits_ends_the_turn_and_the_run_goes_on():
    never = threading.Event()
    agent = SubAgent(mission="m", tools={"stuck": lambda: never.wait()},
                     limits={"tool_timeout_ms": 200})
    step = agent.run(ScriptedLLM([code("(tool/stuck)"), code("(return :gave-up)")]))
    first = step.turns[0].error
    assert first.reason == "timeout" and "tool/stuck" in first.message
    assert step.python_value() == "gave-up"
