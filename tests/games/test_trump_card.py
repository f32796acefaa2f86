"""Trump Card, one test per line of docs/rules/trump_card.md, on stacked decks; then random playouts."""

from __future__ import annotations

import pytest

from tests.games.playouts import random_playout, seeds_and_players, strings_in
from tests.games.stacking import deck_dealing
from zerogames import ratings
from zerogames.games import GAMES, IllegalAction
from zerogames.games.cards import STANDARD_DECK, sort_hand

RULES = GAMES["trump_card"]


def deck_for(hands, chooser=0):
    """The deck order that deals `hands` (13 cards by seat): their first five each, then the other eight."""
    second = deck_dealing([hand[5:] for hand in hands], chooser, STANDARD_DECK)[:32]
    return deck_dealing([hand[:5] for hand in hands], chooser, STANDARD_DECK, then=second)


def game(hands, chooser=0, more_decks=()):
    return RULES.new_game(
        4, seed=7, options={"chooser": chooser, "decks": [deck_for(hands, chooser), *more_decks]}
    )


def trump(state, suit):
    return RULES.apply(state, state["chooser"], {"type": "trump", "suit": suit})


def act(state, seat, card):
    return RULES.apply(state, seat, {"type": "play", "card": card})


def play_round(state, *cards):
    """Cards in turn order from the Senior; a seat given None plays its first legal card (its lowest)."""
    for card in cards:
        seat = state["turn"]
        state = act(state, seat, card or RULES.legal_actions(state, seat)[0]["card"])
    return state


def play_on(state):
    """To the end of the match, each seat playing its first legal card."""
    while RULES.result(state) is None:
        state = play_round(state, None)
    return state


def leads(state):
    return [action["card"] for action in RULES.legal_actions(state, state["turn"])]


