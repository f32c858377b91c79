"""TraceActions: what the trace screen does with the whole trace: fork it at a turn, compare a
fork with its parent, copy a turn's message, reply or request, save it, export it as OTLP."""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path

from engine.trace import save_trace
from engine.trace.disk import write_atomically
from engine.trace.otel import dumps_otlp
from ptc_tui.screens.fork_dialog import ForkDialog
from ptc_tui.screens.open_dialog import SaveDialog
from ptc_tui.view.forks import ForkRequest, find_parent
from ptc_tui.widgets import escape_controls


def every_turn(action):
    """An action that reads every turn: first they are decoded (a broken one is an error
    notification instead of the action)."""
    @functools.wraps(action)
    def checked(self, *args):
        if self.readable():
            return action(self, *args)
    return checked


class TraceActions:
    """Mixed into TraceScreen (which gives `view`, `turn`, `current`, `source`, `save_to`,
    `parent_trace`, `parent_name`, `saved_turns`, `readable` and Textual's `app` and `notify`)."""

    # --- fork and compare ----------------------------------------------------------------------
    def live_run(self) -> tuple[object, object, object]:
        """The real tools, limits and LLM a fork of this trace can run (a saved trace has
        none)."""
        return None, None, None

    @every_turn
    def action_fork(self) -> None:
        if self.current is None:
            self.notify("no turn to fork from yet", severity="information")
            return
        tools, _, _ = self.live_run()
        self.app.push_screen(ForkDialog(self.view.trace, self.turn, self.view.opts,
                                        live_tools=bool(tools)), self._fork)

    def _fork(self, request: ForkRequest | None) -> None:
        if request is not None:
            self.app.start_fork(self.view.trace, request, self.source, *self.live_run())

    @every_turn
    def action_compare_parent(self) -> None:
        trace = self.view.trace
        if trace.parent is None:
            self.notify("F compares a fork with its parent; this trace is not a fork "
                        "(ctrl+p: compare with…)", severity="information")
            return
        name = self.source.name if self.source is not None else "this fork"
        if self.parent_trace is not None:
            self.app.compare(self.parent_trace, trace, self.parent_name, name)
            return
        path, note = find_parent(trace, self.source)
        if note:
            self.notify(escape_controls(note), title="parent", markup=False,
                        severity="warning" if path is not None else "error")
        if path is not None:
            self.app.compare(path, trace, path.name, name)

    # --- copy and save --------------------------------------------------------------------------
    def action_copy_message(self) -> None:
        if self.current is not None:
            self.app.copy_to_clipboard(self.view.last_user_message(self.turn))
            self.notify(f"copied turn {self.turn}'s user message")

    def action_copy_reply(self) -> None:
        if self.current is not None:
            self.app.copy_to_clipboard(self.view.turns[self.turn].raw_response)
            self.notify(f"copied turn {self.turn}'s reply")

    def action_copy_request(self) -> None:
        if self.current is not None:
            self.app.copy_to_clipboard(self.view.request_json(self.turn))
            self.notify(f"copied turn {self.turn}'s request as JSON messages")

    @every_turn
    def action_save(self) -> None:
        self.app.push_screen(SaveDialog(self.suggested_path(".json")), self.save)

    @every_turn
    def action_export(self) -> None:
        self.app.push_screen(SaveDialog(self.suggested_path(".otlp.json"),
                                        "Export the trace as OpenTelemetry spans (OTLP/JSON)",
                                        "export"), self.export)

    def suggested_path(self, suffix: str) -> Path:
        if suffix == ".json" and self.save_to is not None:
            return self.save_to
        agent = self.view.trace.agent
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        return Path.cwd() / f"{agent.name or 'trace'}-{stamp}{suffix}"

    def save(self, path: Path | None) -> None:
        """Write the trace as shown (every turn so far) to `path`; a failure is a notification."""
        if path is not None and self._write(path, lambda: save_trace(self.view.trace, path)):
            self.saved_turns = len(self.view.trace.turns)

    def export(self, path: Path | None) -> None:
        """Write the trace as OTLP/JSON to `path` (it stays unsaved as a trace file)."""
        if path is not None:
            self._write(path, lambda: write_atomically(path, dumps_otlp(self.view.trace)))

    def _write(self, path: Path, write) -> bool:
        try:
            write()
        except (OSError, ValueError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            self.notify(escape_controls(f"{path}: {why}"), title="not written", severity="error",
                        markup=False)
            return False
        self.notify(escape_controls(f"wrote {len(self.view.trace.turns)} turns to {path}"),
                    markup=False)
        return True
