"""Zero Down, one test per line of docs/rules/zero_down.md, on stacked decks; then random playouts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.games.playouts import random_playout, seeds_and_players, strings_in
from tests.games.stacking import deck_dealing
from zerogames.games import GAMES, IllegalAction
from zerogames.games.zero_down.rules import DECK, NUMBER, hand_score

RULES = GAMES["zero_down"]

# Number by number: filler hands dealt from this order hold few of any colour, so they are no ZERO.
BY_NUMBER = sorted(DECK, key=lambda card: (NUMBER[card], DECK.index(card)))

EXAMPLE = ["red1", "red2", "red3", "red4", "red5", "blue5", "green7", "yellow7", "yellow8"]
ALMOST_ZERO = ["red1", "red2", "red3", "red4", "yellow5", "green5", "blue5", "violet5", "grey8"]
ZERO_HAND = ["red1", "red2", "red3", "red4", "red5", "yellow5", "green5", "blue5", "violet5"]
OTHER_ZERO_HAND = ["grey1", "grey2", "grey3", "grey4", "grey6", "black6", "red6", "yellow6", "green6"]


def stacked(players, dealer, hands=None, pool=()):
    """The deck order that deals `hands` ({seat: nine cards}; other seats get filler), then `pool`."""
    hands = hands or {}
    used = {card for hand in hands.values() for card in hand} | set(pool)
    rest = [card for card in BY_NUMBER if card not in used]
    dealt = []
    for seat in range(players):
        if seat in hands:
            dealt.append(list(hands[seat]))
        else:
            dealt.append(rest[:9])
            rest = rest[9:]
    return deck_dealing(dealt, (dealer + 1) % players, BY_NUMBER, then=pool)


def game(players=3, dealer=0, hands=None, pool=(), more_decks=(), **options):
    """A game whose first round deals `hands` and then lays `pool`."""
    decks = [stacked(players, dealer, hands, pool), *more_decks]
    return RULES.new_game(players, seed=7, options={"dealer": dealer, "decks": decks, **options})


def swap(state, seat, give, take):
    return RULES.apply(state, seat, {"type": "swap", "give": give, "take": take})


def knock(state, seat):
    return RULES.apply(state, seat, {"type": "knock"})


def knock_out_the_round(state):
    """Everyone knocks until the round is over: two knocks, then every final turn a pass."""
    played = len(state["history"])
    while RULES.result(state) is None and len(state["history"]) == played:
        state = knock(state, state["turn"])
    return state


# Set-up


def test_two_to_five_players():
    for players in (1, 6):
        with pytest.raises(ValueError, match="2 to 5"):
            RULES.new_game(players, seed=1)
    for players in range(2, 6):
        assert len(RULES.new_game(players, seed=1)["hands"]) == players


def test_56_cards_seven_colours_by_numbers_one_to_eight_coded_colour_then_number():
    assert len(DECK) == len(set(DECK)) == 56
    assert {"red1", "grey8", "violet5", "yellow3", "green2", "blue7", "black4"} <= set(DECK)
    assert Counter(card[:-1] for card in DECK) == dict.fromkeys(
        ("red", "yellow", "green", "blue", "violet", "grey", "black"), 8
    )
    assert Counter(cards_of(RULES.new_game(4, seed=3))) == Counter(DECK)


def test_a_game_has_one_round_per_player():
    for players in range(2, 6):
        state = RULES.new_game(players, seed=players)
        while RULES.result(state) is None:
            state = knock_out_the_round(state)
        assert len(state["history"]) == players


def test_first_dealer_is_drawn_from_the_seed_and_the_option_overrides_it():
    drawn = {RULES.new_game(4, seed=s)["dealer"] for s in range(30)}
    assert len(drawn) > 1
    assert RULES.new_game(4, seed=5)["dealer"] == RULES.new_game(4, seed=5)["dealer"]
    assert RULES.new_game(4, seed=5, options={"dealer": 2})["dealer"] == 2


def test_the_dealer_moves_one_seat_left_every_round():
    state = RULES.new_game(4, seed=1, options={"dealer": 2})
    while RULES.result(state) is None:
        state = knock_out_the_round(state)
    assert [summary["dealer"] for summary in state["history"]] == [2, 3, 0, 1]


def test_deal_is_nine_each_one_at_a_time_from_the_dealers_left():
    deck = list(DECK)
    state = RULES.new_game(3, seed=1, options={"dealer": 1, "decks": [deck]})
    # Seat 2 is left of dealer 1 and gets the top card, then seat 0, then seat 1.
    assert set(state["hands"][2]) == set(deck[0:27:3])
    assert set(state["hands"][0]) == set(deck[1:27:3])
    assert set(state["hands"][1]) == set(deck[2:27:3])


def test_the_next_five_cards_lay_the_pool():
    deck = list(DECK)
    state = RULES.new_game(3, seed=1, options={"dealer": 0, "decks": [deck]})
    assert state["pool"] == tuple(deck[27:32])
    state = RULES.new_game(5, seed=1, options={"dealer": 0, "decks": [deck]})
    assert state["pool"] == tuple(deck[45:50])
    assert len(state["out"]) == 6


def test_the_pool_option_7_lays_seven():
    deck = list(DECK)
    state = RULES.new_game(3, seed=1, options={"dealer": 0, "pool": 7, "decks": [deck]})
    assert state["pool"] == tuple(deck[27:34])
    state = RULES.new_game(5, seed=1, options={"dealer": 0, "pool": 7, "decks": [deck]})
    assert state["pool"] == tuple(deck[45:52])
    assert len(state["out"]) == 4


def test_two_players_always_lay_nine_whatever_the_option_says():
    deck = list(DECK)
    for pool in (5, 7):
        state = RULES.new_game(2, seed=1, options={"dealer": 0, "pool": pool, "decks": [deck]})
        assert state["pool"] == tuple(deck[18:27])
    assert len(RULES.new_game(2, seed=1)["pool"]) == 9


def test_the_other_cards_are_out_of_the_round_unseen():
    deck = list(DECK)
    state = RULES.new_game(4, seed=1, options={"dealer": 0, "decks": [deck]})
    assert state["out"] == tuple(deck[41:])
    for seat in (0, 1, 2, 3, None):
        assert not strings_in(RULES.view(state, seat)) & set(state["out"])


def test_the_player_left_of_the_dealer_takes_the_first_turn_and_play_goes_clockwise():
    state = RULES.new_game(4, seed=1, options={"dealer": 3})
    turns = []
    for _ in range(5):
        turns.append(state["turn"])
        seat = state["turn"]
        state = swap(state, seat, state["hands"][seat][0], state["pool"][0])
    assert turns == [0, 1, 2, 3, 0]


def test_bad_options_and_decks_are_refused():
    for options in (
        {"pool": 6},
        {"pool": True},
        {"pool": "7"},
        {"dealer": 3},
        {"colour": "red"},
        {"decks": "red1"},
        {"decks": [list(DECK[:-1]) + ["red1"]]},
    ):
        with pytest.raises(ValueError):
            RULES.new_game(3, seed=1, options=options)


# A turn


def test_a_swap_puts_a_hand_card_into_the_pool_and_takes_a_different_pool_card():
    state = game(hands={1: ALMOST_ZERO}, pool=["black1", "black2", "black3", "black4", "black5"])
    state = swap(state, 1, "grey8", "black3")
    assert "black3" in state["hands"][1] and "grey8" not in state["hands"][1]
    # The card put down lies where the card taken was.
    assert state["pool"] == ("black1", "black2", "grey8", "black4", "black5")


def test_the_card_just_put_down_cannot_be_taken_back():
    state = game(hands={1: ALMOST_ZERO})
    with pytest.raises(IllegalAction, match="take back"):
        swap(state, 1, "grey8", "grey8")
    swaps = [action for action in RULES.legal_actions(state, 1) if action["type"] == "swap"]
    assert all(action["give"] != action["take"] for action in swaps)


def test_a_swap_gives_a_held_card_and_takes_a_pool_card():
    state = game(hands={1: ALMOST_ZERO}, pool=["black1", "black2", "black3", "black4", "black5"])
    with pytest.raises(IllegalAction, match="do not hold"):
        swap(state, 1, "black1", "black2")
    with pytest.raises(IllegalAction, match="not in the pool"):
        swap(state, 1, "grey8", "black8")
    with pytest.raises(IllegalAction, match="not in the pool"):
        swap(state, 1, "grey8", None)
    assert len(RULES.legal_actions(state, 1)) == 9 * 5 + 1


def test_the_pool_always_keeps_its_size():
    state = RULES.new_game(3, seed=4, options={"pool": 7})
    for _ in range(12):
        seat = state["turn"]
        state = swap(state, seat, state["hands"][seat][-1], state["pool"][-1])
        assert len(state["pool"]) == 7
        assert all(len(hand) == 9 for hand in state["hands"])


def test_the_rounds_first_knock_has_no_effect():
    state = game(players=3, dealer=0)
    knocked = knock(state, 1)
    assert knocked["phase"] == "play" and knocked["turn"] == 2
    assert knocked["hands"] == state["hands"] and knocked["pool"] == state["pool"]
    assert knocked["last"] == {"seat": 1, "type": "knock", "knock": "first"}


def test_the_same_player_may_make_both_knocks():
    state = knock(game(players=3, dealer=0), 1)
    state = swap(state, 2, state["hands"][2][0], state["pool"][0])
    state = swap(state, 0, state["hands"][0][0], state["pool"][0])
    state = knock(state, 1)
    assert state["phase"] == "final"
    assert state["final_turns"] == (2, 0)
    assert state["last"]["knock"] == "second"


def test_second_knock_gives_every_other_player_one_final_turn_clockwise_from_the_knockers_left():
    state = knock(knock(game(players=4, dealer=0), 1), 2)
    assert state["phase"] == "final" and state["turn"] == 3
    turns = []
    while not state["history"]:
        turns.append(state["turn"])
        state = swap(state, state["turn"], state["hands"][state["turn"]][0], state["pool"][0])
    assert turns == [3, 0, 1]
    # After the last of them the round ended and the next was dealt, its knocks not yet made.
    assert state["round"] == 1 and state["phase"] == "play" and state["knocks"] == ()


def test_the_second_knocker_gets_no_final_turn():
    state = knock(knock(game(players=3, dealer=0), 1), 2)
    assert RULES.legal_actions(state, 2) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        knock(state, 2)
    state = knock(knock(state, 0), 1)
    assert len(state["history"]) == 1


def test_knocks_during_the_final_turns_are_passes_and_not_counted():
    state = knock(knock(game(players=3, dealer=0), 1), 2)
    state = knock(state, 0)
    assert state["knocks"] == (1, 2) and state["phase"] == "final" and state["turn"] == 1
    assert state["last"] == {"seat": 0, "type": "knock", "knock": "pass"}


def test_only_the_seat_whose_turn_it_is_may_act():
    state = game(players=3, dealer=0)
    assert RULES.legal_actions(state, 2) == [] and RULES.legal_actions(state, None) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        knock(state, 2)
    with pytest.raises(IllegalAction, match="not an action"):
        RULES.apply(state, 1, {"type": "draw"})


# ZERO


def test_a_swap_that_makes_a_zero_ends_the_round_before_anyone_else_moves():
    state = game(players=3, dealer=0, hands={1: ALMOST_ZERO}, pool=["red5", "black1", "black2"])
    dealt = state["hands"]
    state = swap(state, 1, "grey8", "red5")
    (summary,) = state["last_rounds"]
    assert summary["zero"] == 1 and not summary["from_deal"]
    assert summary["hands"][1] == tuple(sorted(ZERO_HAND, key=DECK.index))
    assert summary["hands"][0] == dealt[0] and summary["hands"][2] == dealt[2]
    assert state["last"] == {"seat": 1, "type": "swap", "give": "grey8", "take": "red5", "zero": True}
    assert state["round"] == 1 and state["dealer"] == 1 and state["turn"] == 2
    assert [seat["zeros"] for seat in RULES.figures(state)] == [0, 1, 0]


def test_a_zero_in_the_final_turns_also_ends_the_round_at_once():
    state = game(players=4, dealer=0, hands={3: ALMOST_ZERO}, pool=["red5", "black1", "black2"])
    state = knock(knock(state, 1), 2)
    state = swap(state, 3, "grey8", "red5")
    assert state["history"][0]["zero"] == 3 and state["round"] == 1


def test_five_of_a_colour_without_five_of_a_number_is_no_zero():
    hand = ["red1", "red2", "red3", "red4", "yellow5", "green5", "blue5", "violet6", "grey8"]
    state = game(players=3, dealer=0, hands={1: hand}, pool=["red5", "black1", "black2"])
    state = swap(state, 1, "grey8", "red5")
    assert state["history"] == () and state["turn"] == 2


def test_a_zero_straight_from_the_deal_ends_the_round_and_counts_as_one_of_the_rounds():
    state = game(players=2, dealer=0, hands={0: ZERO_HAND})
    assert len(state["history"]) == 1
    assert state["history"][0]["zero"] == 0 and state["history"][0]["from_deal"]
    assert state["round"] == 1 and state["dealer"] == 1
    # The last round ended from the deal ends the game.
    both = game(players=2, dealer=1, hands={0: ZERO_HAND}, more_decks=[stacked(2, 0, {1: ZERO_HAND})])
    assert RULES.result(both) is not None and [s["zero"] for s in both["history"]] == [0, 1]
    # Both rounds ended at once, and both are shown face up.
    assert [summary["round"] for summary in both["last_rounds"]] == [1, 2]


def test_zero_from_the_deal_is_checked_from_the_dealers_left():
    hands = {2: ZERO_HAND, 0: OTHER_ZERO_HAND}
    assert game(players=3, dealer=1, hands=hands)["history"][0]["zero"] == 2
    assert game(players=3, dealer=2, hands=hands)["history"][0]["zero"] == 0


# Scoring and end


def test_a_player_who_declared_zero_scores_0_and_the_others_score_as_usual():
    blacks = ["black1", "black2", "black3", "black4", "black5", "grey7", "violet7", "violet8", "grey6"]
    state = game(players=3, dealer=0, hands={1: ALMOST_ZERO, 2: blacks}, pool=["red5", "black6", "grey1"])
    state = swap(state, 1, "grey8", "red5")
    (summary,) = state["last_rounds"]
    assert summary["points"][1] == 0 and summary["scoring"][1]["zero"]
    assert summary["points"][2] == 6 + 7 + 8 and not summary["scoring"][2]["zero"]
    assert summary["points"][0] == hand_score(summary["hands"][0])["points"] > 0


def test_the_rules_scoring_example_scores_20_with_the_red_five_set_aside():
    state = knock_out_the_round(game(players=3, dealer=0, hands={2: EXAMPLE}))
    scoring = state["last_rounds"][0]["scoring"][2]
    assert scoring["points"] == 20
    assert scoring["colour_sets"] == ("red",) and scoring["number_sets"] == ()
    assert set(scoring["set_aside"]) == {"red1", "red2", "red3", "red4", "red5"}
    # The blue 5 still counts, once; the two 7s count once.
    assert scoring["counted"] == (5, 7, 8)
    assert RULES.scores(state)[2] == 20


def test_five_of_a_number_sets_every_card_of_that_number_aside():
    hand = ["red3", "yellow3", "green3", "blue3", "violet3", "red8", "blue8", "grey2", "black1"]
    state = knock_out_the_round(game(players=3, dealer=0, hands={0: hand}))
    scoring = state["last_rounds"][0]["scoring"][0]
    assert scoring["number_sets"] == (3,) and scoring["colour_sets"] == ()
    assert set(scoring["set_aside"]) == {"red3", "yellow3", "green3", "blue3", "violet3"}
    assert scoring["counted"] == (1, 2, 8) and scoring["points"] == 11


def test_each_distinct_number_left_scores_its_face_value_once_however_many_copies():
    assert hand_score(
        ["red7", "yellow7", "green7", "blue7", "red1", "yellow1", "green2", "blue2", "grey8"]
    ) == {
        "colour_sets": (),
        "number_sets": (),
        "set_aside": (),
        "counted": (1, 2, 7, 8),
        "points": 18,
    }


def test_lowest_cumulative_score_wins_and_equal_lowest_all_win():
    low = ["red1", "yellow1", "green1", "blue1", "violet1", "grey1", "black1", "red2", "yellow2"]  # 2
    high = ["red8", "yellow8", "green8", "blue8", "red7", "yellow7", "green6", "blue6", "violet6"]  # 21
    # Round 1 (dealer 0) and round 2 (dealer 1): seat 0 scores 2 + 21, seat 1 21 + 2.
    tied = game(players=2, dealer=0, hands={0: low, 1: high}, more_decks=[stacked(2, 1, {0: high, 1: low})])
    tied = knock_out_the_round(knock_out_the_round(tied))
    assert RULES.result(tied) == {"scores": [23, 23], "winners": [0, 1]}
    one = game(players=2, dealer=0, hands={0: low, 1: high}, more_decks=[stacked(2, 1, {0: low, 1: high})])
    one = knock_out_the_round(knock_out_the_round(one))
    assert RULES.result(one) == {"scores": [4, 42], "winners": [0]}


def test_scores_are_kept_by_round_and_the_game_ends_after_the_nth():
    state = RULES.new_game(3, seed=9)
    while RULES.result(state) is None:
        state = knock_out_the_round(state)
    history = state["history"]
    assert [summary["round"] for summary in history] == [1, 2, 3]
    assert list(history[-1]["scores"]) == RULES.scores(state)
    assert [sum(s["points"][seat] for s in history) for seat in range(3)] == RULES.scores(state)
    assert all(RULES.legal_actions(state, seat) == [] for seat in range(3))
    with pytest.raises(IllegalAction, match="over"):
        knock(state, 0)


# What each seat may see


def test_a_seat_sees_its_own_hand_the_pool_and_only_the_sizes_of_the_others():
    state = game(players=3, dealer=0, hands={0: EXAMPLE})
    view = RULES.view(state, 0)
    assert view["hand"] == sorted(EXAMPLE, key=DECK.index)
    assert view["hand_score"]["points"] == 20
    assert view["pool"] == list(state["pool"])
    assert view["hand_sizes"] == [9, 9, 9]
    assert not strings_in(view) & (set(state["hands"][1]) | set(state["hands"][2]) | set(state["out"]))
    spectator = RULES.view(state, None)
    assert spectator["hand"] == [] and spectator["hand_score"] is None and spectator["legal"] == []


def test_every_swap_and_knock_is_public_with_both_swapped_cards():
    state = game(players=3, dealer=0, hands={1: ALMOST_ZERO}, pool=["black1", "black2", "black3"])
    state = swap(state, 1, "grey8", "black2")
    for seat in (0, 2, None):
        assert RULES.view(state, seat)["last"] == {
            "seat": 1,
            "type": "swap",
            "give": "grey8",
            "take": "black2",
        }
    state = knock(state, 2)
    assert RULES.view(state, 0)["last"] == {"seat": 2, "type": "knock", "knock": "first"}
    assert RULES.view(state, 0)["knocks"] == [2]


def test_the_recent_moves_one_per_seat_are_public_across_a_rounds_end():
    state = game(players=3, dealer=0, hands={1: ALMOST_ZERO}, pool=["black1", "black2", "black3"])
    state = knock(swap(state, 1, "grey8", "black2"), 2)
    assert RULES.view(state, None)["moves"] == [
        {"seat": 1, "type": "swap", "give": "grey8", "take": "black2", "round": 1},
        {"seat": 2, "type": "knock", "knock": "first", "round": 1},
    ]
    state = knock_out_the_round(state)
    moves = RULES.view(state, 0)["moves"]
    assert len(moves) == 3 and [move["round"] for move in moves] == [1, 1, 1]
    assert moves[-1] == {**state["last"], "round": 1}
    state = knock(state, state["turn"])
    assert [move["round"] for move in RULES.view(state, 0)["moves"]] == [1, 1, 2]


def test_whether_the_final_turns_have_begun_is_public():
    state = knock(game(players=3, dealer=0), 1)
    assert RULES.view(state, None)["phase"] == "play" and RULES.view(state, None)["final_turns"] == []
    state = knock(state, 2)
    view = RULES.view(state, 1)
    assert view["phase"] == "final" and view["final_turns"] == [0, 1] and view["knocks"] == [1, 2]


def test_after_a_round_ends_every_hand_is_shown_face_up_with_its_scoring():
    dealt = game(players=3, dealer=0, hands={2: EXAMPLE})
    state = knock_out_the_round(dealt)
    points = [hand_score(hand)["points"] for hand in dealt["hands"]]
    for seat in (0, 1, 2, None):
        view = RULES.view(state, seat)
        (last_round,) = view["last_rounds"]
        assert last_round["hands"] == [list(hand) for hand in dealt["hands"]]
        assert last_round["scoring"][2] == {
            "colour_sets": ["red"],
            "number_sets": [],
            "set_aside": ["red1", "red2", "red3", "red4", "red5"],
            "counted": [5, 7, 8],
            "points": 20,
            "zero": False,
            "colours": [["red", 5], ["yellow", 2], ["green", 1], ["blue", 1]],
            "numbers": [[1, 1], [2, 1], [3, 1], [4, 1], [5, 2], [7, 2], [8, 1]],
            "set_size": 5,
        }
        assert last_round["points"] == points and points[2] == 20
        assert view["scores"] == points
        assert view["history"] == [
            {"round": 1, "dealer": 0, "zero": None, "from_deal": False, "points": points, "scores": points}
        ]


def test_views_never_hold_a_card_hidden_from_that_seat():
    """Stricter than the playouts: outside the last round's hands and the recent swaps, nothing is excused."""
    for players in range(2, 6):
        seed = players
        rng = random.Random(seed)
        state = RULES.new_game(players, seed)
        while RULES.result(state) is None:
            for seat in [*range(players), None]:
                view = RULES.view(state, seat)
                hidden = unseen(state, seat)
                now = {key: value for key, value in view.items() if key != "last_rounds"}
                assert not strings_in(now) & hidden
                # The last rounds as they were, each hand's scoring with what the hand holds besides.
                kept = RULES.dump(state)["last_rounds"]
                assert [{**shown, "scoring": None} for shown in view["last_rounds"]] == [
                    {**summary, "scoring": None} for summary in kept
                ]
                for shown, summary in zip(view["last_rounds"], kept, strict=True):
                    for their, scoring in zip(shown["scoring"], summary["scoring"], strict=True):
                        assert {key: their[key] for key in scoring} == scoring
                assert all(summary["round"] <= state["round"] for summary in view["last_rounds"])
            seat = state["turn"]
            state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))


