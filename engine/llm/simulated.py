"""SimulatedLLM: a deterministic stand-in model, for experiments that run offline.

Its reply is `policy(request, rng)`: `request` is the text of every message it was sent (the
contents joined by blank lines, so a fact it needs counts as known only if it is visible
there) and `rng` a `random.Random` seeded from the seed and that text. The same request and
seed always give the same reply; another seed explores differently.

`simulated:FILE` (or `simulated:FILE@SEED`) takes `policy` from a Python file, usually the
agent file itself.
"""

from __future__ import annotations

import hashlib
import random
import re
import runpy
from collections.abc import Callable
from pathlib import Path

from engine.llm.completion import Completion

Policy = Callable[[str, random.Random], str]
_SEEDED = re.compile(r"^(?P<path>.+)@(?P<seed>\d+)$")


class SimulatedLLM:
    provider = "simulated"

    def __init__(self, policy: Policy, *, seed: int = 0, name: str | None = None):
        if not callable(policy):
            raise ValueError(f"simulated: policy must be a function, not {type(policy).__name__}")
        self.policy = policy
        self.seed = seed
        self.name = name or self.provider
        self.calls = 0

    @classmethod
    def from_file(cls, spec: str, seed: int | None = None) -> SimulatedLLM:
        """The `policy` defined by the Python file `spec` names (`FILE` or `FILE@SEED`;
        `seed` given here wins). ValueError, naming the file, when it has none."""
        match = _SEEDED.match(spec)
        path = match["path"] if match else spec
        if seed is None:
            seed = int(match["seed"]) if match else 0
        policy = read_policy(Path(path))
        name = f"{cls.provider}:{path}" + (f"@{seed}" if seed else "")
        return cls(policy, seed=seed, name=name)

    def reseeded(self, seed: int) -> SimulatedLLM:
        """The same policy under another seed (an experiment gives every run its own)."""
        base = self.name.rsplit("@", 1)[0] if self.seed else self.name
        return SimulatedLLM(self.policy, seed=seed, name=base + (f"@{seed}" if seed else ""))

    def __call__(self, messages: list[dict]) -> Completion:
        self.calls += 1
        text = request_text(messages)
        digest = hashlib.sha256(f"{self.seed}\n{text}".encode("utf-8", "surrogatepass")).digest()
        reply = self.policy(text, random.Random(int.from_bytes(digest[:8], "big")))
        if not isinstance(reply, str):
            raise ValueError(f"policy returned {type(reply).__name__}, expected a string")
        return Completion(text=reply, provider=self.provider)

    def __repr__(self) -> str:
        return f"SimulatedLLM(name={self.name!r}, seed={self.seed}, calls={self.calls})"


def request_text(messages: list[dict]) -> str:
    """What a model reads: every message's content, joined by blank lines."""
    return "\n\n".join(str(m.get("content", "")) for m in messages)


def read_policy(path: Path) -> Policy:
    """The `policy` function of the Python file at `path`."""
    if not path.is_file():
        raise ValueError(f"simulated: {path}: no such file")
    try:
        names = runpy.run_path(str(path))
    except Exception as exc:       # the user's file: one line, never a traceback
        raise ValueError(f"simulated: {path}: {type(exc).__name__}: {exc}") from None
    policy = names.get("policy")
    if not callable(policy):
        raise ValueError(f"simulated: {path}: defines no `policy(request, rng)` function")
    return policy
