"""The store on PostgreSQL, for several processes on several machines (ZEROGAMES_DATABASE_URL).

The same store, the same SQL, the same schema (zerogames.store.schema): only the connection differs.
The store holds one connection at a time from psycopg's pool (psycopg 3 waits on it through gevent's
patched sockets, so the other tables go on meanwhile); the store's lock keeps its use to one at a
time, as with SQLite. A connection lost (PostgreSQL restarted, the network gone) is handed back to the
pool, which makes a new one: a read, or a transaction's opening, is tried once more on it; anything
else fails as Unavailable (nothing written), and the next statement tries again.

A transaction is opened only when its second statement comes: one of a single statement (a move,
`Games.append` through `at_once`) is that statement sent alone, which PostgreSQL makes all or nothing
by itself: one round trip where begin, the statements and commit took four, each with its CPU and a
turn of the event loop. A connection the server ended while it lay idle (a restart) is let go of
before such a statement is sent, seen by a look at its socket rather than a round trip; one lost
while the statement was on its way leaves in doubt whether it was written, as a lost commit does.

Rooms have owners here (zerogames.rooms.owners): a session-level advisory lock per room, held on a
connection of the process's own (`PostgresPeers`), so the database lets go of every room of a process
the moment that process dies. When that connection is lost, its locks go with it: a new one takes
them again, and a room another process took meanwhile is let go here.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import select
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any, ClassVar

import psycopg
from gevent import monkey
from psycopg_pool import ConnectionPool, PoolTimeout

from . import schema
from .connection import Connection, Unavailable
from .peers import Peers

log = logging.getLogger(__name__)

# The site's advisory locks: this in the high bits ("zg"), a room's code (or a small number) below.
LOCKS = 0x7A67 << 40
# The channel on which processes ask each other things (rooms.owners): [asker, request, *arguments].
ASKING = "zerogames"
# Seconds a statement waits for a new connection once its own was lost; then, after one it could not
# get, statements fail at once for QUIET seconds (else every request would wait its turn behind the
# store's lock, a second each, while the database is away).
CONNECT_WAIT = 1.0
QUIET = 0.5
# Seconds between tries to reach the database again for the other processes' requests, and between
# looks at the owner's connection while nothing is heard.
RECONNECT_EVERY = 0.5
HEARTBEAT = 5.0
# The system's poll, not gevent's: a look at an idle connection that must not give the loop away
# (poll, not select, which fails on the high file numbers of a process holding thousands of sockets).
IDLE_LOOK = monkey.get_original("select", "poll")


class OnceAnOutage(logging.Filter):
    """The pool's word on a connection it could not make, once until it makes one again: it tries
    every second or so while the database is away, and would say so at every try."""

    FAILED = ("error connecting in %r", "reconnection attempt in pool %r")

    def __init__(self) -> None:
        super().__init__()
        self.away: set[str] = set()  # the pools that said so already

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(self.FAILED):
            return True
        pool = str(record.args[0]) if isinstance(record.args, tuple) else ""
        said = pool in self.away
        self.away.add(pool)
        return not said

    def back(self, pool: str) -> bool:
        """Whether the pool was away (and is no longer)."""
        if pool not in self.away:
            return False
        self.away.discard(pool)
        return True


OUTAGES = OnceAnOutage()
logging.getLogger("psycopg.pool").addFilter(OUTAGES)


@lru_cache(maxsize=512)
def in_postgres(sql: str) -> str:
    """The store's SQL with PostgreSQL's placeholders (it has no `?` or `%` of its own)."""
    return sql.replace("?", "%s")


def lost(connection: psycopg.Connection | None) -> bool:
    return connection is None or connection.closed or connection.broken


class PostgresConnection(Connection):
    TYPES: ClassVar[dict[str, str]] = {
        schema.TEXT: "text",
        schema.INTEGER: "bigint",
        schema.REAL: "double precision",
    }

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.pg: psycopg.Connection | None = None
        # The open transaction's state: whether its `begin` was sent, and the statement held till then.
        self.begun = False
        self.deferred: Deferred | None = None
        self.failed_at = -QUIET

    def open(self) -> None:
        self.pool = ConnectionPool(
            self.url,
            min_size=1,
            max_size=1,
            kwargs={"autocommit": True},
            open=False,
            check=ConnectionPool.check_connection,
            timeout=CONNECT_WAIT,
            # Given up after this long, a new connection is tried on the next statement's demand.
            reconnect_timeout=2 * CONNECT_WAIT,
            name="zerogames",
        )
        self.pool.open(wait=True, timeout=30.0)

    def connection(self) -> psycopg.Connection:
        if self.pg is None:
            if time.monotonic() - self.failed_at < QUIET:
                raise Unavailable(RuntimeError("the database was unreachable a moment ago"))
            try:
                self.pg = self.pool.getconn()
            except PoolTimeout as error:
                self.failed_at = time.monotonic()
                raise Unavailable(error) from error
            if OUTAGES.back(self.pool.name):
                log.warning("the database can be reached again (pool %r)", self.pool.name)
        return self.pg

    def let_go_of_lost(self) -> None:
        """The pool takes a lost connection back, and makes a new one."""
        if self.pg is not None:
            self.pool.putconn(self.pg)
            self.pg = None

    # Its transactions are opened only at their second statement (the module's docstring).

    def begin(self) -> None:
        """Nothing is sent yet: `send_begin` opens the transaction once a second statement comes."""
        self.begun, self.deferred = False, None

    def commit(self) -> None:
        """`commit` if the transaction was opened; else its one statement, if any, sent alone."""
        if self.begun:
            self.run("commit", commits=True)
        elif self.deferred is not None:
            deferred, self.deferred = self.deferred, None
            # A statement lost on its way may have been written: first let go of a connection the
            # server has ended while it lay idle, which the statement would never reach.
            self.let_go_of_ended()
            deferred.cursor = self.run(deferred.sql, deferred.params, commits=True)

    def rollback(self) -> None:
        """`rollback` if the transaction was opened; else its held statement is simply never sent."""
        self.deferred = None
        # A lost connection's transaction ended with it.
        if self.begun and self.pg is not None:
            self.run("rollback")

    def let_go_of_ended(self) -> None:
        """Let go of the connection if the server has ended it (a restart, a fast shutdown), seen
        without a round trip: an idle connection is sent nothing but its ending, so anything waiting
        to be read on it says so (a look that never waits)."""
        if self.pg is None:
            return
        look = IDLE_LOOK()
        look.register(self.pg.pgconn.socket, select.POLLIN)
        if look.poll(0):
            self.let_go_of_lost()

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self.lock:
            if self.depth and not self.begun:
                if self.deferred is None:
                    # Held until the transaction's next statement, or its end (`commit`).
                    self.deferred = Deferred(self, sql, params)
                    return self.deferred
                self.send_begin()
            return self.run(sql, params)

    def send_begin(self) -> None:
        """Open the transaction held back so far, with the statement it held (once a second comes, or
        the first one's outcome is asked for)."""
        with self.lock:
            if self.begun or not self.depth:
                return
            self.begun = True
            self.run(self.BEGIN)
            if self.deferred is not None:
                self.deferred.cursor = self.run(self.deferred.sql, self.deferred.params)

    def run(self, sql: str, params: Sequence[Any] = (), commits: bool = False) -> psycopg.Cursor:
        """The statement sent now; `commits`: it ends a transaction, or is one, so that a connection lost
        on its way leaves in doubt whether it was written."""
        with self.lock:
            try:
                return self.connection().execute(in_postgres(sql), params or None)
            except psycopg.errors.TransactionRollback as error:
                # A deadlock or a serialization failure: the transaction was rolled back, nothing of
                # it written, and the same change may be tried again.
                raise Unavailable(error) from error
            except psycopg.OperationalError as error:
                if not lost(self.pg):
                    raise  # the statement's own fault, on a connection that is fine
                self.let_go_of_lost()
                # Nothing written yet (a transaction's opening, or a read outside one): once more.
                if sql == self.BEGIN or (self.depth == 0 and sql.lstrip().lower().startswith("select")):
                    try:
                        return self.connection().execute(in_postgres(sql), params or None)
                    except psycopg.OperationalError as again:
                        self.let_go_of_lost()
                        raise Unavailable(again) from again
                # A commit on its way when the connection went may have gone through.
                raise Unavailable(error, doubt=commits) from error

    def at_once(self, *statements: tuple[str, Sequence[Any]]) -> None:
        """One statement: each but the last a data-modifying part of its `with` (PostgreSQL runs them
        all or none, on one snapshot: hence none may read what another writes)."""
        *parts, (last, _) = statements
        sql = ", ".join(f"s{n} as ({part})" for n, (part, _) in enumerate(parts))
        self.execute(f"with {sql} {last}" if parts else last, [v for _, values in statements for v in values])

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.lock:
            if self.depth:
                self.send_begin()
            try:
                with self.connection().cursor() as cursor:
                    cursor.executemany(in_postgres(sql), rows)
            except psycopg.OperationalError as error:
                if not lost(self.pg):
                    raise
                self.let_go_of_lost()
                raise Unavailable(error) from error

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
            if self.pg is not None:
                self.pool.putconn(self.pg)
                self.pg = None
            self.pool.close()


class Deferred:
    """A transaction's first statement, held back (PostgresConnection.transaction): the cursor it will
    have, sent first whenever anything of it is asked for."""

    def __init__(self, db: PostgresConnection, sql: str, params: Sequence[Any]) -> None:
        self.db, self.sql, self.params = db, sql, params
        self.cursor: psycopg.Cursor | None = None

    def __getattr__(self, name: str) -> Any:
        if self.cursor is None:
            self.db.send_begin()
        if self.cursor is None:
            raise RuntimeError("a statement of a transaction rolled back was never sent")
        return getattr(self.cursor, name)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class PostgresPeers(Peers):
    """The other processes of the site: which rooms this one owns (zerogames.rooms.owners), held on a
    connection of its own, and asking the others to do something, heard on another."""

    def __init__(self, db: PostgresConnection) -> None:
        self.url = db.url
        self.lock = threading.RLock()
        self.owner: psycopg.Connection | None = None
        self.listener: psycopg.Connection | None = None
        self.owned: set[str] = set()
        self.answers: dict[str, Callable[..., None]] = {}
        self.closed = False
        # This process's name among those of the site, as each asks the others.
        self.me = secrets.token_hex(8)

    def open(self) -> None:
        with self.lock:
            self.reconnect()

    def execute(self, sql: str, params: Sequence[Any]) -> Any:
        """The statement's one row, on the owner's connection (made again if it was lost)."""
        with self.lock:
            try:
                if lost(self.owner):
                    if self.closed:  # the listener's last look, say: no connection is made again
                        raise Unavailable(RuntimeError("the store is closed"))
                    self.reconnect()
                assert self.owner is not None
                return self.owner.execute(in_postgres(sql), params).fetchone()
            except psycopg.OperationalError as error:
                raise Unavailable(error) from error

    def reconnect(self) -> None:
        """A new owner's connection. The rooms' locks went with the old one: each is taken again, and a
        room that another process took meanwhile is let go here."""
        if self.owner is not None:
            self.owner.close()
            self.owner = None
        owner = psycopg.connect(self.url, autocommit=True, connect_timeout=2)
        taken_elsewhere = []
        for code in sorted(self.owned):
            (got,) = owner.execute("select pg_try_advisory_lock(%s)", [room_key(code)]).fetchone()
            if not got:
                taken_elsewhere.append(code)
        self.owner = owner
        self.owned.difference_update(taken_elsewhere)
        if taken_elsewhere and "let_go" in self.answers:
            log.warning("rooms taken by another process while the database was away: %s", taken_elsewhere)
            let_go = self.answers["let_go"]
            threading.Thread(target=lambda: [let_go(code) for code in taken_elsewhere], daemon=True).start()

    def own(self, code: str) -> bool:
        """Take the room's lock if no process holds it: True if this process owns the room now."""
        with self.lock:
            (got,) = self.execute("select pg_try_advisory_lock(?)", [room_key(code)])
            if got:
                self.owned.add(code)
        return got

    def disown(self, code: str) -> None:
        with self.lock:
            self.owned.discard(code)
            with contextlib.suppress(Unavailable):  # a lost connection has let go of it already
                self.execute("select pg_advisory_unlock(?)", [room_key(code)])

    def ask_others(self, request: str, *args: str) -> None:
        self.execute("select pg_notify(?, ?)", [ASKING, json.dumps([self.me, request, *args])])

    def listen_to_others(self, answers: dict[str, Callable[..., None]]) -> None:
        """On a connection of its own, in a thread of its own (a greenlet in the gevent worker), which
        also finds a lost owner's connection within seconds, and reconnects both."""
        self.answers = answers
        threading.Thread(target=self.hear, daemon=True, name="others").start()

    def hear(self) -> None:
        while not self.closed:
            try:
                self.listener = psycopg.connect(self.url, autocommit=True, connect_timeout=2)
                self.listener.execute(f"listen {ASKING}")
                while not self.closed:
                    self.execute("select 1", [])  # the owner's connection, made again if it was lost
                    for note in self.listener.notifies(timeout=HEARTBEAT):
                        asker, request, *args = json.loads(note.payload)
                        if asker != self.me:  # its own asking is heard too
                            self.answers[request](*args)
            # Any error of the listener's connection, not only a lost one: `close` may close it under
            # a statement on its way (psycopg then finds no result), and the thread must not die of it.
            except (psycopg.Error, Unavailable):
                if self.listener is not None:
                    self.listener.close()
                time.sleep(RECONNECT_EVERY)

    def close(self) -> None:
        self.closed = True
        if self.listener is not None:
            self.listener.close()
        with self.lock:
            if self.owner is not None:
                self.owner.close()


def room_key(code: str) -> int:
    """A room's lock: its code's letters, five bits each (codes have up to eight, A to Z)."""
    key = 0
    for letter in code:
        key = key << 5 | (ord(letter) - ord("A") + 1)
    return LOCKS | key
