"""Trump Card's Easy bot: name the longest suit, win rounds cheaply, spend trumps only where they win."""

from __future__ import annotations

import random
from typing import Any

from zerogames.games.cards import RANK_ORDER, SUITS, trick_winner


def suit_strength(hand: list[str], suit: str) -> tuple[int, int]:
    """How many cards of the suit, then how high they are: the Chooser's yardstick."""
    ranks = [RANK_ORDER[card[0]] for card in hand if card[1] == suit]
    return len(ranks), sum(ranks)


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any]:
    if legal[0]["type"] == "trump":
        # The Chooser names the suit it holds most of among its five, the strongest on a tie.
        best = max(SUITS, key=lambda suit: suit_strength(view["hand"], suit))
        return {"type": "trump", "suit": best}
    trump = view["trump"]
    cards = [action["card"] for action in legal]
    # Weakest first: plain cards before trumps, low before high.
    by_strength = sorted(cards, key=lambda card: (card[1] == trump, RANK_ORDER[card[0]]))
    played = [card for _, card in view["trick"]]
    if not played:
        # Leading: a top plain card is likely to hold the Senior seat; otherwise keep the trumps back.
        plain = [card for card in by_strength if card[1] != trump]
        if plain and plain[-1][0] in "AK":
            return {"type": "play", "card": plain[-1]}
        return {"type": "play", "card": by_strength[0]}
    leader_at = trick_winner(played, trump)
    partner = (view["seat"] + 2) % 4
    if view["trick"][leader_at][0] == partner and len(played) == 3:
        # The partner has the round: no need to spend anything on it.
        return {"type": "play", "card": by_strength[0]}
    winners = [card for card in cards if trick_winner([*played, card], trump) == len(played)]
    # Win as cheaply as possible (a trump only when it wins), else throw the lowest card.
    return {"type": "play", "card": min(winners, key=by_strength.index) if winners else by_strength[0]}
