"""How a game's figures read on a player's statistics page: the helpers each game's `figure_lines` uses."""

from __future__ import annotations

from collections import Counter
from typing import Any


def share(part: int, whole: int) -> str:
    return f"{part} of {whole} ({part / whole:.0%})" if whole else "none yet"


def minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 60 else f"{seconds:.0f} s"


def totals(figures: list[dict[str, Any]]) -> Counter[str]:
    """The numbers of every game's figures added up (true counts as 1)."""
    summed: Counter[str] = Counter()
    for each in figures:
        summed.update({key: int(value) for key, value in each.items() if isinstance(value, int | bool)})
    return summed
