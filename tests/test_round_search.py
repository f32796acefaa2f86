"""Zero Game Hard's search: its lean copy of a round's rules moves in lockstep with the engine, and its
tree makes the moves a round plainly calls for."""

from __future__ import annotations

import random

from zerogames.bots import Bot
from zerogames.games import GAMES, round_search
from zerogames.games.cards import STANDARD_DECK
from zerogames.games.zero_game.rules import BIDS, PLAYS

RULES = GAMES["zero_game"]
ROUNDS = 3000


def lean(state: dict) -> round_search.Round:
    """The engine's round as the search's copy of it."""
    trump = state["stock"][0][1] if state["stock"] else None
    return round_search.Round(
        [list(hand) for hand in state["hands"]],
        trump,
        state["dealer"],
        state["schedule"][state["round"]],
        list(state["bids"]),
        list(state["tricks"]),
        list(state["trick"]),
        state["turn"],
    )


def listed(state: dict) -> list:
    return [
        action["bid"] if action["type"] == "bid" else action["card"]
        for action in RULES.legal_actions(state, state["turn"])
    ]


def test_the_lean_round_agrees_with_the_engine_on_every_move_of_thousands_of_random_rounds():
    """Every legal set, turn, trick count and the points, after every move, from 3 to 7 players and 1 to
    the most cards each, with and without a trump card."""
    rng = random.Random(0)
    for game in range(ROUNDS):
        players = 3 + game % 5
        cards = 1 + game % (52 // players)
        state = RULES.new_game(players, game, {"schedule": [cards]})
        copy = lean(state)
        while state["phase"] != "over":
            assert sorted(copy.legal(), key=str) == sorted(listed(state), key=str)
            assert (copy.turn, copy.bids, copy.tricks) == (
                state["turn"],
                list(state["bids"]),
                list(state["tricks"]),
            )
            assert not copy.over()
            action = rng.choice(RULES.legal_actions(state, state["turn"]))
            state = RULES.perform(state, state["turn"], action, 0.0)
            copy.move(action["bid"] if action["type"] == "bid" else action["card"])
        assert copy.over()
        assert copy.tricks == list(state["tricks"])
        assert copy.points() == list(state["history"][-1]["points"])


def stacked(*first: str) -> list[str]:
    """A deck whose top cards are `first` (dealt one at a time from the dealer's left), the rest after."""
    return [*first, *(card for card in STANDARD_DECK if card not in first)]


def test_hard_ducks_under_the_table_with_its_zero_bid_and_takes_the_trick_a_bid_of_two_needs():
    """Seat 2 plays last to 9H and 3H holding the ace and the two of hearts: bidding nothing it ducks
    with the two; bidding two (the same cards otherwise), it takes the trick with the ace."""
    deck = stacked("9H", "3H", "AH", "KC", "4C", "2H", "2D")
    for bid, wanted in [(0, "2H"), (2, "AH")]:
        state = RULES.new_game(3, 0, {"schedule": [2], "dealer": 2, "decks": [deck]})
        bot = Bot("zero_game", "hard")
        bot.see(RULES.view(state, 2))
        moves = [(0, BIDS[1]), (1, BIDS[0]), (2, BIDS[bid]), (0, PLAYS["9H"]), (1, PLAYS["3H"])]
        for seat, action in moves:
            state = RULES.apply(state, seat, action)
            bot.see(RULES.view(state, 2))
        action = bot.choose(RULES.view(state, 2), RULES.legal_actions(state, 2), random.Random(1))
        assert action == {"type": "play", "card": wanted}


def test_a_play_out_aimed_at_the_bid_ducks_once_it_is_made_and_wins_cheaply_when_short_of_it():
    """Seat 2 plays last to 9H (the trick is seat 1's with 10H) holding AH, JH, 8H and 2H: with its bid
    made it sheds the highest card that loses, 8H; short of it, the cheapest card that takes the
    trick, JH. Leading, it plays its highest card short of its bid, else its lowest."""
    hands = [["5C"], ["6C"], ["AH", "JH", "8H", "2H"]]
    for bid, wanted in [(0, "8H"), (1, "JH")]:
        table = round_search.Round(hands, "S", 2, 4, [0, 0, bid], [0, 0, 0], [(0, "9H"), (1, "TH")], 2)
        assert table.sensible(table.legal()) == wanted
    for bid, wanted in [(0, "2H"), (1, "AH")]:
        lead = round_search.Round(
            [["5C"], ["6C"], ["AH", "JH", "2H"]], "S", 1, 3, [0, 0, bid], [0, 0, 0], [], 2
        )
        assert lead.sensible(lead.legal()) == wanted


def test_another_seat_is_modelled_careful_by_how_much_its_bid_looks_like_a_careful_players():
    """Five players, five cards: a bid of one trick (its fair share) makes a seat likelier careful than
    the prior, a bid of all five (what only a random bidder makes) all but surely random."""
    fair, greedy = round_search.careful(1, 5, 5), round_search.careful(5, 5, 5)
    assert greedy < 0.01 < round_search.CAREFUL < fair
    assert round_search.careful(None, 5, 5) == round_search.CAREFUL


def test_a_careful_bid_is_the_tricks_the_hand_looks_good_for_the_nearest_the_hook_allows():
    """Trumps are spades, three cards each. The ace and king of trumps look good for two tricks, three
    low diamonds for none, and the ace of clubs for one: the dealer, after bids of two and nothing, is
    barred from one by the hook and bids nothing (the lower of the two nearest)."""
    hands = [["AS", "KS", "2C"], ["4D", "5D", "6D"], ["AC", "4C", "5C"]]
    table = round_search.Round(hands, "S", 2, 3, [None, None, None], [0, 0, 0], [], 0)
    for _ in range(3):
        table.move(round_search.careful_bid(table.hands[table.turn], "S", table.legal()))
    assert table.bids == [2, 0, 0]


def test_in_the_search_another_seat_bids_carefully_as_often_as_careful_says_else_at_random():
    """The ace and king of trumps look good for two of three tricks: over 4,000 of the search's bids
    for that seat, two comes CAREFUL of the time and a quarter of the rest (a random bid of four)."""
    table = round_search.Round([["AS", "KS", "2C"], ["4D"], ["4C"]], "S", 2, 3, [None] * 3, [0] * 3, [], 0)
    rng = random.Random(3)
    bids = [round_search.other_move(table, table.legal(), rng) for _ in range(4000)]
    expected = round_search.CAREFUL + (1 - round_search.CAREFUL) / 4
    assert abs(bids.count(2) / len(bids) - expected) < 0.03
