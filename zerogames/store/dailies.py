"""The daily deals (zerogames.daily): each game's secret for each day, and who played which day's
deal, in which room."""

from __future__ import annotations

from .connection import Connection


class Dailies:
    def __init__(self, db: Connection) -> None:
        self.db = db
        # A day's secret never changes once kept: each page showing its commitment reads it from here,
        # not in a write transaction of its own.
        self.secrets: dict[tuple[str, str], str] = {}

    def secret(self, game: str, day: str, drawn: str) -> str:
        """The day's secret for the game: the one kept, or `drawn` if the day has none yet (whichever
        process asks first draws it; the others read it)."""
        if (game, day) not in self.secrets:
            with self.db.transaction():
                self.db.execute(
                    "insert into dailies (game, day, secret) values (?,?,?)"
                    " on conflict (game, day) do nothing",
                    [game, day, drawn],
                )
                self.secrets[game, day] = self.db.execute(
                    "select secret from dailies where game = ? and day = ?", [game, day]
                ).fetchone()[0]
        return self.secrets[game, day]

    def take(self, game: str, day: str, player: str, code: str) -> bool:
        """The player's one play of the day's deal, in room `code`: False if they have had it."""
        with self.db.transaction():
            taken = self.db.execute(
                "insert into daily_plays (game, day, player, code) values (?,?,?,?)"
                " on conflict (game, day, player) do nothing",
                [game, day, player, code],
            )
            return taken.rowcount == 1

    def room_of(self, game: str, day: str, player: str) -> str | None:
        row = self.db.row(
            "select code from daily_plays where game = ? and day = ? and player = ?", [game, day, player]
        )
        return row[0] if row else None

    def day_of_room(self, code: str) -> tuple[str, str] | None:
        """(game, day) if the room's first game is a daily deal."""
        row = self.db.row("select game, day from daily_plays where code = ?", [code])
        return (row[0], row[1]) if row else None

    def results(self, game: str, day: str) -> list[tuple[str, str, str, str | None, int | None, int | None]]:
        """Everyone who played the day's deal: (player, name, room, outcome, score, place), in the order
        they began; outcome, score and place None while their game is played."""
        return [
            tuple(row)
            for row in self.db.rows(
                "select d.player, p.name, d.code, g.outcome, l.score, l.place from daily_plays d"
                " join players p on p.id = d.player"
                " left join games g on g.code = d.code and g.game_no = 1"
                " left join plays l on l.code = d.code and l.game_no = 1 and l.player = d.player"
                " where d.game = ? and d.day = ? order by g.started",
                [game, day],
            )
        ]

    def days(self, game: str, player: str) -> list[str]:
        return [
            day
            for (day,) in self.db.rows(
                "select day from daily_plays where game = ? and player = ?", [game, player]
            )
        ]
