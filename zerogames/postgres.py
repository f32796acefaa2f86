"""The store on PostgreSQL, for several processes on several machines (ZEROGAMES_DATABASE_URL).

The same Store, the same SQL: only the connection differs, and the schema is the SQLite store's own,
read from a database it makes in memory and written in PostgreSQL's types, so a table or column added
to the store is on both at once. A process holds one connection (psycopg 3 waits on it through
gevent's patched sockets, so the other tables go on meanwhile); the store's lock keeps its use to one
at a time, as with SQLite.

Rooms have owners here (zerogames.rooms.owners): a session-level advisory lock per room, held on
this connection, so the database lets go of every room of a process the moment that process dies.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any

import psycopg
from psycopg.rows import dict_row

from zerogames.store import Store

# SQLite's type names (as sqlite-utils writes them) in PostgreSQL's.
TYPES = {"TEXT": "text", "INTEGER": "bigint", "FLOAT": "double precision", "REAL": "double precision"}
# The site's advisory locks: this in the high bits ("zg"), a room's code (or 0, the ratings) below.
LOCKS = 0x7A67 << 40
RATINGS = LOCKS
SCHEMA = LOCKS - 1  # below every room's
# The channel on which processes ask each other things (rooms.owners): [asker, request, *arguments].
ASKING = "zerogames"


@lru_cache(maxsize=512)
def in_postgres(sql: str) -> str:
    """The store's SQL with PostgreSQL's placeholders (it has no `?` or `%` of its own)."""
    return sql.replace("?", "%s")


class Connection:
    """What the store asks of sqlite-utils' Database, on a psycopg connection."""

    def __init__(self, url: str) -> None:
        self.pg = psycopg.connect(url, autocommit=True)
        self.conn = self  # the store's executemany goes through `db.conn`, as with sqlite-utils

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor:
        return self.pg.execute(in_postgres(sql), params or None)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.pg.cursor() as cursor:
            cursor.executemany(in_postgres(sql), rows)

    def query(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        with self.pg.cursor(row_factory=dict_row) as cursor:
            yield from cursor.execute(in_postgres(sql), params or None)


class PostgresStore(Store):
    BEGIN = "begin"

    def __init__(self, url: str) -> None:
        self.db = Connection(url)  # type: ignore[assignment]
        self.lock = threading.RLock()
        self.depth = 0
        self.path = url
        self.checkpointer = None
        self.listener: psycopg.Connection | None = None
        # Processes starting side by side make the tables one at a time (PostgreSQL's `if not exists`
        # does not keep two from making the same table at once).
        with self.transaction():
            self.db.execute("select pg_advisory_xact_lock(?)", [SCHEMA])
            for statement in schema():
                self.db.execute(statement)
        # This process's name among those of the site, as each asks the others.
        (self.me,) = self.db.execute("select pg_backend_pid()").fetchone()

    def checkpoint_apart(self) -> bool:
        """PostgreSQL writes its log back by itself, away from this process."""
        return False

    def serialize_ratings(self) -> None:
        self.db.execute("select pg_advisory_xact_lock(?)", [RATINGS])

    # Owners of rooms

    def own(self, code: str) -> bool:
        """Take the room's lock if no process holds it: True if this process owns the room now."""
        with self.lock:
            (got,) = self.db.execute("select pg_try_advisory_lock(?)", [room_key(code)]).fetchone()
        return got

    def disown(self, code: str) -> None:
        with self.lock:
            self.db.execute("select pg_advisory_unlock(?)", [room_key(code)])

    def ask_others(self, request: str, *args: str) -> None:
        with self.lock:
            self.db.execute("select pg_notify(?, ?)", [ASKING, json.dumps([self.me, request, *args])])

    def listen_to_others(self, answers: dict[str, Callable[..., None]]) -> None:
        """On a connection of its own, in a thread of its own (a greenlet in the gevent worker)."""
        self.listener = psycopg.connect(self.path, autocommit=True)
        self.listener.execute(f"listen {ASKING}")

        def hear(listener: psycopg.Connection) -> None:
            with contextlib.suppress(psycopg.OperationalError):  # closed with the store
                for note in listener.notifies():
                    asker, request, *args = json.loads(note.payload)
                    if asker != self.me:  # its own asking is heard too
                        answers[request](*args)

        threading.Thread(target=hear, args=(self.listener,), daemon=True, name="others").start()

    def close(self) -> None:
        with self.lock:
            self.db.pg.close()
        if self.listener is not None:
            self.listener.close()


def room_key(code: str) -> int:
    """A room's lock: its code's letters, five bits each (codes have up to eight, A to Z)."""
    key = 0
    for letter in code:
        key = key << 5 | (ord(letter) - ord("A") + 1)
    return LOCKS | key


def schema() -> list[str]:
    """The SQLite store's tables, columns and indexes, as PostgreSQL statements that make what is
    missing (and leave what is there)."""
    model = Store(":memory:")
    statements = []
    for table in model.db.tables:
        columns = ", ".join(f'"{c.name}" {TYPES[c.type.upper()]}' for c in table.columns)
        keys = ", ".join(f'"{key}"' for key in table.pks)
        statements.append(f"create table if not exists {table.name} ({columns}, primary key ({keys}))")
        statements += [
            f'alter table {table.name} add column if not exists "{c.name}" {TYPES[c.type.upper()]}'
            for c in table.columns
        ]
        statements += [
            f"create {'unique ' if index.unique else ''}index if not exists {index.name}"
            f" on {table.name} ({', '.join(index.columns)})"
            for index in table.indexes
            if index.origin == "c"  # made by the store, not by a primary key
        ]
    return statements
