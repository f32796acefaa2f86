"""Zero Down's Easy bot: swap to shed high lone numbers and grow five-sets; knock once the hand is good."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from zerogames.games.zero_down import COLOUR, NUMBER, SET_SIZE, hand_points, is_zero

# A hand scoring this little is worth ending the round on.
GOOD_ENOUGH = 3
# A swap must gain at least this much to be worth a turn.
WORTH_IT = 1


def worth(hand: Sequence[str]) -> int:
    """Lower is better: the hand's points, less how far its biggest colour and number go towards five."""
    colours = [COLOUR[card] for card in hand]
    numbers = [NUMBER[card] for card in hand]
    growth = min(max(map(colours.count, colours)), SET_SIZE) + min(max(map(numbers.count, numbers)), SET_SIZE)
    return hand_points(hand) - growth


def after_swap(hand: Sequence[str], action: dict[str, Any]) -> list[str]:
    return [*(card for card in hand if card != action["give"]), action["take"]]


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any]:
    hand = view["hand"]
    knock = next(action for action in legal if action["type"] == "knock")
    swaps = [action for action in legal if action["type"] == "swap"]
    if not swaps:
        return knock
    best = min(swaps, key=lambda action: worth(after_swap(hand, action)))
    gain = worth(hand) - worth(after_swap(hand, best))
    if gain < WORTH_IT:
        return knock
    # A good hand knocks to close the round, unless the final turns have begun (a knock is then only a
    # pass, so an improving swap costs nothing) or the swap makes a ZERO.
    if view["phase"] != "final" and hand_points(hand) <= GOOD_ENOUGH and not is_zero(after_swap(hand, best)):
        return knock
    return best


# The simulator's figure: penalty points per round.
FIGURE = "mean round score"
COUNTED: tuple[str, ...] = ()


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    taken = rules.figures(state)[seat]
    return taken["points"], taken["rounds"]
