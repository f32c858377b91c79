"""Model prices from an editable TOML table, and what a number of tokens costs.

The table ships as `prices.toml` beside this module; `PTC_TUI_PRICES` (or a path passed to
`load_prices`) points at a user's copy instead. Prices are USD per million tokens.
"""

from __future__ import annotations

import datetime
import functools
import math
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from .counter import TokenCounter
from .models import bare_model

ENV_VAR = "PTC_TUI_PRICES"
DEFAULT_PRICES = Path(__file__).with_name("prices.toml")
_FIELDS = ("input", "cached_input", "cache_write", "output")
_REQUIRED = ("input", "output")
# What may follow a configured name for a longer model name to still be that model: a dated
# snapshot or variant ("-2024-07-18", "@20250514"), never a version ("gpt-5.4" is not "gpt-5")
# nor a fine-tune ("gpt-4o-mini:org::id" is billed at other rates).
_SEPARATORS = "-_@"


@dataclass(frozen=True)
class Price:
    """USD per million tokens for one configured model name."""

    model: str
    input: float
    output: float
    cached_input: float | None = None
    cache_write: float | None = None     # input written to a prompt cache (Anthropic)


@dataclass(frozen=True)
class PriceTable:
    """The prices of one file: `as_of` is the date they were checked, `source` the file."""

    as_of: str
    source: str
    models: Mapping[str, Price] = field(default_factory=dict)

    def price_for(self, model: str | None) -> Price | None:
        """The price of `model`: exact name, else the longest configured name it extends."""
        name = bare_model(model)
        if not name:
            return None
        if name in self.models:
            return self.models[name]
        extended = [key for key in self.models
                    if name.startswith(key) and name[len(key)] in _SEPARATORS]
        return self.models[max(extended, key=len)] if extended else None


def load_prices(path: str | os.PathLike[str] | None = None) -> PriceTable:
    """The price table at `path`, else at `$PTC_TUI_PRICES`, else the one shipped with us.

    A file that is missing, is not TOML or does not have the expected shape raises ValueError
    naming the file and the problem. Loads are cached until the file changes.
    """
    chosen = path if path is not None else os.environ.get(ENV_VAR) or None
    chosen = Path(chosen).expanduser() if chosen is not None else DEFAULT_PRICES
    try:
        stamp = chosen.stat().st_mtime_ns
    except OSError as e:
        raise ValueError(f"prices file {chosen}: cannot read it ({e.strerror or e})") from None
    return _load(str(chosen), stamp)


def price_for(model: str | None, prices: PriceTable | None = None) -> Price | None:
    """The price of `model` in `prices` (default: `load_prices()`), or None when unknown."""
    return (prices if prices is not None else load_prices()).price_for(model)


def cost(price: Price | None, input_tokens: int, output_tokens: int = 0,
         cached_tokens: int = 0, cache_write_tokens: int = 0) -> float | None:
    """USD for the given tokens, or None when the price is unknown (never a made-up $0).

    The four counts are disjoint: `input_tokens` are billed at the input rate, `cached_tokens`
    (prompt-cache hits) at `cached_input` and `cache_write_tokens` (written to the cache) at
    `cache_write` when the model has them, else at the input rate. An OpenAI usage block's
    prompt_tokens include its cached tokens: pass the difference.
    """
    if price is None:
        return None
    for label, n in (("input_tokens", input_tokens), ("output_tokens", output_tokens),
                     ("cached_tokens", cached_tokens),
                     ("cache_write_tokens", cache_write_tokens)):
        if n < 0:
            raise ValueError(f"{label} must not be negative, got {n}")
    cached_rate = price.cached_input if price.cached_input is not None else price.input
    write_rate = price.cache_write if price.cache_write is not None else price.input
    return dollars((input_tokens * price.input + cached_tokens * cached_rate
                    + cache_write_tokens * write_rate + output_tokens * price.output) / 1_000_000)


def dollars(amount: float) -> float:
    """`amount` to a trillionth of a dollar: a sum of costs without its floating-point noise
    (0.004869999999999999 is 0.00487), every digit of a price kept (no price per million tokens
    has more than six decimals)."""
    return round(amount, 12)


