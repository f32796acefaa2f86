"""Zero, one test per line of docs/rules/zero.md, on stacked decks and arranged tables; then playouts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.games.playouts import random_playout, seeds_and_players
from tests.games.stacking import deck_dealing
from zerogames.games import GAMES, IllegalAction
from zerogames.games.zero.rules import DECK

RULES = GAMES["zero"]


def cards_of(state):
    """Every card's place: hands, the pile, the cards played this trick, the safe sets."""
    return [
        *(card for hand in state["hands"] for card in hand),
        *state["pile"],
        *(card for card in state["played"] if card is not None),
        *(card for sets in state["safe"] for cards in sets for card in cards),
    ]


def game(hands, first=0, pile=()):
    """A new game whose deal gives `hands` (by seat) and whose pile starts with `pile` (top first)."""
    deck = deck_dealing(hands, first, DECK, then=pile)
    return RULES.new_game(len(hands), seed=7, options={"first_guesser": first, "decks": [deck]})


def arranged(hands, pile=(), first=0, trick=1, safe=None, rest="pile"):
    """A trick about to be played with these hands, `pile` on top of the pile and these safe sets.

    Every other card goes under the pile, or (rest="safe") lies safe in front of the last seat, so
    that the pile is exactly `pile`.
    """
    players = len(hands)
    safe = [list(sets) for sets in safe] if safe else [[] for _ in range(players)]
    others = Counter(DECK)
    others.subtract([*(c for hand in hands for c in hand), *pile, *(c for s in safe for cs in s for c in cs)])
    assert min(others.values()) >= 0, "more of a card than the deck holds"
    if rest == "safe":
        safe[-1].append(tuple(sorted(others.elements())))
    else:
        pile = (*pile, *sorted(others.elements()))
    state = RULES.new_game(players, seed=7, options={"first_guesser": first})
    state = {
        **state,
        "trick": trick,
        "hands": tuple(tuple(sorted(hand)) for hand in hands),
        "pile": tuple(pile),
        "safe": tuple(tuple(tuple(cards) for cards in sets) for sets in safe),
    }
    assert Counter(cards_of(state)) == Counter(DECK)
    return state


def act(state, seat, kind, **details):
    return RULES.apply(state, seat, {"type": kind, **details})


def play_all(state, cards):
    """Every seat plays its card (by seat), in seat order."""
    for seat, card in enumerate(cards):
        state = act(state, seat, "play", card=card)
    return state


def guess_all(state, totals):
    """The guesses in guessing order, from the trick's first guesser."""
    for total in totals:
        state = act(state, state["turn"], "guess", total=total)
    return state


def trick(state, cards, totals):
    return guess_all(play_all(state, cards), totals)


# Set-up


def test_the_deck_is_55_cards_from_minus_3_to_3():
    assert len(DECK) == 55
    assert Counter(DECK) == {-3: 1, -2: 2, -1: 6, 0: 12, 1: 8, 2: 13, 3: 13}


def test_three_to_seven_players_and_bad_options_are_refused():
    for players in (3, 7):
        assert len(RULES.new_game(players, seed=1)["hands"]) == players
    for players in (2, 8):
        with pytest.raises(ValueError):
            RULES.new_game(players, seed=1)
    with pytest.raises(ValueError):
        RULES.new_game(3, seed=1, options={"first_guesser": 3})
    with pytest.raises(ValueError):
        RULES.new_game(3, seed=1, options={"dealer": 0})
    with pytest.raises(ValueError):
        RULES.new_game(3, seed=1, options={"decks": [list(DECK[:-1]) + [0]]})
    with pytest.raises(ValueError):
        RULES.new_game(3, seed=1, options={"decks": [[True if card == 1 else card for card in DECK]]})


def test_five_cards_each_dealt_one_at_a_time_from_the_first_guesser_the_rest_is_the_pile():
    deck = list(random.Random(5).sample(DECK, len(DECK)))
    state = RULES.new_game(3, seed=1, options={"first_guesser": 1, "decks": [deck]})
    assert state["hands"][1] == tuple(sorted(deck[0:15:3]))
    assert state["hands"][2] == tuple(sorted(deck[1:15:3]))
    assert state["hands"][0] == tuple(sorted(deck[2:15:3]))
    assert state["pile"] == tuple(deck[15:])


def test_only_the_piles_size_is_public():
    state = RULES.new_game(4, seed=2)
    for seat in (0, None):
        view = RULES.view(state, seat)
        assert view["pile_size"] == 35
        assert "pile" not in view


