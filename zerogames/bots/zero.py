"""Zero's Easy bot: play a 0 when it can, guess its own card plus the others' expected cards, save all."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from zerogames.games.zero import DECK


def unseen_mean(view: dict[str, Any]) -> float:
    """The average value of the cards this seat cannot see: the deck less its hand, card and safe sets."""
    unseen = Counter(DECK)
    unseen.subtract(view["hand"])
    if view["played_card"] is not None:
        unseen[view["played_card"]] -= 1
    for sets in view["safe"]:
        for cards in sets:
            unseen.subtract(cards)
    count = sum(unseen.values())
    return sum(value * times for value, times in unseen.items()) / count if count else 0.0


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any]:
    kind = legal[0]["type"]
    if kind == "play":
        # A lone 0 takes every card when nobody guesses right: the cheapest way to win cards.
        zero = [action for action in legal if action["card"] == 0]
        return zero[0] if zero else rng.choice(legal)
    if kind == "guess":
        expected = view["played_card"] + (view["players"] - 1) * unseen_mean(view)
        return min(legal, key=lambda action: (abs(action["total"] - expected), rng.random()))
    # Safe sets: the largest first (each card is a point), then done when none is left to lay.
    sets = [action for action in legal if action["type"] == "safe"]
    return max(sets, key=lambda action: len(action["cards"])) if sets else legal[-1]


# The simulator's figure: safe cards per game.
FIGURE = "safe cards/game"
COUNTED: tuple[str, ...] = ()


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    return rules.figures(state)[seat]["safe_cards"], 1
