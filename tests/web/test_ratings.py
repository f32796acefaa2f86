"""Ratings kept by the store: updated as games end, recomputed from the history, read as leaderboards."""

from __future__ import annotations

import random

import pytest

from zerogames import recompute_ratings
from zerogames.games import GAMES
from zerogames.games.base import Side
from zerogames.ratings import PROVISIONAL_SIGMA, lines
from zerogames.store import Store

PLAYERS = [f"player-{n}" for n in range(12)]
EVERY_GAME = tuple(sorted(GAMES))


def simulate_rated_games(store: Store, games: int, kinds=EVERY_GAME, seed: int = 7) -> None:
    """Rated games between a dozen players, each game's end recorded in a transaction of its own."""
    rng = random.Random(seed)
    for number in range(games):
        game_id = kinds[number % len(kinds)]
        rules = GAMES[game_id]
        players = rng.sample(PLAYERS, rng.randint(rules.min_players, min(rules.max_players, 5)))
        teams = [(0, 2), (1, 3)] if game_id == "trump_card" else [(seat,) for seat in range(len(players))]
        sides = [Side(seats, rng.randint(0, 3)) for seats in teams]
        away = {rng.randrange(len(players))} if rng.random() < 0.1 else set()
        with store.transaction():
            store.rate_game(game_id, "ROOM", number, lines(sides, players, away), float(number))


def stored(store: Store):
    return (
        store.db.execute("select * from ratings order by game, player").fetchall(),
        store.db.execute("select * from rating_history order by game, n, seat").fetchall(),
    )


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "ratings.db")


def test_recomputing_from_the_history_gives_the_stored_ratings(store):
    simulate_rated_games(store, 200)
    before = stored(store)
    assert len(before[0]) > 40
    assert store.recompute_ratings() == (200, len(before[0]), 0)
    assert stored(store) == before
    # A rating that went wrong is put right.
    wrong = store.db.execute("update ratings set mu = mu + 1 where player = 'player-3'").rowcount
    assert wrong and store.recompute_ratings() == (200, len(before[0]), wrong)
    assert stored(store) == before


def test_a_leaderboard_lists_settled_ratings_best_first(store):
    simulate_rated_games(store, 150, kinds=["zero_game"])
    board = store.leaderboard("zero_game", 0, 100)
    ordinals = [rating.ordinal for _, rating in board]
    assert board and ordinals == sorted(ordinals, reverse=True)
    assert all(rating.sigma <= PROVISIONAL_SIGMA for _, rating in board)
    for place, (player, _) in enumerate(board, start=1):
        assert store.leaderboard_place("zero_game", player) == place
    assert store.leaderboard("zero_game", 2, 3) == board[2:5]
    settled = {player for player, _ in board}
    provisional = [p for p in PLAYERS if p not in settled and store.ratings_of("zero_game", [p])]
    assert all(store.leaderboard_place("zero_game", p) is None for p in provisional)
    assert store.leaderboard_place("zero_game", "nobody") is None


def test_a_players_history_of_ratings_ends_at_their_rating(store):
    simulate_rated_games(store, 40)
    history = store.player_ratings("player-0")
    for game, ratings in history.items():
        (now,) = store.ratings_of(game, ["player-0"]).values()
        assert ratings[-1].mu == now.mu and len(ratings) == now.games


def test_the_operators_command_recomputes_and_says_what_changed(tmp_path, capsys):
    path = tmp_path / "site.db"
    simulate_rated_games(Store(path), 20)
    assert recompute_ratings.main([str(path)]) == 0
    assert capsys.readouterr().out == "Recomputed 20 rated games: 48 ratings, 0 changed.\n"
    assert recompute_ratings.main([str(tmp_path / "none.db")]) == 1
