"""The whole truth on screen: the model's reply in the program pane (folded, `r` or a click shows
it whole, `w` copies it), the call line and the run's totals, what-if labels and `R` back to the
recorded options, the system prompt unfolded with `e`, a live run's first request and its failed
LLM call. SVG snapshots at 160×45 and 100×40, each beside a pilot test asserting its state.

Regenerate after a deliberate change of the look: `pytest tests/app/test_truth_screen.py
--snapshot-update`, then look at the SVGs in tests/app/__snapshots__/test_truth_screen/."""

import os
from dataclasses import replace

import pytest

from engine.agent import Session
from engine.agent.files import load_agent_file
from engine.history import Response, Usage
from engine.trace import load_trace, save_trace
from ptc_tui.app import PtcApp
from ptc_tui.screens.open_dialog import SaveDialog
from ptc_tui.view.formats import cost_text
from ptc_tui.widgets import MessagePanel, ProgramPanel, TraceHeader, TurnList
from ptc_tui.widgets.message_panel import SAW, UPCOMING, WHAT_IF_LINE, WOULD_SEE
from tests.app.conftest import sample, settle
from sample_traces import HERE
from tests.app.test_live_screen import FlakyLLM, demo_session

SIZES = {"wide": (160, 45), "narrow": (100, 40)}
THEME = "textual-dark"
USAGE = Usage(input_tokens=2_000, output_tokens=150, cached_tokens=1_500)
RESPONSE = Response("gpt-4o-2024-08-06", "chatcmpl-1", "stop", "stop")