def test_the_first_guesser_is_drawn_from_the_seed_and_the_option_overrides_it():
    drawn = {RULES.new_game(5, seed=s)["first_guesser"] for s in range(30)}
    assert len(drawn) > 1
    assert RULES.new_game(5, seed=4)["first_guesser"] == RULES.new_game(5, seed=4)["first_guesser"]
    assert RULES.new_game(5, seed=4, options={"first_guesser": 3})["first_guesser"] == 3


# A trick: refill and play


def test_refill_to_three_in_seat_order_from_the_first_guesser_until_the_pile_is_empty():
    hands = [[1, 2], [2, 3], [3], [2, 2, 3]]
    state = arranged(hands, pile=(-1, -2, 1), first=1, rest="safe")
    # No exact guess and no 0: the four cards go under the pile, which then holds seven.
    state = trick(state, [1, 2, 3, 2], [0, 1, 2, 3])
    # The next trick's first guesser, seat 2, draws first; seat 1, last, finds only one card left.
    assert state["first_guesser"] == 2
    assert state["hands"] == ((2, 2, 3), (2, 3), (-2, -1, 1), (1, 2, 3))
    assert state["pile"] == ()
    assert state["phase"] == "play"


def test_everyone_plays_one_card_in_any_order():
    state = game([[3, 3, 2, 2, 1], [0, 0, 1, 2, 3], [-1, -1, 2, 3, 3]])
    assert all(RULES.legal_actions(state, seat) for seat in range(3))
    assert [a["card"] for a in RULES.legal_actions(state, 1)] == [0, 1, 2, 3]
    state = act(state, 2, "play", card=-1)
    assert RULES.legal_actions(state, 2) == []
    with pytest.raises(IllegalAction, match="already played"):
        act(state, 2, "play", card=3)
    with pytest.raises(IllegalAction, match="everyone must first play"):
        act(state, 0, "guess", total=4)
    with pytest.raises(IllegalAction, match="do not hold"):
        act(state, 0, "play", card=0)
    state = act(state, 0, "play", card=2)
    assert state["phase"] == "play"
    state = act(state, 1, "play", card=0)
    assert state["phase"] == "guess"
    assert state["hands"][2] == (-1, 2, 3, 3)


def test_a_played_card_stays_secret_until_all_have_played():
    hands = [[3, 3, 2, 2, 1], [0, 0, 1, 2, 3], [-1, -1, 2, 3, 3]]
    seen = []
    for card in (-1, 3):
        state = act(game(hands), 2, "play", card=card)
        assert RULES.view(state, 2)["played_card"] == card
        seen.append([RULES.view(state, seat) for seat in (0, 1, None)])
    assert seen[0] == seen[1]
    assert seen[0][0]["has_played"] == [False, False, True]
    assert seen[0][0]["last"] == {"seat": 2, "type": "play"}


def acting(state):
    return [(seat, legal) for seat in range(state["players"]) if (legal := RULES.legal_actions(state, seat))]


def fresh_trick(seed):
    """A random game's trick at its start where some seat holds two different cards."""
    rng = random.Random(seed)
    players = 3 + seed % 5
    state = RULES.new_game(players, seed)
    for _ in range(rng.randrange(400)):
        if RULES.result(state) is not None:
            state = RULES.new_game(players, seed + 1000)
        seat, legal = rng.choice(acting(state))
        state = RULES.apply(state, seat, rng.choice(legal))
    while not (
        state["phase"] == "play"
        and state["played"] == (None,) * players
        and any(len(set(hand)) > 1 for hand in state["hands"])
    ):
        if RULES.result(state) is not None:
            state = RULES.new_game(players, seed + 2000)
            continue
        seat, legal = rng.choice(acting(state))
        state = RULES.apply(state, seat, rng.choice(legal))
    return state, rng


@pytest.mark.parametrize("seed", range(100))
def test_no_view_tells_which_card_another_seat_played_before_the_reveal(seed):
    """Many random tables: whatever card the target plays, every other seat sees the same views."""
    state, rng = fresh_trick(seed)
    players = state["players"]
    target = rng.choice([seat for seat, hand in enumerate(state["hands"]) if len(set(hand)) > 1])
    order = rng.sample(range(players), players)
    theirs = {seat: rng.choice(state["hands"][seat]) for seat in range(players)}
    picks = [rng.random() for _ in range(players)]
    watchers = [*(seat for seat in range(players) if seat != target), None]
    runs = []
    for card in sorted(set(state["hands"][target])):
        now, seen = state, []
        for seat in order:
            now = act(now, seat, "play", card=card if seat == target else theirs[seat])
            seen.append([RULES.view(now, watcher) for watcher in watchers])
        # Every guess but the last, which reveals the cards.
        for pick in picks[:-1]:
            legal = RULES.legal_actions(now, now["turn"])
            now = RULES.apply(now, now["turn"], legal[int(pick * len(legal))])
            seen.append([RULES.view(now, watcher) for watcher in watchers])
        assert RULES.view(now, target)["played_card"] == card
        runs.append(seen)
    assert all(run == runs[0] for run in runs[1:])


