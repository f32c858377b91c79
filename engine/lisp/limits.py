"""Limits of one run, all with sensible defaults and all configurable (`limits={...}`)."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Limits:
    time_ms: int = 1000               # the program's own time, tools not counted: timeout
    run_wall_ms: int = 30_000         # the whole run by the clock, tools included: timeout
    tool_timeout_ms: int = 10_000     # one tool call: timeout naming the tool
    loop_iterations: int = 1000       # loop/recur jumps per loop: loop_limit_exceeded
    recursion_depth: int = 200        # nested function calls: recursion_limit_exceeded
    collection_size: int = 1_000_000  # items in one built collection: memory_exceeded
    string_length: int = 1_000_000    # characters in one built string: memory_exceeded
    nesting_depth: int = 100          # depth of any value built, read or received
    print_chars: int = 2000           # per println call, then cut and "..."
    print_total_chars: int = 100_000  # all prints of a run: output_limit_exceeded
    tool_calls: int = 1000            # tool_limit_exceeded
    source_chars: int = 1_000_000     # parse_error
    symbols: int = 10_000             # unique symbols and keywords: symbol_limit_exceeded

    @classmethod
    def from_dict(cls, given: "dict | Limits | None") -> "Limits":
        if given is None:
            return _DEFAULT if cls is Limits else cls()     # frozen: one can serve every run
        if isinstance(given, Limits):
            return given
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(given) - known)
        if unknown:
            raise ValueError(f"unknown limit {unknown[0]!r}; known limits: {', '.join(sorted(known))}")
        for key, value in given.items():
            if type(value) is not int or value < 0:
                raise ValueError(f"limit {key!r} must be a non-negative integer, got {value!r}")
        return cls(**given)


_DEFAULT = Limits()
