"""The store on PostgreSQL, for several processes on several machines (ZEROGAMES_DATABASE_URL).

The same store, the same SQL, the same schema (zerogames.store.schema): only the connection differs.
A process holds one connection (psycopg 3 waits on it through gevent's patched sockets, so the other
tables go on meanwhile); its lock keeps its use to one at a time, as with SQLite.

Rooms have owners here (zerogames.rooms.owners): a session-level advisory lock per room, held on
this connection, so the database lets go of every room of a process the moment that process dies.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, ClassVar

import psycopg

from . import schema
from .connection import Connection
from .peers import Peers

# The site's advisory locks: this in the high bits ("zg"), a room's code (or a small number) below.
LOCKS = 0x7A67 << 40
# The channel on which processes ask each other things (rooms.owners): [asker, request, *arguments].
ASKING = "zerogames"


@lru_cache(maxsize=512)
def in_postgres(sql: str) -> str:
    """The store's SQL with PostgreSQL's placeholders (it has no `?` or `%` of its own)."""
    return sql.replace("?", "%s")


class PostgresConnection(Connection):
    TYPES: ClassVar[dict[str, str]] = {
        schema.TEXT: "text",
        schema.INTEGER: "bigint",
        schema.REAL: "double precision",
    }

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def open(self) -> None:
        self.pg = psycopg.connect(self.url, autocommit=True)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor:
        return self.pg.execute(in_postgres(sql), params or None)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.pg.cursor() as cursor:
            cursor.executemany(in_postgres(sql), rows)

    def exclusively(self, key: int) -> None:
        self.execute("select pg_advisory_xact_lock(?)", [LOCKS - key])

    def catalog(self) -> tuple[set[str], dict[str, set[str]], set[str]]:
        with self.lock:
            found = self.execute(
                "select table_name, column_name from information_schema.columns"
                " where table_schema = current_schema()"
            ).fetchall()
            indexes = self.execute("select indexname from pg_indexes where schemaname = current_schema()")
            names = {name for (name,) in indexes}
        columns: dict[str, set[str]] = {}
        for table, column in found:
            columns.setdefault(table, set()).add(column)
        return set(columns), columns, names

    def close(self) -> None:
        with self.lock:
            self.pg.close()


class PostgresPeers(Peers):
    """The other processes of the site: which rooms this one owns (zerogames.rooms.owners), and asking
    the others to do something."""

    def __init__(self, db: PostgresConnection) -> None:
        self.db = db
        self.listener: psycopg.Connection | None = None

    def open(self) -> None:
        # This process's name among those of the site, as each asks the others.
        (self.me,) = self.db.execute("select pg_backend_pid()").fetchone()

    def own(self, code: str) -> bool:
        """Take the room's lock if no process holds it: True if this process owns the room now."""
        with self.db.lock:
            (got,) = self.db.execute("select pg_try_advisory_lock(?)", [room_key(code)]).fetchone()
        return got

    def disown(self, code: str) -> None:
        """The room is no longer served here."""
        with self.db.lock:
            self.db.execute("select pg_advisory_unlock(?)", [room_key(code)])

    def ask_others(self, request: str, *args: str) -> None:
        """Ask every other process of the site to do something (`listen_to_others`)."""
        with self.db.lock:
            self.db.execute("select pg_notify(?, ?)", [ASKING, json.dumps([self.me, request, *args])])

    def listen_to_others(self, answers: dict[str, Callable[..., None]]) -> None:
        """Do `answers[request](*args)` whenever another process asks: on a connection of its own, in a
        thread of its own (a greenlet in the gevent worker)."""
        self.listener = psycopg.connect(self.db.url, autocommit=True)
        self.listener.execute(f"listen {ASKING}")

        def hear(listener: psycopg.Connection) -> None:
            with contextlib.suppress(psycopg.OperationalError):  # closed with the store
                for note in listener.notifies():
                    asker, request, *args = json.loads(note.payload)
                    if asker != self.me:  # its own asking is heard too
                        answers[request](*args)

        threading.Thread(target=hear, args=(self.listener,), daemon=True, name="others").start()

    def close(self) -> None:
        if self.listener is not None:
            self.listener.close()


def room_key(code: str) -> int:
    """A room's lock: its code's letters, five bits each (codes have up to eight, A to Z)."""
    key = 0
    for letter in code:
        key = key << 5 | (ord(letter) - ord("A") + 1)
    return LOCKS | key
