"""Cabo, one test per line of docs/rules/cabo.md, on stacked decks; then random playouts."""

from __future__ import annotations

import pytest

from tests.games.playouts import random_pick, random_playout, seeds_and_players, strings_in
from tests.games.stacking import deck_dealing
from zerogames.games import GAMES, IllegalAction
from zerogames.games.cards import STANDARD_DECK, shuffle

RULES = GAMES["cabo"]

# Three players; the dealer is seat 2, so seat 0 takes the first turn.
HANDS = [
    ["AC", "3C", "4C", "6C"],  # total 14
    ["5D", "6D", "9D", "TD"],  # total 30
    ["2H", "2S", "2D", "7C"],  # total 13
]
PILE = "8H"
LATER = 100.0  # a moment when every opening sighting has long expired


def game(hands=HANDS, pile=PILE, deck=(), dealer=None, refills=(), **options):
    """A game whose first round deals `hands` (by seat), turns up `pile`, and has `deck` on top."""
    players = len(hands)
    dealer = players - 1 if dealer is None else dealer
    order = deck_dealing(hands, (dealer + 1) % players, STANDARD_DECK, then=[pile, *deck])
    return RULES.new_game(players, seed=7, options={"dealer": dealer, "decks": [order, *refills], **options})


def act(state, who, kind, now=0.0, **fields):
    return RULES.apply(state, who, {"type": kind, **fields}, now)


def refused(state, who, kind, match, now=0.0, **fields):
    with pytest.raises(IllegalAction, match=match):
        act(state, who, kind, now, **fields)


def view(state, seat, now=LATER):
    return RULES.view(state, seat, now)


def ready(state, now=0.0):
    """Everyone peeks at slots 0 and 1."""
    for seat in range(state["players"]):
        state = act(state, seat, "peek", now, slots=[0, 1])
    return state


def started(hands=HANDS, **kwargs):
    return ready(game(hands, **kwargs))


def draw_and_discard(state, now=LATER):
    """The player to move draws and discards, skipping any power."""
    seat = state["turn"]
    state = act(act(state, seat, "draw", now), seat, "discard", now)
    return act(state, seat, "skip", now) if state["step"] == "power" else state


def call_and_finish(state, now=LATER):
    """The player to move calls Cabo; everyone else draws and discards their final turn."""
    state = act(state, state["turn"], "cabo", now)
    while state["phase"] == "play":
        state = draw_and_discard(state, now)
    return state


def discarded(card, hands=HANDS, deck=(), now=LATER, **kwargs):
    """Seat 0 draws `card` and discards it: its power is to be used, or the window is open."""
    state = started(hands, deck=[card, *deck], **kwargs)
    return act(act(state, 0, "draw", now), 0, "discard", now)


def faces(state, now=LATER):
    """Every card code in any seat's or the spectator's view."""
    return set().union(*(strings_in(view(state, seat, now)) for seat in [*range(state["players"]), None]))


# Set-up


def test_two_to_six_players():
    for players in (1, 7):
        with pytest.raises(ValueError):
            RULES.new_game(players, seed=1)
    for players in range(2, 7):
        assert len(RULES.new_game(players, seed=1)["hands"]) == players


def test_first_dealer_is_drawn_from_the_seed_and_the_option_overrides_it():
    drawn = {RULES.new_game(4, seed=s)["dealer"] for s in range(30)}
    assert len(drawn) > 1
    assert RULES.new_game(4, seed=5)["dealer"] == RULES.new_game(4, seed=5)["dealer"]
    assert RULES.new_game(4, seed=5, options={"dealer": 2})["dealer"] == 2


def test_the_dealer_moves_one_seat_left_every_round():
    state = started(deck=["4D", "4H", "4S", "5S"])
    assert view(state, 0)["dealer"] == 2
    state = call_and_finish(state)
    assert view(state, 0)["dealer"] == 0 and view(state, 0)["round"] == 2


def test_each_round_is_a_new_deal_from_the_next_shuffle():
    second = list(reversed(STANDARD_DECK))
    state = call_and_finish(started(deck=["4D", "4H"], refills=[second]))
    # Dealer 0 now: seat 1 gets the top card of the second stacked deck.
    assert state["hands"][1] == tuple(second[0:12:3])
    assert view(state, 0)["discard"] == second[12] and view(state, 0)["deck"] == 52 - 13
    # With the stacked decks used up, the third round's shuffle is the seeded one.
    state = call_and_finish(ready(state))
    assert state["hands"][2] == shuffle(STANDARD_DECK, 7, 2, ())[0:12:3]


def test_the_player_left_of_the_dealer_takes_the_first_turn():
    assert started(dealer=0)["turn"] == 1
    assert started(dealer=2)["turn"] == 0


def test_card_values():
    hands = [
        ["AC", "2D", "TH", "JS"],  # 1 + 2 + 10 + 11
        ["QS", "KS", "KC", "KH"],  # 12 + 13 + 13 - 1
        ["KD", "5C", "9D", "3S"],  # -1 + 5 + 9 + 3
        ["6H", "7D", "8C", "4S"],  # 6 + 7 + 8 + 4
    ]
    state = call_and_finish(started(hands, deck=["4D", "4H", "5H"]))
    assert view(state, 0)["last_round"]["totals"] == [24, 37, 16, 25]


def test_four_cards_each_one_at_a_time_from_the_dealers_left_slot_k_holding_the_k_plus_first():
    deck = list(STANDARD_DECK)
    state = RULES.new_game(3, seed=1, options={"dealer": 1, "decks": [deck]})
    # Seat 2 is left of dealer 1 and gets the top card, then seat 0, then seat 1.
    assert state["hands"] == (
        tuple(deck[1:12:3]),
        tuple(deck[2:12:3]),
        tuple(deck[0:12:3]),
    )


