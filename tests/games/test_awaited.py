"""The turn clock's half in the engines: who the table waits for in every phase of every game (stacked
decks), and what a timeout may do there; then games played by timeouts alone."""

from __future__ import annotations

import random

import pytest

from tests.games import test_cabo as cabo
from tests.games import test_trump_card as trump_card
from tests.games import test_zero as zero
from tests.games import test_zero_down as zero_down
from tests.games import test_zero_game as zero_game
from zerogames.bots import choose
from zerogames.games import GAMES
from zerogames.games.cards import STANDARD_DECK

# Zero Game


def test_zero_game_awaits_each_bidder_then_each_player_in_turn():
    rules = zero_game.RULES
    state = zero_game.game(players=3, dealer=0, hands=[["2C"], ["3C"], ["4C"]], trump=["5H"], schedule=[1])
    assert rules.awaited(state, 0.0) == [1]  # the bidding starts left of the dealer
    state = zero_game.bids(state, [0, 0])
    assert rules.awaited(state, 0.0) == [0]  # the dealer bids last
    state = zero_game.act(state, 0, bid=0)
    assert rules.awaited(state, 0.0) == [1]  # left of the dealer leads
    state = zero_game.act(state, 1, card="3C")
    assert rules.awaited(state, 0.0) == [2]
    state = zero_game.act(zero_game.act(state, 2, card="4C"), 0, card="2C")
    assert rules.result(state) is not None
    assert rules.awaited(state, 0.0) == []


# Zero


def test_zero_awaits_everyone_still_to_play_then_the_guessers_in_turn():
    rules = zero.RULES
    state = zero.game([[0, 1, 2, 3, 3], [0, 1, 2, 3, 3], [0, 1, 2, 3, 3]], first=1)
    assert rules.awaited(state, 0.0) == [0, 1, 2]
    state = rules.apply(state, 1, {"type": "play", "card": 3})
    assert rules.awaited(state, 0.0) == [0, 2]
    state = rules.apply(rules.apply(state, 0, {"type": "play", "card": 3}), 2, {"type": "play", "card": 3})
    assert rules.awaited(state, 0.0) == [1]  # the first guesser
    state = rules.apply(state, 1, {"type": "guess", "total": 0})
    assert rules.awaited(state, 0.0) == [2]


def test_zero_awaits_the_taker_laying_safe_sets_and_a_timeout_there_is_done():
    rules = zero.RULES
    # Seat 1 guesses the total, 9, and takes the three 3s: 3 3 3 3 1 holds 3 3 3 1, a set of 10.
    state = zero.arranged([[3, 1, 2], [3, 3, 1], [3, 3, -2]], first=1)
    for seat in range(3):
        state = rules.apply(state, seat, {"type": "play", "card": 3})
    state = rules.apply(state, 1, {"type": "guess", "total": 9})
    state = rules.apply(state, 2, {"type": "guess", "total": 0})
    state = rules.apply(state, 0, {"type": "guess", "total": 1})
    assert state["phase"] == "safe"
    assert rules.awaited(state, 0.0) == [1]
    assert len(rules.legal_actions(state, 1, 0.0)) > 1  # sets to lay, and done
    assert rules.timeout_actions(state, 1, 0.0) == [{"type": "done"}]


def test_zero_awaits_nobody_once_the_game_is_over():
    rules = zero.RULES
    # The 100th trick: nobody guesses its total, 4, and the game ends at its close.
    state = zero.arranged([[1, 1, 1], [1, 1, 1], [2, 2, 2]], trick=100)
    for seat, card in ((0, 1), (1, 1), (2, 2)):
        state = rules.apply(state, seat, {"type": "play", "card": card})
    for seat in (0, 1, 2):
        state = rules.apply(state, seat, {"type": "guess", "total": seat + 5})
    assert rules.result(state) is not None
    assert rules.awaited(state, 0.0) == []


# Zero Down


def test_zero_down_awaits_the_player_to_move_through_the_final_turns():
    rules = zero_down.RULES
    state = zero_down.game(players=3, dealer=0)
    assert rules.awaited(state, 0.0) == [1]
    state = rules.apply(state, 1, {"type": "knock"})
    assert rules.awaited(state, 0.0) == [2]
    state = rules.apply(state, 2, {"type": "knock"})  # the second knock: final turns for 0 and 1
    assert state["phase"] == "final"
    assert rules.awaited(state, 0.0) == [0]
    state = rules.apply(rules.apply(state, 0, {"type": "knock"}), 1, {"type": "knock"})
    assert rules.awaited(state, 0.0) == [state["turn"]] and state["round"] == 1


def test_zero_down_awaits_nobody_once_the_game_is_over():
    rules = zero_down.RULES
    state = zero_down.game(players=2, dealer=0)
    while rules.result(state) is None:
        state = rules.apply(state, state["turn"], {"type": "knock"})
    assert rules.awaited(state, 0.0) == []


