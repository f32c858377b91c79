"""Message history: Turn records, HistoryOpts and the strategies that render a run's turns
into the messages its LLM receives (`render`, `render_turns`, `STRATEGIES`)."""

from engine.history.context import RenderContext, ToolInfo
from engine.history.opts import HistoryOpts
from engine.history.render import iter_requests, render, render_turns
from engine.history.stats import CallRef, RenderStats
from engine.history.strategies import BASELINE, STRATEGIES, strategy_order
from engine.history.turn import FINISH_REASONS, Response, Turn, Usage, error_text
from engine.history.types import type_of

__all__ = ["Turn", "Usage", "Response", "FINISH_REASONS", "error_text", "HistoryOpts", "RenderContext", "ToolInfo", "render",
           "render_turns", "iter_requests", "RenderStats", "CallRef", "STRATEGIES", "BASELINE",
           "strategy_order", "type_of"]
