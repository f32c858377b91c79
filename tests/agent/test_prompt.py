"""The reference the LLM is given: every code example in it runs on our engine."""

import re
from importlib.resources import files

import pytest

from engine.agent.prompt import reference_text
from engine.lisp import run

PROMPT_FILES = sorted(p.name for p in files("engine.agent").joinpath("prompts").iterdir()
                      if p.name.endswith(".md"))
EXAMPLE_DATA = {"products": [
    {"name": "Laptop", "category": "Laptop", "price": 1200, "rating": 4.5},
    {"name": "Ultrabook", "category": "Laptop", "price": 900, "rating": 4.1},
    {"name": "Mouse", "category": "Accessory", "price": 25, "rating": 3.2},
]}
EXAMPLE_TOOLS = {
    "search-reviews": lambda category: f"Customer Review Summary for {category}: " + "ok " * 60,
    "search": lambda query, limit=10: [f"{query} {i}" for i in range(limit)],
}


def examples():
    for name in PROMPT_FILES:
        text = files("engine.agent").joinpath("prompts", name).read_text(encoding="utf-8")
        for i, block in enumerate(re.findall(r"```clojure\n(.*?)```", text, re.DOTALL)):
            yield pytest.param(block, id=f"{name}#{i + 1}")


@pytest.mark.parametrize("program", list(examples()))
def test_every_example_in_the_prompt_runs(program):
    result = run(program, data=EXAMPLE_DATA, tools=EXAMPLE_TOOLS)
    assert result.error is None, f"{result.error}\n{program}"


def test_there_are_examples_to_check():
    assert len(list(examples())) >= 4


def test_multi_turn_and_single_shot_references_differ_only_in_their_turn_guidance():
    multi, single = reference_text(5), reference_text(1)
    assert "## Working in turns" in multi and "## One program" not in multi
    assert "## One program" in single and "## Working in turns" not in single
    assert multi.split("## Working in turns")[0] == single.split("## One program")[0]
    assert multi.endswith(single[single.index("## Output format"):])


def test_the_wrong_call_the_reference_warns_about_is_wrong_on_our_engine():
    assert run("(max [1 2])").error.hint == "(apply max coll) for a collection"
    assert run("(apply max [1 2])").value == 2


def builtins_named_in_the_reference() -> list[str]:
    """The names the reference's "Builtins include" paragraph gives, as a program writes them
    (`str/join`); namespaces alone (`set/`) and regex literals left out."""
    text = files("engine.agent").joinpath("prompts", "reference.md").read_text(encoding="utf-8")
    paragraph = re.search(r"^- Builtins include (.*?)(?=^- |^$)", text, re.M | re.S).group(1)
    words = " ".join(re.findall(r"`([^`]+)`", paragraph)).split()
    return [w.rstrip(".") for w in words if not w.endswith("/") and not w.startswith("#")]


def test_every_builtin_the_reference_names_is_one_of_ours():
    names = builtins_named_in_the_reference()
    assert {"map", "str/join", "re-seq", "pr-str"} <= set(names)
    unknown = [n for n in names if run(n).error is not None]
    assert unknown == []