def test_the_next_card_starts_the_discard_pile_and_the_rest_is_the_deck_top_first():
    deck = list(STANDARD_DECK)
    state = ready(RULES.new_game(3, seed=1, options={"dealer": 1, "decks": [deck]}))
    assert view(state, 0)["discard"] == deck[12]
    assert view(state, 0)["deck"] == 52 - 13
    state = act(state, 2, "draw")
    assert view(state, 2)["drawn"] == deck[13]
    state = act(act(state, 2, "discard"), 0, "draw")
    assert view(state, 0)["drawn"] == deck[14]


def test_the_first_card_of_the_discard_pile_opens_no_snap_window():
    state = started(pile="2C")
    assert not view(state, 2)["snap_window"]
    assert RULES.legal_actions(state, 2) == []
    refused(state, 2, "snap", "Too late", slot=0)


def test_opening_peeks_show_each_player_their_two_picked_cards_all_at_the_same_moment():
    state = act(game(), 0, "peek", 1.0, slots=[0, 2])
    state = act(state, 1, "peek", 2.0, slots=[3, 1])
    assert view(state, 0, 2.0)["hand"] == [None] * 4
    assert view(state, 1, 2.0)["ready"] == [True, True, False] and view(state, 1, 2.0)["to_act"] == [2]
    state = act(state, 2, "peek", 5.0, slots=[0, 1])
    assert view(state, 0, 5.0)["hand"] == ["AC", None, "4C", None]
    assert view(state, 1, 5.0)["hand"] == [None, "6D", None, "TD"]
    assert view(state, 2, 5.0)["hand"] == ["2H", "2S", None, None]
    assert view(state, 0, 5.0)["hands"][1] == [None] * 4
    assert view(state, 0, 5.0)["seen_until"] == [[0, 0, 8.0], [0, 2, 8.0]]
    assert view(state, 1, 5.0)["seen_until"] == [[1, 1, 8.0], [1, 3, 8.0]]


def test_a_peek_picks_two_different_own_slots_once():
    state = game()
    for bad in ([0], [0, 0], [1, 4], [0, 1, 2], "01", [True, 1]):
        refused(state, 0, "peek", "two different", slots=bad)
    state = act(state, 0, "peek", slots=[2, 3])
    refused(state, 0, "peek", "already", slots=[0, 1])


def test_the_first_turn_starts_when_the_whole_table_is_ready():
    state = act(act(game(), 0, "peek", slots=[0, 1]), 1, "peek", slots=[0, 1])
    assert view(state, 0)["phase"] == "peek" and view(state, 0)["turn"] is None
    refused(state, 0, "draw", "Wait until everyone")
    state = act(state, 2, "peek", slots=[0, 1])
    assert view(state, 0)["phase"] == "play" and view(state, 0)["turn"] == 0
    assert RULES.legal_actions(state, 0) == [
        {"type": "draw"},
        *({"type": "take", "slot": slot} for slot in range(4)),
        {"type": "cabo"},
    ]


# A turn


def test_a_drawn_card_is_seen_by_the_drawer_only():
    state = act(started(deck=["5S"]), 0, "draw")
    assert view(state, 0)["drawn"] == "5S"
    for seat in (1, 2, None):
        assert view(state, seat)["drawn"] is None
        assert view(state, seat)["drawing"] == 0
        assert "5S" not in strings_in(view(state, seat))


def test_keep_swaps_the_drawn_card_in_and_the_old_card_goes_face_up_onto_the_pile():
    state = act(act(started(deck=["5S"]), 0, "draw", 10.0), 0, "keep", 20.0, slot=2)
    assert state["hands"][0] == ("AC", "3C", "5S", "6C")
    assert view(state, 1)["discard"] == "4C"
    assert view(state, 1)["last"] == {"seat": 0, "type": "keep", "slot": 2, "discarded": "4C"}
    assert view(state, 1)["turn"] == 1


def test_discard_puts_the_drawn_card_face_up_onto_the_pile():
    state = act(act(started(deck=["5S"]), 0, "draw"), 0, "discard")
    assert state["hands"][0] == tuple(HANDS[0])
    assert view(state, 2)["discard"] == "5S" and view(state, 2)["discards"] == 2
    assert view(state, 2)["turn"] == 1


def test_take_swaps_the_top_discard_in_seen_by_all_and_the_old_card_goes_onto_the_pile():
    state = act(started(pile="AH"), 0, "take", 10.0, slot=3)
    assert state["hands"][0] == ("AC", "3C", "4C", "AH")
    for seat in (0, 1, 2, None):
        assert view(state, seat, 10.0)["hands"][0][3] == "AH"
        assert view(state, seat, 10.0)["discard"] == "6C"
    assert view(state, 1, 10.0)["last"] == {
        "seat": 0,
        "type": "take",
        "slot": 3,
        "card": "AH",
        "card_until": 13.0,
        "discarded": "6C",
    }


def test_a_card_taken_from_the_discard_pile_never_fires_a_power():
    state = act(started(pile="QS"), 0, "take", slot=0)
    assert state["power"] is None and state["turn"] == 1 and state["step"] == "start"


def test_cabo_may_be_called_if_nobody_has_called_it_this_round():
    state = act(started(), 0, "cabo")
    assert view(state, 2)["caller"] == 0 and state["turn"] == 1
    assert {"type": "cabo"} not in RULES.legal_actions(state, 1)
    refused(state, 1, "cabo", "already been called")


def test_a_turn_goes_draw_then_keep_or_discard_and_only_on_ones_turn():
    state = started(deck=["5S"])
    refused(state, 1, "draw", "not your turn")
    refused(state, 0, "keep", "Start your turn", slot=0)
    refused(state, 0, "discard", "Start your turn")
    state = act(state, 0, "draw")
    assert RULES.legal_actions(state, 0) == [
        *({"type": "keep", "slot": slot} for slot in range(4)),
        {"type": "discard"},
    ]
    refused(state, 0, "draw", "Keep the card you drew")
    refused(state, 0, "take", "Keep the card you drew", slot=0)
    refused(state, 0, "keep", "own slots", slot=[1, 0])
    refused(state, 0, "keep", "no such slot", slot=4)


