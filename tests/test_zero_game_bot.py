"""Zero Game's Normal bot plays to its bid exactly, from what its seat has seen."""

from __future__ import annotations

import random

from zerogames.bots import Bot
from zerogames.games import GAMES
from zerogames.games.cards import STANDARD_DECK

RULES = GAMES["zero_game"]


def stacked(*first: str) -> list[str]:
    """A deck whose top cards are `first` (dealt one at a time from the dealer's left), the rest after."""
    return [*first, *(card for card in STANDARD_DECK if card not in first)]


def test_normal_with_its_bid_made_takes_a_trick_it_cannot_lose_with_its_most_dangerous_card():
    """Seat 2 bid nothing and plays last to two low hearts holding only higher hearts: either card takes
    the trick, so it spends the king, which could take a later trick, and keeps the nine."""
    deck = stacked("2H", "3H", "KH", "4C", "5C", "9H", "2S")
    state = RULES.new_game(3, 0, {"schedule": [2], "dealer": 2, "decks": [deck]})
    for seat, action in [(0, 0), (1, 0), (2, 0)]:
        state = RULES.apply(state, seat, {"type": "bid", "bid": action})
    state = RULES.apply(state, 0, {"type": "play", "card": "2H"})
    state = RULES.apply(state, 1, {"type": "play", "card": "3H"})
    bot = Bot("zero_game", "normal")
    bot.see(RULES.view(state, 2))
    action = bot.choose(RULES.view(state, 2), RULES.legal_actions(state, 2), random.Random(1))
    assert action == {"type": "play", "card": "KH"}
