"""Ratings kept by the store: updated as games end, recomputed from the history, read as leaderboards."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from tests.web.conftest import as_player, on_both_stores, page, words
from tests.web.test_turn_clock import START, due, moment  # noqa: F401 (moment: a fixture)
from zerogames import clock, recompute_ratings
from zerogames.games import GAMES
from zerogames.games.base import Side
from zerogames.ratings import lines
from zerogames.rooms import Refused, ranked
from zerogames.store import Store, open_store

pytestmark = on_both_stores

PLAYERS = [f"player-{n}" for n in range(12)]
EVERY_GAME = tuple(sorted(GAMES))


def simulate_rated_games(store: Store, games: int, kinds=EVERY_GAME, seed: int = 7) -> None:
    """Rated games between a dozen players, each game's end recorded in a transaction of its own."""
    rng = random.Random(seed)
    sign_up(store, *PLAYERS)
    for number in range(games):
        game_id = kinds[number % len(kinds)]
        rules = GAMES[game_id]
        players = rng.sample(PLAYERS, rng.randint(rules.min_players, min(rules.max_players, 5)))
        teams = [(0, 2), (1, 3)] if game_id == "trump_card" else [(seat,) for seat in range(len(players))]
        sides = [Side(seats, rng.randint(0, 3)) for seats in teams]
        away = {rng.randrange(len(players))} if rng.random() < 0.1 else set()
        with store.transaction():
            store.ratings.rate_game(game_id, "ROOM", number, lines(sides, players, away), float(number))


def stored(store: Store):
    return (
        store.db.execute("select * from ratings order by game, player").fetchall(),
        store.db.execute("select * from rating_history order by game, n, seat").fetchall(),
    )


@pytest.fixture
def store(tmp_path, database_url):
    store = open_store(database_url, tmp_path / "ratings.db")
    yield store
    if database_url:
        store.close()


def test_recomputing_from_the_history_gives_the_stored_ratings(store):
    simulate_rated_games(store, 200)
    before = stored(store)
    assert len(before[0]) > 40
    assert recompute_ratings.recompute(store) == (200, len(before[0]), 0)
    assert stored(store) == before
    # A rating that went wrong is put right.
    wrong = store.db.execute("update ratings set mu = mu + 1 where player = 'player-3'").rowcount
    assert wrong and recompute_ratings.recompute(store) == (200, len(before[0]), wrong)
    assert stored(store) == before


def test_a_leaderboard_lists_every_rated_player_best_first_provisional_ones_too(store):
    simulate_rated_games(store, 20, kinds=["zero_game"])
    board = store.ratings.leaderboard("zero_game", 0, 100)
    rated = [p for p in PLAYERS if store.ratings.of("zero_game", [p])]
    assert {player for player, *_ in board} == set(rated)
    assert any(rating.provisional for *_, rating in board)
    ordinals = [rating.ordinal for *_, rating in board]
    assert ordinals == sorted(ordinals, reverse=True)
    assert store.ratings.leaderboard_length("zero_game", 100) == len(board) > 5
    assert store.ratings.leaderboard_length("zero_game", 5) == 5
    for place, (player, username, _) in enumerate(board, start=1):
        assert store.ratings.leaderboard_place("zero_game", player) == place and username == player
    assert store.ratings.leaderboard("zero_game", 2, 3) == board[2:5]
    assert store.ratings.leaderboard_place("zero_game", "nobody") is None


def test_a_players_history_of_ratings_ends_at_their_rating(store):
    simulate_rated_games(store, 40)
    history = store.ratings.of_player("player-0")
    for game, ratings in history.items():
        (now,) = store.ratings.of(game, ["player-0"]).values()
        assert ratings[-1].mu == now.mu and len(ratings) == now.games


def test_the_operators_command_recomputes_and_says_what_changed(tmp_path, capsys):
    path = tmp_path / "site.db"
    simulate_rated_games(open_store("", path), 20)
    assert recompute_ratings.main([str(path)]) == 0
    assert capsys.readouterr().out == "Recomputed 20 rated games: 48 ratings, 0 changed.\n"
    assert recompute_ratings.main([str(tmp_path / "none.db")]) == 1


# Ranked rooms

ONE_ROUND = {"schedule": [1]}  # Zero Game's shortest: a card each, three bids and three plays


def sign_up(store: Store, *players: str) -> None:
    for player in players:
        store.players.sign_up(player, player.title(), player, "not a password hash")


def seated(registry, players, options=ONE_ROUND, ranked=True):
    """A Zero Game room of these players, the first hosting, marked ranked (or not) and started."""
    room = registry.create("zero_game", dict(options), players[0], players[0].title())
    for player in players[1:]:
        registry.join(room, player, player.title())
    registry.set_ranked(room, players[0], ranked)
    return room


