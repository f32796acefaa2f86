"""Zero Game, one test per line of docs/rules/zero_game.md, on stacked decks; then random playouts."""

from __future__ import annotations

import pytest

from tests.games.playouts import random_playout, seeds_and_players
from tests.games.stacking import deck_dealing
from zerogames.games import GAMES, IllegalAction
from zerogames.games.cards import STANDARD_DECK

RULES = GAMES["zero_game"]


def game(players=3, dealer=0, hands=None, trump=(), schedule=None, more_decks=()):
    """A game whose first round deals `hands` (by seat) and then turns up `trump`."""
    options = {"dealer": dealer}
    if schedule is not None:
        options["schedule"] = schedule
    if hands is not None:
        first = (dealer + 1) % players
        options["decks"] = [deck_dealing(hands, first, STANDARD_DECK, then=trump), *more_decks]
    return RULES.new_game(players, seed=7, options=options)


def act(state, seat, **action):
    kind = "bid" if "bid" in action else "play"
    return RULES.apply(state, seat, {"type": kind, **action})


def bids(state, amounts):
    """Everyone bids in order, from the dealer's left."""
    for amount in amounts:
        state = act(state, state["turn"], bid=amount)
    return state


# Set-up


def test_round_r_deals_n_minus_r_plus_1_cards():
    state = RULES.new_game(5, seed=3)
    sizes = []
    while RULES.result(state) is None:
        sizes.append(len(state["hands"][0]))
        seat = state["turn"]
        state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
        while state["phase"] == "play" or any(b is None for b in state["bids"]):
            if RULES.result(state) is not None or (
                state["phase"] == "bid" and state["trick"] == () and all(b is None for b in state["bids"])
            ):
                break
            seat = state["turn"]
            state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
    assert sizes == [5, 4, 3, 2, 1]


def test_deal_is_one_card_at_a_time_from_the_dealers_left():
    deck = list(STANDARD_DECK)
    state = RULES.new_game(3, seed=1, options={"dealer": 1, "decks": [deck]})
    # Seat 2 is left of dealer 1 and gets the top card, then seat 0, then seat 1.
    assert set(state["hands"][2]) == {deck[0], deck[3], deck[6]}
    assert set(state["hands"][0]) == {deck[1], deck[4], deck[7]}
    assert set(state["hands"][1]) == {deck[2], deck[5], deck[8]}


def test_first_dealer_is_drawn_from_the_seed_and_the_option_overrides_it():
    drawn = {RULES.new_game(4, seed=s)["dealer"] for s in range(30)}
    assert len(drawn) > 1
    assert RULES.new_game(4, seed=5)["dealer"] == RULES.new_game(4, seed=5)["dealer"]
    assert RULES.new_game(4, seed=5, options={"dealer": 2})["dealer"] == 2


def test_the_card_after_the_deal_is_the_trump_card():
    state = game(hands=[["2C", "3C", "4C"], ["2D", "3D", "4D"], ["2H", "3H", "4H"]], trump=["AS"])
    assert RULES.view(state, 0)["trump"] == "AS"


def test_no_card_left_means_no_trump():
    state = RULES.new_game(4, seed=2, options={"schedule": [13]})
    assert RULES.view(state, 0)["trump"] is None
    assert all(len(hand) == 13 for hand in state["hands"])


def test_a_stacked_deck_must_hold_every_card_once():
    with pytest.raises(ValueError):
        RULES.new_game(3, seed=1, options={"decks": [list(STANDARD_DECK[:-1]) + ["2C"]]})


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        RULES.new_game(2, seed=1)
    with pytest.raises(ValueError):
        RULES.new_game(4, seed=1, options={"schedule": [14]})
    with pytest.raises(ValueError):
        RULES.new_game(4, seed=1, options={"dealer": 4})
    with pytest.raises(ValueError):
        RULES.new_game(4, seed=1, options={"colour": "red"})


# Bidding


def test_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last():
    state = game(players=4, dealer=2)
    order = []
    while state["phase"] == "bid":
        order.append(state["turn"])
        state = act(state, state["turn"], bid=RULES.legal_actions(state, state["turn"])[0]["bid"])
    assert order == [3, 0, 1, 2]


