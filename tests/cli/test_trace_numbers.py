"""Whole-number options written into a trace are refused at argparse time when a trace could
not hold them (more than 19 digits: engine.trace.strict_json); the largest accepted round-trips
through --save and loading."""

import pytest

from engine.trace import load_trace
from engine.trace.strict_json import MAX_INT_DIGITS
from tests.cli.conftest import PRODUCT_AGENT

LARGEST = 10 ** MAX_INT_DIGITS - 1


@pytest.mark.parametrize("argv, recorded", [
    (["--max-turns", LARGEST], lambda t: t.agent.max_turns),
    (["--println-limit", LARGEST], lambda t: t.agent.history.println_limit),
    (["--tool-call-limit", LARGEST], lambda t: t.agent.history.tool_call_limit),
    (["--option", f"sample_limit={LARGEST}"], lambda t: t.agent.history.sample_limit),
    (["--option", f"compaction_tokens={LARGEST}"], lambda t: t.agent.history.compaction_tokens),
])
def test_the_largest_accepted_value_is_saved_and_loads(cli, tmp_path, argv, recorded):
    saved = tmp_path / "run.json"
    result = cli("run", PRODUCT_AGENT, "--no-tui", *argv, "--save", saved)
    assert result.status == 0, result.err
    assert recorded(load_trace(saved)) == LARGEST


@pytest.mark.parametrize("argv, name", [
    (["--max-turns", LARGEST + 1], "--max-turns"),
    (["--max-turns", "99999999999999999999999"], "--max-turns"),
    (["--println-limit", LARGEST + 1], "--println-limit"),
    (["--tool-call-limit", LARGEST + 1], "--tool-call-limit"),
    (["--max-output-tokens", LARGEST + 1], "--max-output-tokens"),
    (["--option", f"sample_limit={LARGEST + 1}"], "--option"),
])
def test_a_larger_one_is_a_usage_error_and_nothing_is_saved(cli, tmp_path, argv, name):
    saved = tmp_path / "run.json"
    result = cli("run", PRODUCT_AGENT, "--no-tui", *argv, "--save", saved)
    assert result.status == 2 and result.out == ""
    assert f"argument {name}: " in result.err
    assert "up to 9,999,999,999,999,999,999 (the largest a trace holds)" in result.err
    assert result.err.count("\n") == 1
    assert not saved.exists()


def test_max_turns_below_one_is_a_usage_error(cli, tmp_path):
    result = cli("run", PRODUCT_AGENT, "--no-tui", "--max-turns", 0)
    assert result.status == 2 and result.out == ""
    assert "argument --max-turns: expected a whole number ≥ 1, got 0" in result.err