def play_out(registry, room) -> None:
    """Every seat plays its first legal move until the game is over."""
    registry.start(room, room.host)
    while room.status == "playing":
        seat = room.state["turn"]
        legal = room.rules.legal_actions(room.state, seat)
        registry.act(room, room.seats[seat].uid, room.version, legal[0])


def test_the_end_of_a_ranked_game_rates_its_players_at_once(registry):
    sign_up(registry.store, "ann", "bea", "cal")
    room = seated(registry, ["ann", "bea", "cal"])
    assert room.published.ranked and room.published.ratings == ("1000", "1000", "1000")
    play_out(registry, room)
    after = registry.store.ratings.of("zero_game", ["ann", "bea", "cal"])
    assert {player: rating.games for player, rating in after.items()} == {"ann": 1, "bea": 1, "cal": 1}
    # Beside each name at the table: the new ratings, in the publication of the game's end.
    assert room.published.ratings == tuple(after[p].shown for p in ("ann", "bea", "cal"))
    assert room.published.ratings != ("1000", "1000", "1000")
    # The rating came with the game's end: a restarted registry finds both.
    rebuilt = registry.rebuild(room.code)
    assert rebuilt.status == "over" and rebuilt.ranked and rebuilt.ratings == room.published.ratings
    # Another table's game moves Ann's rating: this table shows it from its next game on.
    sign_up(registry.store, "dan")
    play_out(registry, seated(registry, ["ann", "bea", "dan"]))
    moved = registry.store.ratings.of("zero_game", ["ann"])["ann"].shown
    registry.rematch(room, "bea")
    assert room.published.ratings[room.seat_of("ann")] == moved


def test_an_abandoned_ranked_game_is_rated_as_its_scores_stood(registry):
    sign_up(registry.store, "ann", "bea", "cal")
    room = seated(registry, ["ann", "bea", "cal"], options={"schedule": [1, 1]})
    registry.start(room, "ann")
    while room.state["round"] == 0:  # the first round played out, the second left for good
        seat = room.state["turn"]
        registry.act(room, room.seats[seat].uid, room.version, room.rules.legal_actions(room.state, seat)[0])
    scores = room.rules.scores(room.state)
    registry.abandon(room)
    places = registry.store.db.execute("select player, place from rating_history order by seat").fetchall()
    best = max(scores)
    assert [place == 1 for _, place in places] == [score == best for score in scores]
    assert room.published.ratings != ("1000", "1000", "1000")


def test_a_player_marked_away_at_the_end_finishes_last(registry):
    sign_up(registry.store, "ann", "bea", "cal")
    room = seated(registry, ["ann", "bea", "cal"])
    registry.start(room, "ann")
    # Bea timed out that many times in a row: away
    room.facts = replace(room.facts, timeouts={1: clock.AWAY_AFTER})
    assert room.away() == {1}
    rated = ranked.rated_lines(room.facts, room.rules.rating_sides({"scores": (2, 9, 5)}))
    assert [(line.player, line.place) for line in rated] == [("ann", 2), ("bea", 3), ("cal", 1)]


def test_an_unranked_room_never_changes_a_rating(registry):
    sign_up(registry.store, "ann", "bea", "cal")
    play_out(registry, seated(registry, ["ann", "bea", "cal"], ranked=False))
    assert registry.store.ratings.of("zero_game", ["ann", "bea", "cal"]) == {}


def test_a_table_with_a_bot_is_not_rated(registry):
    sign_up(registry.store, "ann", "bea")
    room = seated(registry, ["ann", "bea"], ranked=False)
    registry.add_bot(room, "ann")
    with pytest.raises(Refused, match="Remove the bots first"):
        registry.set_ranked(room, "ann", True)
    # Even were it marked ranked, a bot's seat has no player to rate.
    sides = room.rules.rating_sides({"scores": (3, 2, 1)})
    assert ranked.rated_lines(replace(room.facts, ranked=True), sides) == []


def test_a_ranked_table_seats_signed_up_players_only_and_no_bots(registry):
    sign_up(registry.store, "ann", "bea")
    room = seated(registry, ["ann", "bea"])
    with pytest.raises(Refused, match="sign in or sign up to take a seat"):
        registry.join(room, "guest-1", "Gus")
    with pytest.raises(Refused, match="A ranked table has no bots"):
        registry.add_bot(room, "ann")
    assert [seat.uid for seat in room.seats] == ["ann", "bea"]
    # A guest already seated keeps the table unranked until they leave.
    registry.set_ranked(room, "ann", False)
    registry.join(room, "guest-1", "Gus")
    with pytest.raises(Refused, match="Gus is a guest"):
        registry.set_ranked(room, "ann", True)
    with pytest.raises(Refused, match="Only the host"):
        registry.set_ranked(room, "bea", True)
    assert not room.ranked


# Pages


