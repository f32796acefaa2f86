"""Ratings as stored: each player's at each game, and every rated game's lines. The numbers are
zerogames.ratings' to work out; this reads what they are worked out from and writes what they come to."""

from __future__ import annotations

from collections.abc import Iterable

from zerogames import ratings
from zerogames.ratings import Line, Rating

from .connection import RATINGS, Connection

# A rated game as the history holds it: its game, its number there, its lines and when it ended.
RatedGame = tuple[str, int, list[Line], float]


class Ratings:
    def __init__(self, db: Connection) -> None:
        self.db = db

    def rate_game(self, game: str, code: str, game_no: int, lines: list[Line], ended: float) -> None:
        """A rated game's lines and its players' new ratings (within the caller's transaction, the one
        that records the game's end)."""
        self.db.exclusively(RATINGS)
        before = self.of_unlocked(game, [line.player for line in lines])
        after = ratings.rate_game(before, self.games_together(game, lines, ended), lines, ended)
        (last,) = self.db.execute(
            "select coalesce(max(n), 0) from rating_history where game = ?", [game]
        ).fetchone()
        for line in lines:
            rating = after[line.player]
            self.db.execute(
                "insert into rating_history"
                " (game, n, code, game_no, seat, player, side, place, mu, sigma, ended)"
                " values (?,?,?,?,?,?,?,?,?,?,?)",
                [game, last + 1, code, game_no, line.seat, line.player, line.side, line.place]
                + [rating.mu, rating.sigma, ended],
            )
            self.save(game, line.player, rating)

    def games_together(self, game: str, lines: list[Line], ended: float) -> list[ratings.Together]:
        """The rated games of `game` that the first of these players played in the day before `ended`:
        each game's players and when it ended (what ratings.repeats counts)."""
        since = ended - ratings.REPEAT_WINDOW
        rows = self.db.execute(
            "select n, player, ended from rating_history where game = ? and ended > ? and n in"
            " (select n from rating_history where game = ? and player = ? and ended > ?)",
            [game, since, game, lines[0].player, since],
        ).fetchall()
        games: dict[int, tuple[set[str], float]] = {}
        for n, player, when in rows:
            games.setdefault(n, (set(), when))[0].add(player)
        return [(frozenset(players), when) for players, when in games.values()]

    def save(self, game: str, player: str, rating: Rating) -> None:
        self.db.execute(
            "insert into ratings (game, player, mu, sigma, ordinal, games) values (?,?,?,?,?,?)"
            " on conflict (game, player) do update set mu = excluded.mu, sigma = excluded.sigma,"
            " ordinal = excluded.ordinal, games = excluded.games",
            [game, player, rating.mu, rating.sigma, rating.ordinal, rating.games],
        )

    def of_unlocked(self, game: str, players: list[str]) -> dict[str, Rating]:
        marks = ",".join("?" * len(players))
        rows = self.db.execute(
            f"select player, mu, sigma, games from ratings where game = ? and player in ({marks})",
            [game, *players],
        )
        return {player: Rating(mu, sigma, games) for player, mu, sigma, games in rows}

    def of(self, game: str, players: list[str]) -> dict[str, Rating]:
        """The ratings these players have at this game (a player never rated there has none)."""
        with self.db.lock:
            return self.of_unlocked(game, players)

    def of_player(self, player: str) -> dict[str, list[Rating]]:
        """A player's rating at each game they were rated in, after each of their rated games, oldest
        first (the last is the rating they have)."""
        found: dict[str, list[Rating]] = {}
        rows = self.db.rows(
            "select game, mu, sigma from rating_history where player = ? order by game, n", [player]
        )
        for game, mu, sigma in rows:
            history = found.setdefault(game, [])
            history.append(Rating(mu, sigma, len(history) + 1))
        return found

    def leaderboard(self, game: str, offset: int, limit: int) -> list[tuple[str, str, Rating]]:
        """A game's ratings (provisional ones too: friends who play only each other are listed from their
        first game), best first, from the `offset`-th: each player's id, username and rating."""
        rows = self.db.rows(
            "select r.player, p.username, r.mu, r.sigma, r.games from ratings r"
            " join players p on p.id = r.player where r.game = ?"
            " order by r.ordinal desc, r.player limit ? offset ?",
            [game, limit, offset],
        )
        return [(player, username, Rating(mu, sigma, games)) for player, username, mu, sigma, games in rows]

    def leaderboard_length(self, game: str, most: int) -> int:
        """How many players the game's leaderboard lists, up to `most`."""
        (count,) = self.db.row(
            "select count(*) from (select 1 from ratings where game = ?"
            " order by ordinal desc limit ?) as listed",
            [game, most],
        )
        return count

    def leaderboard_place(self, game: str, player: str) -> int | None:
        """The player's place on the game's leaderboard, 1 the best; None while unrated."""
        with self.db.lock:
            mine = self.db.execute(
                "select ordinal, sigma from ratings where game = ? and player = ?", [game, player]
            ).fetchone()
            if mine is None:
                return None
            (better,) = self.db.execute(
                "select count(*) from ratings where game = ?"
                " and (ordinal > ? or (ordinal = ? and player < ?))",
                [game, mine[0], mine[0], player],
            ).fetchone()
        return better + 1

    # Every rating again (zerogames.recompute_ratings), within one transaction

    def rated_games(self) -> list[RatedGame]:
        """Every rated game's lines, in the order each game's ratings were updated."""
        self.db.exclusively(RATINGS)
        rows = self.db.execute(
            "select game, n, seat, player, side, place, ended from rating_history order by game, n, seat"
        ).fetchall()
        games: dict[tuple[str, int], RatedGame] = {}
        for game, n, seat, player, side, place, ended in rows:
            games.setdefault((game, n), (game, n, [], ended))[2].append(Line(seat, player, side, place))
        return list(games.values())

    def every_rating(self) -> dict[tuple[str, str], Rating]:
        """Each player's rating at each game, by (game, player)."""
        return {
            (game, player): Rating(mu, sigma, count)
            for game, player, mu, sigma, count in self.db.execute(
                "select game, player, mu, sigma, games from ratings"
            )
        }

    def rewrite(self, games: Iterable[tuple[RatedGame, dict[str, Rating]]]) -> dict[tuple[str, str], Rating]:
        """Every rated game's lines with the ratings after it, and each player's rating the last of
        theirs: what each player's rating now is, by (game, player)."""
        final: dict[tuple[str, str], Rating] = {}
        updated = []
        for (game, n, lines, _), after in games:
            for line in lines:
                rating = after[line.player]
                updated.append((rating.mu, rating.sigma, game, n, line.seat))
                final[game, line.player] = rating
        self.db.executemany(
            "update rating_history set mu = ?, sigma = ? where game = ? and n = ? and seat = ?", updated
        )
        self.db.execute("delete from ratings")
        for (game, player), rating in final.items():
            self.save(game, player, rating)
        return final
