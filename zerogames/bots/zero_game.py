"""Zero Game's Easy bot: bid the sure-looking tricks, then try to win exactly that many."""

from __future__ import annotations

import random
from typing import Any

from zerogames.games.cards import RANK_ORDER, trick_winner


def strength(card: str, trump: str | None) -> float:
    """How likely a card is to take a trick on its own, roughly."""
    if trump and card[1] == trump:
        return 0.5 + RANK_ORDER[card[0]] / 24
    return {"A": 0.8, "K": 0.5, "Q": 0.2}.get(card[0], 0.0)


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any]:
    trump = view["trump"][1] if view["trump"] else None
    if legal[0]["type"] == "bid":
        wanted = round(sum(strength(card, trump) for card in view["hand"]))
        return min(legal, key=lambda action: (abs(action["bid"] - wanted), action["bid"]))
    seat = view["seat"]
    need = (view["bids"][seat] or 0) - view["tricks"][seat]
    cards = [action["card"] for action in legal]
    played = [card for _, card in view["trick"]]
    winners = [card for card in cards if not played or trick_winner([*played, card], trump) == len(played)]
    by_strength = sorted(cards, key=lambda card: (card[1] == trump, RANK_ORDER[card[0]]))
    if need > 0:
        # Win cheaply when a card can win now; else throw the weakest card away.
        choice = min(winners, key=by_strength.index) if winners else by_strength[0]
    else:
        # Enough tricks: duck with the highest card that still loses, else the weakest.
        losers = [card for card in cards if card not in winners]
        choice = max(losers, key=by_strength.index) if losers else by_strength[0]
    return {"type": "play", "card": choice}
