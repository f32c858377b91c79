"""Text from traces is printed literally: Rich markup, emoji codes and escape sequences in a
print or a tool result are never interpreted, in plain text or on a terminal."""

import io

import pytest
from rich.console import Console

from ptc_tui.subcommands.output import RichOutput, visible

MARKUP = "[bold red]alarm[/bold red] :smile:"


def terminal():
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, color_system="truecolor", width=200,
                      markup=False, emoji=False, highlight=False)
    return stream, RichOutput(console)


def test_plain_output_keeps_markup_and_escapes_verbatim(cli, markup_trace):
    r = cli("render", markup_trace, "--turn", 2, "--strategy", "full")
    assert f"{MARKUP} \x1b[31mred\x1b[0m" in r.out           # a pipe gets the bytes as they are
    r = cli("render", markup_trace, "--turn", 2, "--println-limit", 0)
    assert f"turn 1: {MARKUP} \x1b[31mred\x1b[0m" in r.out


@pytest.mark.parametrize("argv", [
    ["render", "--turn", "2", "--strategy", "full"],
    ["render", "--turn", "2", "--println-limit", "0"],
    ["stats"],
])
def test_terminal_output_shows_markup_and_escapes_literally(cli, markup_trace, argv):
    stream, out = terminal()
    r = cli(argv[0], markup_trace, *argv[1:], out=out)
    assert r.status == 0
    text = stream.getvalue()
    if argv[0] == "render":
        assert f"{MARKUP} \\x1b[31mred\\x1b[0m" in text
        assert "😄" not in text and "\x1b[31mred" not in text
    else:
        assert ": [b]loud[/b], 2 turns, returned" in text


def test_run_prints_markup_literally_on_a_terminal(cli, tmp_path):
    from tests.cli.conftest import MARKUP_AGENT
    agent = tmp_path / "loud.py"
    agent.write_text(MARKUP_AGENT)
    stream, out = terminal()
    assert cli("run", agent, out=out).status == 0
    text = stream.getvalue()
    assert f"  print: {MARKUP} \\x1b[31mred\\x1b[0m" in text
    assert '-> "[BOLD RED]QUIET[/BOLD RED]"' in text
    assert 'returned: "[BOLD RED]QUIET[/BOLD RED]"' in text


def test_visible_escapes_controls_but_not_newlines_or_tabs():
    assert visible("a\x1b[2Jb\tc\nd\x07\x9b") == "a\\x1b[2Jb\tc\nd\\x07\\x9b"
