"""Widgets of the TUI; each renders from the view-model (`ptc_tui.view`)."""

from ptc_tui.widgets.literal import escape_controls, literal
from ptc_tui.widgets.memory_panel import MemoryPanel
from ptc_tui.widgets.message_panel import MessagePanel
from ptc_tui.widgets.program_panel import ProgramPanel
from ptc_tui.widgets.trace_header import TraceHeader
from ptc_tui.widgets.turn_list import TurnList

__all__ = ["escape_controls", "literal", "MemoryPanel", "MessagePanel", "ProgramPanel",
           "TraceHeader", "TurnList"]
