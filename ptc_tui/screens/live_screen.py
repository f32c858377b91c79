"""LiveScreen: a TraceScreen over an agent being run: `n` runs one turn (LLM call and program) in
a background thread, `c` runs on to the end and pauses when pressed again; the trace grows turn by
turn, and a failing LLM call or a raising tool is a notification, never the end of the app."""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.reactive import var

from engine.agent import Session, llm_name
from engine.history import Turn
from engine.llm import LLMError
from engine.trace import Trace, save_trace
from ptc_tui.screens.trace_screen import TraceScreen
from ptc_tui.view import Header, MessagePane, MessageView, Renders, TraceView, TurnRow
from ptc_tui.view.formats import count_text
from ptc_tui.view.status import outcome_text
from ptc_tui.widgets import escape_controls, literal
from ptc_tui.widgets.live_status import LiveStatus


class LiveScreen(TraceScreen):
    BINDINGS = [
        Binding("n,space", "step", "Run turn", id="run.step"),
        Binding("c", "continue", "Continue/pause", id="run.continue"),
    ]

    @dataclass
    class Stepped(Message):
        """One more turn finished; `trace` is the whole run so far; `not_saved` says why the
        --save file does not hold it (None: it does, or there is no --save file)."""
        trace: Trace
        turn: Turn
        not_saved: str | None = None

    @dataclass
    class StepFailed(Message):
        """The turn could not run (the LLM call failed); nothing recorded was lost."""
        reason: str

    class Stopped(Message):
        """The worker stopped: the run ended, was paused, or a step failed."""

    running: var[bool] = var(False, init=False)

    def __init__(self, session: Session, save_path: Path | None = None, **kwargs) -> None:
        """Step `session`; with `save_path`, the run so far is written there after every turn."""
        self.session = session
        self.save_path = save_path
        super().__init__(TraceView.of(session.trace()), **kwargs)
        self._continuing = False
        self._pause = threading.Event()
        self.failed_call: str | None = None      # the last LLM call, when it failed
        if not session.turns:
            self.set_reactive(TraceScreen.upcoming, self._upcoming())
        if session.turns:               # a fork: the last turn taken over from its parent
            self.set_reactive(TraceScreen.turn, session.turns[-1].number)
            self.set_reactive(TraceScreen.current, self._turn_view())

    def _upcoming(self) -> MessagePane | None:
        """The request the first turn will send (the same under every strategy)."""
        try:
            messages = self.session.next_request()
        except Exception:           # an agent that cannot render its request: panes stay empty
            return None
        counts = self.view.renders.counter.count_messages(messages)
        return MessagePane(tuple(MessageView.of(m, n) for m, n in zip(messages, counts.per_message)),
                           counts.total, counts.total, ())

    def shown_rows(self, rows: tuple[TurnRow, ...]) -> tuple[TurnRow, ...]:
        if getattr(self, "failed_call", None) is None:
            return rows
        return (*rows, TurnRow(len(self.view.trace.turns) + 1, "call_failed", 0, 0))

    def shown_header(self, header: Header) -> Header:
        if getattr(self, "failed_call", None) is None:
            return header
        return replace(header, failed_call=self.failed_call)

    def _show_failed_call(self, reason: str | None) -> None:
        self.failed_call = reason
        self.turn_rows = self.shown_rows(self.view.rows())
        self.header_info = self.shown_header(self.view.header(self.caching_model))

    def live_run(self) -> tuple[object, object, object]:
        return self.session.agent.tools or None, self.session.agent.limits, self.session.llm

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if widget.id == "footer":
                yield LiveStatus(id="live-status")
            yield widget

    def on_mount(self) -> None:
        self._show_status()

    # --- running ------------------------------------------------------------------------------
    def action_step(self) -> None:
        if self._refuse():
            return
        self._start(count=1)

    def action_continue(self) -> None:
        if self.running and self._continuing:
            self._pause.set()                              # pause after the turn in progress
            self._continuing = False
            self._show_status("pausing after this turn…")
            return
        if self._refuse():
            return
        self._continuing = True
        self._start(count=None)

    def _refuse(self) -> bool:
        if self.session.done:
            self.notify(f"the run has ended ({outcome_text(self.view.trace)}); "
                        "ctrl+s saves it", severity="information", markup=False)
            return True
        if self.running:
            self.notify("a turn is running", severity="information")
            return True
        return False

    def _start(self, count: int | None) -> None:
        self.running = True
        self._show_status(f"running turn {len(self.view.trace.turns) + 1}…")
        # A daemon thread rather than a Textual worker: a worker runs on asyncio's default
        # executor, which asyncio.run joins on exit, so quitting would wait for the LLM call.
        self._pause = threading.Event()
        threading.Thread(target=self.run_turns, args=(count, self._pause), daemon=True,
                         name="ptc-tui live run").start()

    def run_turns(self, count: int | None, pause: threading.Event) -> None:
        """Run `count` turns (None: to the end) unless paused; post each one as it finishes
        (in the live-run thread; post_message is thread-safe)."""
        done = 0
        try:
            while not self.session.done and (count is None or done < count):
                if pause.is_set():
                    return
                try:
                    turn = self.session.step()
                except LLMError as e:
                    self.post_message(self.StepFailed(f"LLM call failed: {e}"))
                    return
                except Exception as e:    # an engine bug must not take the app (or the run) down
                    self.post_message(self.StepFailed(
                        f"turn {len(self.session.turns) + 1} failed: {type(e).__name__}: {e}"))
                    return
                done += 1
                trace = self.session.trace()
                self.post_message(self.Stepped(trace, turn, self.save_to_file(trace)))
        finally:
            self.post_message(self.Stopped())

    def save_to_file(self, trace: Trace) -> str | None:
        """Write `trace` to the --save file, if any; why it could not be, or None."""
        if self.save_path is None:
            return None
        try:
            save_trace(trace, self.save_path)
        except (OSError, ValueError) as e:
            return f"{self.save_path}: {e}"
        return None

    def on_live_screen_stepped(self, event: Stepped) -> None:
        if self.save_path is not None and event.not_saved is None:
            self.saved_turns = len(event.trace.turns)
        elif event.not_saved is not None:
            self.notify(escape_controls(event.not_saved), title="not saved", severity="error",
                        timeout=10, markup=False)
        self.failed_call = None
        self.upcoming = None
        old = self.view
        follow = not old.trace.turns or self.turn == old.trace.turns[-1].number
        self.view = TraceView.of(event.trace, old.opts, Renders(event.trace, old.renders.counter))
        if follow:
            self.turn = event.turn.number
        for call in event.turn.tool_calls:
            if call.error is not None:
                self.notify(escape_controls(
                    f"turn {event.turn.number}: tool/{call.name} raised: {call.error}"),
                            title="tool error", severity="warning", markup=False)
        if event.trace.outcome.status != "running":
            self.notify(f"the run has ended: {outcome_text(event.trace)}", markup=False)
        self._show_status()

    def on_live_screen_step_failed(self, event: StepFailed) -> None:
        kept = len(self.view.trace.turns)
        self._show_failed_call(f"turn {kept + 1}: {event.reason}")
        self.notify(f"{escape_controls(event.reason)}\n"
                    f"Nothing recorded is lost ({count_text(kept, 'turn')} kept); "
                    "n retries the turn.", title="turn not run", severity="error", timeout=10,
                    markup=False)

    def on_live_screen_stopped(self, event: Stopped) -> None:
        self.running = False
        self._continuing = False
        self._show_status()

    def _show_status(self, doing: str = "") -> None:
        session, trace = self.session, self.view.trace
        text = Text()
        text.append("live ", "bold reverse")
        text.append(" ")
        if session.parent is not None:
            text.append(f"fork at turn {session.parent.turn}", "bold magenta")
            text.append(" · ")
        text.append_text(literal(f"{session.agent.name} · {llm_name(session.llm)}"))
        text.append(f" · {len(trace.turns)} of {session.agent.max_turns} turns · ")
        if doing:
            text.append(doing, "bold")
        elif session.done:
            text.append(f"ended: {outcome_text(trace)}", "bold")
            text.append(" · ctrl+s saves the trace")
        else:
            text.append("n runs the next turn · c runs to the end · ctrl+s saves")
        self.query_one(LiveStatus).update(text)
