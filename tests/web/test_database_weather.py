"""The database as weather: PostgreSQL stopped and started again, SQLite's disk full or read-only and
then not, under a running site. Moves are refused with a plain message meanwhile (the pages stay
up, never a 500), and everything moves again by itself within seconds of its return, bots included,
with no process restarted and nothing acknowledged lost."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from html import unescape

import psycopg
import pytest

from tests.web.conftest import a_postgres_server, as_player, create_room, wait_until
from tests.web.test_turn_clock import START, due, log_of, table
from tests.web.test_turn_clock import moment as moment  # the fixture: a clock the test moves
from tests.web.weather import BACK_WITHIN, UNSAVED, anns_moves, drill, move, table_with_two_bots
from zerogames.rooms.commands import RETRY_UNSAVED
from zerogames.store import Unavailable, open_store


@pytest.fixture
def slow_bots(registry):
    """Bots that wait a moment before they move: time for the database to go away first."""
    registry.bot_delay = 0.5
    return registry


def read_only(store):
    """The database file read-only, as SQLite tells it (and then writable again)."""

    def away() -> None:
        store.db.sqlite.execute("PRAGMA query_only=1")

    def back() -> None:
        store.db.sqlite.execute("PRAGMA query_only=0")

    return away, back


class FullDisk:
    """SQLite's connection on a full disk: every statement that would write fails as SQLite fails it
    then (SQLITE_FULL); reads go on."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def execute(self, sql: str, params=()) -> sqlite3.Cursor:
        if not sql.lstrip().lower().startswith(("select", "pragma", "rollback")):
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode, error.sqlite_errorname = sqlite3.SQLITE_FULL, "SQLITE_FULL"
            raise error
        return self.connection.execute(sql, params)

    def __getattr__(self, name: str):
        return getattr(self.connection, name)


def disk_full(store):
    """The disk full (every write fails), and then space freed."""
    connection = store.db.sqlite

    def away() -> None:
        store.db.sqlite = FullDisk(connection)

    def back() -> None:
        store.db.sqlite = connection

    return away, back


@pytest.mark.parametrize("fault", [read_only, disk_full])
def test_sqlite_read_only_or_full_then_writable_again(player, slow_bots, fault):
    ann, room = table_with_two_bots(player, slow_bots)
    away, back = fault(slow_bots.store)
    figures = drill(ann, room, slow_bots, away, back)
    assert max(figures.values()) < BACK_WITHIN, figures


@pytest.fixture
def own_server():
    """A PostgreSQL server of the test's own, to stop and start again."""
    yield from a_postgres_server()


@pytest.fixture
def database_url(request) -> str:
    """SQLite, but for the test that has a PostgreSQL server of its own."""
    if "own_server" not in request.fixturenames:
        return ""
    return request.getfixturevalue("own_server").new_database()


def test_postgresql_stopped_then_started_again(player, slow_bots, own_server):
    ann, room = table_with_two_bots(player, slow_bots)
    figures = drill(ann, room, slow_bots, own_server.halt, own_server.resume)
    assert max(figures.values()) < BACK_WITHIN, figures


def test_the_database_away_is_told_once_in_the_log_and_its_return_once(own_server, caplog):
    """The pool tries to reach the database every second or so: an operator reads of it once."""
    store = open_store(own_server.new_database())
    own_server.halt()
    refused_until = time.monotonic() + 3.0
    while time.monotonic() < refused_until:
        with pytest.raises(Unavailable):
            store.rooms.load("ABCD")
        time.sleep(0.1)
    own_server.resume()
    wait_until(lambda: reached(store))
    store.close()
    told = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert sum("error connecting" in said for said in told) == 1, told
    assert sum("can be reached again" in said for said in told) == 1, told


def reached(store) -> bool:
    with contextlib.suppress(Unavailable):
        return store.rooms.load("ABCD") is None
    return False


def test_a_process_starting_beside_a_live_writer_does_not_wait_on_it(postgres_server):
    """The schema is read before anything is made: a store opening on a database that has it takes no
    lock that an open write (a move's transaction, say) holds it up on, so it cannot deadlock with
    the processes that are playing."""
    url = postgres_server.new_database()
    open_store(url).close()  # the first process made the schema
    with psycopg.connect(url) as writer:
        writer.execute("insert into rooms (code, status) values ('ABCD', 'lobby')")  # left open
        opened = []
        starting = threading.Thread(target=lambda: opened.append(open_store(url)), daemon=True)
        starting.start()
        starting.join(5)
        assert opened, "the starting process waited on the live writer"
        opened[0].close()
        writer.rollback()