# A trick: guesses


def test_guesses_go_clockwise_from_the_first_guesser():
    state = play_all(arranged([[1], [2], [3], [2]], first=2), [1, 2, 3, 2])
    order = []
    while state["phase"] == "guess":
        order.append(state["turn"])
        with pytest.raises(IllegalAction, match="not your turn"):
            act(state, (state["turn"] + 1) % 4, "guess", total=-1)
        state = act(state, state["turn"], "guess", total=len(order))
    assert order == [2, 3, 0, 1]


def test_guesses_must_all_differ():
    state = guess_all(play_all(arranged([[1], [2], [3]]), [1, 2, 3]), [4])
    assert {"type": "guess", "total": 4} not in RULES.legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="already been guessed"):
        act(state, 1, "guess", total=4)
    state = act(state, 1, "guess", total=5)
    with pytest.raises(IllegalAction, match="already been guessed"):
        act(state, 2, "guess", total=5)


def test_a_guess_lies_between_minus_3n_and_3n():
    state = play_all(arranged([[1], [2], [3], [3]]), [1, 2, 3, 3])
    assert [a["total"] for a in RULES.legal_actions(state, 0)] == list(range(-12, 13))
    assert RULES.view(state, 0)["guess_range"] == [-12, 12]
    for bad in (-13, 13, 1.5, "2", True, None):
        with pytest.raises(IllegalAction, match="whole number from -12 to 12"):
            act(state, 0, "guess", total=bad)


def test_the_first_guesser_moves_one_seat_left_every_trick():
    state = RULES.new_game(3, seed=9, options={"first_guesser": 1})
    first_guessers = []
    while len(first_guessers) < 4:
        if state["phase"] == "guess" and not state["guesses"]:
            first_guessers.append(state["turn"])
        seat, legal = acting(state)[0]
        state = RULES.apply(state, seat, legal[-1])
    assert first_guessers == [1, 2, 0, 1]


# A trick: the reveal


def test_an_exact_guess_takes_all_the_played_cards():
    state = arranged([[3, 1], [0, 2], [2, 2]])
    # Seat 1's lone 0 would take them, but the exact guess comes first.
    state = trick(state, [3, 0, 2], [5, 4, 6])
    assert state["hands"] == ((0, 1, 2, 3), (2,), (2,))
    assert state["reveal"]["outcome"] == "guessed" and state["reveal"]["taker"] == 0
    assert RULES.view(state, 1)["reveal"]["cards"] == [3, 0, 2]
    assert RULES.view(state, 1)["reveal"]["total"] == 5


def test_without_an_exact_guess_a_lone_zero_takes_all():
    state = trick(arranged([[3, 1], [0, 2], [2, 2]]), [3, 0, 2], [4, 6, -1])
    assert state["hands"] == ((1,), (0, 2, 2, 3), (2,))
    assert state["reveal"]["outcome"] == "zero" and state["reveal"]["taker"] == 1


def test_several_zeros_cancel_each_takes_back_its_zero_the_rest_go_under_the_pile():
    state = arranged([[0, 1], [0, 2], [3, 2]], pile=(-1, -1, -1, -1))
    state = trick(state, [0, 0, 3], [4, 6, -1])
    assert state["pile"][-1] == 3
    # Each 0 is back in its owner's hand (next to the -1s of the next trick's refill).
    assert state["hands"] == ((-1, 0, 1), (-1, 0, 2), (-1, -1, 2))
    assert state["reveal"]["outcome"] == "zeros_cancel" and state["reveal"]["zeros"] == (0, 1)
    # Taking back one's own 0 is no taking of cards: no safe sets, the next trick starts.
    assert state["phase"] == "play" and state["trick"] == 2


def test_otherwise_every_played_card_goes_under_the_pile_in_seat_order_from_seat_0():
    state = arranged([[3, 3], [1, 2], [2, -1]], first=1)
    state = trick(state, [3, 1, 2], [0, 1, 2])
    assert state["pile"][-3:] == (3, 1, 2)
    assert state["reveal"]["outcome"] == "pile" and state["reveal"]["taker"] is None


