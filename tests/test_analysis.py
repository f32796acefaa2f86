"""Where a player lost points (zerogames.analysis): each of a seat's decisions, weighed by Hard's own
evaluation from the seat's view and memory as they were."""

from __future__ import annotations

import random

import pytest

from zerogames import analysis, bots
from zerogames.games import GAMES
from zerogames.store import Record

BUDGET = 3


def short_game(game: str, seed: int = 7) -> Record:
    """A game played to its end by Easy bots (a waiting one plays at random), an action a second, as
    the store records it."""
    rules, rng = GAMES[game], random.Random(seed)
    players = max(2, rules.min_players)
    state, actions, now = rules.new_game(players, seed, {}), [], 0.0
    while rules.result(state) is None:
        now += 1.0
        movers = [seat for seat in range(players) if rules.legal_actions(state, seat, now)]
        if movers:
            seat = rng.choice(movers)
            legal = rules.legal_actions(state, seat, now)
            action = bots.choose(game, rules.view(state, seat, now), legal, "easy", rng) or rng.choice(legal)
            state = rules.apply(state, seat, action, now)
            actions.append((seat, action, now, "player"))
    seats = [{"seat": seat, "name": f"P{seat}", "bot": None} for seat in range(players)]
    return Record("ABCD", 1, game, players, seed, {}, seats, 0.0, now, "finished", actions, {})


def hard_directly(record: Record, seat: int) -> list[tuple[int, list[float]]]:
    """Hard's evaluation called on each view the seat was shown where it chose among several actions,
    its memory fed every view in order as the bot driver feeds it."""
    rules, module = GAMES[record.game], bots.MODULES[record.game]
    bot = bots.Bot(record.game, "hard")
    state = rules.new_game(record.players, record.seed, record.options)
    bot.see(rules.view(state, seat, record.actions[0][2]))
    weighed = []
    for step, (mover, action, now, _by) in enumerate(record.actions, start=1):
        legal = rules.legal_actions(state, seat, now)
        if mover == seat and len(legal) > 1:
            rng = random.Random(f"{record.code}-{record.game_no}/{seat}/{step}")
            view = rules.view(state, seat, record.actions[step - 2][2] if step > 1 else now)
            # What Hard weighs: every legal action, or its shortlist and the player's (Zero Down).
            if hasattr(module, "shortlist"):
                listed = module.shortlist(view, legal, bot.memory)
                legal = listed if action in listed else [*listed, action]
            worths = module.values(view, legal, bot.memory, rng, BUDGET)
            if worths is not None:
                weighed.append((step, worths[legal.index(action)], max(worths)))
        state = rules.apply(state, mover, action, now)
        bot.see(rules.view(state, seat, now))
    return weighed


@pytest.mark.parametrize("game", GAMES)
def test_the_analysis_of_a_short_game_is_hard_evaluating_each_recorded_view(game):
    record = short_game(game)
    found = analysis.analyse(record, 0, BUDGET)
    assert found, "the seat made decisions Hard weighs"
    assert [(d.step, d.played_worth, d.best_worth) for d in found] == hard_directly(record, 0)
    for decision in found:
        assert decision.played == record.actions[decision.step - 1][1]
        assert decision.cost >= 0


def test_the_costliest_decisions_come_first_and_only_those_that_cost():
    move = {"type": "play", "card": "AS"}
    found = [
        analysis.Decision(step, move, played, move, best)
        for step, played, best in [(1, 0.0, 2.0), (2, 1.0, 1.0), (3, -4.0, 1.0), (4, 0.5, 1.0), (5, 0, 3)]
    ]
    assert [d.step for d in analysis.costliest(found)] == [3, 5, 1]
    assert analysis.from_data(analysis.as_data(found)) == found