# Powers


@pytest.mark.parametrize("card", ["7S", "8S"])
def test_seven_and_eight_look_at_one_of_your_own_cards(card):
    state = discarded(card)
    assert view(state, 1)["power"] == {
        "seat": 0,
        "card": card,
        "looks": 1,
        "reach": "own",
        "swap": False,
        "looked": None,
    }
    assert RULES.legal_actions(state, 0) == [
        *({"type": "look", "seat": 0, "slot": slot} for slot in range(4)),
        {"type": "skip"},
    ]
    refused(state, 0, "look", "your own", seat=1, slot=0)
    state = act(state, 0, "look", 50.0, slot=3)
    assert view(state, 0, 50.0)["hand"] == [None, None, None, "6C"]
    assert view(state, 1, 50.0)["hands"][0] == [None] * 4
    assert state["turn"] == 1 and state["power"] is None


@pytest.mark.parametrize("card", ["9S", "TS"])
def test_nine_and_ten_look_at_one_card_of_an_opponent(card):
    state = discarded(card)
    refused(state, 0, "look", "another player", seat=0, slot=0)
    state = act(state, 0, "look", 50.0, seat=1, slot=2)
    assert view(state, 0, 50.0)["hands"][1] == [None, None, "9D", None]
    assert view(state, 1, 50.0)["hand"] == [None] * 4
    assert state["turn"] == 1


def test_a_jack_swaps_any_two_cards_on_the_board_unseen():
    state = discarded("JS")
    legal = RULES.legal_actions(state, 0)
    assert {"type": "look", "seat": 0, "slot": 0} not in legal and legal[-1] == {"type": "skip"}
    assert len(legal) == 12 * 11 // 2 + 1
    refused(state, 0, "look", "no look left", slot=0)
    state = act(state, 0, "swap", a=[0, 0], b=[1, 3])
    assert state["hands"][0][0] == "TD" and state["hands"][1][3] == "AC"
    assert "TD" not in faces(state) and "AC" not in faces(state)
    assert state["turn"] == 1


def test_a_queen_looks_at_any_one_card_then_may_swap_any_two():
    state = discarded("QS")
    refused(state, 0, "swap", "Look first", a=[0, 0], b=[1, 0])
    state = act(state, 0, "look", 50.0, seat=2, slot=3)
    assert view(state, 0, 50.0)["hands"][2][3] == "7C"
    assert view(state, 0)["power"]["looks"] == 0 and view(state, 0)["power"]["swap"]
    refused(state, 0, "look", "no look left", seat=2, slot=2)
    swapped = act(state, 0, "swap", 50.0, a=[2, 3], b=[0, 1])
    assert swapped["hands"][0][1] == "7C" and swapped["hands"][2][3] == "3C"
    assert swapped["turn"] == 1
    # The swap is optional.
    skipped = act(state, 0, "skip", 50.0)
    assert skipped["hands"] == state["hands"] and skipped["turn"] == 1


@pytest.mark.parametrize("card", ["KS", "KC"])
def test_a_black_king_looks_at_two_different_cards_then_may_swap_any_two(card):
    state = discarded(card)
    state = act(state, 0, "look", 50.0, seat=1, slot=0)
    assert state["turn"] == 0 and view(state, 0)["power"]["looks"] == 1
    assert {"type": "look", "seat": 1, "slot": 0} not in RULES.legal_actions(state, 0)
    refused(state, 0, "look", "two different", seat=1, slot=0)
    refused(state, 0, "swap", "Look first", a=[0, 0], b=[1, 0])
    state = act(state, 0, "look", 50.0, seat=0, slot=2)
    assert view(state, 0, 50.0)["hands"][1][0] == "5D" and view(state, 0, 50.0)["hand"][2] == "4C"
    state = act(state, 0, "swap", 50.0, a=[0, 2], b=[1, 0])
    assert state["hands"][0][2] == "5D" and state["hands"][1][0] == "4C"
    assert state["turn"] == 1


@pytest.mark.parametrize("card", ["KH", "KD", "AS", "2C", "5S", "6H"])
def test_red_kings_and_cards_up_to_six_have_no_power(card):
    state = discarded(card)
    assert state["power"] is None and state["turn"] == 1


def test_a_power_fires_only_for_a_card_drawn_from_the_deck_and_discarded_unkept():
    state = act(act(started(deck=["QS"]), 0, "draw"), 0, "keep", slot=0)
    assert state["power"] is None and state["turn"] == 1
    # The outgoing card landing on the pile is no drawn card either.
    state = act(
        act(started(deck=["5S"], hands=[["9C", *HANDS[0][1:]], *HANDS[1:]]), 0, "draw"), 0, "keep", slot=0
    )
    assert view(state, 1)["discard"] == "9C" and state["power"] is None


def test_a_swap_may_be_between_two_other_players_or_two_slots_of_one_player():
    state = act(discarded("JS", deck=["JC"]), 0, "swap", a=[1, 0], b=[2, 0])
    assert state["hands"][1][0] == "2H" and state["hands"][2][0] == "5D"
    state = act(act(act(state, 1, "draw"), 1, "discard"), 1, "swap", a=[2, 1], b=[2, 2])
    assert state["hands"][2] == ("5D", "2D", "2S", "7C")


def test_every_swap_is_public_which_two_slots_but_not_the_cards():
    state = act(discarded("JS"), 0, "swap", a=[1, 0], b=[2, 3])
    for seat in (0, 1, 2, None):
        assert view(state, seat)["last"] == {"seat": 0, "type": "swap", "a": [1, 0], "b": [2, 3]}
    assert faces(state) & set(STANDARD_DECK) == {"JS"}


