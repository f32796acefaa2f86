"""Every engine's end as one value (`Outcome`), finished and abandoned, on random playouts."""

from __future__ import annotations

import pytest

from tests.games.playouts import random_playout
from zerogames.games import GAMES
from zerogames.games.base import Side, ranks


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_finished_game_places_its_winners_first_and_every_seat_by_its_standing(game_id):
    rules = GAMES[game_id]
    playout = random_playout(rules, rules.min_players + 1 if rules.max_players > 4 else 4, 3, checks=False)
    state = playout.final
    outcome = rules.outcome(state)
    result = rules.result(state)
    assert outcome.how == "finished" and outcome.finished and outcome.result == result
    assert list(outcome.scores) == result["scores"] and list(outcome.winners) == result["winners"]
    assert list(outcome.figures) == rules.figures(state) and list(outcome.sides) == rules.rating_sides(state)
    if outcome.winners:
        assert {seat for seat, place in enumerate(outcome.places) if place == 1} == set(outcome.winners)
        better = -1 if rules.lowest_wins else 1
        standings = [better * score for score in outcome.scores]
        assert all(
            (outcome.places[a] < outcome.places[b]) == (standings[a] > standings[b])
            for a in range(len(standings))
            for b in range(len(standings))
        )


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_abandoned_where_it_stands_has_no_result_winners_or_places(game_id):
    rules = GAMES[game_id]
    state = rules.new_game(rules.min_players, seed=1)
    with pytest.raises(ValueError):
        rules.outcome(state)
    outcome = rules.outcome(state, abandoned=True)
    assert (outcome.how, outcome.finished, outcome.result, outcome.winners) == ("abandoned", False, None, ())
    assert outcome.places == (None,) * rules.min_players
    assert list(outcome.scores) == rules.scores(state) and list(outcome.figures) == rules.figures(state)


def test_equal_standings_share_a_place_and_the_next_place_skips():
    assert ranks([30, 20, 20, 10]) == [1, 2, 2, 4]
    outcome = GAMES["zero_game"].outcome(
        {**GAMES["zero_game"].new_game(3, 1), "phase": "over", "scores": (30, 30, 10)}
    )
    assert outcome.winners == (0, 1) and outcome.places == (1, 1, 3)
    assert outcome.sides == (Side((0,), 30), Side((1,), 30), Side((2,), 10))
