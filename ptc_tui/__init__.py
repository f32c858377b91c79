"""ptc-tui: a terminal debugger and trace explorer for LLM agents that write PTC-Lisp."""
