"""Screens of the TUI."""

from ptc_tui.screens.live_screen import LiveScreen
from ptc_tui.screens.trace_screen import STRATEGY_CYCLE, TraceScreen

__all__ = ["STRATEGY_CYCLE", "LiveScreen", "TraceScreen"]
