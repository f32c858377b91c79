"""Agent files for experiment tests, written into a test's folder."""

from __future__ import annotations

import pytest

COIN_AGENT = '''
from engine.agent import SubAgent

agent = SubAgent(mission="Say 42.", max_turns=3, compress_history="coalesced", name="coin")
RULE

def policy(request, rng):
    if rng.random() < 0.5:
        return "```clojure\\n(return 42)\\n```"
    return "```clojure\\n(return 7)\\n```"
'''


@pytest.fixture
def coin_agent(tmp_path):
    """An agent whose simulated model answers 42 or 7, a coin toss per run; `rule` is the
    success rule's Python text (`expected = 42`, a `def check...`, or nothing)."""
    def write(rule: str = "", name: str = "coin.py"):
        path = tmp_path / name
        path.write_text(COIN_AGENT.replace("RULE", rule))
        return path
    return write
