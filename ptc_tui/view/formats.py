"""How costs, prices and percentages are written, on every screen and in every command's
output: one rule each, so a figure reads the same wherever it is shown.

    cost_text(0.000613)          # "$0.000613": three significant figures; None: "unknown"
    cost_spread_text(0.0188, 0.0036)   # "$0.0188 ± 0.0036"
    per_million_text(2.5)        # "$2.5/M"
    percent_text(47.234)         # "47.2%"; None: "—"
    count_text(1, "turn")        # "1 turn"; count_text(1234, "line"): "1,234 lines"
"""

from __future__ import annotations

import math

NOT_KNOWN = "—"     # a percentage that cannot be made (no baseline, no price); a dash, not
                    # a hyphen, so it cannot be read as the sign of a negative figure


def count_text(count: int, noun: str) -> str:
    """`count` of `noun` (a regular plural: `noun` + s)."""
    return f"{count:,} {noun}" + "s" * (count != 1)


def cost_text(amount: float | None) -> str:
    """A cost to three significant figures (`$0.000613`, `$1.23`, `$12.3`), whole dollars
    from $100 (`$1,234`), `$0` for nothing and `unknown` for an unknown price (never $0).

    Three figures whatever the size, so two strategies' costs that differ are told apart.
    """
    if amount is None:
        return "unknown"
    if amount < 0:
        return "-" + cost_text(-amount)
    decimals = cost_decimals(amount)
    if decimals is None:
        return "$0"
    if decimals == 0:
        return f"${amount:,.0f}"
    return f"${float(f'{amount:.3g}'):.{decimals}f}"


def cost_decimals(amount: float) -> int | None:
    """The decimals `cost_text` writes `amount` (≥ 0) with; None when it rounds to nothing."""
    rounded = float(f"{amount:.3g}")
    if rounded == 0:
        return None
    if rounded >= 100:
        return 0
    return 2 - math.floor(math.log10(rounded))


def cost_spread_text(mean: float, sd: float) -> str:
    """`$0.0188 ± 0.0036`: a mean cost and its standard deviation, with the mean's decimals."""
    decimals = cost_decimals(abs(mean)) or 0
    return f"{cost_text(mean)} ± {sd:,.{decimals}f}"


def per_million_text(usd: float) -> str:
    """A price per million tokens: `$2.5/M`."""
    return f"${usd:g}/M"


def percent_text(percent: float | None) -> str:
    """`47.2%` (one decimal), or `—` when there is no figure."""
    return NOT_KNOWN if percent is None else f"{percent:.1f}%"
