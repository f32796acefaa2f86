"""The connection the store is composed over: a few words every database of the site says the same
way (run a statement, a transaction, a lock for the length of one, what the schema holds), said here
for SQLite and in zerogames.store.postgres for PostgreSQL. The store's SQL is written once for both:
`?` placeholders, `on conflict` upserts, no SQLite-only words.

Every accepted action is appended in its own transaction before anyone is told of it, so a server
killed at any moment comes back with every acknowledged action. SQLite runs in WAL with
synchronous=NORMAL: a commit survives the process dying (the data is in the operating system's hands);
an operator who wants it to survive a power cut too sets ZEROGAMES_SYNC=FULL.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import sqlite_utils

from . import schema

# Bytes the write-ahead log is cut back to once copied into the database (a few seconds of actions).
JOURNAL_SIZE_LIMIT = 4 * 1024 * 1024
# Seconds a statement waits for another process's write before the database counts as unavailable.
BUSY_TIMEOUT = 5.0
# The first and the longest pause between two tries of a statement another process's write holds up:
# a move's transaction holds the lock some 0.1-0.5 ms.
FIRST_PAUSE, LONGEST_PAUSE = 0.0005, 0.008
# SQLite's errors that are weather, not a fault of the statement: the disk full or read-only, an I/O
# error, the database file gone or locked by another process past the busy timeout.
UNAVAILABLE = {
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_BUSY,
}
T = TypeVar("T")
# The locks (`exclusively`) that keep two processes from rating at once, and from changing the schema.
RATINGS, SCHEMA = 0, 1


class Unavailable(Exception):
    """The database cannot be reached or written right now (PostgreSQL away, SQLite's disk full or
    read-only): the transaction did not commit, unless `doubt` (the connection was lost while its
    commit was on the way, so it may have). It passes: the next statement tries again."""

    def __init__(self, cause: BaseException, *, doubt: bool = False) -> None:
        super().__init__(str(cause))
        self.doubt = doubt


class Connection:
    """One database, used by one thread at a time (the lock), with transactions within each other
    part of the outermost (a room's command writes once, whatever it holds)."""

    # The statement that opens a transaction, and the dialect's names for the schema's types.
    BEGIN = "begin"
    TYPES: ClassVar[dict[str, str]] = {}

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.depth = 0  # transactions open within each other (only the outermost commits)
        # Statements that found the database locked by another process's write and waited for it, and
        # the seconds they waited (the operator's figures: zerogames.metrics).
        self.waits, self.waited = 0, 0.0

    def open(self) -> None:
        """Connect (a connection is made closed, so that making the site's app touches no database)."""
        raise NotImplementedError

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The statement's cursor (fetchone, fetchall, rowcount, and its rows when iterated)."""
        raise NotImplementedError

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The statement's rows, every one read before another thread may use the connection."""
        with self.lock:
            return self.execute(sql, params).fetchall()

    def row(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The statement's first row (None if it has none), read as `rows` reads them."""
        with self.lock:
            return self.execute(sql, params).fetchone()

    def at_once(self, *statements: tuple[str, Sequence[Any]]) -> None:
        """Write statements, all or nothing, none of which reads or writes what another writes (rows of
        tables apart): run in turn here, as one statement where the database can (PostgreSQL)."""
        with self.transaction():
            for sql, params in statements:
                self.execute(sql, params)

    def exclusively(self, key: int) -> None:
        """Within a transaction: no other transaction that asks for `key` runs until this one ends."""

    def catalog(self) -> tuple[set[str], dict[str, set[str]], set[str]]:
        """What the database holds: its tables, each one's columns, its indexes' names."""
        raise NotImplementedError

    def checkpoint_apart(self) -> bool:
        """Whether checkpoints are now the caller's to make (`checkpoint`), away from commits."""
        return False

    def checkpoint(self) -> None:
        """Copy the write-ahead log back into the database (where that is the process's to do)."""

    def close(self) -> None:
        raise NotImplementedError

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All or nothing; a transaction opened within another is part of it."""
        with self.lock:
            if self.depth:
                self.depth += 1
                try:
                    yield
                finally:
                    self.depth -= 1
                return
            self.begin()
            self.depth = 1
            try:
                yield
            except BaseException:
                self.depth = 0
                self.rollback()
                raise
            self.depth = 0
            self.commit()

    def begin(self) -> None:
        """Open the outermost transaction."""
        self.execute(self.BEGIN)

    def commit(self) -> None:
        """End the outermost transaction with its writes."""
        self.execute("commit")

    def rollback(self) -> None:
        """End the open transaction without its writes (where the database has not ended it already)."""
        self.execute("rollback")

    def create_schema(self) -> None:
        """Make the tables, columns and indexes the database lacks, once, whoever else starts beside:
        nothing at all (not even a lock) when it has them."""
        if not schema.missing(*self.catalog(), self.TYPES):
            return
        with self.transaction():
            self.exclusively(SCHEMA)
            for statement in schema.missing(*self.catalog(), self.TYPES):
                self.execute(statement)


class SQLiteConnection(Connection):
    # A write transaction takes SQLite's write lock at once: no two writers, so no read-then-write
    # within one (the next rating's number, say) is ever stale.
    BEGIN = "begin immediate"
    TYPES: ClassVar[dict[str, str]] = {schema.TEXT: "TEXT", schema.INTEGER: "INTEGER", schema.REAL: "REAL"}

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__()
        self.path = str(path)
        self.checkpointer: sqlite3.Connection | None = None

    def open(self) -> None:
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # One connection shared by every thread of the process: the lock keeps one writer at a time.
        # Opening waits inside SQLite for a process starting beside it (no table is served yet).
        self.sqlite = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT, check_same_thread=False, isolation_level=None
        )
        self.sqlite.execute("PRAGMA journal_mode=WAL")
        self.sqlite.execute(f"PRAGMA synchronous={os.environ.get('ZEROGAMES_SYNC', 'NORMAL')}")
        # Once copied back, the write-ahead log is cut back to this size: a burst grows it, and it
        # would otherwise keep its largest size for good.
        self.sqlite.execute(f"PRAGMA journal_size_limit={JOURNAL_SIZE_LIMIT}")
        # From here on a statement that finds another process writing waits in `waiting_out` instead.
        self.sqlite.execute("PRAGMA busy_timeout=0")
        # sqlite-utils reads the schema (catalog); the statements go straight to the connection.
        self.db = sqlite_utils.Database(self.sqlite)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self.waiting_out(self.sqlite.execute, sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.waiting_out(self.sqlite.executemany, sql, rows)

    def rollback(self) -> None:
        # A full disk or an I/O error may have rolled the transaction back already.
        if self.sqlite.in_transaction:
            self.execute("rollback")

    def catalog(self) -> tuple[set[str], dict[str, set[str]], set[str]]:
        with self.lock:
            return self.waiting_out(self.schema_read)

    def schema_read(self) -> tuple[set[str], dict[str, set[str]], set[str]]:
        tables = {self.db[name] for name in self.db.table_names()}
        return (
            {table.name for table in tables},
            {table.name: set(table.columns_dict) for table in tables},
            {index.name for table in tables for index in table.indexes},
        )

    def waiting_out(self, call: Callable[..., T], *args: Any) -> T:
        """What `call` on the connection returns, once no other process's write holds it up: while
        the database is locked, tried again after a pause that the event loop spends on every other
        table (time.sleep, which the gevent worker makes a greenlet's wait), for up to BUSY_TIMEOUT
        seconds; then, like SQLite's other weather, Unavailable. A statement refused so has done
        nothing, and is simply tried again (the store's executemany runs within a transaction, whose
        lock it holds throughout). Each wait is counted, with its seconds, for the operator.

        SQLite's own busy handler would wait inside the library, in sleeps of 1, 2, 5, 10 ms and
        longer, and in the gevent worker every table of the process would wait with it. Two processes
        sharing the file (`make run PROCESSES=2`) at a thousand busy tables met a lock held by the
        other in 8-18% of their transactions, and each process's loop stood still 4-8% of the time, up
        to 54 ms at once."""
        pause, since = FIRST_PAUSE, None
        while True:
            try:
                return call(*args)
            except sqlite3.DatabaseError as error:
                locked = getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY
                if not locked or (since is not None and time.monotonic() - since >= BUSY_TIMEOUT):
                    if passes(error):
                        raise Unavailable(error) from error
                    raise
            slept = time.monotonic()
            if since is None:
                since = slept
                self.waits += 1
            time.sleep(pause)
            self.waited += time.monotonic() - slept
            pause = min(2 * pause, LONGEST_PAUSE)

    def checkpoint_apart(self) -> bool:
        """Commits stop copying the log into the database file; `checkpoint` does it, elsewhere.

        By default the commit that fills the write-ahead log past a thousand pages also copies it back
        and waits for the disk (some 15 ms here, every couple of seconds under load), and in the gevent
        worker every table of the process waits with it. The worker calls `checkpoint` from a thread
        of its own instead (zerogames/serving.py).
        """
        with self.lock:
            self.execute("PRAGMA wal_autocheckpoint=0")
        self.checkpointer = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        return True

    def checkpoint(self) -> None:
        """Without waiting for readers or writers."""
        if self.checkpointer is not None:
            self.checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        with self.lock:
            self.sqlite.close()
        if self.checkpointer is not None:
            self.checkpointer.close()


def passes(error: sqlite3.DatabaseError) -> bool:
    """Whether SQLite's error is weather that passes (UNAVAILABLE). A commit that fails so leaves
    nothing committed: SQLite's commits are all or nothing."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in UNAVAILABLE
