"""The ptc-tui engine, in layers that import only downward: `lisp` (the PTC-Lisp interpreter),
`history` (turns and the strategies that render them), `trace` (saved runs), `agent` (the
loop), and the independent `llm` (LLM clients) and `tokens` (token counts and prices)."""

__version__ = "0.1.0"
