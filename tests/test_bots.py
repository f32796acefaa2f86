"""Every bot, in every seat, plays whole games from its view alone and only makes legal moves."""
# (A bot may also wait; the game must still go on.)

from __future__ import annotations

import random

import pytest

from zerogames.bots import BOTS, choose
from zerogames.games import GAMES


@pytest.mark.parametrize("game_id", sorted(BOTS))
@pytest.mark.parametrize("seed", range(10))
def test_bots_finish_games_with_legal_moves(game_id, seed):
    rules = GAMES[game_id]
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    state = rules.new_game(players, seed)
    rng = random.Random(seed)
    now = 0.0
    for _ in range(100_000):
        if rules.result(state) is not None:
            break
        acting = [seat for seat in range(players) if rules.legal_actions(state, seat, now)]
        rng.shuffle(acting)
        # Seats are asked in a random order; a bot may wait (return None), but someone must act.
        for seat in acting:
            legal = rules.legal_actions(state, seat, now)
            action = choose(game_id, rules.view(state, seat, now), legal, "easy", rng)
            if action is not None:
                break
        assert action in legal
        state = rules.apply(state, seat, action, now)
        now += 1.0
    assert rules.result(state) is not None