def test_no_card_identity_survives_a_blind_swap():
    before = discarded("JS")
    after = act(before, 0, "swap", a=[1, 0], b=[2, 3])
    for seat in (0, 1, 2, None):
        old, new = view(before, seat), view(after, seat)
        assert old["hands"] == new["hands"] and old["seen_until"] == new["seen_until"]
        # The only cards any view names are the discard pile's top and the discarded jack.
        assert strings_in(new) & set(STANDARD_DECK) == {"JS"}


def test_looks_swaps_snaps_takes_and_keeps_never_target_an_emptied_slot():
    state = act(discarded("2C", deck=["JD"]), 2, "snap", slot=0)
    assert view(state, 1)["hands"][2][0] == "empty"
    refused(state, 1, "snap", "Too late", seat=2, slot=0)
    refused(state, 2, "snap", "Too late", slot=0)
    jack = act(act(state, 1, "draw"), 1, "discard")
    refused(jack, 1, "swap", "empty", a=[2, 0], b=[1, 0])
    assert {"type": "swap", "a": [2, 0], "b": [1, 0]} not in RULES.legal_actions(jack, 1)
    # Seat 2 plays next: it may neither take nor keep into its emptied slot, and nobody may look there.
    later = discarded("2C", deck=["QD", "QC"])
    later = act(later, 2, "snap", slot=0)
    later = act(act(act(later, 1, "draw"), 1, "discard"), 1, "skip")
    refused(later, 2, "take", "empty", slot=0)
    assert {"type": "take", "slot": 0} not in RULES.legal_actions(later, 2)
    drawn = act(later, 2, "draw")
    refused(drawn, 2, "keep", "empty", slot=0)
    queen = act(drawn, 2, "discard")
    refused(queen, 2, "look", "empty", seat=2, slot=0)
    assert {"type": "look", "seat": 2, "slot": 0} not in RULES.legal_actions(queen, 2)


# Snapping


def test_a_snap_window_opens_when_a_card_lands_face_up_and_shuts_when_the_next_player_starts():
    state = discarded("5S")
    assert view(state, 2)["snap_window"]
    assert {"type": "snap", "seat": 0, "slot": 0} in RULES.legal_actions(state, 2)
    shut = act(state, 1, "draw")
    assert not view(shut, 2)["snap_window"] and RULES.legal_actions(shut, 2) == []
    refused(shut, 2, "snap", "Too late: the snap window has shut", seat=1, slot=0)
    # A kept card's outgoing card, and a taken card's, open it too.
    assert act(shut, 1, "keep", slot=0)["window"]
    assert act(started(), 0, "take", slot=0)["window"]


def test_a_successful_snap_opens_the_window_too():
    # The window stays open across a hit, and the hit card is the new top discard.
    state = act(discarded("2C"), 2, "snap", slot=0)
    assert view(state, 0)["snap_window"] and view(state, 0)["discard"] == "2H"


def test_nobody_may_snap_while_a_power_is_being_resolved():
    state = started(deck=["2C", "9S"])
    state = act(act(state, 0, "draw"), 0, "discard")
    state = act(act(state, 1, "draw"), 1, "discard")
    assert state["step"] == "power" and state["window"]
    assert RULES.legal_actions(state, 2) == []
    refused(state, 2, "snap", "power", slot=0)


def test_any_player_may_snap_even_out_of_turn():
    state = discarded("2C")
    for seat in (0, 1, 2):
        assert any(action["type"] == "snap" for action in RULES.legal_actions(state, seat))
    assert act(state, 0, "snap", seat=2, slot=1)["handover"] == (0, 2, 1)


def test_own_slot_hit_the_card_goes_onto_the_pile_and_the_slot_stays_empty():
    state = act(discarded("2C"), 2, "snap", 50.0, slot=1)
    assert state["hands"][2] == ("2H", None, "2D", "7C")
    assert view(state, None)["discard"] == "2S"
    assert view(state, 0, 50.0)["last"] == {
        "seat": 2,
        "type": "snap",
        "target": [2, 1],
        "hit": True,
        "card": "2S",
    }
    assert view(state, 2)["hand"] == [None, "empty", None, None]
    # Empty for the rest of the round, through later turns.
    state = draw_and_discard(state)
    assert state["hands"][2][1] is None


def test_own_slot_miss_the_card_goes_back_seen_by_all_and_a_penalty_card_comes_in_a_new_slot():
    state = act(discarded("2C", deck=["QH"]), 2, "snap", 50.0, slot=3)
    assert state["hands"][2] == ("2H", "2S", "2D", "7C", "QH")
    for seat in (0, 1, 2, None):
        seen = view(state, seat, 50.0)
        assert seen["hands"][2] == [None, None, None, "7C", None]
        assert seen["last"]["hit"] is False and seen["last"]["card"] == "7C"
    assert view(state, 2, 50.0)["last"]["penalty_slot"] == 4
    assert "QH" not in faces(state, 50.0)


def test_opponent_slot_hit_the_card_goes_onto_the_pile_and_the_snapper_hands_one_over():
    state = act(discarded("2C"), 1, "snap", 50.0, seat=2, slot=2)
    assert state["hands"][2] == ("2H", "2S", None, "7C") and view(state, 0)["discard"] == "2D"
    assert view(state, 0)["handover"] == {"seat": 1, "to": [2, 2]}
    assert RULES.legal_actions(state, 1) == [{"type": "give", "slot": slot} for slot in range(4)]
    refused(state, 0, "give", "Wait", slot=0)
    state = act(state, 1, "give", 50.0, slot=3)
    assert state["hands"][1] == ("5D", "6D", "9D", None)
    assert state["hands"][2] == ("2H", "2S", "TD", "7C")
    assert view(state, 0)["last"] == {"seat": 1, "type": "give", "slot": 3, "to": [2, 2]}
    assert "TD" not in faces(state)
    assert view(state, 0)["snap_window"] and view(state, 0)["handover"] is None