def test_a_bid_is_a_whole_number_from_zero_to_the_hand_size():
    state = game(players=3, dealer=0)
    assert [a["bid"] for a in RULES.legal_actions(state, 1)] == [0, 1, 2, 3]
    for bad in (-1, 4, 1.5, "2", True):
        with pytest.raises(IllegalAction):
            act(state, 1, bid=bad)


def test_dealer_may_not_make_bids_sum_to_cards():
    state = bids(game(players=3, dealer=0), [1, 1])
    assert [a["bid"] for a in RULES.legal_actions(state, 0)] == [0, 2, 3]
    with pytest.raises(IllegalAction, match="hook"):
        act(state, 0, bid=1)


def test_hook_does_not_restrict_when_the_forbidden_amount_is_out_of_range():
    state = bids(game(players=3, dealer=0), [3, 2])
    assert [a["bid"] for a in RULES.legal_actions(state, 0)] == [0, 1, 2, 3]


def test_every_bid_is_public_at_once():
    state = bids(game(players=3, dealer=0), [2])
    assert RULES.view(state, 2)["bids"] == [None, 2, None]
    assert RULES.view(state, None)["bids"] == [None, 2, None]


# Play

HANDS = [["2C", "9H", "AS"], ["KC", "3H", "4D"], ["5C", "QH", "2S"]]


def test_the_player_left_of_the_dealer_leads_the_first_trick():
    state = bids(game(hands=HANDS, trump=["7D"]), [0, 0, 0])
    assert state["phase"] == "play" and state["turn"] == 1


def test_a_player_holding_the_led_suit_must_follow():
    state = bids(game(hands=HANDS, trump=["7D"]), [0, 0, 0])
    state = act(state, 1, card="3H")
    assert [a["card"] for a in RULES.legal_actions(state, 2)] == ["QH"]
    with pytest.raises(IllegalAction, match="follow suit"):
        act(state, 2, card="5C")


def test_a_player_without_the_led_suit_may_play_any_card():
    hands = [["2C", "9C", "AS"], ["KH", "3H", "4D"], ["5C", "QC", "2S"]]
    state = bids(game(hands=hands, trump=["7D"]), [0, 0, 0])
    state = act(state, 1, card="3H")
    assert {a["card"] for a in RULES.legal_actions(state, 2)} == {"5C", "QC", "2S"}


def test_the_highest_trump_wins_the_trick():
    hands = [["2D", "9C", "AS"], ["KH", "3H", "4D"], ["5C", "QC", "3D"]]
    state = bids(game(hands=hands, trump=["7D"]), [0, 0, 0])
    state = act(state, 1, card="KH")
    state = act(state, 2, card="3D")
    state = act(state, 0, card="2D")
    assert state["last_trick"]["winner"] == 2
    assert state["tricks"] == (0, 0, 1)


def test_without_trump_the_highest_card_of_the_suit_led_wins():
    hands = [["2H", "9C", "AS"], ["TH", "3H", "4D"], ["AC", "QC", "3C"]]
    state = bids(game(hands=hands, trump=["7D"]), [0, 0, 0])
    state = act(state, 1, card="TH")
    state = act(state, 2, card="AC")
    state = act(state, 0, card="2H")
    assert state["last_trick"]["winner"] == 1


def test_the_trick_winner_leads_the_next_trick():
    hands = [["2D", "9C", "AS"], ["KH", "3H", "4D"], ["5C", "QC", "3D"]]
    state = bids(game(hands=hands, trump=["7D"]), [0, 0, 0])
    for seat, card in ((1, "KH"), (2, "3D"), (0, "2D")):
        state = act(state, seat, card=card)
    assert state["turn"] == 2
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 0, card="9C")


def test_a_card_not_in_hand_is_refused():
    state = bids(game(hands=HANDS, trump=["7D"]), [0, 0, 0])
    with pytest.raises(IllegalAction, match="do not hold"):
        act(state, 1, card="AS")