# Safe sets


def test_only_the_player_who_just_took_cards_may_lay_safe_sets():
    state = trick(arranged([[3, 0], [0, 2], [2, 0]]), [3, 0, 2], [4, 6, -1])
    assert state["phase"] == "safe" and state["turn"] == 1
    assert RULES.legal_actions(state, 0) == [] and RULES.legal_actions(state, 2) == []
    with pytest.raises(IllegalAction, match="just took"):
        act(state, 0, "safe", cards=[0])
    state = act(state, 1, "done")
    # Seat 0 still holds a 0, but took nothing: it may only play.
    with pytest.raises(IllegalAction, match="just took"):
        act(state, 0, "safe", cards=[0])


def test_a_safe_set_sums_to_exactly_0_or_10_and_each_set_is_one_action():
    state = trick(arranged([[1], [0, -1], [3, 3, 2, 1]]), [1, 0, 3], [5, 6, -1])
    assert state["hands"][1] == (-1, 0, 1, 3)
    sets = [a["cards"] for a in RULES.legal_actions(state, 1) if a["type"] == "safe"]
    assert sorted(sets) == [[0], [1, -1], [1, 0, -1]]
    assert RULES.legal_actions(state, 1)[-1] == {"type": "done"}
    with pytest.raises(IllegalAction, match="exactly 0 or exactly 10"):
        act(state, 1, "safe", cards=[3, 1])
    with pytest.raises(IllegalAction, match="do not hold"):
        act(state, 1, "safe", cards=[3, 3, 3, 1])
    state = act(state, 1, "safe", cards=[0])
    assert state["safe"][1] == ((0,),)
    assert state["phase"] == "safe"


def test_a_set_of_10_and_a_lone_zero_are_both_safe_sets():
    state = trick(arranged([[2], [0, 3, 3, 2], [2]]), [2, 0, 2], [-1, -2, -3])
    state = act(state, 1, "safe", cards=[3, 3, 2, 2])
    state = act(state, 1, "safe", cards=[0])
    assert RULES.view(state, 2)["safe"][1] == [[3, 3, 2, 2], [0]]


def test_done_ends_the_safe_set_step():
    state = trick(arranged([[2, 1], [0, 3], [2, 2]]), [2, 0, 2], [-1, -2, -3])
    state = act(state, 1, "done")
    assert state["phase"] == "play" and state["trick"] == 2
    assert state["hands"][1] == (0, 2, 2, 3) and state["safe"][1] == ()


def test_the_step_ends_by_itself_at_once_when_the_taker_holds_no_set():
    # Seat 0 guesses 3 exactly and takes three 1s: seven 1s make no 0 and no 10.
    state = trick(arranged([[1, 1, 1, 1, 1], [1, 2], [1, 2]]), [1, 1, 1], [3, 4, 5])
    assert state["hands"][0] == (1,) * 7
    assert state["phase"] == "play" and state["trick"] == 2


def test_below_three_after_a_set_refill_at_once_and_use_the_new_cards():
    state = arranged([[2], [3], [0]], pile=(-2, 2, 2))
    state = trick(state, [2, 3, 0], [-1, -2, -3])
    assert state["phase"] == "safe" and state["hands"][2] == (0, 2, 3)
    state = act(state, 2, "safe", cards=[0])
    # Two cards left: the top of the pile, -2, comes at once and makes a new set with the 2.
    assert state["hands"][2] == (-2, 2, 3) and state["last"]["drew"] == 1
    assert {"type": "safe", "cards": [2, -2]} in RULES.legal_actions(state, 2)
    state = act(state, 2, "safe", cards=[-2, 2])
    # 2 + 2 + 3 makes no set: the step ends by itself and the next trick begins.
    assert state["safe"][2] == ((0,), (2, -2))
    assert state["phase"] == "play" and state["trick"] == 2


# End


def test_the_game_ends_when_a_player_has_no_card_and_the_pile_is_empty():
    hands = [[3], [2, 3], [2, 1]]
    state = trick(arranged(hands, first=1, rest="safe"), [3, 2, 2], [7, 1, 2])
    # Seat 1 guessed 7 and lays its safe set; the game is not over until the next end check.
    assert state["phase"] == "safe" and state["hands"][0] == ()
    state = act(state, 1, "safe", cards=[3, 3, 2, 2])
    assert state["phase"] == "over" and RULES.result(state)["end"] == "empty"
    assert RULES.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        act(state, 0, "play", card=1)


