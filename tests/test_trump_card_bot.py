"""Trump Card's Hard searches on a lean copy of the rules: it must agree with the engine on every move."""

from __future__ import annotations

import random

from zerogames.games import GAMES
from zerogames.games.trump_card.bot import Match

RULES = GAMES["trump_card"]


def lean_copy(state: dict) -> Match:
    return Match(
        [list(hand) for hand in state["hands"]],
        [tuple(pair) for pair in state["trick"]],
        len(state["pile"]),
        [len(cards) for cards in state["banked"]],
        state["senior"],
        state["round"],
        state["restricted"],
        state["turn"],
        state["trump"],
    )


def test_the_lean_rules_agree_with_the_engine_on_every_move_of_random_matches():
    """Hundreds of random matches, the lean copy played alongside: the same legal cards, and after
    every card the same hands, round, pile, banks, Senior, restriction and turn."""
    for seed in range(300):
        rng = random.Random(seed)
        state = RULES.new_game(4, seed)
        state = RULES.apply(state, state["turn"], rng.choice(RULES.legal_actions(state, state["turn"])))
        match = lean_copy(state)
        while state["phase"] != "over":
            seat = state["turn"]
            legal = RULES.legal_actions(state, seat)
            assert sorted(match.legal()) == sorted(action["card"] for action in legal)
            card = rng.choice(legal)["card"]
            state = RULES.apply(state, seat, {"type": "play", "card": card})
            match.play(card)
            engine = lean_copy(state)
            for name in Match.__slots__:
                assert getattr(match, name) == getattr(engine, name), (seed, name)
        assert match.turn is None