# The Chooser (seat 0) holds every high heart and every Ace and so wins every round it leads; each other
# seat holds one small heart, its only trump once hearts are named.
SWEEP = [
    ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "AS", "AC", "AD"],
    ["4H", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
    ["3H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD"],
    ["2H", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"],
]

# The seed's example table: A's 2C loses to B's AC; B holds clubs for two more rounds; C takes a
# diamond with its Ace and then leads the King. Spades are trump.
EXAMPLE = [
    ["2C", "7C", "TC", "4D", "6D", "JC", "2H", "6H", "TH", "AH", "2S", "6S", "TS"],
    ["AC", "KC", "QC", "2D", "7D", "8D", "3H", "7H", "JH", "3S", "7S", "JS", "AS"],
    ["3C", "5C", "8C", "AD", "KD", "9D", "4H", "8H", "QH", "4S", "8S", "QS", "KH"],
    ["4C", "6C", "9C", "3D", "5D", "TD", "JD", "QD", "5H", "9H", "5S", "9S", "KS"],
]


# Set-up


def test_exactly_four_players():
    for players in (3, 5):
        with pytest.raises(ValueError, match="exactly 4"):
            RULES.new_game(players, seed=1)
    assert RULES.min_players == RULES.max_players == 4


def test_teams_are_seats_0_and_2_against_1_and_3_named_by_index():
    state = trump(game(SWEEP), "H")
    for seat in range(4):
        view = RULES.view(state, seat)
        assert view["teams"] == [[0, 2], [1, 3]]
        assert view["team"] == seat % 2
    assert "BD" not in strings_in(RULES.dump(state))


def test_a_standard_deck_is_used_and_a_stacked_deck_must_hold_every_card_once():
    with pytest.raises(ValueError):
        RULES.new_game(4, seed=1, options={"decks": [[*STANDARD_DECK[:-1], "2C"]]})
    state = trump(game(SWEEP), "H")
    assert sorted(c for hand in state["hands"] for c in hand) == sorted(STANDARD_DECK)


def test_the_chooser_is_drawn_from_the_seed_and_the_option_overrides_it():
    drawn = {RULES.new_game(4, seed=s)["chooser"] for s in range(40)}
    assert drawn == {0, 1, 2, 3}
    assert RULES.new_game(4, seed=5)["chooser"] == RULES.new_game(4, seed=5)["chooser"]
    assert RULES.new_game(4, seed=5, options={"chooser": 3})["chooser"] == 3


def test_bad_options_are_refused():
    for options in ({"chooser": 4}, {"chooser": "A"}, {"colour": "red"}, {"decks": "shuffled"}):
        with pytest.raises(ValueError):
            RULES.new_game(4, seed=1, options=options)


def test_five_cards_each_are_dealt_one_at_a_time_from_the_chooser():
    deck = list(STANDARD_DECK)
    state = RULES.new_game(4, seed=1, options={"chooser": 2, "decks": [deck]})
    # Seat 2 gets the top card, then 3, 0, 1, round and round.
    for offset, seat in enumerate((2, 3, 0, 1)):
        assert state["hands"][seat] == sort_hand(deck[offset:20:4])
    assert state["deck"] == tuple(deck[20:])


def test_the_chooser_sees_exactly_their_five_cards_before_naming_trump():
    state = game(SWEEP)
    view = RULES.view(state, 0)
    assert view["phase"] == "trump" and view["turn"] == 0 and view["trump"] is None
    assert view["hand"] == list(sort_hand(SWEEP[0][:5]))
    assert view["hand_sizes"] == [5, 5, 5, 5]
    assert [a["suit"] for a in view["legal"]] == ["C", "D", "H", "S"]
    unseen = {card for card in STANDARD_DECK if card not in SWEEP[0][:5]}
    assert not unseen & strings_in(view)


def test_everyone_sees_their_own_five_and_no_one_elses_while_trump_is_named():
    state = game(SWEEP)
    for seat in (1, 2, 3):
        view = RULES.view(state, seat)
        assert view["hand"] == list(sort_hand(SWEEP[seat][:5]))
        assert view["legal"] == []
        assert strings_in(view) & set(STANDARD_DECK) == set(SWEEP[seat][:5])
    assert RULES.view(state, None)["hand"] == []
    with pytest.raises(IllegalAction, match="not been named"):
        act(state, 0, "AH")
    with pytest.raises(IllegalAction, match="not your turn"):
        RULES.apply(state, 1, {"type": "trump", "suit": "H"})


def test_the_chooser_names_one_suit_once():
    state = game(SWEEP)
    for bad in ("X", "hearts", None, 3):
        with pytest.raises(IllegalAction, match="Name a suit"):
            trump(state, bad)
    state = trump(state, "H")
    assert RULES.view(state, 2)["trump"] == "H"
    assert state["last"] == {"seat": 0, "type": "trump", "suit": "H", "misdeals": 0}
    with pytest.raises(IllegalAction, match="already been named"):
        RULES.apply(state, 0, {"type": "trump", "suit": "S"})


def test_then_the_other_eight_each_are_dealt_from_the_same_deck_from_the_chooser():
    state = trump(game(EXAMPLE, chooser=1), "S")
    assert state["hands"] == tuple(sort_hand(hand) for hand in EXAMPLE)
    assert state["deck"] == () and state["shuffles"] == 1
    assert RULES.view(state, 3)["hand_sizes"] == [13, 13, 13, 13]


def test_a_misdeal_redeals_with_the_same_trump_until_every_player_holds_one():
    # Clubs named. First deal: seat 2 holds no club (its clubs traded for seat 0's hearts).
    # Second deal: seats 0 and 2 hold none. Third deal: everyone holds clubs.
    to_0, to_2 = ["3C", "5C", "8C"], ["2H", "6H", "TH"]
    one_short = [
        [card for card in EXAMPLE[0] if card not in to_2] + to_0,
        EXAMPLE[1],
        [card for card in EXAMPLE[2] if card not in to_0] + to_2,
        EXAMPLE[3],
    ]
    two_short = [SWEEP[2], SWEEP[1], SWEEP[3], SWEEP[0]]
    decks = [deck_for(one_short, 3), deck_for(two_short, 3), deck_for(EXAMPLE, 3)]
    state = RULES.new_game(4, seed=7, options={"chooser": 3, "decks": decks})
    state = trump(state, "C")
    assert state["trump"] == "C" and state["shuffles"] == 3
    assert state["hands"] == tuple(sort_hand(hand) for hand in EXAMPLE)
    view = RULES.view(state, 1)
    assert view["misdeals"] == 2
    assert [notice["seats"] for notice in view["notices"]] == [[2], [0, 2]]
    assert "Misdeal 2" in view["notices"][1]["text"] and "clubs" in view["notices"][1]["text"]
    assert view["last"] == {"seat": 3, "type": "trump", "suit": "C", "misdeals": 2}
    assert view["phase"] == "play" and view["turn"] == 3


def test_the_chooser_starts_as_the_senior():
    state = trump(game(EXAMPLE, chooser=2), "S")
    assert state["senior"] == 2 and state["turn"] == 2
    assert RULES.view(state, None)["senior"] == 2


# A round


def test_thirteen_rounds_make_a_match():
    state = trump(game(EXAMPLE), "S")
    state = play_on(state)
    history = RULES.view(state, None)["history"]
    assert [r["round"] for r in history] == list(range(1, 14))
    assert RULES.legal_actions(state, state["senior"]) == []
    with pytest.raises(IllegalAction, match="over"):
        act(state, state["senior"], "2C")


def test_the_senior_leads_any_card_and_the_others_follow_clockwise():
    state = trump(game(EXAMPLE, chooser=2), "S")
    assert leads(state) == list(sort_hand(EXAMPLE[2]))
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 3, "4C")
    state = play_round(state, "KH", None, None, None)
    assert [seat for seat, _ in state["last_round"]["cards"]] == [2, 3, 0, 1]


