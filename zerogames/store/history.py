"""The history of the games played: how each ended, each player's line of it, and what a replay is
rebuilt from."""

from __future__ import annotations

import json
import time
from typing import Any

from .connection import Connection
from .ratings import Ratings
from .rows import GameEnd, Logged, Played, Record


class History:
    def __init__(self, db: Connection, ratings: Ratings) -> None:
        self.db = db
        self.ratings = ratings

    def record_end(self, code: str, game_no: int, end: GameEnd) -> None:
        """The game's end, its rated lines and each player's line of history (within the caller's
        transaction, the one that writes the game's last change)."""
        ended = time.time()
        self.db.execute(
            "update games set finished = ?, result = ?, outcome = ? where code = ? and game_no = ?",
            [ended, json.dumps(end.result) if end.result else None, end.outcome, code, game_no],
        )
        game = self.db.execute("select game from games where code = ? and game_no = ?", [code, game_no])
        (game_name,) = game.fetchone()
        if end.rated:
            self.ratings.rate_game(game_name, code, game_no, end.rated, ended)
        for place in end.places:
            self.db.execute(
                "insert into plays (code, game_no, seat, player, game, ended, place, score, won, figures)"
                " values (?,?,?,?,?,?,?,?,?,?)",
                [
                    code,
                    game_no,
                    place.seat,
                    place.player,
                    game_name,
                    ended,
                    place.place,
                    place.score,
                    int(place.won),
                    json.dumps(place.figures),
                ],
            )

    def of_player(self, player: str, offset: int, limit: int) -> list[Played]:
        """The player's games, newest first."""
        rows = self.db.rows(
            "select p.code, p.game_no, p.game, g.seats, g.started, p.ended, g.outcome, p.seat, p.place,"
            " p.score from plays p join games g on g.code = p.code and g.game_no = p.game_no"
            " where p.player = ? order by p.ended desc, p.code, p.game_no limit ? offset ?",
            [player, limit, offset],
        )
        return [Played(r[0], r[1], r[2], json.loads(r[3]), *r[4:]) for r in rows]

    def plays_by_game(self, player: str) -> list[tuple[str, bool, int, float, dict[str, Any]]]:
        """Each game the player finished: (game, won, score, duration in seconds, figures)."""
        rows = self.db.rows(
            "select p.game, p.won, p.score, p.ended - g.started, p.figures"
            " from plays p join games g on g.code = p.code and g.game_no = p.game_no"
            " where p.player = ? and g.outcome = 'finished'",
            [player],
        )
        return [
            (game, bool(won), score, duration, json.loads(figures))
            for game, won, score, duration, figures in rows
        ]

    def record(self, code: str, game_no: int) -> Record | None:
        with self.db.lock:
            row = self.db.execute(
                "select game, players, seed, options, seats, started, finished, outcome, fairness, secret"
                " from games where code = ? and game_no = ?",
                [code, game_no],
            ).fetchone()
            if row is None:
                return None
            seats = dict(
                self.db.execute(
                    "select player, seat from plays where code = ? and game_no = ?", [code, game_no]
                ).fetchall()
            )
            actions = logged_actions(self.db, code, game_no)
        game, players, seed, options, seated, started, ended, outcome, fairness, secret = row
        return Record(
            code,
            game_no,
            game,
            players,
            seed,
            json.loads(options),
            json.loads(seated),
            started,
            ended,
            outcome,
            actions,
            seats,
            json.loads(fairness) if fairness else None,
            secret,
        )


def logged_actions(db: Connection, code: str, game_no: int) -> list[Logged]:
    """Every action of the game, in order (what a rebuild and a replay play again)."""
    return [
        (row[0], json.loads(row[1]), row[2], row[3])
        for row in db.rows(
            'select seat, action, now, "by" from actions where code = ? and game_no = ? order by n',
            [code, game_no],
        )
    ]
