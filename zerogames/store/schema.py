"""The store's tables, as data: each table's columns (in a type both databases know), its key and its
indexes. Each connection (zerogames.store.connection) writes them in its own dialect, and makes only
what its database lacks: what is there is checked first, so a process starting beside running ones
takes no lock their writes would wait on (a table's `alter` or `create index` would, even with
`if not exists`)."""

from __future__ import annotations

from dataclasses import dataclass

# The types a column may have, named as both dialects read them (zerogames.store.connection).
TEXT, INTEGER, REAL = "text", "integer", "real"


@dataclass(frozen=True)
class Index:
    columns: tuple[str, ...]
    unique: bool = False

    def name(self, table: str) -> str:
        return f"idx_{table}_{'_'.join(self.columns)}"


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[tuple[str, str], ...]
    key: tuple[str, ...]
    indexes: tuple[Index, ...] = ()


TABLES = (
    Table(
        "rooms",
        (
            ("code", TEXT),
            ("game", TEXT),
            ("options", TEXT),
            ("host", TEXT),
            ("status", TEXT),
            ("game_no", INTEGER),
            ("seed", INTEGER),
            ("version", INTEGER),
            ("created", REAL),
            ("updated", REAL),
            ("ranked", INTEGER),  # 1 for a room its host marked ranked
            ("secret", TEXT),  # the next game's secret (zerogames.fairness): never shown before its end
        ),
        ("code",),
        (Index(("status",)),),
    ),
    Table(
        "seats",
        (
            ("code", TEXT),
            ("seat", INTEGER),
            ("uid", TEXT),
            ("name", TEXT),
            ("bot", TEXT),
            ("contribution", TEXT),  # the player's randomness for the next deal (zerogames.fairness)
        ),
        ("code", "seat"),
    ),
    Table(
        "games",
        (
            ("code", TEXT),
            ("game_no", INTEGER),
            ("game", TEXT),
            ("players", INTEGER),
            ("seed", INTEGER),
            ("options", TEXT),
            ("seats", TEXT),
            ("started", REAL),
            ("finished", REAL),
            ("result", TEXT),
            ("outcome", TEXT),  # how the game ended (finished, abandoned), beside when and with what result
            ("fairness", TEXT),  # how the seed was made (zerogames.fairness), as JSON
            ("secret", TEXT),  # what the seed was made from: published once the game is over
        ),
        ("code", "game_no"),
    ),
    Table(
        "actions",
        (
            ("code", TEXT),
            ("game_no", INTEGER),
            ("n", INTEGER),
            ("seat", INTEGER),
            ("action", TEXT),
            ("now", REAL),
            ("by", TEXT),
            ("version", INTEGER),
        ),
        ("code", "game_no", "n"),
    ),
    # How often each seat has moved to another device: a rejoin link is good for one move.
    Table("seat_moves", (("code", TEXT), ("seat", INTEGER), ("moves", INTEGER)), ("code", "seat")),
    Table(
        "snapshots",
        (("code", TEXT), ("game_no", INTEGER), ("n", INTEGER), ("state", TEXT)),
        ("code", "game_no", "n"),
    ),
    # Ratings (zerogames.ratings): each player's at each game. A leaderboard reads a game's ratings
    # best first, and counts those above a player's, from its index alone (sigma tells the settled).
    Table(
        "ratings",
        (
            ("game", TEXT),
            ("player", TEXT),
            ("mu", REAL),
            ("sigma", REAL),
            ("ordinal", REAL),
            ("games", INTEGER),
        ),
        ("game", "player"),
        (Index(("game", "ordinal", "sigma")),),
    ),
    # One line per player of each rated game, numbered in the order the game's ratings were updated
    # (`n`): what a recompute rates again, and each player's chart. mu and sigma are the player's
    # rating after that game.
    Table(
        "rating_history",
        (
            ("game", TEXT),
            ("n", INTEGER),
            ("code", TEXT),
            ("game_no", INTEGER),
            ("seat", INTEGER),
            ("player", TEXT),
            ("side", INTEGER),
            ("place", INTEGER),
            ("mu", REAL),
            ("sigma", REAL),
            ("ended", REAL),
        ),
        ("game", "n", "seat"),
        (Index(("player", "game", "n")),),
    ),
    # A guest is a player from their first game; an account is that player with a username (`handle`
    # is the username in lower case, unique: Ann and ann are one account). `settings`: an account's
    # comfort settings (zerogames.web.settings), as a browser's cookie holds them.
    Table(
        "players",
        (
            ("id", TEXT),
            ("name", TEXT),
            ("username", TEXT),
            ("handle", TEXT),
            ("password", TEXT),
            ("created", REAL),
            ("signed_up", REAL),
            ("settings", TEXT),
        ),
        ("id",),
        (Index(("handle",), unique=True),),
    ),
    # One line of a player's history per game they sat in, once the game has ended.
    Table(
        "plays",
        (
            ("code", TEXT),
            ("game_no", INTEGER),
            ("seat", INTEGER),
            ("player", TEXT),
            ("game", TEXT),
            ("ended", REAL),
            ("place", INTEGER),
            ("score", INTEGER),
            ("won", INTEGER),
            ("figures", TEXT),
        ),
        ("code", "game_no", "seat"),
        (Index(("player", "ended")),),
    ),
    # The daily deals (zerogames.daily): each game's secret for each UTC day, and each player's one play
    # of a day's deal (the room it was played in; its first game).
    Table("dailies", (("game", TEXT), ("day", TEXT), ("secret", TEXT)), ("game", "day")),
    Table(
        "daily_plays",
        (("game", TEXT), ("day", TEXT), ("player", TEXT), ("code", TEXT)),
        ("game", "day", "player"),
        (Index(("code",)),),
    ),
    # Each finished game's analysis per seat (zerogames.analysis), as JSON: worked out once, when first asked.
    Table(
        "analyses",
        (("code", TEXT), ("game_no", INTEGER), ("seat", INTEGER), ("decisions", TEXT)),
        ("code", "game_no", "seat"),
    ),
    # Table talk (zerogames.talk): each room's latest lines; who mutes whom (a guest or an account, by
    # identity: kept across games and rooms); the lines players reported, with their rooms, for the
    # operator (docs/operating.md).
    Table(
        "talk",
        (
            ("code", TEXT),
            ("n", INTEGER),
            ("uid", TEXT),
            ("name", TEXT),
            ("kind", TEXT),
            ("text", TEXT),
            ("at", REAL),
        ),
        ("code", "n"),
    ),
    Table("mutes", (("muter", TEXT), ("muted", TEXT), ("at", REAL)), ("muter", "muted")),
    Table(
        "reports",
        (
            ("code", TEXT),
            ("n", INTEGER),
            ("reporter", TEXT),
            ("uid", TEXT),
            ("name", TEXT),
            ("text", TEXT),
            ("said", REAL),
            ("at", REAL),
        ),
        ("code", "n", "reporter"),
    ),
    # Who a room's host sent away (they take no seat there again), and the winners of each of a room's
    # games by name: the table's series (its evening's score), recorded with its games.
    Table("kicked", (("code", TEXT), ("uid", TEXT)), ("code", "uid")),
    Table("series_wins", (("code", TEXT), ("game_no", INTEGER), ("name", TEXT)), ("code", "game_no", "name")),
    # Sign-ins: each signed-in browser's session, by the digest of the token its cookie holds (the
    # token itself is kept nowhere but in that cookie).
    Table("sessions", (("id", TEXT), ("player", TEXT), ("created", REAL)), ("id",), (Index(("player",)),)),
    # Friends (zerogames.friends): each pair twice, a line for each side's standing (asked, asked-me,
    # friends); each block; each invitation to a room, until dismissed or stale.
    Table(
        "friends",
        (("player", TEXT), ("other", TEXT), ("standing", TEXT), ("since", REAL)),
        ("player", "other"),
    ),
    Table("blocks", (("blocker", TEXT), ("blocked", TEXT), ("since", REAL)), ("blocker", "blocked")),
    Table(
        "invites",
        (("player", TEXT), ("code", TEXT), ("sender", TEXT), ("sent", REAL), ("dismissed", INTEGER)),
        ("player", "code"),
    ),
    # Presence (zerogames.web.presence): each process's line for each signed-up player with a page of the
    # site open there (`code` the table's, or null), rewritten every few seconds; a line whose `seen` is
    # old belongs to a process gone. `news`: when a player last had something new to be shown (a
    # request, an invitation, a friend's presence), which every process looks for a few times a second.
    Table(
        "presence",
        (("player", TEXT), ("process", TEXT), ("online", INTEGER), ("code", TEXT), ("seen", REAL)),
        ("player", "process"),
    ),
    Table("news", (("player", TEXT), ("at", REAL)), ("player",), (Index(("at",)),)),
)


def missing(
    tables: set[str], columns: dict[str, set[str]], indexes: set[str], types: dict[str, str]
) -> list[str]:
    """The statements that make what a database lacks, given what it has (its tables, each one's
    columns, its index names) and its names for the schema's types."""
    statements = []
    for table in TABLES:
        if table.name not in tables:
            listed = ", ".join(f'"{name}" {types[kind]}' for name, kind in table.columns)
            keys = ", ".join(f'"{key}"' for key in table.key)
            statements.append(f"create table if not exists {table.name} ({listed}, primary key ({keys}))")
        else:
            statements += [
                f'alter table {table.name} add column "{name}" {types[kind]}'
                for name, kind in table.columns
                if name not in columns[table.name]
            ]
        statements += [
            f"create {'unique ' if index.unique else ''}index if not exists {index.name(table.name)}"
            f" on {table.name} ({', '.join(index.columns)})"
            for index in table.indexes
            if index.name(table.name) not in indexes
        ]
    return statements