def test_a_player_holding_the_led_suit_must_follow():
    state = act(trump(game(EXAMPLE), "S"), 0, "2C")
    assert [a["card"] for a in RULES.legal_actions(state, 1)] == ["QC", "KC", "AC"]
    with pytest.raises(IllegalAction, match="follow suit"):
        act(state, 1, "AS")


def test_a_player_without_the_led_suit_plays_any_card():
    state = play_round(trump(game(SWEEP), "H"), "AH", "4H", "3H", "2H")
    state = act(state, 0, "KH")
    assert len(RULES.legal_actions(state, 1)) == 12


def test_the_highest_trump_wins_the_round():
    # Spades are trump; seats 1 and 3 hold no hearts and trump seat 0's Ace of hearts.
    hands = [
        SWEEP[0],
        ["2S", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
        ["4H", "3H", "2H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "3S"],
        ["4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "JD", "QD", "KD"],
    ]
    state = play_round(trump(game(hands), "S"), "AH", "2S", "4H", "KS")
    assert state["last_round"]["winner"] == 3 and state["last_round"]["card"] == "KS"


def test_without_trump_the_highest_card_of_the_led_suit_wins():
    state = play_round(trump(game(EXAMPLE), "S"), "2C", "AC", "3C", "4C")
    assert state["last_round"]["winner"] == 1 and state["last_round"]["card"] == "AC"


def test_the_round_winner_becomes_senior_and_leads_the_next_round():
    state = play_round(trump(game(EXAMPLE), "S"), "2C", "AC", "3C", "4C")
    assert state["senior"] == 1 and state["turn"] == 1
    assert RULES.view(state, 0)["senior"] == 1


def test_a_player_who_won_with_an_ace_may_not_lead_an_ace_next_round():
    state = play_round(trump(game(SWEEP), "H"), "AH", "4H", "3H", "2H")
    assert "AS" not in leads(state) and "AC" not in leads(state) and "KH" in leads(state)
    view = RULES.view(state, 0)
    assert view["ace_restricted"] and "Ace" in view["ace_reason"] and view["restricted_seat"] == 0
    assert not RULES.view(state, 1)["ace_restricted"]
    with pytest.raises(IllegalAction, match="may not lead an Ace"):
        act(state, 0, "AS")
    # The restriction covers one lead only: a round won with a King lifts it.
    state = play_round(state, "KH", None, None, None)
    assert "AS" in leads(state) and not RULES.view(state, 0)["ace_restricted"]


def test_a_restricted_player_always_holds_a_card_that_is_not_an_ace():
    state = trump(game(SWEEP), "H")
    for card in ("KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H"):
        state = play_round(state, card, None, None, None)
    # Round 9: AS wins; in round 10 seat 0 holds AH, AC, AD and one other card, its only lead.
    state = play_round(state, "AS", None, None, None)
    assert state["round"] == 10 and len(state["hands"][0]) == 4
    assert leads(state) == ["5H"]


def test_a_lead_in_rounds_11_to_13_is_never_restricted():
    state = trump(game(SWEEP), "H")
    for card in ("KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "AH"):
        state = play_round(state, card, None, None, None)
    # Round 10 was won with the Ace of hearts, yet round 11 allows an Ace: here all seat 0 holds.
    assert state["round"] == 11 and leads(state) == ["AC", "AD", "AS"]
    assert not RULES.view(state, 0)["ace_restricted"]
    state = play_round(state, "AC", None, None, None)
    assert leads(state) == ["AD", "AS"]


# The pile and banking


def test_every_rounds_four_cards_go_onto_the_pile():
    state = play_round(trump(game(EXAMPLE), "S"), "2C", "AC", "3C", "4C")
    view = RULES.view(state, 3)
    assert view["pile"] == ["2C", "AC", "3C", "4C"] and view["pile_size"] == 4
    assert view["banked"] == [0, 0] and view["trick"] == []


def test_rounds_one_and_two_never_bank_even_when_the_senior_wins():
    state = play_round(trump(game(SWEEP), "H"), "AH", "4H", "3H", "2H")
    state = play_round(state, "KH", None, None, None)
    assert [r["senior"] == r["winner"] for r in RULES.view(state, 1)["history"]] == [True, True]
    assert state["pile"] and len(state["pile"]) == 8 and RULES.scores(state) == [0, 0, 0, 0]
    assert state["last_round"]["banked"] is None and "never bank" in state["last_round"]["why"]


def test_from_round_three_a_senior_who_wins_banks_the_whole_pile():
    state = trump(game(SWEEP), "H")
    for card in ("AH", "KH", "QH"):
        state = play_round(state, card, None, None, None)
    assert state["last_round"]["banked"] == 0 and state["last_round"]["bank"] == 12
    assert state["pile"] == () and RULES.scores(state) == [12, 0, 12, 0]
    assert RULES.view(state, 1)["banked"] == [12, 0]


def test_no_banking_when_the_starting_senior_loses():
    state = trump(game(EXAMPLE), "S")
    state = play_round(state, "2C", "AC", "3C", "4C")
    state = play_round(state, "KC", "5C", "6C", "7C")
    state = play_round(state, "QC", "8C", "9C", "TC")
    state = play_round(state, "2D", "AD", "3D", "4D")
    summary = state["last_round"]
    assert summary["senior"] == 1 and summary["winner"] == 2 and summary["banked"] is None
    assert "lost" in summary["why"] and len(state["pile"]) == 4


def test_the_seeds_example_table_of_five_rounds():
    state = trump(game(EXAMPLE), "S")
    state = play_round(state, "2C", "AC", "3C", "4C")
    state = play_round(state, "KC", "5C", "6C", "7C")
    state = play_round(state, "QC", "8C", "9C", "TC")
    state = play_round(state, "2D", "AD", "3D", "4D")
    assert leads(state) == ["9D", "KD", "4H", "8H", "QH", "KH", "4S", "8S", "QS"]
    state = play_round(state, "KD", "5D", "6D", "7D")
    a, b, c = 0, 1, 2
    history = RULES.view(state, None)["history"]
    table = [(r["round"], r["senior"], r["winner"], r["banked"], r["bank"]) for r in history]
    assert table == [
        (1, a, b, None, 0),
        (2, b, b, None, 0),
        (3, b, b, 1, 12),
        (4, b, c, None, 0),
        (5, c, c, 0, 8),
    ]
    assert RULES.view(state, None)["banked"] == [8, 12]


# Result


def test_a_52_0_sweep_is_khoti_for_the_team():
    state = trump(game(SWEEP), "H")
    for card in ("AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "AS", "5H", "AC", "AD"):
        state = play_round(state, card, None, None, None)
    result = RULES.result(state)
    assert result["outcome"] == "khoti" and result["team"] == 0
    assert result["winners"] == [0, 2] and result["scores"] == [52, 0, 52, 0]
    assert result["banked"] == [52, 0] and result["pile"] == 0
    # Seat A (the Chooser) won every round and banked from round 3 on: 12 cards, then 4 a round.
    figures = RULES.figures(state)
    assert figures[0] == {"trump": "H", "collections": 11, "collected": 52, "khoti": True}
    assert [seat["khoti"] for seat in figures] == [True, False, True, False]
    outcome = RULES.outcome(state)
    assert (outcome.how, outcome.winners, outcome.places) == ("finished", (0, 2), (1, 2, 1, 2))
    assert [side.standing for side in outcome.sides] == [52, 0] and outcome.result == result


def test_both_teams_banking_is_a_draw():
    # Seat 0 wins rounds 1-11 (44 cards banked); B's AS takes round 12 and B holds the seat in 13.
    hands = [
        ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "AC", "2S", "3S"],
        ["4H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "KS", "AS"],
        ["3H", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
        ["2H", "QD", "KD", "AD", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"],
    ]
    state = trump(game(hands), "H")
    for card in ("AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "AC"):
        state = play_round(state, card, None, None, None)
    assert RULES.scores(state) == [44, 0, 44, 0]
    state = play_round(state, "2S", "AS", None, None)
    state = play_round(state, "KS", None, None, "3S")
    result = RULES.result(state)
    assert result["banked"] == [44, 8] and result["scores"] == [44, 8, 44, 8]
    assert result["outcome"] == "draw" and result["winners"] == [] and result["team"] is None
    # A draw has no winners and ranks neither team above the other, however many cards each banked.
    outcome = RULES.outcome(state)
    assert outcome.winners == () and outcome.places == (None,) * 4
    assert [(side.seats, side.standing) for side in outcome.sides] == [((0, 2), 0), ((1, 3), 0)]
    assert ratings.places(outcome.sides) == [1, 1]


def test_a_match_abandoned_midway_ranks_the_teams_by_the_cards_banked_so_far():
    state = trump(game(SWEEP), "H")
    for card in ("AH", "KH", "QH"):
        state = play_round(state, card, None, None, None)
    with pytest.raises(ValueError):
        RULES.outcome(state)
    outcome = RULES.outcome(state, abandoned=True)
    assert (outcome.how, outcome.result, outcome.winners, outcome.places) == (
        "abandoned",
        None,
        (),
        (None,) * 4,
    )
    assert [side.standing for side in outcome.sides] == [12, 0] and ratings.places(outcome.sides) == [1, 2]


def test_cards_left_in_the_pile_after_round_13_make_a_draw():
    # As the sweep, but round 13's lead loses: 48 banked, 4 stranded.
    hands = [list(SWEEP[0]), list(SWEEP[1]), list(SWEEP[2]), list(SWEEP[3])]
    hands[0][-1], hands[2][-1] = "KD", "AD"
    state = trump(game(hands), "H")
    for card in ("AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "AS", "5H", "AC"):
        state = play_round(state, card, None, None, None)
    state = play_round(state, "KD", None, None, None)
    assert state["last_round"]["winner"] == 2 and state["last_round"]["card"] == "AD"
    result = RULES.result(state)
    assert result["banked"] == [48, 0] and result["pile"] == 4 and len(result["pile_cards"]) == 4
    assert result["outcome"] == "draw" and result["winners"] == []
    assert RULES.view(state, 1)["result"] == result


# What each seat may see


def test_a_seat_sees_its_hand_the_sizes_trump_round_cards_pile_banked_counts_and_the_senior():
    state = trump(game(EXAMPLE), "S")
    state = play_round(state, "2C", "AC", "3C", "4C")
    state = act(state, 1, "KC")
    view = RULES.view(state, 2)
    assert view["hand"] == list(sort_hand(EXAMPLE[2][1:]))
    assert view["hand_sizes"] == [12, 11, 12, 12]
    assert view["trump"] == "S" and view["trick"] == [[1, "KC"]]
    assert view["pile"] == ["2C", "AC", "3C", "4C"] and view["banked"] == [0, 0]
    assert view["senior"] == 1 and view["round"] == 2 and view["turn"] == 2
    assert view["last"] == {"seat": 1, "type": "play", "card": "KC"}
    assert view["last_round"]["cards"] == [[0, "2C"], [1, "AC"], [2, "3C"], [3, "4C"]]
    others = {card for seat in (0, 1, 3) for card in state["hands"][seat]}
    assert not others & strings_in(view)


# Random playouts


def cards_of(state):
    return [
        *(c for hand in state["hands"] for c in hand),
        *state["deck"],
        *(c for _, c in state["trick"]),
        *state["pile"],
        *(c for team in state["banked"] for c in team),
    ]


def secret(state, seat):
    """Every other hand and the undealt cards: nothing else is ever face down."""
    hidden = {c for other, hand in enumerate(state["hands"]) if other != seat for c in hand}
    return hidden | set(state["deck"])


@pytest.mark.parametrize(("seed", "players"), seeds_and_players(RULES))
def test_random_playouts_keep_every_invariant(seed, players):
    playout = random_playout(RULES, players, seed, deck=STANDARD_DECK, cards_of=cards_of, secret=secret)
    final = playout.final
    banked = [len(cards) for cards in final["banked"]]
    assert sum(banked) + len(final["pile"]) == 52
    assert RULES.result(final)["scores"] == [banked[0], banked[1], banked[0], banked[1]]