def test_nobody_else_acts_until_the_hand_over_is_done():
    state = act(discarded("2C"), 0, "snap", seat=2, slot=0)
    assert RULES.legal_actions(state, 1) == [] and RULES.legal_actions(state, 2) == []
    assert view(state, 1)["to_act"] == [0] and view(state, 1)["turn"] == 1
    refused(state, 1, "draw", "handed over|filled")
    refused(state, 2, "snap", "Too late", slot=1)
    refused(state, 0, "snap", "Too late", seat=2, slot=1)


def test_opponent_slot_miss_the_card_goes_back_seen_by_all_and_the_snapper_takes_a_penalty_card():
    state = act(discarded("2C", deck=["QH"]), 0, "snap", 50.0, seat=1, slot=1)
    assert state["hands"][1] == tuple(HANDS[1])
    assert state["hands"][0] == ("AC", "3C", "4C", "6C", "QH")
    assert view(state, None, 50.0)["hands"][1] == [None, "6D", None, None]
    assert view(state, 0, 50.0)["hand"] == [None] * 5


def test_kings_match_kings_whatever_their_colour():
    hands = [["AC", "3C", "4C", "6C"], ["KS", "6D", "9D", "TD"], ["KC", "2S", "2D", "7C"]]
    state = discarded("KH", hands)
    state = act(state, 1, "snap", slot=0)
    assert state["last"]["hit"] and view(state, 0)["discard"] == "KS"
    state = act(state, 1, "snap", seat=2, slot=0)
    assert state["last"]["hit"] and view(state, 0)["discard"] == "KC"


def test_nobody_may_snap_away_their_own_last_card():
    state = discarded("2C")
    for slot in (0, 1, 2):
        state = act(state, 2, "snap", slot=slot)
    assert state["hands"][2] == (None, None, None, "7C")
    refused(state, 2, "snap", "last card", slot=3)
    assert RULES.legal_actions(state, 2) == []


def test_snapping_an_opponent_needs_at_least_two_cards_in_hand():
    state = discarded("2C")
    for slot in (0, 1, 2):
        state = act(state, 2, "snap", slot=slot)
    refused(state, 2, "snap", "at least two cards", seat=0, slot=0)


def test_snaps_chain_while_the_window_stays_open():
    state = discarded("2C", deck=["QH"])
    state = act(state, 2, "snap", slot=3)  # a miss
    state = act(state, 2, "snap", slot=0)  # a hit
    state = act(state, 1, "snap", seat=2, slot=1)  # a hit, handed over
    state = act(state, 1, "give", slot=0)
    state = act(state, 2, "snap", slot=2)  # a hit
    assert state["hands"][2] == (None, "5D", None, "7C", "QH")
    assert state["window"] and state["turn"] == 1


def test_two_snaps_at_the_same_moment_the_second_that_no_longer_fits_is_refused_as_late():
    state = act(discarded("2C"), 2, "snap", 50.0, slot=0)
    refused(state, 1, "snap", "Too late", 50.0, seat=2, slot=0)
    state = act(discarded("2C"), 1, "snap", 50.0, seat=2, slot=0)
    refused(state, 0, "snap", "Too late", 50.0, seat=2, slot=1)
    # The window having shut counts as late too.
    state = act(discarded("2C"), 1, "draw", 50.0)
    refused(state, 2, "snap", "Too late", 50.0, slot=0)


# Calling Cabo


def test_after_cabo_every_other_player_takes_exactly_one_final_turn_clockwise():
    state = act(started(dealer=0, deck=["4D", "4H", "5S"]), 1, "cabo")
    assert view(state, 0)["final_turns"] == [2, 0] and state["turn"] == 2
    state = draw_and_discard(state)
    assert view(state, 0)["final_turns"] == [0] and state["turn"] == 0
    state = draw_and_discard(state)
    assert view(state, 0)["round"] == 2 and view(state, 0)["last_round"]["caller"] == 1


def test_the_caller_takes_no_further_turn():
    state = act(started(), 0, "cabo")
    assert [a for a in RULES.legal_actions(state, 0) if a["type"] != "snap"] == []
    refused(state, 0, "draw", "not your turn")


def test_no_snap_window_follows_the_very_last_turn():
    state = act(started(deck=["4D", "4H"]), 0, "cabo")
    state = draw_and_discard(state)
    assert state["window"]
    state = draw_and_discard(state)
    assert state["phase"] == "peek" and not state["window"]
    pairs = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    for seat in range(3):
        assert RULES.legal_actions(state, seat) == [{"type": "peek", "slots": pair} for pair in pairs]


def test_no_swap_may_involve_the_callers_cards():
    state = act(act(act(started(deck=["JS"]), 0, "cabo"), 1, "draw"), 1, "discard")
    refused(state, 1, "swap", "locked", a=[0, 0], b=[1, 0])
    refused(state, 1, "swap", "locked", a=[2, 0], b=[0, 3])
    assert all(0 not in (a["a"][0], a["b"][0]) for a in RULES.legal_actions(state, 1) if a["type"] == "swap")


def test_nobody_else_may_snap_the_callers_cards():
    state = act(act(act(started(deck=["3S"]), 0, "cabo"), 1, "draw"), 1, "discard")
    refused(state, 2, "snap", "locked", seat=0, slot=1)
    assert all(a["seat"] != 0 for a in RULES.legal_actions(state, 2) if a["type"] == "snap")


def test_looking_at_the_callers_cards_is_allowed():
    state = act(act(act(started(deck=["9S"]), 0, "cabo"), 1, "draw"), 1, "discard")
    state = act(state, 1, "look", 50.0, seat=0, slot=1)
    assert view(state, 1, 50.0)["hands"][0][1] == "3C"