def test_the_leaderboard_page_lists_the_settled_and_marks_the_viewer(app, registry, player):
    simulate_rated_games(registry.store, 150, kinds=["zero_game"])
    board = registry.store.ratings.leaderboard("zero_game", 0, 100)
    third = board[2][0]
    html = as_player(player("Viewer"), third).get("/leaderboard/zero_game").text
    assert "You are 3rd, marked below." in words(html)
    rows = re.findall(r"<tr( class=\"mine\" aria-current=\"true\")?>\s*<td class=\"number\">(\d+)</td>", html)
    assert [(bool(mine), int(place)) for mine, place in rows] == [
        (place == 3, place) for place in range(1, len(board) + 1)
    ]
    assert [name for name in re.findall(r'href="/p/([^"]+)"', html)] == [name for _, name, _ in board]
    stranger = words(player("Guest").get("/leaderboard/zero_game").text)
    assert "You have no Zero Game rating yet" in stranger
    trump = words(player("Guest").get("/leaderboard/trump_card").text)
    assert "rated as two teams of two: a KHOTI team finishes first, and a draw ranks" in trump
    assert "No rating yet." in trump
    assert player("Guest").get("/leaderboard/zero_game?page=2").status_code == 404
    assert player("Guest").get("/leaderboard/chess").status_code == 404


def test_the_lobby_says_which_and_a_ranked_table_shows_each_rating(app, registry, player):
    sign_up(registry.store, "ann", "bea", "cal")
    room = seated(registry, ["ann", "bea", "cal"], ranked=False)
    ann = as_player(player("Ann"), "ann")
    assert "Unranked table: no rating changes here." in words(page(ann, room.code))
    response = ann.post(f"/r/{room.code}/ranked", data={"ranked": "yes"}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and room.ranked
    lobby = words(page(ann, room.code))
    assert "Ranked table : only signed-up players sit here, no bots" in lobby
    assert lobby.count("rating 1000") == 3
    play_out(registry, room)
    table = words(page(ann, room.code))
    assert all(f"rating {shown}" in table for shown in room.published.ratings)
    mine = words(ann.get("/me").text)
    assert f"Zero Game {room.published.ratings[0]} after 1 rated game" in mine


# Ranked play that means something


def test_farming_a_rating_with_a_second_account_buys_less_than_two_games(store):
    """Six wins a minute apart over one's own second account, against two wins a day apart."""
    sign_up(store, "main", "alt", "ann", "bea")

    def win(winner: str, loser: str, ended: float) -> None:
        with store.transaction():
            game = lines([Side((0,), 1), Side((1,), 0)], [winner, loser])
            store.ratings.rate_game("cabo", "ROOM", int(ended), game, ended)

    for n in range(6):
        win("main", "alt", 1000.0 + 60 * n)
    for n in range(2):
        win("ann", "bea", 1000.0 + 86_400 * n)
    farmed, fair = (store.ratings.of("cabo", [p])[p] for p in ("main", "ann"))
    assert farmed.games == 6 and farmed.mu < fair.mu
    # The rule is the history's: a recompute finds the same numbers.
    assert recompute_ratings.recompute(store)[2] == 0


def test_a_ranked_table_always_has_a_clock_and_a_player_who_stops_finishes_last(registry, moment):  # noqa: F811
    sign_up(registry.store, "ann", "bea", "cal")
    room = seated(registry, ["ann", "bea", "cal"], options={**ONE_ROUND, clock.OPTION: 0})
    registry.start(room, "ann")
    assert room.ranked and room.published.deadlines  # off, as the host picked, but running
    second = 0
    while room.status == "playing":
        seat = room.rules.awaited(room.state, moment())[0]
        legal = room.rules.legal_actions(room.state, seat)
        if room.seats[seat].uid == "bea" or not legal:
            second += clock.WITH_BOTS
            due(registry, moment, START + second)  # Bea has stopped moving: her clock runs out
        else:
            registry.act(room, room.seats[seat].uid, room.version, legal[0])
        assert second < 100 * clock.WITH_BOTS, "the game never ends"
    rated = dict(registry.store.db.execute("select player, place from rating_history").fetchall())
    assert set(rated) == {"ann", "bea", "cal"} and rated["bea"] == 3


def test_a_ranked_seats_rejoin_link_moves_it_to_no_one_but_its_account(app, registry, player):
    sign_up(registry.store, "ann", "bea")
    room = seated(registry, ["ann", "bea"], options={})
    ann = as_player(player("Ann"), "ann")
    html = ann.get(f"/r/{room.code}").text
    link = html.split('class="rejoin-link" readonly value="', 1)[1].split('"', 1)[0]
    guest = player("Gus")
    refused = guest.post(link, follow_redirects=True).text
    assert "A ranked seat stays with its account" in refused
    assert room.seats[0].uid == "ann"