# Random playouts


def cards_of(state):
    return [*(card for hand in state["hands"] for card in hand), *state["pool"], *state["out"]]


def unseen(state, seat):
    """Other hands and the cards out of the round, less the two cards of each recent swap.

    They are public: a card taken came face up from the pool; and when a swap ended a round, its
    cards say nothing of where they lie in the new deal.
    """
    hidden = set(state["out"])
    hidden |= {card for other, hand in enumerate(state["hands"]) if other != seat for card in hand}
    for move in state["moves"]:
        if move["type"] == "swap":
            hidden -= {move["give"], move["take"]}
    return hidden


def secret(state, seat):
    """What `seat` has not seen, less the cards shown face up at an earlier round's end."""
    shown_before = {card for summary in state["last_rounds"] for hand in summary["hands"] for card in hand}
    return unseen(state, seat) - shown_before


def knock_often(rng, seats):
    """Any seat that may act; a knock one turn in five, else any of its swaps.

    Uniform play knocks once in 9 x pool + 1 turns, so a round runs to some 80 to 160 turns, more than
    the playouts' checks can afford 300 times (test_views_never_hold_a_card_hidden_from_that_seat plays
    uniformly). Every legal action can still be drawn.
    """
    seat, legal = rng.choice(seats)
    knocks = [action for action in legal if action["type"] == "knock"]
    swaps = [action for action in legal if action["type"] == "swap"]
    return seat, rng.choice(knocks if rng.random() < KNOCK_CHANCE else swaps)


KNOCK_CHANCE = 0.2


@pytest.mark.parametrize(("seed", "players"), seeds_and_players(RULES))
def test_random_playouts_keep_every_invariant(seed, players):
    options = {"pool": 7} if seed % 3 == 0 else {}
    random_playout(
        RULES, players, seed, options, deck=DECK, cards_of=cards_of, secret=secret, pick=knock_often
    )