# Trump Card


def test_trump_card_awaits_the_chooser_then_each_player_in_turn():
    rules = trump_card.RULES
    # Every hand holds every suit: no misdeal, whatever the trump.
    state = trump_card.game([list(STANDARD_DECK[seat::4]) for seat in range(4)], chooser=2)
    assert rules.awaited(state, 0.0) == [2]
    state = trump_card.trump(state, "H")
    assert state["phase"] == "play"
    assert rules.awaited(state, 0.0) == [state["turn"]] == [2]  # the Chooser starts as the Senior
    state = rules.apply(state, 2, rules.legal_actions(state, 2)[0])
    assert rules.awaited(state, 0.0) == [3]


# Cabo


def test_cabo_awaits_every_seat_still_to_say_ready_at_the_opening_peeks():
    rules = cabo.RULES
    state = cabo.game()
    assert rules.awaited(state, 0.0) == [0, 1, 2]
    state = cabo.act(state, 1, "peek", slots=[0, 1])
    assert rules.awaited(state, 0.0) == [0, 2]


def test_cabo_awaits_the_player_to_move_at_every_step_of_a_turn():
    rules = cabo.RULES
    # Seat 0 draws the queen (a look, then a swap).
    state = cabo.started(deck=["QD"])
    assert rules.awaited(state, 0.0) == [0]
    state = cabo.act(state, 0, "draw")
    assert rules.awaited(state, 0.0) == [0]
    state = cabo.act(state, 0, "discard")
    assert state["step"] == "power" and rules.awaited(state, 0.0) == [0]
    state = cabo.act(state, 0, "look", seat=1, slot=0)
    assert rules.awaited(state, 0.0) == [0]
    state = cabo.act(state, 0, "skip")
    assert rules.awaited(state, 0.0) == [1]


def test_cabo_never_awaits_a_snap_and_a_timeout_never_snaps():
    rules = cabo.RULES
    # Seat 0 takes the 8 from the pile in place of its ace: the ace lands, and seat 1 could snap.
    state = cabo.act(
        cabo.started(hands=[["AC", "3C", "4C", "6C"], ["AD", "6D", "9D", "TD"], cabo.HANDS[2]]),
        0,
        "take",
        slot=0,
    )
    assert any(action["type"] == "snap" for action in rules.legal_actions(state, 1, cabo.LATER))
    assert rules.awaited(state, cabo.LATER) == [1]
    assert all(action["type"] != "snap" for action in rules.timeout_actions(state, 1, cabo.LATER))
    assert rules.awaited(state, cabo.LATER) == [1]
    assert not rules.timeout_actions(state, 2, cabo.LATER)  # only snaps for seat 2: nothing to force


def test_cabo_awaits_the_snapper_handing_a_card_over():
    rules = cabo.RULES
    hands = [["AC", "3C", "4C", "6C"], ["AD", "6D", "9D", "TD"], cabo.HANDS[2]]
    state = cabo.act(cabo.started(hands=hands), 0, "take", slot=0)
    state = cabo.act(state, 2, "snap", cabo.LATER, seat=1, slot=0)  # the ace of diamonds on the ace
    assert state["handover"] is not None
    assert rules.awaited(state, cabo.LATER) == [2]


def test_cabo_awaits_nobody_once_the_game_is_over():
    rules = cabo.RULES
    state = cabo.started()
    state = {**state, "scores": (99, 0, 0)}
    state = cabo.call_and_finish(state)
    assert rules.result(state) is not None
    assert rules.awaited(state, cabo.LATER) == []


# Games played by timeouts alone: the Easy bot's move for an awaited seat, from that seat's view, is
# always legal, and the game always ends.


def timeouts_alone(game_id: str, players: int, seed: int) -> int:
    """Play a game where every move is a timeout (oldest awaited seat first); return the moves made."""
    rules = GAMES[game_id]
    state = rules.new_game(players, seed)
    rng = random.Random(seed)
    now, moves = 0.0, 0
    while rules.result(state) is None:
        awaited = rules.awaited(state, now)
        assert awaited, f"nobody is awaited, yet the game is not over (move {moves})"
        seat = awaited[0]
        forced = rules.timeout_actions(state, seat, now)
        action = choose(game_id, rules.view(state, seat, now), forced, "easy", rng)
        assert action is not None and action in rules.legal_actions(state, seat, now)
        state = rules.apply(state, seat, action, now)
        now += 1.0
        moves += 1
        assert moves < 20_000, "the game does not end"
    assert rules.awaited(state, now) == []
    return moves


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", range(4))
def test_a_game_of_timeouts_alone_ends_with_legal_moves(game_id, seed):
    rules = GAMES[game_id]
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    assert timeouts_alone(game_id, players, seed) > 0
