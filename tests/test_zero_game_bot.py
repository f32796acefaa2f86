"""Zero Game's Normal bot plays to its bid exactly, from what its seat has seen; Hard deals the unseen
cards as the seat has seen them fall."""

from __future__ import annotations

import random

from zerogames.bots import Bot
from zerogames.games import GAMES
from zerogames.games.cards import STANDARD_DECK
from zerogames.games.zero_game import bot

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


def test_hards_deals_give_every_other_seat_its_hand_of_unseen_cards_none_of_a_suit_it_lacks():
    """At every view of random games, each deal gives every other seat as many cards as it holds, all
    of them cards the seat cannot see, no card twice and none of a suit the seat has shown it lacks;
    some of those views have a seat lacking a suit."""
    rng = random.Random(5)
    lacking_seen = 0
    for game in range(20):
        state = RULES.new_game(4, game)
        memory = bot.Memory()
        while RULES.result(state) is None:
            view = RULES.view(state, 0)
            memory.see(view)
            voids = memory.voids(view)
            lacking_seen += any(voids[seat] for seat in range(1, 4))
            deal = bot.dealing(view, memory)
            unseen = set(STANDARD_DECK) - bot.out_of_play(view, memory)
            for _ in range(3):
                hands = deal(rng)
                assert hands is not None
                assert hands[0] == view["hand"]
                dealt = [card for hand in hands[1:] for card in hand]
                assert len(dealt) == len(set(dealt)) and set(dealt) <= unseen
                for seat in range(1, 4):
                    assert len(hands[seat]) == view["hand_sizes"][seat]
                    assert not any(card[1] in voids[seat] for card in hands[seat])
            seat = state["turn"]
            state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    assert lacking_seen
