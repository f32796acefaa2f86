"""What every Hard bot's search shares: determinized sampling within a budget.

Hard draws deals of the hidden cards that agree with everything its seat has been shown, and scores
each legal action by playing every deal out with the real engine; the action with the best total wins.
The budget is a number of deals, so that the same view, memory and generator always give the same
choice; a time limit only guards the table when the machine is starved (the rules ask a bot to decide
within a second).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Action = dict[str, Any]
State = dict[str, Any]

# A decision stops sampling after this long, whatever its budget (checked after every play-out, so that
# a starved machine still decides within a second). The seat that runs the bot reads the clock
# (zerogames.bots): a search is only asked `out_of_time()`, so that without one the same generator
# always gives the same choice.
TIME_LIMIT = 0.7
OutOfTime = Callable[[], bool]


def best_by_deals(
    legal: list[Action],
    deal: Callable[[], State | None],
    outcome: Callable[[State, Action], float],
    budget: int,
) -> Action | None:
    """The legal action whose outcomes, summed over `budget` sampled deals, are best (the first on a
    tie); None when no deal could be drawn (the caller falls back on its heuristic)."""
    means = mean_by_deals(legal, deal, outcome, budget)
    return best(legal, means) if means else None


def mean_by_deals(
    legal: list[Action],
    deal: Callable[[], State | None],
    outcome: Callable[[State, Action], float],
    budget: int,
    out_of_time: OutOfTime | None = None,
) -> list[float] | None:
    """Each legal action's mean outcome over `budget` sampled deals (over the whole deals played when
    `out_of_time` said so first); None when no deal could be drawn. Without it the same
    generator always gives the same figures (a game's analysis: zerogames.analysis)."""
    totals = [0.0] * len(legal)
    dealt = 0
    for _ in range(budget):
        state = deal()
        if state is None:
            continue
        outcomes = []
        for action in legal:
            outcomes.append(outcome(state, action))
            if out_of_time is not None and out_of_time():
                # Out of time mid-deal (a starved machine): the whole deals played so far.
                return [total / dealt for total in totals] if dealt else None
        totals = [total + value for total, value in zip(totals, outcomes, strict=True)]
        dealt += 1
    return [total / dealt for total in totals] if dealt else None


def best(legal: list[Action], totals: list[float]) -> Action:
    """The action with the best total, the first on a tie."""
    return legal[max(range(len(legal)), key=totals.__getitem__)]
