"""The agent loop: SubAgent runs a mission turn by turn (render → LLM → program → Turn)."""

from engine.agent.agent import Failure, Session, Step, SubAgent, llm_name
from engine.agent.execute import execute_turn, previous_results
from engine.agent.extract import extract_program, program_spans
from engine.agent.fork import fork
from engine.agent.llm_spec import SPEC_FORMS, fork_llm, open_llm
from engine.agent.tools import Tool, make_tool, tool

__all__ = ["SubAgent", "Session", "Step", "Failure", "Tool", "tool", "make_tool",
           "execute_turn", "previous_results", "extract_program", "program_spans", "open_llm", "llm_name",
           "fork", "fork_llm", "SPEC_FORMS"]
