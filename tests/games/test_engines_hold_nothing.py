"""Every room and bot thread shares one engine per game: an engine holds nothing of a table between
calls. A memo kept in the game object or its module would be shared by every room and thread, and
would keep the last table each of them showed alive after the room let it go."""

from __future__ import annotations

import gc
import random
import weakref

import pytest

from zerogames.games import GAMES


class Table(dict):
    """A state a weak reference can follow (a plain dict cannot be referred to weakly)."""


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_table_let_go_is_held_by_no_engine(game_id):
    rules = GAMES[game_id]
    pick = random.Random(game_id).random
    players = rules.max_players
    state, now, held = rules.new_game(players, seed=3), 0.0, []
    for _ in range(120):
        if rules.result(state) is not None:
            break
        state = Table(state)
        held.append(weakref.ref(state))
        # As a room does: each seat's view and list, then one listed move applied.
        listed = [(seat, rules.legal_actions(state, seat, now)) for seat in range(players)]
        acting = [(seat, legal) for seat, legal in listed if legal]
        rules.view(state, None, now)
        seat, legal = acting[int(pick() * len(acting))]
        rules.view(state, seat, now)
        state = rules.apply(state, seat, legal[int(pick() * len(legal))], now)
        now += 1.0
    del state, listed, acting, legal
    gc.collect()
    assert len(held) > 10
    assert [ref for ref in held if ref() is not None] == []
