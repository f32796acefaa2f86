"""Ratings from a game's end: who is rated against whom, their places, and the numbers openskill gives."""

from __future__ import annotations

import pytest

from tests.games.playouts import random_playout
from zerogames.games import GAMES
from zerogames.ratings import Rating, is_rated, lines, places, rate

FIVE = ["ann", "bea", "cal", "dan", "eve"]


def rated_lines(game_id: str, state: dict, players: list[str], away: set[int] = frozenset()):
    return lines(GAMES[game_id].rating_sides(state), players, away)


def test_a_five_player_free_for_all_with_a_tie():
    # Zero Game, highest score wins: Bea and Cal tie on 30, Eve is third, Ann fourth, Dan last.
    game = rated_lines("zero_game", {"scores": (10, 30, 30, 5, 20)}, FIVE)
    assert [line.place for line in game] == [4, 1, 1, 5, 3]
    after = rate({}, game)
    assert after["bea"] == after["cal"]
    assert after["ann"].mu == pytest.approx(24.8889, abs=1e-4)
    assert after["bea"].mu == pytest.approx(26.0001, abs=1e-4)
    assert after["eve"].mu == pytest.approx(26.5556, abs=1e-4)
    assert after["dan"].mu == pytest.approx(21.5553, abs=1e-4)
    # openskill 6.2's Plackett-Luce credits a shared first place less than a third place (its known
    # tie handling); the tie is rated equally, and everyone's first game leaves them provisional.
    # Shown as players read it: 1000 at the start, 40 points an ordinal point (Dan's is -2.9: 883).
    assert Rating().shown == "1000"
    assert [after[name].shown for name in FIVE] == ["1016", "1045", "1045", "883", "1074"]
    assert all(rating.games == 1 for rating in after.values())


@pytest.mark.parametrize("game_id", ["cabo", "zero_down"])
def test_where_the_lowest_score_wins_it_places_first(game_id):
    game = rated_lines(game_id, {"scores": (12, 40, 3)}, FIVE[:3])
    assert [line.place for line in game] == [2, 3, 1]


def test_a_trump_card_match_rates_the_two_teams_by_the_cards_they_banked():
    # No KHOTI, so a draw by the rules; the team of seats 1 and 3 banked more and finishes first.
    banked = ((("AS",) * 20), (("KH",) * 32))
    game = rated_lines("trump_card", {"banked": banked}, FIVE[:4])
    assert [(line.side, line.place) for line in game] == [(0, 2), (1, 1), (0, 2), (1, 1)]
    after = rate({}, game)
    assert after["ann"] == after["cal"] and after["bea"] == after["dan"]
    assert after["bea"].mu == pytest.approx(26.9643, abs=1e-4)
    assert after["ann"].mu == pytest.approx(23.0357, abs=1e-4)
    assert after["ann"].sigma == pytest.approx(8.1780, abs=1e-4)


def test_a_player_away_at_the_end_finishes_last_whatever_the_score():
    game = rated_lines("zero_game", {"scores": (10, 30, 25, 5, 20)}, FIVE, away={1})
    assert [line.place for line in game] == [3, 5, 1, 4, 2]
    # Two away: both below everyone who was there, in the order of their scores.
    game = rated_lines("zero_game", {"scores": (10, 30, 25, 5, 20)}, FIVE, away={1, 3})
    assert [line.place for line in game] == [3, 4, 1, 5, 2]
    # In Trump Card the away player's whole team finishes last.
    banked = ((("AS",) * 40), (("KH",) * 12))
    game = rated_lines("trump_card", {"banked": banked}, FIVE[:4], away={2})
    assert [line.place for line in game] == [2, 1, 2, 1]


def test_ties_share_a_place_and_the_next_place_skips():
    sides = GAMES["zero"].rating_sides({"safe": ((("2H",),), (), (("3S",),), ())})
    assert places(sides) == [1, 3, 1, 3]


def test_only_games_of_signed_up_players_in_ranked_rooms_are_rated():
    assert is_rated(True, ["ann", "bea"])
    assert not is_rated(False, ["ann", "bea"])  # an unranked room
    assert not is_rated(True, ["ann", None])  # a bot, or a guest
    assert not is_rated(True, ["ann"])


def test_a_rating_goes_on_from_the_one_before():
    before = {"ann": Rating(30.0, 4.0, 40), "bea": Rating(20.0, 4.5, 35)}
    after = rate(before, rated_lines("cabo", {"scores": (50, 10)}, ["ann", "bea"]))
    assert after["bea"].mu > 20.0 and after["ann"].mu < 30.0
    assert (after["ann"].games, after["bea"].games) == (41, 36)
    assert not after["ann"].provisional and after["ann"].shown == str(round(1000 + 40 * after["ann"].ordinal))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_places_its_winners_first(game_id):
    rules = GAMES[game_id]
    for seed in range(3):
        state = random_playout(rules, 4, seed, checks=False).final
        result = rules.result(state)
        sides = rules.rating_sides(state)
        placed = places(sides)
        firsts = {
            seat for side, place in zip(sides, placed, strict=True) if place == 1 for seat in side.seats
        }
        # Every winner by the rules is first; a game the rules call a draw (Trump Card) still ranks.
        assert set(result["winners"]) <= firsts
        assert sorted(seat for side in sides for seat in side.seats) == [0, 1, 2, 3]