def test_a_timeout_that_could_not_be_saved_is_made_once_the_database_is_back(player, registry, moment):
    code, _ = table(player, clock="30")
    room = registry.get(code)
    version = room.version
    away, back = read_only(registry.store)
    away()
    due(registry, moment, START + 30)
    assert log_of(registry, room) == [] and room.version == version
    back()
    due(registry, moment, START + 30 + RETRY_UNSAVED)
    assert [by for *_, by in log_of(registry, room)] == ["timeout"]


def answer_lost(player, registry, monkeypatch, lose: Callable[[], None]) -> None:
    """A move whose write went through but whose answer was lost on the way (`lose` makes the store's
    connection so): the move is refused with the message, and the room, rebuilt from the store, has it;
    nothing is written twice."""
    ann, room = table_with_two_bots(player, registry)
    wait_until(lambda: anns_moves(room, registry))
    version = room.version
    lose()
    refused = move(ann, room, registry)
    monkeypatch.undo()
    assert UNSAVED in unescape(refused.text)
    wait_until(lambda: room.code not in registry.rooms)
    again = registry.get(room.code)
    assert again is not room and again.version == version + 1
    assert len(registry.store.games.actions(room.code, room.game_no)) == again.action_count


def test_a_commit_whose_answer_was_lost_leaves_the_room_as_the_store_has_it(player, registry, monkeypatch):
    """On SQLite: the connection lost while the move's commit was on its way (it went through)."""
    db = registry.store.db
    real = db.execute

    def commit_answer_lost(sql: str, params=()):
        cursor = real(sql, params)
        if sql == "commit":
            raise Unavailable(OSError("connection lost"), doubt=True)
        return cursor

    answer_lost(player, registry, monkeypatch, lambda: monkeypatch.setattr(db, "execute", commit_answer_lost))


class AnswerLost:
    """The store's PostgreSQL connection, lost just after a move's write reached the database: the
    write went through, and its answer never came."""

    def __init__(self, pg: psycopg.Connection) -> None:
        self.pg = pg

    def execute(self, sql: str, params=None) -> psycopg.Cursor:
        cursor = self.pg.execute(sql, params)
        if "insert into actions" in sql:
            self.pg.close()
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return cursor


def test_on_postgresql_a_move_whose_answer_was_lost_leaves_the_room_as_the_store_has_it(
    player, registry, own_server, monkeypatch
):
    """On PostgreSQL, where a move is one statement sent on its own (its own transaction): the
    connection lost while that statement was on its way (it went through)."""
    db = registry.store.db
    real = db.connection
    answer_lost(
        player,
        registry,
        monkeypatch,
        lambda: monkeypatch.setattr(db, "connection", lambda: AnswerLost(real())),
    )


class GoneDisk:
    """SQLite's connection with its disk gone: every statement fails with an I/O error."""

    def execute(self, sql: str, params=()) -> sqlite3.Cursor:
        error = sqlite3.OperationalError("disk I/O error")
        error.sqlite_errorcode, error.sqlite_errorname = sqlite3.SQLITE_IOERR, "SQLITE_IOERR"
        raise error


def test_a_page_that_needs_the_store_while_it_is_away_says_so_and_never_answers_500(
    player, registry, monkeypatch
):
    ann, bea = player("Ann"), player("Bea")
    registry.store.players.sign_up("ann", "Ann", "ann", "not a password hash")
    as_player(ann, "ann")
    code = create_room(bea)
    monkeypatch.setattr(registry.store.db, "sqlite", GoneDisk())
    signed_in = ann.get(f"/r/{code}")  # whose session only the store knows
    assert signed_in.status_code == 503 and UNSAVED in unescape(signed_in.text)
    assert bea.get(f"/r/{code}").status_code == 200, "a guest's table page is drawn from memory"
    monkeypatch.undo()
    assert ann.get(f"/r/{code}").status_code == 200
