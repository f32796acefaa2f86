"""The store: every acknowledged action is on disk, and a room rebuilt from snapshot + log is the live one."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.web.conftest import act, create_room, join, on_both_stores
from tests.web.weather import anns_moves, move, table_with_two_bots
from zerogames import bots, runtime
from zerogames.store import SNAPSHOT_EVERY, Unavailable, connection, open_store


def five_player_game(player, registry, actions: int):
    clients = [player(name) for name in ("Ann", "Bea", "Cal", "Dee", "Eli")]
    code = create_room(clients[0])
    for client in clients[1:]:
        join(client, code)
    clients[0].post(f"/r/{code}/start", headers={"HX-Request": "true"})
    room = registry.get(code)
    for _ in range(actions):
        seat = room.state["turn"]
        act(clients[seat], code, json.dumps(room.rules.legal_actions(room.state, seat)[-1]))
    return code, room


@on_both_stores
def test_a_room_rebuilt_from_snapshot_and_log_equals_the_live_one(player, registry):
    code, room = five_player_game(player, registry, SNAPSHOT_EVERY + 17)
    assert room.action_count == SNAPSHOT_EVERY + 17
    rebuilt = registry.rebuild(code)
    assert room.rules.dump(rebuilt.state) == room.rules.dump(room.state)
    assert (rebuilt.version, rebuilt.action_count) == (room.version, room.action_count)
    assert rebuilt.seats == room.seats
    log = registry.store.games.log(code, room.game_no)
    assert log.snapshot_at == SNAPSHOT_EVERY and len(log.after_snapshot()) == 17


@on_both_stores
def test_a_restarted_server_has_every_room_as_it_was(player, registry, settings, serve):
    code, room = five_player_game(player, registry, 23)
    lobby = create_room(player("Lob"))
    registry.store.close()  # the server dies
    restarted = serve(settings)
    again = restarted.extensions["zerogames"]
    assert set(again.rooms) == {code, lobby}
    back = again.get(code)
    assert room.rules.dump(back.state) == room.rules.dump(room.state)
    assert back.version == room.version and [s.uid for s in back.seats] == [s.uid for s in room.seats]


@on_both_stores
def test_a_finished_room_is_found_after_a_restart(player, registry, settings, serve):
    code, room = five_player_game(player, registry, 100)
    assert room.status == "over"
    registry.store.close()  # the server dies
    restarted = serve(settings)
    assert code not in restarted.extensions["zerogames"].rooms
    back = restarted.extensions["zerogames"].get(code)
    assert back.status == "over" and room.rules.result(back.state) == room.rules.result(room.state)


@on_both_stores
def test_a_server_stopping_waits_for_a_bot_still_thinking_and_makes_no_move_after(
    player, app, registry, monkeypatch
):
    """Nothing of the rooms outlives their store: a bot thinking when the server stops is waited for,
    and its move is not made (a restart asks the bot again)."""
    thinking, think_on = threading.Event(), threading.Event()
    choose = bots.Bot.choose

    def slowly(bot, *args):
        thinking.set()
        think_on.wait(5)
        return choose(bot, *args)

    monkeypatch.setattr(bots.Bot, "choose", slowly)
    ann, room = table_with_two_bots(player, registry)
    while not thinking.wait(0.05):
        if anns_moves(room, registry):
            move(ann, room, registry)
    version = room.version
    stopping = threading.Thread(target=runtime.stop, args=(app,))
    stopping.start()
    time.sleep(0.2)
    assert stopping.is_alive(), "the store was closed under a bot still thinking"
    think_on.set()
    stopping.join(5)
    assert not stopping.is_alive() and not registry.bots.thinking
    assert room.version == version


def test_a_closed_store_on_postgresql_takes_no_room_again(postgres_server):
    """The listener's last look at the owner's connection may come after the store closed it: it makes
    no connection again, which would take back the rooms the process owned."""
    url = postgres_server.new_database()
    store = open_store(url)
    assert store.peers.own("ABCD")
    store.close()
    with pytest.raises(Unavailable):
        store.peers.execute("select 1", [])
    other = open_store(url)
    assert other.peers.own("ABCD")
    other.close()


@on_both_stores
def test_every_action_is_logged_with_who_made_it(player, registry):
    code, room = five_player_game(player, registry, 12)
    log = registry.store.games.actions(code, room.game_no)
    assert len(log) == 12
    assert all(by.startswith("player:") for *_, by in log)


def test_a_process_of_several_owns_only_its_slice_of_codes(player, app, tmp_path, serve):
    shared = {"TESTING": True, "DATABASE": app.config["DATABASE"], "DEV": True, "BOT_DELAY": 0}
    first = serve({**shared, "SHARD": "0/2"}).extensions["zerogames"]
    second = serve({**shared, "SHARD": "1/2"}).extensions["zerogames"]
    codes = [first.create("zero_game", {}, f"u{i}", "Ann").code for i in range(20)]
    assert all(first.owns(code) and not second.owns(code) for code in codes)
    assert second.get(codes[0]) is None and first.get(codes[0]) is not None


def test_checkpoints_apart_leave_commits_alone_and_copy_the_log_back(player, registry, app, tmp_path):
    """The gevent worker copies the write-ahead log back from a thread of its own (zerogames/serving.py):
    commits then never do it, and a checkpoint puts every acknowledged action in the database file."""
    store = registry.store
    store.db.checkpoint_apart()
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    code, _ = five_player_game(player, registry, 12)
    store.db.checkpoint()
    # The database file alone, without its log, now holds all twelve actions.
    alone = tmp_path / "alone.db"
    alone.write_bytes(Path(app.config["DATABASE"]).read_bytes())
    copied = sqlite3.connect(alone).execute("select count(*) from actions where code = ?", [code]).fetchone()
    assert copied[0] == 12


# A process's event loop (as the gevent worker runs it) whose store finds the SQLite file locked by
# another writer, which lets go after 0.3 s: its own other work (a tick every 10 ms, standing for its
# other tables) goes on while the write waits. Prints the seconds the write took and the ticks meanwhile.
WAITING_WRITER = """
from gevent import monkey