def test_the_game_goes_on_while_the_pile_can_refill_an_empty_hand():
    hands = [[3], [2, 3], [2, 1]]
    state = trick(arranged(hands, pile=(1, 1, 1), first=1, rest="safe"), [3, 2, 2], [7, 1, 2])
    state = act(state, 1, "done")
    # Seat 2, the next first guesser, draws two; seat 0 draws the last card and can play.
    assert state["phase"] == "play"
    assert state["hands"][2] == (1, 1, 1)
    assert state["hands"][0] == (1,) and state["pile"] == ()


def test_the_game_ends_after_the_100th_trick_its_safe_set_step_included():
    hands = [[2, 1], [0, 3, 3, 2], [2, 1]]
    state = trick(arranged(hands, trick=99), [2, 0, 2], [-1, -2, -3])
    state = act(state, 1, "done")
    assert state["phase"] == "play" and state["trick"] == 100
    state = trick(arranged(hands, trick=100), [2, 0, 2], [-1, -2, -3])
    assert state["phase"] == "safe"
    state = act(state, 1, "safe", cards=[3, 3, 2, 2])
    assert state["phase"] == "safe"
    state = act(state, 1, "done")
    assert state["phase"] == "over" and RULES.result(state)["end"] == "cap"
    assert RULES.scores(state)[1] == 4


def test_one_point_per_safe_card_and_equal_highest_scores_all_win():
    safe = [[(3, 3, 2, 2)], [(0,), (1, -1), (-3, 3)], []]
    state = arranged([[1], [2], [0, 3]], trick=100, safe=safe)
    state = trick(state, [1, 2, 0], [-1, -2, -3])
    # Seat 2's lone 0 took the cards; it lays the 0 and holds no other set: the game is over.
    state = act(state, 2, "safe", cards=[0])
    assert RULES.result(state) == {"scores": [4, 5, 1], "winners": [1], "end": "cap"}
    safe = [[(3, 3, 2, 2), (0,)], [(0,), (1, -1), (-3, 3)], []]
    state = trick(arranged([[1], [2], [0, 3]], trick=100, safe=safe), [1, 2, 0], [-1, -2, -3])
    state = act(state, 2, "done")
    assert RULES.result(state)["winners"] == [0, 1]


# What each seat may see


def test_a_seat_sees_its_hand_every_hand_size_the_pile_size_guesses_and_safe_cards():
    state = arranged([[3, 3], [0, 2], [2, 2]], pile=(1,), safe=[[], [(1, -1)], []])
    state = guess_all(play_all(state, [3, 0, 2]), [4])
    view = RULES.view(state, 1)
    assert view["hand"] == [2] and view["played_card"] == 0
    assert view["hand_sizes"] == [1, 1, 1]
    assert view["pile_size"] == len(state["pile"])
    assert view["has_played"] == [True, True, True]
    assert view["guesses"] == [[0, 4]]
    assert view["safe"] == [[], [[1, -1]], []] and view["scores"] == [0, 2, 0]
    assert view["phase"] == "guess" and view["turn"] == 1 and view["first_guesser"] == 0
    assert view["trick"] == 1
    spectator = RULES.view(state, None)
    assert spectator["hand"] == [] and spectator["played_card"] is None and spectator["legal"] == []


def test_the_last_reveal_stays_on_view_until_the_next_reveal():
    state = trick(arranged([[3, 1, 1], [2, 2, 2], [2, 3, 3]]), [3, 2, 2], [-1, -2, -3])
    first = RULES.view(state, 0)["reveal"]
    assert first == {
        "trick": 1,
        "cards": [3, 2, 2],
        "total": 7,
        "guesses": [[0, -1], [1, -2], [2, -3]],
        "outcome": "pile",
        "taker": None,
        "zeros": [],
    }
    state = guess_all(play_all(state, [1, 2, 3]), [-1, -2])
    assert RULES.view(state, 0)["reveal"] == first
    assert RULES.view(state, 0)["last"] == {"seat": 2, "type": "guess", "total": -2}
    state = act(state, state["turn"], "guess", total=-3)
    assert RULES.view(state, 0)["reveal"]["trick"] == 2
    assert RULES.view(state, 0)["last"] == {"seat": 0, "type": "guess", "total": -3, "revealed": True}


# Random playouts


@pytest.mark.parametrize(("seed", "players"), seeds_and_players(RULES))
def test_random_playouts_keep_every_invariant(seed, players):
    # Card codes are numbers, which the playouts' string leak check cannot follow: the secrecy of
    # played cards has its own test above.
    random_playout(RULES, players, seed, deck=DECK, cards_of=cards_of, secret=None)