def test_the_caller_may_still_snap_and_a_hit_or_a_miss_changes_their_own_hand():
    state = act(act(act(started(deck=["3S", "QH"]), 0, "cabo"), 1, "draw"), 1, "discard")
    assert {"type": "snap", "seat": 0, "slot": 1} in RULES.legal_actions(state, 0)
    state = act(state, 0, "snap", slot=1)  # own hit
    assert state["hands"][0] == ("AC", None, "4C", "6C")
    state = act(state, 0, "snap", seat=1, slot=0)  # a miss: the penalty card joins the caller's hand
    assert state["hands"][0] == ("AC", None, "4C", "6C", "QH")
    hands = [["AC", "3C", "4C", "6C"], ["3D", "6D", "9D", "TD"], HANDS[2]]
    state = act(act(act(started(hands, deck=["3S"]), 0, "cabo"), 1, "draw"), 1, "discard")
    state = act(act(state, 0, "snap", seat=1, slot=0), 0, "give", slot=3)  # a hit, handed over
    assert state["hands"][0] == ("AC", "3C", "4C", None) and state["hands"][1][0] == "6C"


# Deck running out


def empty_the_deck(state):
    """Draw and discard until the deck is empty."""
    while state["deck"]:
        state = draw_and_discard(state)
    return state


def value(card):
    """The rules' card values, restated: A 1, 2-10 face value, J 11, Q 12, black K 13, red K -1."""
    return -1 if card in ("KH", "KD") else "A23456789TJQK".index(card[0]) + 1


TWO_HANDS = [["AC", "3C", "4C", "6C"], ["5D", "6D", "9D", "TD"]]


def test_an_empty_deck_is_refilled_from_every_discard_but_the_top_one():
    state = empty_the_deck(started(TWO_HANDS))
    pile = state["pile"]
    assert len(pile) == 44 and view(state, 0)["deck"] == 0
    refill = list(reversed(pile[:-1]))
    state = empty_the_deck(started(TWO_HANDS, refills=[refill]))
    seat = state["turn"]
    state = act(state, seat, "draw")
    assert view(state, seat)["drawn"] == refill[0]
    assert view(state, 0)["discard"] == pile[-1] and view(state, 0)["discards"] == 1
    assert view(state, 0)["deck"] == 42 and view(state, 0)["last"]["reshuffled"]


def test_without_a_stacked_deck_the_refill_is_the_next_seeded_shuffle():
    state = empty_the_deck(started(TWO_HANDS))
    pile = state["pile"]
    state = act(state, state["turn"], "draw")
    assert state["deck"] == shuffle(pile[:-1], 7, 1, ())[1:]


def test_a_stacked_refill_must_be_an_order_of_the_discards_shuffled():
    state = empty_the_deck(started(TWO_HANDS, refills=[list(STANDARD_DECK)]))
    with pytest.raises(ValueError):
        act(state, state["turn"], "draw")


def test_what_anyone_knew_of_reshuffled_cards_is_forgotten():
    def played(refills=()):
        # Assist mode: seat 0's peeked ace would stay face up for it while on the board.
        state = started(TWO_HANDS, memory=False, deck=["5S"], refills=refills)
        assert view(state, 0)["hand"][0] == "AC"
        return empty_the_deck(act(act(state, 0, "draw"), 0, "keep", slot=0))

    state = played()
    reshuffled = [card for card in state["pile"][:-1] if card != "AC"] + ["AC"]
    state = played([reshuffled])
    state = act(state, state["turn"], "draw")
    assert "AC" in state["deck"] and "AC" not in faces(state)
    assert all(card not in state["deck"] for _, card, _ in state["sightings"])


def run_the_deck_dry(state):
    """Seat 0 discards; seat 1 snaps its own 5 (a miss) until the deck and the spare discards are gone."""
    state = act(act(state, 0, "draw"), 0, "discard")
    while state["deck"] or len(state["pile"]) > 1:
        state = act(state, 1, "snap", slot=0)
    return state


def test_the_round_ends_at_once_when_no_card_can_be_had_for_a_draw():
    state = run_the_deck_dry(started(TWO_HANDS, deck=["2C"]))
    assert view(state, 0)["deck"] == 0 and view(state, 0)["discards"] == 1
    totals = [sum(value(card) for card in hand if card) for hand in state["hands"]]
    state = act(state, 1, "draw")
    summary = view(state, 0)["last_round"]
    assert summary["caller"] is None and view(state, 0)["last"]["no_card"]
    # With no caller, everyone scores their total.
    assert summary["points"] == totals and RULES.scores(state) == totals


def test_the_round_ends_at_once_when_no_penalty_card_can_be_had():
    state = run_the_deck_dry(started(TWO_HANDS, deck=["2C"]))
    hands = state["hands"]
    state = act(state, 1, "snap", slot=0)
    assert state["last_round"]["hands"] == tuple(tuple(c or "empty" for c in hand) for hand in hands)
    assert view(state, 0)["last"]["no_card"] and view(state, 0)["last"]["round_over"]


# Scoring


def test_a_hands_total_sums_its_cards_and_empty_slots_count_nothing():
    state = act(discarded("2C", deck=["4D", "4H"]), 2, "snap", slot=0)
    state = call_and_finish(state)
    assert view(state, 0)["last_round"]["totals"] == [14, 30, 11]
    assert view(state, 0)["last_round"]["hands"][2] == ["empty", "2S", "2D", "7C"]


def test_all_hands_are_shown_at_the_rounds_end():
    state = call_and_finish(started(deck=["4D", "4H"]))
    for seat in (0, 1, 2, None):
        assert view(state, seat)["last_round"]["hands"] == HANDS


