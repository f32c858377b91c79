"""ForkDialog (`f`): fork the trace at the selected turn: the LLM, the strategy and the limits the
fork runs under (defaults: the trace's LLM and the options on screen), and an optional agent
file for real tools. Dismisses with a ForkRequest, or None on escape."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from engine.history import HistoryOpts, strategy_order
from engine.trace import Trace
from ptc_tui.view.forks import ForkRequest, default_llm_text, parse_request


class ForkDialog(ModalScreen[ForkRequest | None]):
    DEFAULT_CSS = """
    ForkDialog {
        align: center middle;
        #fork-dialog {
            width: 90; max-width: 100%; height: auto; max-height: 90%;
            border: thick $primary; background: $surface; padding: 0 1;
        }
        .title, .hint { width: 100%; }     /* a Label is as wide as its text: wrap instead */
        .title { text-style: bold; margin-bottom: 1; }
        .row { height: 1; margin-bottom: 1; }
        .row Label { width: 18; }
        .row Input, .row Select { width: 1fr; }
        #fork-error { color: $text-error; }
        .hint { color: $text-muted; }
        #fork-buttons { height: 1; align-horizontal: right; }
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="fork.cancel")]

    def __init__(self, trace: Trace, at: int, opts: HistoryOpts, live_tools: bool = False,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.trace, self.at, self.opts = trace, at, opts
        self.live_tools = live_tools

    def compose(self) -> ComposeResult:
        o = self.opts
        tools = ("empty: the live run's own tools" if self.live_tools
                 else "empty: tool calls answered from the trace's recorded calls")
        with Vertical(id="fork-dialog"):
            yield Label(f"Fork at turn {self.at}: turns 1–{self.at - 1} are kept as recorded, "
                        f"turn {self.at} on runs again (a what-if)" if self.at > 1 else
                        "Fork at turn 1: the whole run runs again (a what-if)",
                        classes="title", markup=False)
            with Horizontal(classes="row"):
                yield Label("LLM")
                yield Input(placeholder=f"empty: {default_llm_text(self.trace)}", id="fork-llm",
                            compact=True)
            with Horizontal(classes="row"):
                yield Label("strategy")
                yield Select([(s, s) for s in strategy_order()], value=o.strategy,
                             allow_blank=False, id="fork-strategy", compact=True)
            for name, value in (("println_limit", o.println_limit),
                                ("tool_call_limit", o.tool_call_limit),
                                ("max_turns", self.trace.agent.max_turns)):
                with Horizontal(classes="row"):
                    yield Label(name)
                    yield Input(str(value), restrict=r"[0-9]*", id=f"fork-{name}", compact=True)
            with Horizontal(classes="row"):
                yield Label("agent file")
                yield Input(placeholder=tools, id="fork-agent", compact=True)
            yield Static("", id="fork-error", markup=False)
            with Horizontal(id="fork-buttons"):
                yield Button("Fork", variant="primary", id="fork-start", compact=True)
            yield Label("enter: fork · escape: cancel · the fork opens as a live run: n runs "
                        "a turn, c runs to the end", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#fork-llm", Input).focus()

    def value(self, name: str) -> str:
        return self.query_one(f"#fork-{name}", Input).value

    def submit(self) -> None:
        try:
            request = parse_request(
                self.at, self.value("llm"), self.query_one("#fork-strategy", Select).value,
                self.value("println_limit"), self.value("tool_call_limit"),
                self.value("max_turns"), self.value("agent"), self.opts)
        except ValueError as e:
            self.query_one("#fork-error", Static).update(str(e))
            return
        self.dismiss(request)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def on_input_changed(self) -> None:
        self.query_one("#fork-error", Static).update("")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.submit()

    def action_cancel(self) -> None:
        self.dismiss(None)
