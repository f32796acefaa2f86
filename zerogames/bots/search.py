"""What every Hard bot's search shares: determinized sampling within a budget.

Hard draws deals of the hidden cards that agree with everything its seat has been shown, and scores
each legal action by playing every deal out with the real engine; the action with the best total wins.
The budget is a number of deals, so that the same view, memory and generator always give the same
choice; a time limit only guards the table when the machine is starved (the rules ask a bot to decide
within a second).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

Action = dict[str, Any]
State = dict[str, Any]

# A decision stops sampling after this long, whatever its budget (checked after every play-out, so that
# a starved machine still decides within a second).
TIME_LIMIT = 0.7


def best_by_deals(
    legal: list[Action],
    deal: Callable[[], State | None],
    outcome: Callable[[State, Action], float],
    budget: int,
) -> Action | None:
    """The legal action whose outcomes, summed over `budget` sampled deals, are best (the first on a
    tie); None when no deal could be drawn (the caller falls back on its heuristic)."""
    totals = totals_by_deals(legal, deal, outcome, budget)
    return best(legal, totals) if totals is not None else None


def totals_by_deals(
    legal: list[Action],
    deal: Callable[[], State | None],
    outcome: Callable[[State, Action], float],
    budget: int,
) -> list[float] | None:
    """Each legal action's outcomes summed over up to `budget` sampled deals, every action played on
    the same deals; None when no deal could be drawn."""
    totals = [0.0] * len(legal)
    dealt = 0
    stop = time.perf_counter() + TIME_LIMIT
    for _ in range(budget):
        state = deal()
        if state is None:
            continue
        outcomes = []
        for action in legal:
            outcomes.append(outcome(state, action))
            if time.perf_counter() > stop:
                # Out of time mid-deal (a starved machine): decide on the whole deals played so far.
                return totals if dealt else None
        totals = [total + value for total, value in zip(totals, outcomes, strict=True)]
        dealt += 1
    return totals if dealt else None


def best(legal: list[Action], totals: list[float]) -> Action:
    """The action with the best total, the first on a tie."""
    return legal[max(range(len(legal)), key=totals.__getitem__)]