@pytest.fixture
def reported(tmp_path, monkeypatch):
    """error_recovery as if run on openai:gpt-4o, every call reported by the provider; saved
    as reported.json in the current folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("PTC_TUI_PRICES", raising=False)
    trace = load_trace(sample("error_recovery"))
    turns = tuple(replace(t, usage=USAGE, response=RESPONSE, llm_ms=1_250.0, run_ms=3.0)
                  for t in trace.turns)
    save_trace(replace(trace, turns=turns, agent=replace(trace.agent, llm="openai:gpt-4o")),
               tmp_path / "reported.json")
    return tmp_path / "reported.json"


async def drive(pilot, keys) -> None:
    pilot.app.theme = THEME
    await settle(pilot.app, pilot)
    for key in keys:
        await pilot.press(key)
        await settle(pilot.app, pilot)
    pilot.app.clear_notifications()      # a toast's life against the machine's speed: racy
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def plain(app, widget) -> str:
    return app.screen.query_one(widget).plain


def header_lines(app) -> list[str]:
    return str(app.screen.query_one(TraceHeader).content).split("\n")


def skip_if_dimmed():
    if "TEXTUAL_DIM_FACTOR" in os.environ:
        pytest.skip("TEXTUAL_DIM_FACTOR is set: the snapshots are drawn at Textual's default")


# --- the reply and the call line ------------------------------------------------------------
REPLY_KEYS = ("j", "j", "r")


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_snapshot_reply_and_call_line(reported, snap_compare, size):
    skip_if_dimmed()

    async def run_before(pilot):
        await drive(pilot, REPLY_KEYS)
    assert snap_compare(PtcApp(reported), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.anyio
@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
async def test_state_reply_and_call_line(reported, size):
    app = PtcApp(reported)
    async with app.run_test(size=SIZES[size]) as pilot:
        await drive(pilot, REPLY_KEYS)
        screen = app.screen
        assert screen.turn == 3 and screen.reply_open
        call = screen.current.call
        shown = plain(app, ProgramPanel)
        assert shown.startswith(f"gpt-4o-2024-08-06 · in 2,000 (1,500 cached) · out 150 · "
                                f"LLM 1.2 s · program 3 ms · {cost_text(call.cost)} · stop")
        assert call.cost is not None and "$" in cost_text(call.cost)
        raw = screen.view.trace.turns[2].raw_response
        prose, code = raw.split("```clojure")
        for line in prose.splitlines():              # the whole reply, the code marked
            assert line in shown
        assert "▌ ```clojure" in shown and "▌ " + code.splitlines()[1] in shown
        assert "── reply · whole (r folds) ──" in shown
        n = len(screen.view.trace.turns)
        totals = header_lines(app)[1]
        assert totals.startswith("openai:gpt-4o · returned · ")
        assert f"in {2_000 * n:,} · out {150 * n:,} tokens · took " in totals
        assert f"cost {cost_text(screen.view.header().totals.cost)}" in totals


@pytest.mark.anyio
async def test_the_reply_is_folded_until_r_or_a_click():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=SIZES["wide"]) as pilot:
        await pilot.press("j", "j")
        await pilot.pause()
        panel = app.screen.query_one(ProgramPanel)
        raw = app.screen.view.trace.turns[2].raw_response
        first, second = raw.split("```clojure")[0].splitlines()[:2]
        assert "▌ 7 lines of code: ran as the program below" in panel.plain
        assert "▌ ```clojure" not in panel.plain
        assert first in panel.plain and second in panel.plain
        assert "in ≈" in panel.plain.splitlines()[0]           # counted: no usage reported
        assert "finish not reported" in panel.plain and " · cost unknown · " in panel.plain
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.reply_open and "▌ ```clojure" in panel.plain
        await pilot.click(ProgramPanel, offset=(4, 5))           # on the reply: fold it
        await pilot.pause()
        assert not app.screen.reply_open and "▌ ```clojure" not in panel.plain
        await pilot.click(ProgramPanel, offset=(4, 5))
        await pilot.pause()
        assert app.screen.reply_open
        bottom = panel.region.height - 3           # the pane's last lines: the tool calls
        await pilot.click(ProgramPanel, offset=(4, bottom))
        await pilot.pause()
        assert app.screen.reply_open


@pytest.mark.anyio
async def test_w_copies_the_whole_reply_and_a_reply_without_code_is_shown_whole():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=SIZES["wide"]) as pilot:
        await pilot.press("j", "j", "w")
        assert app.clipboard == app.screen.view.trace.turns[2].raw_response
        await pilot.press("G", "k")                              # turn 7: no code
        await pilot.pause()
        raw = app.screen.view.trace.turns[6].raw_response
        shown = plain(app, ProgramPanel)
        assert app.screen.current.status == "no_code"
        assert all(line in shown for line in raw.splitlines()) and "more line" not in shown


@pytest.mark.anyio
async def test_a_reply_is_shown_literally(tmp_path):
    trace = load_trace(sample("error_recovery"))
    hostile = "[bold red]not markup[/] \x1b[2J\n```clojure\n(return 1)\n```"
    turns = (replace(trace.turns[0], raw_response=hostile), *trace.turns[1:])
    save_trace(replace(trace, turns=turns), tmp_path / "hostile.json")
    app = PtcApp(tmp_path / "hostile.json")
    async with app.run_test(size=SIZES["wide"]) as pilot:
        await pilot.pause()
        assert "[bold red]not markup[/] \\x1b[2J" in plain(app, ProgramPanel)


# --- what-if ----------------------------------------------------------------------------------
WHAT_IF_KEYS = ("j", "j", "s", "p")


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_snapshot_what_if(reported, snap_compare, size):
    skip_if_dimmed()

    async def run_before(pilot):
        await drive(pilot, WHAT_IF_KEYS)
    assert snap_compare(PtcApp(reported), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.anyio
@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
async def test_state_what_if_and_R_goes_back(reported, size):
    app = PtcApp(reported)
    async with app.run_test(size=SIZES[size]) as pilot:
        await drive(pilot, WHAT_IF_KEYS)
        screen = app.screen
        recorded = screen.view.trace.agent.history
        assert screen.view.strategy == "compaction" and screen.view.what_if
        options = header_lines(app)[2]
        assert options.startswith(f"recorded: coalesced · println {recorded.println_limit}, "
                                  f"tools {recorded.tool_call_limit}, samples "
                                  f"{recorded.sample_limit} | viewing: compaction, println "
                                  f"{recorded.println_limit + 1} (what-if; R: recorded)")
        messages = screen.query_one(MessagePanel)
        assert messages.has_class("-what-if") and messages.border_title == WOULD_SEE
        assert messages.plain.startswith(WHAT_IF_LINE)
        assert f"what-if: {screen.current.messages.tokens:,} tokens" in messages.plain
        table = screen.query_one(TurnList)
        assert table.ordered_columns[2].label.plain == "what-if"
        assert "program · turn 3 · error" == screen.query_one(ProgramPanel).border_title
        assert "gpt-4o-2024-08-06 · in 2,000" in plain(app, ProgramPanel)   # always recorded

        await pilot.press("R")
        await settle(app, pilot)
        assert screen.view.opts == recorded and not screen.view.what_if
        assert not messages.has_class("-what-if") and messages.border_title == SAW
        assert messages.plain.startswith("recorded: ")
        assert table.ordered_columns[2].label.plain == "recorded"
        assert "viewing" not in header_lines(app)[2]
        assert [table.get_row_at(i)[2].plain for i in range(table.row_count)] == \
            [f"{r.tokens:,}" for r in screen.view.rows()]


@pytest.mark.anyio
async def test_R_is_in_the_help_and_the_palette_with_keys_as_people_write_them(notified):
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=SIZES["wide"]) as pilot:
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert commands["Recorded options"].endswith("(R)")
        assert commands["Save"] == "Save (ctrl+s)" and commands["Search"] == "Search (/)"
        assert commands["Copy reply"].endswith("(w)") and "(r)" in commands["Reply"]
        assert "(v / $)" in commands["Tokens"]
        assert not any("slash" in h or "dollar_sign" in h for h in commands.values())
        await pilot.press("R")                      # already recorded: says so
        assert notified[-1] == "already the recorded options"
        await pilot.press("question_mark")
        await pilot.pause()
        shown = app.screen.query_one("#help-text").plain
        assert "Recorded options: back to the options the trace was recorded with" in shown
        legend = shown.split("── turn list ──")[1]
        for glyph, meaning in (("✓", "the program ran"), ("⚠", "the LLM call failed"),
                               ("∅", "the reply had no code"), ("✱", "a turn the fork ran")):
            assert f"  {glyph}  {meaning}" in legend


# --- the request: whole system prompt, scroll, export ----------------------------------------
@pytest.mark.anyio
async def test_e_shows_the_whole_system_prompt_and_a_new_turn_starts_at_its_top():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=SIZES["wide"]) as pilot:
        await pilot.pause()
        panel = app.screen.query_one(MessagePanel)
        system = app.screen.view.rendering.requests[0][0][0]["content"]
        assert system.splitlines()[-1] not in panel.plain and "(e shows them)" in panel.plain
        await pilot.press("e")
        await pilot.pause()
        assert system in panel.plain and "(e shows them)" not in panel.plain
        panel.scroll_to(y=20, animate=False)
        await pilot.pause()
        assert panel.scroll_offset.y == 20
        await pilot.press("j")
        await pilot.pause()
        assert app.screen.turn == 2 and panel.scroll_offset.y == 0


@pytest.mark.anyio
async def test_the_export_dialog_says_what_it_does():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=SIZES["wide"]) as pilot:
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, SaveDialog)
        labels = [str(w.content) for w in app.screen.query("Label")]
        assert labels[0] == "Export the trace as OpenTelemetry spans (OTLP/JSON)"
        assert "enter: export · escape: cancel" in labels


# --- a live run: its first request, a failed call --------------------------------------------
@pytest.mark.anyio
async def test_a_live_run_shows_the_request_turn_1_is_about_to_send():
    session = demo_session()
    expected = session.next_request()
    app = PtcApp(session=session)
    async with app.run_test(size=SIZES["wide"]) as pilot:
        await pilot.pause()
        panel = app.screen.query_one(MessagePanel)
        assert panel.border_title == UPCOMING.format(number=1)
        assert panel.plain.startswith("not sent yet: ")
        assert "tokens" not in header_lines(app)[1]             # no LLM call made yet
        assert expected[-1]["content"] in panel.plain
        assert expected[0]["content"].splitlines()[0] in panel.plain
        await pilot.press("n")
        await settle(app, pilot)
        assert panel.border_title == SAW and app.screen.upcoming is None
        assert session.turns[0].messages == expected           # what it said it would send


FAILED_KEYS = ("n", "n")


def failed_call_app() -> PtcApp:
    """The product_search demo whose second LLM call fails."""
    demo = load_agent_file(HERE / "product_search.py")
    return PtcApp(session=demo.agent.start(FlakyLLM(demo.replies, fail_on=2)))


@pytest.fixture
def fixed_times(monkeypatch):
    """Every live turn takes 800 ms of LLM, 12 ms of program and 0.5 ms per tool call, however
    fast this machine is: the times are on the picture."""
    step = Session.step

    def timed(session):
        turn = step(session)
        calls = tuple(replace(c, duration_ms=0.5) for c in turn.tool_calls)
        session.turns[-1] = replace(turn, llm_ms=800.0, run_ms=12.0, tool_calls=calls)
        return session.turns[-1]
    monkeypatch.setattr(Session, "step", timed)


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_snapshot_failed_call(snap_compare, size, monkeypatch, fixed_times):
    skip_if_dimmed()
    monkeypatch.delenv("NO_COLOR", raising=False)

    async def run_before(pilot):
        await drive(pilot, FAILED_KEYS)
    assert snap_compare(failed_call_app(), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.anyio
@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
async def test_state_failed_call(size):
    app = failed_call_app()
    async with app.run_test(size=SIZES[size]) as pilot:
        await drive(pilot, FAILED_KEYS)
        assert len(app.screen.session.turns) == 1 and not app.screen.running
        table = app.screen.query_one(TurnList)
        assert [c.plain for c in table.get_row_at(1)] == ["2", "⚠", "–", "–"]
        assert header_lines(app)[-1] == ("turn 2: LLM call failed: openai: HTTP 503: upstream "
                                         "overloaded · n retries it")
        await pilot.press("n")
        await settle(app, pilot)
        assert len(app.screen.session.turns) == 2 and table.row_count == 2
        assert [c.plain for c in table.get_row_at(1)][1] != "⚠"
        assert "n retries it" not in header_lines(app)[-1]


def test_e_shows_a_long_message_whole_that_the_pane_otherwise_cuts():
    from ptc_tui.view import MessagePane, MessageView
    from ptc_tui.widgets.message_panel import pane_text
    long = "\n".join(f"line {i}" for i in range(1_000))
    pane = MessagePane((MessageView.of({"role": "system", "content": "S\nT"}, 2),
                        MessageView.of({"role": "user", "content": long}, 3_000)), 3_002, 3_002, ())
    folded, whole = pane_text(pane).plain, pane_text(pane, whole=True).plain
    assert "line 999" not in folded and "not shown here" in folded
    assert "line 999" in whole and "not shown here" not in whole and "S\nT" in whole
    huge = MessageView.of({"role": "user", "content": "x\n" * 10_000}, 1)
    assert "not shown here" in huge.whole and huge.whole.count("\n") < 5_100


def test_e_shows_every_dropped_item_the_pane_folds_to_the_latest_of_each_kind():
    """A late turn of a long run drops hundreds of tool calls: the pane shows the latest of
    each kind and how many earlier ones it leaves out; `e` shows them all."""
    from ptc_tui.view import Dropped, MessagePane, MessageView
    from ptc_tui.widgets.message_panel import FOLDED_PER_KIND, pane_text
    calls = tuple(Dropped("tool_call", n, f"turn {n}: search(\"q{n}\")") for n in range(1, 26))
    prints = tuple(Dropped("print", n, f"turn {n}: hello {n}") for n in range(1, 4))
    pane = MessagePane((MessageView.of({"role": "user", "content": "go"}, 1),), 1, 1,
                       calls + prints)
    folded, whole = pane_text(pane).plain, pane_text(pane, whole=True).plain
    assert "dropped (28)" in folded and "dropped (28)" in whole
    shown = [n for n in range(1, 26) if f'search("q{n}")' in folded]
    assert shown == list(range(26 - FOLDED_PER_KIND, 26))           # the latest calls
    assert f"… {25 - FOLDED_PER_KIND} earlier tool_call items" in folded
    assert all(f"hello {n}" in folded for n in range(1, 4))          # a short kind whole
    assert all(f'search("q{n}")' in whole for n in range(1, 26)) and "earlier" not in whole
    few = MessagePane(pane.messages, 1, 1, prints)
    assert pane_text(few).plain == pane_text(few, whole=True).plain