def test_the_caller_with_the_lowest_total_scores_zero():
    state = call_and_finish(started(dealer=1, deck=["4D", "4H"]))  # seat 2 (13) calls
    assert view(state, 0)["last_round"]["outcome"] == "lowest"
    assert RULES.scores(state) == [14, 30, 0]


def test_a_tie_for_lowest_goes_to_the_caller():
    hands = [["AC", "3C", "4C", "6C"], ["5D", "6D", "AD", "2D"], ["2H", "2S", "3D", "7C"]]
    state = call_and_finish(started(hands, dealer=1, deck=["4D", "4H"]))  # 14 each
    assert RULES.scores(state) == [14, 14, 0]


def test_a_lowest_caller_with_a_negative_total_scores_it():
    hands = [["AC", "3C", "4C", "6C"], ["5D", "6D", "9D", "TD"], ["KH", "2S", "KD", "2D"]]
    state = act(discarded("2C", hands, deck=["4D", "4H"]), 2, "snap", slot=1)
    state = act(state, 2, "snap", slot=3)
    state = draw_and_discard(state)  # seat 1 plays; seat 2 calls with -2
    state = call_and_finish(state)
    assert RULES.scores(state) == [14, 30, -2]


def test_a_beaten_caller_scores_their_total_plus_five():
    state = call_and_finish(started(deck=["4D", "4H"]))  # seat 0 (14) is beaten by seat 2 (13)
    assert view(state, 0)["last_round"]["outcome"] == "beaten"
    assert RULES.scores(state) == [19, 30, 13]


def test_everyone_else_scores_their_total():
    state = call_and_finish(started(dealer=1, deck=["4D", "4H"]))
    assert view(state, 0)["last_round"]["points"] == [14, 30, 0]
    assert view(state, 0)["history"] == [
        {"round": 1, "dealer": 1, "caller": 2, "outcome": "lowest", "points": [14, 30, 0]}
    ]


def test_a_cumulative_score_of_exactly_100_drops_to_50():
    state = {**started(dealer=1, deck=["4D", "4H"]), "scores": (86, 70, 0)}
    state = call_and_finish(state)
    assert RULES.scores(state) == [50, 50, 0]


def test_the_game_ends_when_a_cumulative_score_is_over_100_and_the_lowest_wins():
    state = {**started(dealer=1, deck=["4D", "4H"]), "scores": (80, 71, 5)}
    state = call_and_finish(state)
    assert RULES.scores(state) == [94, 101, 5]
    assert RULES.result(state) == {"scores": [94, 101, 5], "winners": [2]}
    assert view(state, 0)["phase"] == "over" and RULES.legal_actions(state, 0) == []
    refused(state, 0, "draw", "over")
    # At the end every hand is face up.
    assert view(state, None)["hands"] == HANDS


def test_equal_lowest_cumulative_scores_all_win():
    state = {**started(dealer=1, deck=["4D", "4H"]), "scores": (0, 80, 14)}
    state = call_and_finish(state)
    assert RULES.result(state) == {"scores": [14, 110, 14], "winners": [0, 2]}


# Seeing cards


def test_a_sighting_lasts_three_seconds_from_the_action_that_caused_it():
    state = ready(game(), now=5.0)
    assert view(state, 0, 7.9)["hand"] == ["AC", "3C", None, None]
    assert view(state, 0, 8.1)["hand"] == [None] * 4
    assert view(state, 0, 8.1)["seen_until"] == []


def test_a_drawn_card_stays_visible_to_the_drawer_until_kept_or_discarded_then_three_seconds():
    state = act(started(deck=["5S"]), 0, "draw", 10.0)
    assert view(state, 0, 60.0)["drawn"] == "5S"
    state = act(state, 0, "keep", 60.0, slot=3)
    assert view(state, 0, 62.9)["hand"][3] == "5S" and view(state, 0, 62.9)["seen_until"] == [[0, 3, 63.0]]
    assert view(state, 0, 63.1)["hand"][3] is None


def test_a_taken_card_and_a_snap_flip_are_seen_by_everyone_for_three_seconds():
    state = act(started(pile="AH"), 0, "take", 10.0, slot=3)
    for seat in (0, 1, 2, None):
        assert view(state, seat, 12.9)["hands"][0][3] == "AH"
        assert view(state, seat, 13.1)["hands"][0][3] is None
        assert "AH" not in strings_in(view(state, seat, 13.1))
    state = act(discarded("2C"), 0, "snap", 50.0, seat=1, slot=2)
    for seat in (0, 1, 2, None):
        assert view(state, seat, 52.9)["hands"][1][2] == "9D"
        assert "9D" not in strings_in(view(state, seat, 53.1))


def test_a_sighting_follows_its_card_when_the_card_is_swapped():
    state = ready(game(deck=["JS"]), now=10.0)  # seat 0 sees AC in its slot 0 until 13
    state = act(act(state, 0, "draw", 11.0), 0, "discard", 11.0)
    state = act(state, 0, "swap", 12.0, a=[0, 0], b=[2, 3])
    assert view(state, 0, 12.5)["hands"][2][3] == "AC" and view(state, 0, 12.5)["hand"][0] is None
    assert view(state, 0, 12.5)["seen_until"] == [[0, 1, 13.0], [2, 3, 13.0]]
    assert view(state, 2, 12.5)["hand"][3] is None


def test_the_last_action_drops_a_face_once_its_sighting_expires():
    state = act(discarded("2C"), 0, "snap", 50.0, seat=1, slot=2)
    assert view(state, 2, 52.9)["last"]["card"] == "9D"
    last = view(state, 2, 53.1)["last"]
    assert last == {"seat": 0, "type": "snap", "target": [1, 2], "hit": False, "penalty_slot": 4}


