"""Running the command line in-process: `cli(*argv)` gives the exit status, stdout and stderr."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ptc_tui.cli import main
from sample_traces import agent_paths, trace_path

SAMPLES = agent_paths()
SAMPLE_IDS = [p.stem for p in SAMPLES]
PRODUCT_AGENT = next(p for p in SAMPLES if p.stem == "product_search")
PRODUCT_TRACE = str(trace_path(PRODUCT_AGENT))


@dataclass
class Result:
    status: int
    out: str
    err: str


@pytest.fixture
def cli(capsys):
    def run(*argv, out=None) -> Result:
        capsys.readouterr()
        status = main([str(a) for a in argv], out=out)
        captured = capsys.readouterr()
        return Result(status, captured.out, captured.err)
    return run


MARKUP_AGENT = '''
from engine.agent import SubAgent

agent = SubAgent(mission="Say something loud.", tools={"shout": lambda text: text.upper()},
                 max_turns=3, compress_history=True, name="[b]loud[/b]")
replies = [
    """```clojure
(def said (tool/shout "[bold red]quiet[/bold red]"))
(println "[bold red]alarm[/bold red] :smile: \\u001b[31mred\\u001b[0m")
```""",
    """```clojure
(return said)
```""",
]
'''


@pytest.fixture
def markup_trace(tmp_path, cli):
    """A trace whose print and tool call hold Rich markup, an emoji code and an escape sequence."""
    agent = tmp_path / "loud.py"
    agent.write_text(MARKUP_AGENT)
    trace = tmp_path / "loud.json"
    assert cli("run", agent, "--save", trace).status == 0
    return trace
