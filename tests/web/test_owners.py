"""Owners of rooms on PostgreSQL: two servers on one database, each with its own connection (as two
processes, or two machines, are); a room is served by one of them at a time."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from tests.web.conftest import version_of, wait_until
from tests.web.test_store import five_player_game
from zerogames.rooms import Refused, Subscriber, owners
from zerogames.store import open_store


@pytest.fixture
def database_url(postgres_server) -> str:
    return postgres_server.new_database()


@pytest.fixture
def other(settings, serve):
    """A second server on the same database."""
    return serve(settings)


def test_a_room_is_taken_over_from_its_log_when_its_owner_dies(player, registry, other):
    code, room = five_player_game(player, registry, 7)
    registry.store.close()  # the owner dies: the database lets go of its rooms
    began = time.monotonic()
    taken = other.extensions["zerogames"].get(code)
    assert time.monotonic() - began < 1
    assert (taken.version, taken.action_count) == (room.version, room.action_count)
    assert room.rules.dump(taken.state) == room.rules.dump(room.state)


def test_a_live_owner_lets_go_of_a_room_asked_for_elsewhere(player, registry, other):
    code, room = five_player_game(player, registry, 5)
    sub = Subscriber("someone")
    registry.subscribe(room, sub)
    sub.event.clear()
    # The proxy now sends the room's requests to the other server: it asks, and the owner lets go.
    html = other.test_client().get(f"/r/{code}").text
    assert version_of(html) == room.version
    assert other.extensions["zerogames"].rooms[code].version == room.version and code not in registry.rooms
    # The old owner's live channel is woken to close, and nothing more is done with its room there.
    assert room.gone and sub.event.is_set()
    seat = room.state["turn"]
    with pytest.raises(Refused, match="moved"):
        registry.act(room, room.seats[seat].uid, room.version, room.rules.legal_actions(room.state, seat)[-1])


def test_a_guest_signing_in_elsewhere_hands_their_seats_over_in_every_process(registry, other):
    room = registry.create("zero_game", {}, "guest-1", "Ann")
    other.extensions["zerogames"].hand_over("guest-1", "account-1")
    wait_until(lambda: room.seats[0].uid == "account-1")
    assert room.host == "account-1" and registry.store.rooms.load(room.code).seats[0].uid == "account-1"


def test_a_request_for_a_room_owned_elsewhere_waits_no_longer_than_the_handover(
    player, registry, other, monkeypatch
):
    """An owner that never answers (its listener gone) keeps its room; the asker gives up in time."""
    monkeypatch.setattr(owners, "HANDOVER_WAIT", 0.5)
    code, room = five_player_game(player, registry, 1)
    registry.store.peers.listener.close()
    began = time.monotonic()
    assert other.extensions["zerogames"].get(code) is None
    assert 0.5 <= time.monotonic() - began < 1.5
    assert registry.get(code) is room


def test_servers_starting_at_once_on_a_new_database_all_start(database_url):
    """Each makes the tables it finds missing: one at a time, or two would make the same one at once."""
    failed: list[Exception] = []

    def start() -> None:
        try:
            open_store(database_url).close()
        except Exception as error:
            failed.append(error)

    starting = [threading.Thread(target=start) for _ in range(6)]
    for thread in starting:
        thread.start()
    for thread in starting:
        thread.join()
    assert failed == []


class ListenRefused:
    """A listener's first connection, whose `listen` fails as psycopg fails when the connection is
    closed under a statement on its way (the store closing at that moment): no result."""

    def __init__(self, connection) -> None:
        self.connection = connection

    def execute(self, sql: str):
        self.connection.close()
        raise psycopg.InternalError("got no result from the query")

    def close(self) -> None:
        self.connection.close()


def test_a_listener_whose_connection_fails_oddly_connects_again_and_hears(database_url, monkeypatch):
    """Any error of the listener's connection, not only a lost one, leaves the process hearing the
    others' requests (else a room asked for elsewhere would never be let go of here)."""
    real, made = psycopg.connect, []

    def connect(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return ListenRefused(made[-1]) if len(made) == 1 else made[-1]

    store, asker = open_store(database_url), open_store(database_url)
    heard: list[str] = []
    try:
        monkeypatch.setattr(psycopg, "connect", connect)
        store.peers.listen_to_others({"let_go": heard.append})
        wait_until(lambda: len(made) >= 2)
        monkeypatch.undo()
        wait_until(lambda: asker.peers.ask_others("let_go", "ABCD") or "ABCD" in heard)
    finally:
        store.close()
        asker.close()
