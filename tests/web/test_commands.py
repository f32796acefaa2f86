"""Every change to a room is one command: a refusal changes nothing anywhere (facts, version, published
table, store rows), an accepted command bumps the version exactly once (talk never), and a write that
fails at any point leaves the room, after a restart, exactly as before the command or exactly as after it."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest

from tests.web.conftest import act, create_room, join, page, timers_by_hand
from zerogames.games import GAMES
from zerogames.rooms import Refused, RoomRegistry
from zerogames.rooms import commands as c
from zerogames.rooms.facts import Facts
from zerogames.store import Store


def rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, as the store holds them."""
    names = [name for (name,) in store.db.rows("select name from sqlite_master where type = 'table'")]
    return {name: sorted(map(repr, store.db.rows(f"select * from {name}"))) for name in names}


def persisted(facts: Facts) -> tuple[Any, ...]:
    """What of a room's facts the store keeps (the rest is rebuilt from it, or is the clock's)."""
    state = facts.rules.dump(facts.state) if facts.state is not None else None
    return (
        facts.game_id,
        dict(facts.options),
        facts.host,
        facts.seats,
        facts.status,
        facts.game_no,
        facts.seed,
        facts.version,
        facts.action_count,
        facts.ranked,
        state,
    )


@pytest.fixture
def quiet(registry: RoomRegistry) -> RoomRegistry:
    """The registry with its timers held back: bots and clocks move only when a test says so."""
    return timers_by_hand(registry)


def a_command(room, rng: random.Random) -> c.Command:
    """Any command from any kind of sender: its players, an away one, a watcher, the host, the clock
    and a bot with a table long gone, legal and not."""
    facts = room.facts
    rules = facts.rules
    uids = [seat.uid for seat in facts.seats if seat.uid] + ["watcher", "stranger"]
    uid = rng.choice(uids)
    seat = rng.randrange(-1, len(facts.seats) + 1)
    now = room.clock()
    legal = []
    if facts.status == "playing":
        for mover in range(len(facts.seats)):
            legal += [(mover, action) for action in rules.legal_actions(facts.state, mover, now)]
    stale = rng.randrange(max(facts.version, 1))
    choices = [
        lambda: c.Join(uid, rng.choice(["Zed", "", "Bot (bot)", "x" * 30])),
        lambda: c.Leave(uid),
        lambda: c.AddBot(uid, rng.choice(["easy", "hard", "godlike"])),
        lambda: c.RemoveBot(uid, seat),
        lambda: c.SetClock(uid, rng.choice([None, 0, 30])),
        lambda: c.SetRanked(uid, rng.random() < 0.5),
        lambda: c.Start(uid, rng.randrange(1000)),
        lambda: c.Rematch(uid, rng.randrange(1000)),
        lambda: c.Back(uid),
        lambda: c.HandToBot(uid, seat, rng.choice(["easy", "normal", "nope"])),
        lambda: c.TimeOut(stale),
        lambda: c.BotMove(max(seat, 0), "easy", (facts.game_no, stale), {"type": "pass"}),
        lambda: c.Abandon(if_deserted=True),
        lambda: c.Act(uid, rng.choice([facts.version, stale, "x"]), {"type": "bid", "bid": 99}),
        lambda: c.Say(
            uid, rng.choice(["reaction", "phrase", "chat", "shout"]), rng.choice(["👍", "Nice bid", "hi"])
        ),
        lambda: c.SetChat(uid, rng.random() < 0.5),
        lambda: c.Kick(uid, rng.choice(uids)),
    ]
    if legal:
        mover, action = rng.choice(legal)
        mover_uid = facts.seats[mover].uid or uid
        choices += [lambda: c.Act(mover_uid, facts.version, dict(action))] * 6
        choices += [lambda: c.Act(rng.choice(uids), rng.choice([facts.version, stale]), dict(action))] * 3
    return rng.choice(choices)()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_refused_command_changes_nothing_and_an_accepted_one_bumps_the_version_once(quiet, game_id):
    rules = GAMES[game_id]
    for trial in range(3):
        rng = random.Random(f"{game_id}/{trial}")
        room = quiet.create(game_id, {}, "host", "Hana")
        for n in range(1, rules.min_players):
            quiet.join(room, f"p{n}", f"P{n}")
        refusals = accepted = 0
        for _ in range(150):
            command = a_command(room, rng)
            facts, published, stored = room.facts, room.published, rows(quiet.store)
            try:
                quiet.run(room, command)
            except Refused:
                refusals += 1
                assert room.facts is facts, command
                assert room.published is published, command
                assert rows(quiet.store) == stored, command
                continue
            if room.facts is facts:
                assert room.published is published, command  # nothing to do: no news either
            else:
                accepted += 1
                # Talk leaves the table, and the moves chosen on it, as they were (rooms.table_talk).
                talk_only = isinstance(command, c.Say | c.SetChat)
                assert room.facts.version == facts.version + (not talk_only), command
                assert room.published.version == room.facts.version
        assert refusals and accepted


