"""Zero Game's bots: Easy bids what its hand looks good for and plays to that bid by plain rules;
Normal plays to its bid exactly, from what its seat has seen; Hard deals the unseen cards as the seat
has seen them fall, and as the other seats' bids say they likely lie."""

from __future__ import annotations

import random
from collections.abc import Callable

from zerogames.bots import Bot
from zerogames.games import GAMES
from zerogames.games.cards import STANDARD_DECK
from zerogames.games.round_search import strength
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
            # Normal's deals, and Hard's, which read the bids.
            deals = [bot.dealing(view, memory), bot.dealing(view, memory, bot.reading_bids(view, memory))]
            unseen = set(STANDARD_DECK) - bot.out_of_play(view, memory)
            for deal in deals * 3:
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


def test_hard_deals_a_seat_that_bid_two_a_stronger_hand_than_the_seats_that_bid_nothing():
    """Five cards each; seats 0 to 3 bid 2, 0, 0 and 1, and the dealer (seat 4) is to bid. Over the
    2,000 rounds Hard's search plays out, the hand seat 0 is dealt looks good for about a trick more
    than the hands of seats 1 and 2 (a careful player's count of them); dealt without reading the
    bids (Normal's deals), alike."""
    state = RULES.new_game(5, 3, {"schedule": [5], "dealer": 4})
    for seat, bid in [(0, 2), (1, 0), (2, 0), (3, 1)]:
        state = RULES.apply(state, seat, {"type": "bid", "bid": bid})
    view = RULES.view(state, 4)
    memory = bot.Memory()
    memory.see(view)
    trump = view["trump"][1]
    rng = random.Random(1)

    def looks_good_for(deal: Callable[[], list[list[str]]]) -> list[float]:
        """Seats 0, 1 and 2's hands over 2,000 deals: the tricks each looks good for, on the mean."""
        hands = [deal() for _ in range(2000)]
        counted = [[strength(card, trump) for hand in hands for card in hand[seat]] for seat in (0, 1, 2)]
        return [sum(cards) / len(hands) for cards in counted]

    searched = bot.rounds_now(view, memory, rng)
    bid_two, *bid_nothing = looks_good_for(lambda: searched().hands)
    assert all(bid_two - hand > 0.6 for hand in bid_nothing)
    unread = bot.dealing(view, memory)
    bid_two, *bid_nothing = looks_good_for(lambda: unread(rng))
    assert all(abs(bid_two - hand) < 0.2 for hand in bid_nothing)


def test_easy_bids_the_tricks_its_hand_looks_good_for():
    """Spades are trumps; seat 0 holds the ace and king of trumps and a low club: it bids two."""
    deck = stacked("AS", "4D", "4C", "KS", "5D", "5C", "2C", "6D", "6C", "2S")
    state = RULES.new_game(3, 0, {"schedule": [3], "dealer": 2, "decks": [deck]})
    view = RULES.view(state, 0)
    assert sorted(view["hand"]) == ["2C", "AS", "KS"]
    assert view["trump"] == "2S"
    action = bot.choose(view, RULES.legal_actions(state, 0), "easy", random.Random(1))
    assert action == {"type": "bid", "bid": 2}


def test_easy_takes_a_trick_it_needs_with_its_cheapest_winner_and_ducks_one_it_does_not_under_its_highest():
    """Seat 0 leads the five of hearts to seat 1's two, four, nine and king of hearts. Short of its bid
    of one, Easy takes the trick with the nine, its cheapest winner; having bid nothing, it plays the
    four under the five, and keeps the two, the card likeliest to lose a later trick."""
    deck = stacked("5H", "2H", "2D", "3C", "4H", "3D", "4C", "9H", "4D", "6C", "KH", "5D", "2S")
    for bid, card in [(1, "9H"), (0, "4H")]:
        state = RULES.new_game(3, 0, {"schedule": [4], "dealer": 2, "decks": [deck]})
        for seat, each in [(0, 0), (1, bid), (2, 0)]:
            state = RULES.apply(state, seat, {"type": "bid", "bid": each})
        state = RULES.apply(state, 0, {"type": "play", "card": "5H"})
        action = bot.choose(RULES.view(state, 1), RULES.legal_actions(state, 1), "easy", random.Random(1))
        assert action == {"type": "play", "card": card}
