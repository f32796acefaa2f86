"""Zero Game Hard's search: its lean copy of a round's rules moves in lockstep with the engine, and its
tree makes the moves a round plainly calls for."""

from __future__ import annotations

import random

from zerogames.bots import round_search
from zerogames.games import GAMES

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
