"""Thinking processes (zerogames.offload.Thinkers): a Hard bot's search done apart from the server, as it
would be here, and never lost to a process that dies."""

from __future__ import annotations

import copy
import operator
import os
import random
import threading
import time

import pytest

from tests.games.playouts import acting_seats
from zerogames.bots import Bot
from zerogames.games import GAMES
from zerogames.offload import Thinkers


@pytest.fixture
def thinkers():
    pool = Thinkers(1)
    yield pool
    pool.stop()


def a_hard_decision(game_id: str, seed: int) -> tuple[Bot, dict, list, random.Random]:
    """A Hard bot of seat 0 that has seen a random game up to a turn of its own, and what it is asked."""
    rules, pick = GAMES[game_id], random.Random(seed)
    players = rules.min_players if game_id != "trump_card" else 4
    state, now = rules.new_game(players, seed=seed), 0.0
    bot = Bot(game_id, "hard", budget=8)  # a budget, not the clock, ends its search: the same each time
    moves = pick.randrange(3, 20)
    while (acting := acting_seats(rules, state, players, now)) and (moves > 0 or acting[0][0] != 0):
        bot.see(rules.view(state, 0, now))
        seat, legal = pick.choice(acting) if moves > 0 else acting[0]  # then on to seat 0's turn
        state = rules.apply(state, seat, pick.choice(legal), now)
        moves, now = moves - 1, now + 1.0
    view = rules.view(state, 0, now)
    bot.see(view)
    return bot, view, rules.legal_actions(state, 0, now), random.Random(f"{seed}/ask")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_hard_bot_thinking_apart_chooses_what_it_would_here(thinkers, game_id):
    for seed in range(4):
        bot, view, legal, rng = a_hard_decision(game_id, seed)
        assert legal, f"seed {seed}: seat 0 has a move"
        here = copy.deepcopy(bot).choose(view, legal, copy.deepcopy(rng))
        assert thinkers.run(bot.choose, view, legal, rng) == here, f"seed {seed}"


def test_the_work_is_done_in_another_process(thinkers):
    assert thinkers.run(os.getpid) != os.getpid()
    assert thinkers.run(operator.mul, 6, 7) == 42


def test_what_the_work_raises_is_raised_here(thinkers):
    with pytest.raises(ValueError, match="invalid literal"):
        thinkers.run(int, "seven")
    assert thinkers.run(int, "7") == 7  # and the process goes on


def test_what_the_work_prints_does_not_break_its_answer(thinkers):
    answers = []
    asker = threading.Thread(
        target=lambda: answers.extend(
            [thinkers.run(print, "a stray line"), thinkers.run(operator.add, 2, 3)]
        ),
        daemon=True,  # a broken answer leaves the asker waiting for the rest of a message that never comes
    )
    asker.start()
    asker.join(timeout=10)
    assert answers == [None, 5]


def test_work_whose_process_dies_is_done_here_and_the_next_gets_a_new_process(thinkers):
    first = thinkers.run(os.getpid)
    answers = []
    asker = threading.Thread(target=lambda: answers.append(thinkers.run(time.sleep, 1.0)))
    asker.start()
    time.sleep(0.1)  # the process is asleep in the work
    os.kill(first, 9)
    asker.join(timeout=10)
    assert answers == [None]  # time.sleep's value, from the sleep done here
    second = thinkers.run(os.getpid)
    assert second not in (first, os.getpid())