def test_a_refused_move_by_a_player_whose_seat_a_bot_plays_leaves_the_table_moving(player, registry):
    """The host hands an away player's seat to a bot; the player's refused click takes nothing back,
    and everyone else's next move is made."""
    timers_by_hand(registry)
    ann, bea, cal = player("Ann"), player("Bea"), player("Cal")
    code = create_room(ann)
    join(bea, code)
    join(cal, code)
    ann.post(f"/r/{code}/start", headers={"HX-Request": "true"})
    room = registry.get(code)
    cal_seat = next(s for s, who in enumerate(room.seats) if who.name == "Cal")
    registry.hand_to_bot(room, room.host, cal_seat)  # Cal has no page open: the host may
    version = room.version
    act(cal, code, '{"type": "bid", "bid": 99}', version)  # refused by the rules
    assert room.version == version and room.seats[cal_seat].bot == "easy"
    mover = room.rules.awaited(room.state, registry.clock())[0]
    client = {"Ann": ann, "Bea": bea, "Cal": cal}[room.seats[mover].name]
    bid = room.rules.legal_actions(room.state, mover)[0]
    act(client, code, f'{{"type": "bid", "bid": {bid["bid"]}}}', version)
    assert room.version == version + 1


class Failing:
    """The store's connection, failing its `at`-th statement inside a transaction (a full disk, an
    I/O error, the process killed between two writes: the transaction is then never committed)."""

    def __init__(self, store: Store, at: int) -> None:
        self.store, self.real, self.at, self.seen = store, store.db.execute, at, 0

    def __call__(self, sql: str, params: Any = ()) -> Any:
        if self.store.db.depth and not sql.startswith(("commit", "rollback")):
            self.seen += 1
            if self.seen == self.at:
                raise sqlite3.OperationalError("disk I/O error")
        return self.real(sql, params) if params else self.real(sql)


def test_a_command_whose_write_fails_at_any_point_is_after_a_restart_all_there_or_not_at_all(
    quiet, monkeypatch
):
    """Start, a move, a rematch's deal: each write failed at every statement; the room rebuilt from the
    store is exactly as before the command, or, once the write goes through, exactly as after it."""
    store = quiet.store
    room = quiet.create("zero_game", {}, "host", "Hana")
    quiet.join(room, "bea", "Bea")
    quiet.add_bot(room, "host")
    rng = random.Random(7)

    def some_move() -> c.Command:
        now = quiet.clock()
        mover = next(s for s in range(3) if room.rules.legal_actions(room.state, s, now))
        action = rng.choice(room.rules.legal_actions(room.state, mover, now))
        uid = room.seats[mover].uid
        if uid is None:
            return c.BotMove(mover, "easy", (room.game_no, room.version), dict(action))
        return c.Act(uid, room.version, dict(action))

    for make in [lambda: c.Start("host", 12345), *[some_move] * 5]:
        command = make()
        before = persisted(room.facts)
        for at in range(1, 100):
            failing = Failing(store, at)
            monkeypatch.setattr(store.db, "execute", failing)
            try:
                quiet.run(room, command)
            except sqlite3.OperationalError:
                monkeypatch.undo()
                assert persisted(room.facts) == before
                assert persisted(quiet.rebuild(room.code).facts) == before
                continue
            monkeypatch.undo()
            break
        assert persisted(room.facts) != before
        assert persisted(quiet.rebuild(room.code).facts) == persisted(room.facts)


def test_a_start_that_fails_halfway_leaves_a_lobby_whose_page_opens(player, registry, monkeypatch):
    ann, bea, cal = player("Ann"), player("Bea"), player("Cal")
    code = create_room(ann)
    join(bea, code)
    join(cal, code)
    store = registry.store
    monkeypatch.setattr(store.db, "execute", Failing(store, 3))  # after the room's row, before the game
    with pytest.raises(sqlite3.OperationalError):
        registry.start(registry.get(code), registry.get(code).host)
    monkeypatch.undo()
    rebuilt = registry.rebuild(code)
    assert rebuilt is not None and rebuilt.status == "lobby"
    registry.rooms.pop(code)  # as after a restart
    assert "Start the game" in page(ann, code)
