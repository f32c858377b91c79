"""The ptc-tui engine: the PTC-Lisp interpreter and, in later layers, the agent loop."""