def test_next_change_is_the_earliest_future_expiry():
    state = ready(game(deck=["5S"]), now=5.0)
    assert RULES.next_change(state, 5.0) == 8.0
    state = act(act(state, 0, "draw", 6.0), 0, "keep", 7.0, slot=3)
    assert RULES.next_change(state, 7.0) == 8.0
    assert RULES.next_change(state, 8.0) == 10.0
    assert RULES.next_change(state, 10.0) is None


def test_assist_mode_keeps_every_seen_card_face_up_following_it_until_it_leaves_the_board():
    state = started(memory=False, deck=["JS", "5S"])
    assert view(state, 0, 1000.0)["hand"] == ["AC", "3C", None, None]
    assert view(state, 0, 1000.0)["memory"] is False
    assert RULES.next_change(state, 0.0) is None
    state = act(act(state, 0, "draw"), 0, "discard")
    state = act(state, 0, "swap", a=[0, 1], b=[1, 3])
    assert view(state, 0, 1000.0)["hands"][1][3] == "3C"
    assert view(state, 1, 1000.0)["hand"] == ["5D", "6D", None, None]
    state = act(act(state, 1, "draw"), 1, "keep", slot=3)
    assert "3C" not in strings_in(view(state, 0, 1000.0)["hands"])
    assert view(state, 1, 1000.0)["hand"] == ["5D", "6D", None, "5S"]


def test_memory_mode_is_switched_from_any_seat_but_only_during_the_opening_peeks():
    state = act(game(), 2, "memory", on=False)
    assert view(state, 0)["memory"] is False and view(state, 0)["last"] == {
        "seat": 2,
        "type": "memory",
        "on": False,
    }
    refused(state, 0, "memory", "true|false", on="off")
    assert all(action["type"] == "peek" for action in RULES.legal_actions(state, 1))
    state = ready(state)
    refused(state, 1, "memory", "only between rounds", on=True)
    state = call_and_finish(state)
    # The setting carries into the next round until switched again.
    assert view(state, 0)["memory"] is False
    assert act(state, 1, "memory", on=True)["memory"] is True


def test_a_seat_never_receives_a_card_it_has_not_seen_nor_the_deck_order():
    state = started(deck=["5S", "QH"])
    hidden = set(STANDARD_DECK) - {PILE}
    assert strings_in(view(state, None, 0.0)) & hidden == set()
    for seat in range(3):
        assert strings_in(view(state, seat, 0.0)) & hidden == set(HANDS[seat][:2])
        assert strings_in(view(state, seat)) & hidden == set()


def test_the_sighting_seconds_option_sets_how_long_a_sighting_lasts():
    state = ready(game(sighting_seconds=5), now=1.0)
    assert view(state, 0, 5.9)["hand"][0] == "AC" and view(state, 0, 6.1)["hand"][0] is None


# Options and actions


def test_bad_options_and_stacked_decks_are_refused():
    for options in (
        {"memory": "yes"},
        {"sighting_seconds": 0},
        {"sighting_seconds": "3"},
        {"sighting_seconds": True},
        {"dealer": 3},
        {"colour": "red"},
        {"decks": [list(STANDARD_DECK[:-1]) + ["2C"]]},
    ):
        with pytest.raises(ValueError):
            RULES.new_game(3, seed=1, options=options)


def test_unknown_actions_and_strangers_are_refused():
    state = started()
    refused(state, 0, "shuffle", "not an action")
    with pytest.raises(IllegalAction):
        RULES.apply(state, 0, "draw")
    with pytest.raises(IllegalAction, match="at the table"):
        RULES.apply(state, 3, {"type": "draw"})
    assert RULES.legal_actions(state, None) == []
    assert view(state, None)["hand"] == [] and view(state, None)["legal"] == []


# Random playouts


def cards_of(state):
    drawn = [state["drawn"]] if state["drawn"] else []
    return [*(c for hand in state["hands"] for c in hand if c), *state["deck"], *state["pile"], *drawn]


def shown_before(state):
    """The previous round's reveal and last words stay on the table during the next round's peeks."""
    if state["phase"] != "peek" or state["last_round"] is None:
        return set()
    return strings_in(state["last_round"]) | strings_in(state["last"])


def secret_at(state, seat, now):
    """The hands' cards this seat has no live sighting of, the deck, and another seat's drawn card."""
    if state["phase"] == "over":
        return set(state["deck"])
    seen = {
        card
        for viewer, card, until in state["sightings"]
        if viewer in (seat, -1) and (until is None or until > now)
    }
    hidden = {card for hand in state["hands"] for card in hand if card and card not in seen}
    hidden |= set(state["deck"])
    if state["drawn"] and seat != state["turn"]:
        hidden.add(state["drawn"])
    return hidden - shown_before(state)


def secret_once_expired(state, seat, now):
    """Once every sighting has run out, in memory mode nobody sees a card on the board."""
    if not state["memory"]:
        return secret_at(state, seat, now)
    if state["phase"] == "over":
        return set(state["deck"])
    hidden = {card for hand in state["hands"] for card in hand if card} | set(state["deck"])
    if state["drawn"] and seat != state["turn"]:
        hidden.add(state["drawn"])
    return hidden - shown_before(state)


def calm_pick(rng, seats):
    """Mostly turns, now and then a snap: games that reach calls, powers and the final turns."""
    moves = [(seat, action) for seat, legal in seats for action in legal if action["type"] != "snap"]
    if moves and rng.random() < 0.9:
        return rng.choice(moves)
    return random_pick(rng, seats)


@pytest.mark.parametrize(("seed", "players"), seeds_and_players(RULES))
def test_random_playouts_keep_every_invariant(seed, players):
    random_playout(
        RULES,
        players,
        seed,
        {"memory": seed % 5 != 0},
        deck=STANDARD_DECK,
        cards_of=cards_of,
        secret_at=secret_at,
        later=(3.01, secret_once_expired),
        pick=calm_pick if seed % 2 else random_pick,
        seconds_per_action=1.0,
    )