monkey.patch_all()

import sqlite3
import sys
import time

import gevent

from zerogames.store import open_store

store = open_store("", sys.argv[1])
other = sqlite3.connect(sys.argv[1], isolation_level=None)  # the other process's writer, as it were
other.execute("begin immediate")
gevent.spawn_later(0.3, other.execute, "commit")
ticks = 0


def tick():
    global ticks
    while True:
        gevent.sleep(0.01)
        ticks += 1


gevent.spawn(tick)
started = time.monotonic()
with store.db.transaction():
    store.db.execute("insert into players (id, name) values ('u1', 'Ann')")
print(time.monotonic() - started, ticks, store.db.row("select name from players where id = 'u1'")[0])
"""


def test_a_write_that_waits_for_another_process_on_sqlite_holds_up_nothing_else(tmp_path):
    """Two processes share the SQLite file (`make run PROCESSES=2`): a move that finds the other one
    writing waits its turn, and its process's other tables play on meanwhile."""
    done = subprocess.run(
        [sys.executable, "-c", WAITING_WRITER, str(tmp_path / "shared.db")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    seconds, ticks, name = done.stdout.split()
    assert float(seconds) >= 0.25 and name == "Ann", "the write did not wait for the other, or was lost"
    assert int(ticks) >= 15, f"the process stood still while its write waited ({ticks} ticks of ~30)"


def test_a_sqlite_file_locked_past_the_wait_is_unavailable_and_nothing_is_written(tmp_path, monkeypatch):
    """Another process's write that outlasts the wait: the database counts as unavailable, as when it is
    away (a player's move is refused with the message), and nothing is written."""
    monkeypatch.setattr(connection, "BUSY_TIMEOUT", 0.2)
    store = open_store("", tmp_path / "shared.db")
    other = sqlite3.connect(tmp_path / "shared.db", isolation_level=None)
    other.execute("begin immediate")
    started = time.monotonic()
    with pytest.raises(Unavailable), store.db.transaction():
        store.db.execute("insert into players (id, name) values ('u1', 'Ann')")
    assert 0.2 <= time.monotonic() - started < 2
    other.execute("commit")
    assert store.db.row("select count(*) from players")[0] == 0
    store.close()
