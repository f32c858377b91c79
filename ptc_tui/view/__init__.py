"""View-model of the TUI: plain data the widgets render, with no Textual or Rich import."""

from ptc_tui.view.dropped import Dropped
from ptc_tui.view.panes import (ErrorView, MemoryRow, MessagePane, MessageView, ProgramPane,
                                ToolCallView)
from ptc_tui.view.renders import Renders, Rendering
from ptc_tui.view.trace_view import Header, SearchHit, TraceView, TurnRow, TurnView

__all__ = ["TraceView", "TurnRow", "TurnView", "Header", "SearchHit", "ProgramPane",
           "MessagePane", "MessageView", "MemoryRow", "ErrorView", "ToolCallView", "Dropped",
           "Renders", "Rendering"]
