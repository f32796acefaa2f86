"""The site's store: one repository per aggregate (rooms and seats, the game log, players with their
accounts and sessions, ratings, the history of games played, friends and presence), composed over one
connection, SQLite's by default or PostgreSQL's (zerogames.store.connection, zerogames.store.postgres),
with one schema for both (zerogames.store.schema)."""

from __future__ import annotations

import os
from contextlib import AbstractContextManager

from .analyses import Analyses
from .connection import JOURNAL_SIZE_LIMIT, Connection, SQLiteConnection, Unavailable
from .dailies import Dailies
from .friends import Friends
from .games import SNAPSHOT_EVERY, Games
from .history import History
from .peers import Peers
from .players import Players
from .ratings import Ratings
from .rooms import Rooms
from .rows import (
    GameEnd,
    GameLog,
    Place,
    Played,
    PlayerRow,
    Record,
    RoomRow,
    SeatRow,
    UsernameTaken,
    game_id,
    parse_game_id,
)
from .talk import Talk

__all__ = [
    "JOURNAL_SIZE_LIMIT",
    "SNAPSHOT_EVERY",
    "GameEnd",
    "GameLog",
    "Place",
    "Played",
    "PlayerRow",
    "Record",
    "RoomRow",
    "SeatRow",
    "Store",
    "Unavailable",
    "UsernameTaken",
    "game_id",
    "open_store",
    "parse_game_id",
    "store_at",
]


class Store:
    """Made closed (`open` connects, and makes what the schema lacks)."""

    def __init__(self, db: Connection, peers: Peers | None = None) -> None:
        self.db = db
        self.peers = peers or Peers()
        self.rooms = Rooms(db)
        self.players = Players(db)
        self.ratings = Ratings(db)
        self.history = History(db, self.ratings)
        self.games = Games(db, self.players, self.history)
        self.dailies = Dailies(db)
        self.friends = Friends(db)
        self.analyses = Analyses(db)
        self.talk = Talk(db)

    def open(self) -> Store:
        self.db.open()
        self.db.create_schema()
        self.peers.open()
        return self

    def transaction(self) -> AbstractContextManager[None]:
        """All or nothing, over every repository; a transaction opened within another is part of it."""
        return self.db.transaction()

    def close(self) -> None:
        self.peers.close()
        self.db.close()


def store_at(database_url: str, path: str | os.PathLike[str] = "") -> Store:
    """The store (closed) on PostgreSQL at `database_url` when one is given, else on SQLite at `path`."""
    if database_url:
        from .postgres import PostgresConnection, PostgresPeers  # psycopg is needed only then

        db = PostgresConnection(database_url)
        return Store(db, PostgresPeers(db))
    return Store(SQLiteConnection(path))


def open_store(database_url: str, path: str | os.PathLike[str] = "") -> Store:
    """The store at `database_url` or `path` (as `store_at`), open."""
    return store_at(database_url, path).open()