def test_a_finished_trick_stays_visible_until_the_next_card_even_through_the_next_bidding():
    hands = [["2D"], ["KH"], ["5C"]]
    state = bids(game(hands=hands, trump=["7D"], schedule=[1, 1]), [0, 0, 0])
    for seat, card in ((1, "KH"), (2, "5C"), (0, "2D")):
        state = act(state, seat, card=card)
    view = RULES.view(state, 2)
    assert view["round"] == 2 and view["phase"] == "bid"
    assert view["last_trick"] == {"cards": [[1, "KH"], [2, "5C"], [0, "2D"]], "winner": 0}
    state = bids(state, [0, 0, 0])
    state = act(state, state["turn"], card=state["hands"][state["turn"]][0])
    assert RULES.view(state, 2)["last_trick"] is None


# Scoring and end


def test_exact_bid_scores_ten_plus_bid_and_a_miss_scores_nothing():
    hands = [["2D"], ["KH"], ["5C"]]
    # In bidding order: seat 1 bids 0, seat 2 bids 1, dealer 0 bids 1.
    state = bids(game(hands=hands, trump=["7D"], schedule=[1]), [0, 1, 1])
    for seat, card in ((1, "KH"), (2, "5C"), (0, "2D")):
        state = act(state, seat, card=card)
    # Seat 0 trumped and won its 1; seat 1 won its 0; seat 2 missed its 1.
    assert RULES.scores(state) == [11, 10, 0]
    assert RULES.view(state, None)["last_round"]["points"] == [11, 10, 0]


def test_the_dealer_moves_one_seat_left_every_round():
    state = game(players=3, dealer=2, schedule=[1, 1, 1])
    dealers = []
    while RULES.result(state) is None:
        if state["phase"] == "bid" and all(b is None for b in state["bids"]):
            dealers.append(state["dealer"])
        seat = state["turn"]
        state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
    assert dealers == [2, 0, 1]


def test_the_game_ends_after_the_schedules_last_round():
    state = game(players=3, schedule=[2, 1])
    rounds = 0
    while RULES.result(state) is None:
        seat = state["turn"]
        state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
        rounds = len(state["history"])
    assert rounds == 2
    assert RULES.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        RULES.apply(state, 0, {"type": "bid", "bid": 0})


def test_equal_highest_scores_all_win():
    hands = [["2D"], ["KH"], ["5C"]]
    # No trump in the trick: seat 1's led heart wins.
    state = bids(game(hands=hands, trump=["7S"], schedule=[1]), [1, 0, 1])
    for seat, card in ((1, "KH"), (2, "5C"), (0, "2D")):
        state = act(state, seat, card=card)
    assert RULES.result(state) == {"scores": [0, 11, 10], "winners": [1]}
    state = bids(game(hands=hands, trump=["7S"], schedule=[1]), [0, 0, 0])
    for seat, card in ((1, "KH"), (2, "5C"), (0, "2D")):
        state = act(state, seat, card=card)
    assert RULES.result(state)["winners"] == [0, 2]


# What each seat may see


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others():
    state = game(hands=HANDS, trump=["7D"])
    view = RULES.view(state, 0)
    assert view["hand"] == sorted(HANDS[0], key=lambda c: ("CDHS".index(c[1]), "23456789TJQKA".index(c[0])))
    assert view["hand_sizes"] == [3, 3, 3]
    assert "KC" not in str(view) and "QH" not in str(view)
    assert RULES.view(state, None)["hand"] == []


# Random playouts


def cards_of(state):
    return [
        *(c for hand in state["hands"] for c in hand),
        *(c for _, c in state["trick"]),
        *state["played"],
        *state["stock"],
    ]


def secret(state, seat):
    """Other hands and the deck, less what earlier rounds showed face up (now shuffled back in)."""
    hidden = {c for other, hand in enumerate(state["hands"]) if other != seat for c in hand}
    hidden |= set(state["stock"][1:])
    shown_before = {r["trump"] for r in state["history"]}
    if state["last_trick"]:
        shown_before |= {card for _, card in state["last_trick"]["cards"]}
    return hidden - shown_before


@pytest.mark.parametrize(("seed", "players"), seeds_and_players(RULES))
def test_random_playouts_keep_every_invariant(seed, players):
    random_playout(RULES, players, seed, deck=STANDARD_DECK, cards_of=cards_of, secret=secret)