@dataclass(frozen=True)
class CallCost:
    """One LLM call priced: its tokens (the provider's, else counted) and what they cost."""

    input_tokens: int          # the whole prompt, cached part included
    cached_tokens: int         # of which read from the prompt cache
    output_tokens: int
    input_counted: bool        # counted from the request: the provider reported none
    output_counted: bool       # counted from the reply: the provider reported none
    usd: float | None          # None: the model's price is unknown
    cache_write_tokens: int        # of input_tokens, written to the prompt cache
    usd_reported: bool = False     # `usd` is the cost reported with the call, not priced here

    @property
    def counted(self) -> bool:
        return self.input_counted or self.output_counted


def total_cost(calls: Sequence[CallCost]) -> CallCost:
    """Several calls as one: tokens summed, counted when any was, unknown when any price is."""
    costs = [c.usd for c in calls]
    return CallCost(sum(c.input_tokens for c in calls), sum(c.cached_tokens for c in calls),
                    sum(c.output_tokens for c in calls), any(c.input_counted for c in calls),
                    any(c.output_counted for c in calls),
                    None if None in costs or not costs else dollars(sum(costs)),
                    sum(c.cache_write_tokens for c in calls),
                    bool(calls) and all(c.usd_reported for c in calls))


def call_cost(price: Price | None, counter: TokenCounter, messages: Sequence[Mapping],
              reply: str, input_tokens: int | None = None, output_tokens: int | None = None,
              cached_tokens: int | None = None, cache_write_tokens: int | None = None) -> CallCost:
    """One call of `messages` answered by `reply`, priced part by part: the uncached prompt at
    the input price, the cached part at `cached_input` (else the input price), the part written
    to the cache at `cache_write` (else the input price), the reply at the output price. Token
    counts are the provider's (`input_tokens` the whole prompt, as Completion reports it); one
    it did not report is counted with `counter` and marked so.
    """
    input_counted, output_counted = input_tokens is None, output_tokens is None
    if input_counted:
        input_tokens = counter.count_messages(messages).total
    if output_counted:
        output_tokens = counter.count(reply)
    cached = min(cached_tokens or 0, input_tokens)
    written = min(cache_write_tokens or 0, input_tokens - cached)
    return CallCost(input_tokens, cached, output_tokens, input_counted, output_counted,
                    cost(price, input_tokens - cached - written, output_tokens, cached, written),
                    written)


@functools.lru_cache(maxsize=8)
def _load(path: str, _stamp: int) -> PriceTable:
    def broken(problem: str) -> ValueError:
        return ValueError(f"prices file {path}: {problem}")

    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise broken(f"not valid TOML: {e}") from None
    except OSError as e:
        raise broken(f"cannot read it ({e.strerror or e})") from None
    unknown = sorted(set(data) - {"as_of", "models"})
    if unknown:
        raise broken(f"unknown top-level key {unknown[0]!r} (expected as_of and [models.NAME])")
    as_of = data.get("as_of")
    if not isinstance(as_of, (str, datetime.date)):
        raise broken("as_of is missing or not a date (as_of = 2026-11-22)")
    models = data.get("models", {})
    if not isinstance(models, dict):
        raise broken("models must be tables: [models.\"gpt-4o\"]")
    table = {}
    for name, entry in models.items():
        price = _price(name, entry, broken)
        if price.model in table:
            raise broken(f"models.{name}: the same model as models.{table[price.model].model}")
        table[price.model] = price
    return PriceTable(str(as_of), path, MappingProxyType(table))   # shared by the cache


def _price(name: str, entry: object, broken) -> Price:
    if not isinstance(entry, dict):
        raise broken(f"models.{name} must be a table with input and output")
    unknown = sorted(set(entry) - set(_FIELDS))
    if unknown:
        raise broken(f"models.{name}: unknown key {unknown[0]!r} (expected {', '.join(_FIELDS)})")
    for key in _REQUIRED:
        if key not in entry:
            raise broken(f"models.{name}: {key} is missing")
    for key, value in entry.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value) or value < 0:
            raise broken(f"models.{name}.{key} must be a number >= 0, got {value!r}")
    optional = {key: float(entry[key]) if key in entry else None
                for key in ("cached_input", "cache_write")}
    return Price(bare_model(name), float(entry["input"]), float(entry["output"]), **optional)
