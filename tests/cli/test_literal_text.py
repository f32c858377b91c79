"""Text from traces is printed literally: Rich markup, emoji codes and escape sequences in a
print or a tool result are never interpreted, in plain text or on a terminal."""

import io
import json

import pytest
from rich.console import Console

from ptc_tui.subcommands.output import RichOutput
from ptc_tui.view.plain_text import escape_controls, escape_json_controls, text_lines

MARKUP = "[bold red]alarm[/bold red] :smile:"


def terminal():
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, color_system="truecolor", width=200,
                      markup=False, emoji=False, highlight=False)
    return stream, RichOutput(console)


def test_plain_output_keeps_markup_and_shows_escapes_escaped(cli, markup_trace):
    """A pipe often ends in a terminal (`| head`, `less -R`, a CI log): control characters go
    escaped there too."""
    r = cli("render", markup_trace, "--turn", 2, "--strategy", "full")
    assert f"{MARKUP} \\x1b[31mred\\x1b[0m" in r.out
    r = cli("render", markup_trace, "--turn", 2, "--println-limit", 0)
    assert f"turn 1: {MARKUP} \\x1b[31mred\\x1b[0m" in r.out
    assert "\x1b" not in r.out


HOSTILE = {"name": "ag\x1b[2Jent", "llm": "l\x1b]0;TITLE\x07lm",
           "mission": "rtl:\u202eevil\u202c and \x9b31m"}


@pytest.fixture
def hostile_trace(markup_trace):
    """The markup trace with a screen-clearing agent name, a title-setting LLM name and a
    mission holding a bidirectional override and a one-byte CSI."""
    doc = json.loads(markup_trace.read_text(encoding="utf-8"))
    doc["agent"].update(HOSTILE)
    markup_trace.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return markup_trace


@pytest.mark.parametrize("folder", [False, True])
def test_stats_in_a_pipe_never_sends_a_control_sequence(cli, hostile_trace, folder):
    r = cli("stats", hostile_trace.parent if folder else hostile_trace)
    assert r.status == 0
    for unsafe in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert unsafe not in r.out + r.err
    assert "l\\x1b]0;TITLE\\x07lm" in r.out               # shown, escaped


def test_json_output_escapes_what_a_terminal_acts_on_and_keeps_every_character(
        cli, hostile_trace):
    r = cli("stats", hostile_trace.parent, "--json")
    assert "\u202e" not in r.out and "\x9b" not in r.out and "\\u202e" not in r.out
    assert json.loads(r.out)["llms"] == {HOSTILE["llm"]: 1}      # every character kept
    r = cli("export", hostile_trace)                     # OTLP/JSON to stdout
    assert "\u202e" not in r.out and "\x9b" not in r.out
    assert any(HOSTILE["mission"] in text for text in strings(json.loads(r.out)))


def strings(doc):
    """Every string in a JSON document."""
    if isinstance(doc, str):
        yield doc
    elif isinstance(doc, dict):
        for value in doc.values():
            yield from strings(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from strings(value)


def test_escape_controls_escapes_controls_and_bidi_controls_but_not_newlines_or_tabs():
    assert escape_controls("a\x1b[2Jb\tc\nd\x07\x9b") == "a\\x1b[2Jb\tc\nd\\x07\\x9b"
    assert escape_controls("rtl:\u202eevil\u202c \u2066x\u2069 é→…") == \
        "rtl:\\u202eevil\\u202c \\u2066x\\u2069 é→…"


def test_escape_json_controls_keeps_the_document():
    doc = {"a": "x\x9by\u202ez\u2067", "b": ["\x7f", "é"]}
    text = escape_json_controls(json.dumps(doc, ensure_ascii=False))
    assert json.loads(text) == doc
    assert not any(c in text for c in "\x9b\u202e\u2067\x7f") and "é" in text


def test_text_lines_cuts_at_newlines_only():
    assert text_lines("cr:x\ry\nnext\n") == ["cr:x\ry", "next"]
    assert text_lines("a\n\n") == ["a", ""] and text_lines("") == []
