"""Every room and bot thread shares one engine per game: an engine holds nothing of a table between
calls. A memo kept in the game object or its module would be shared by every room and thread, and
would keep the last table each of them showed alive after the room let it go. Nor does a call leave
a reference cycle behind: the collections a busy server would need to find them walk every table."""

from __future__ import annotations

import gc
import random
import subprocess
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from zerogames.games import GAMES

ROOT = Path(__file__).resolve().parents[2]


class Table(dict):
    """A state a weak reference can follow (a plain dict cannot be referred to weakly)."""


def played(game_id: str, seed: int) -> Iterator[Table]:
    """A random game, as a room plays it: at each step every seat's list and view, then one listed
    move applied; yields each state (120 at most) before its step."""
    rules = GAMES[game_id]
    pick = random.Random(f"{game_id} {seed}").random
    players = rules.max_players
    state, now = rules.new_game(players, seed=seed), 0.0
    for _ in range(120):
        if rules.result(state) is not None:
            return
        state = Table(state)
        yield state
        listed = [(seat, rules.legal_actions(state, seat, now)) for seat in range(players)]
        acting = [(seat, legal) for seat, legal in listed if legal]
        rules.view(state, None, now)
        seat, legal = acting[int(pick() * len(acting))]
        rules.view(state, seat, now)
        state = rules.apply(state, seat, legal[int(pick() * len(legal))], now)
        now += 1.0


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_table_let_go_is_held_by_no_engine(game_id):
    held = [weakref.ref(state) for state in played(game_id, seed=3)]
    gc.collect()
    assert len(held) > 10
    assert [ref for ref in held if ref() is not None] == []


def cycles_left(game_id: str, seed: int) -> tuple[int, int]:
    """(moves, objects the collector found in reference cycles after them) for a game played with
    the collector off."""
    gc.collect()
    gc.disable()
    try:
        steps = sum(1 for _ in played(game_id, seed))
        return steps, gc.collect()
    finally:
        gc.enable()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_played_leaves_nothing_to_the_garbage_collector(game_id):
    # In a process of its own: the collector counts every thread's cycles, and a test process has
    # others (the schedulers of apps other tests started) making theirs meanwhile. A deal of its own
    # too: the engines' memos (of hands, say) have not seen its positions.
    alone = subprocess.run(
        [sys.executable, "-c", f"from {__name__} import cycles_left; print(*cycles_left({game_id!r}, 4))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    steps, left = map(int, alone.stdout.split())
    assert steps > 10
    assert left == 0, f"{left} objects in reference cycles after {steps} moves"
