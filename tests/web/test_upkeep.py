"""What keeps a long-running site within bounds: codes that never run out, idle rooms dropped (their
history kept), a write-ahead log cut back after a burst, and live channels that wake no one needlessly."""

from __future__ import annotations

import os
import threading

from tests.web.conftest import create_room, join, on_both_stores
from zerogames.rooms import CODE_ALPHABET, RoomRegistry, Subscriber
from zerogames.rooms.registry import KEEP_IDLE
from zerogames.store import JOURNAL_SIZE_LIMIT, RoomRow, Store, open_store


def test_codes_never_run_out_a_longer_one_is_made(tmp_path):
    """One process of 23 owns the codes starting with A: 12,167 of four letters. All taken, the next
    room gets five letters at once (where the registry used to loop for ever, holding its lock)."""
    store = open_store("", tmp_path / "full.db")
    with store.transaction():
        for code in (f"A{b}{c}{d}" for b in CODE_ALPHABET for c in CODE_ALPHABET for d in CODE_ALPHABET):
            store.rooms.write(RoomRow(code, "zero_game", {}, "host", "lobby", 0, None, 0, []))
    registry = RoomRegistry(store, shard=(0, len(CODE_ALPHABET)))
    made: list[str] = []
    creating = threading.Thread(
        target=lambda: made.append(registry.create("zero_game", {}, "u", "Ann").code), daemon=True
    )
    creating.start()
    creating.join(timeout=5)
    assert made and len(made[0]) == 5 and made[0].startswith("A")
    assert registry.get(made[0].lower()) is not None


def age(store: Store, code: str, seconds: float) -> None:
    with store.transaction():
        store.db.execute("update rooms set updated = updated - ? where code = ?", [seconds, code])


def started(host, *others) -> str:
    code = create_room(host)
    for client in others:
        join(client, code)
    host.post(f"/r/{code}/start", headers={"HX-Request": "true"})
    return code


@on_both_stores
def test_idle_rooms_are_dropped_and_their_games_stay_in_the_history(player, registry, settings, serve):
    ann, bea, cal = player("Ann"), player("Bea"), player("Cal")
    never_started = create_room(ann)
    finished, playing = started(ann, bea, cal), started(bea, ann, cal)
    room = registry.get(finished)
    while room.status == "playing":
        seat = next(seat for seat in range(3) if room.rules.legal_actions(room.state, seat))
        registry.act(room, room.seats[seat].uid, room.version, room.rules.legal_actions(room.state, seat)[0])
    recent = create_room(cal)
    store = registry.store
    for code in (never_started, finished, playing):
        age(store, code, KEEP_IDLE + 60)
    assert registry.drop_idle_rooms() == 2
    assert ann.get(f"/r/{never_started}").status_code == 404
    assert ann.get(f"/r/{finished}").status_code == 404
    assert ann.get(f"/r/{playing}").status_code == 200 and ann.get(f"/r/{recent}").status_code == 200
    assert store.rooms.code_taken(finished), "a code with games in the history is never handed out again"
    assert not store.rooms.code_taken(never_started)
    # A restart brings back only what was kept.
    store.close()  # the server stops
    restarted = serve(settings)
    assert set(restarted.extensions["zerogames"].rooms) == {playing, recent}


def test_an_idle_room_someone_is_looking_at_is_kept(player, registry):
    code = create_room(player("Ann"))
    room = registry.get(code)
    registry.subscribe(room, Subscriber("watcher"))
    age(registry.store, code, KEEP_IDLE + 60)
    assert registry.drop_idle_rooms() == 0 and registry.get(code) is room


def test_the_write_ahead_log_is_cut_back_after_a_burst(tmp_path):
    store = open_store("", tmp_path / "burst.db")
    store.db.checkpoint_apart()  # as the served worker does: copied back by `checkpoint`, not by commits
    row = RoomRow("ABCD", "zero_game", {"pad": "x" * 2000}, "host", "lobby", 0, None, 0, [])
    for version in range(6000):
        store.rooms.save(RoomRow(**{**row.__dict__, "version": version}))
    wal = tmp_path / "burst.db-wal"
    assert os.path.getsize(wal) > 2 * JOURNAL_SIZE_LIMIT
    store.db.checkpoint()
    store.rooms.save(row)  # the next write starts the log over, and cuts it back
    assert os.path.getsize(wal) <= JOURNAL_SIZE_LIMIT


def test_a_watcher_or_a_second_tab_wakes_no_other_channel(player, registry):
    ann, bea, cal = player("Ann"), player("Bea"), player("Cal")
    code = create_room(ann)
    join(bea, code)
    join(cal, code)
    room = registry.get(code)
    ann_uid = room.seats[0].uid
    first = Subscriber(ann_uid)
    registry.subscribe(room, first)  # Ann's seat shows as connected: everyone is told
    seq = room.published.seq
    watchers = [Subscriber(f"watcher {n}") for n in range(50)]
    for watcher in watchers:
        registry.subscribe(room, watcher)
    second = Subscriber(ann_uid)
    registry.subscribe(room, second)
    first.event.clear()
    registry.unsubscribe(room, second)
    for watcher in watchers:
        registry.unsubscribe(room, watcher)
    assert room.published.seq == seq and not first.event.is_set()
    registry.unsubscribe(room, first)  # now the seat shows as away
    assert room.published.seq == seq + 1
