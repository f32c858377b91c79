"""SavesOnSignal: the app's part in never losing a live run: SIGINT, SIGTERM and SIGHUP save
the run's unsaved turns before the app exits, and a run saved that way by an earlier app is
named when the next one starts."""

from __future__ import annotations

import asyncio
import signal

from engine.trace import save_trace
from ptc_tui.autosave import autosave_path, unseen_autosaves
from ptc_tui.screens import LiveScreen
from ptc_tui.signals import SIGNALS
from ptc_tui.widgets import escape_controls


class SavesOnSignal:
    """Mixed into PtcApp (which gives `screen_stack`, `notify` and `exit`)."""

    stopped_by: str | None = None          # the signal that ended the app, if one did
    saved_on_signal: str | None = None     # where its live run was saved then

    def handle_signals(self) -> None:
        """From now on the signals stop the app (see stop_on_signal); earlier autosaves are
        named."""
        loop = asyncio.get_running_loop()
        for signum in SIGNALS:
            loop.add_signal_handler(signum, self.stop_on_signal, signum)
        found = unseen_autosaves()
        if found:
            more = f" (and {len(found) - 1} more in {found[0].parent})" if len(found) > 1 else ""
            self.notify(escape_controls(f"a live run was saved when ptc-tui was stopped: "
                                        f"{found[0]}{more}"), title="autosaved run",
                        timeout=20, markup=False)

    def leave_signals(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in SIGNALS:
            loop.remove_signal_handler(signum)

    def stop_on_signal(self, signum: int) -> None:
        """SIGINT, SIGTERM, SIGHUP (a closed terminal): save a live run's unsaved turns (to its
        --save file, else to the autosave folder), then exit with 128 + the signal's number."""
        self.stopped_by = signal.Signals(signum).name
        live = next((s for s in self.screen_stack if isinstance(s, LiveScreen)), None)
        if live is not None and len(live.session.turns) > live.saved_turns:
            path = live.save_path or autosave_path(live.session.agent.name)
            try:
                save_trace(live.session.trace(), path)
                self.saved_on_signal = f"saved the live run ({len(live.session.turns)} turns) " \
                                       f"to {path}"
            except (OSError, ValueError) as e:
                self.saved_on_signal = f"could not save the live run: {path}: {e}"
        self.exit(return_code=128 + signum)
