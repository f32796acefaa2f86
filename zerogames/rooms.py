"""Rooms: codes, seats, one lock per room, versions, subscribers and the timers that move bots.

A room is changed only under its own lock; the registry's lock guards creating and finding rooms.
Every change is written to the store before the room's subscribers are woken, and each change
replaces the room's `snapshot` whole, so a pusher reading it never sees half a change.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from zerogames import bots
from zerogames.games import GAMES, Game, IllegalAction
from zerogames.store import SNAPSHOT_EVERY, RoomRow, SeatRow, Store

# Letters only, without the look-alikes I, L and O (1, 1 and 0).
log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 4
NAME_LENGTH = 20
# How many past snapshots a room keeps, so that a page's live channel can start from what it shows.
RECENT_SNAPSHOTS = 32
# Seconds between wakings of every live channel, changed or not (RoomRegistry.wake_everyone), and
# in how many slices of the rooms, woken one after another, they are spread over that time.
WAKE_EVERY = 20.0
WAKE_SLICES = 20


class Refused(Exception):
    """A request the room turns down; `reason` is shown to the player, nothing has changed."""

    def __init__(self, reason: str, *, stale: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stale = stale


@dataclass(frozen=True)
class Seat:
    uid: str | None
    name: str
    bot: str | None = None  # the bot's level, for a bot's seat


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a page of the room is drawn from, as of one change (`seq`)."""

    seq: int
    version: int
    status: str  # lobby, playing, over
    game_no: int
    state: dict[str, Any] | None
    seats: tuple[Seat, ...]
    host: str
    connected: frozenset[str]
    options: dict[str, Any]
    # When the change was made: every view of it is drawn as of this moment (a view that changes with
    # time alone makes a change of its own when it does, through the scheduler).
    at: float


class Subscriber:
    """One open live channel: woken on every change, it pushes that viewer's fresh fragments."""

    def __init__(self, uid: str) -> None:
        self.uid = uid
        self.event = threading.Event()

    def wake(self) -> None:
        self.event.set()


class Room:
    def __init__(
        self, code: str, game_id: str, options: dict[str, Any], host: str, clock: Callable[[], float]
    ) -> None:
        self.code = code
        self.clock = clock
        self.game_id = game_id
        self.rules: Game = GAMES[game_id]
        self.options = options
        self.host = host
        self.seats: list[Seat] = []
        self.status = "lobby"
        self.game_no = 0
        self.seed: int | None = None
        self.state: dict[str, Any] | None = None
        self.version = 0
        self.actions = 0  # actions so far in the current game
        # Each seat's last move: the table version it made (or the game's first version). See `act`.
        self.acted: dict[int, int] = {}
        self.seq = 0
        self.lock = threading.RLock()
        self.subscribers: list[Subscriber] = []
        self.pending_bots: set[int] = set()
        self.refreshes: set[float] = set()  # moments a push of time-changed views is set for
        self.recent: dict[int, Snapshot] = {}
        self.snapshot = self.take_snapshot(None)

    def seat_of(self, uid: str | None) -> int | None:
        for index, seat in enumerate(self.seats):
            if uid is not None and seat.uid == uid:
                return index
        return None

    def take_snapshot(self, last: Snapshot | None) -> Snapshot:
        # Most changes are moves: the seats, who is connected and the options are as they were, and
        # the snapshot shares the `last` one's (a room keeps dozens of snapshots, made a hundred a
        # second across the process, and each object kept is one more for the garbage collector).
        def kept(field: str, now: Any) -> Any:
            before = getattr(last, field, None)
            return before if before == now else now

        return Snapshot(
            self.seq,
            self.version,
            self.status,
            self.game_no,
            self.state,
            kept("seats", tuple(self.seats)),
            self.host,
            kept("connected", frozenset(sub.uid for sub in self.subscribers)),
            kept("options", dict(self.options)),
            self.clock(),
        )

    def changed(self) -> None:
        """Publish the room as it is now to every subscriber (called with the lock held)."""
        self.seq += 1
        self.snapshot = self.take_snapshot(self.snapshot)
        self.recent[self.seq] = self.snapshot
        self.recent.pop(self.seq - RECENT_SNAPSHOTS, None)
        for sub in self.subscribers:
            sub.wake()

    def row(self) -> RoomRow:
        return RoomRow(
            self.code,
            self.game_id,
            self.options,
            self.host,
            self.status,
            self.game_no,
            self.seed,
            self.version,
            [SeatRow(i, s.uid, s.name, s.bot) for i, s in enumerate(self.seats)],
        )


class Scheduler:
    """One timer thread per process: bot moves and views that change with time (Cabo's sightings)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.queue: list[tuple[float, int, Callable[[], None]]] = []
        self.counter = itertools.count()
        self.wakeup = threading.Condition()
        self.thread: threading.Thread | None = None

    def call_at(self, when: float, task: Callable[[], None]) -> None:
        with self.wakeup:
            heapq.heappush(self.queue, (when, next(self.counter), task))
            if self.thread is None:
                self.thread = threading.Thread(target=self.run, name="zerogames-scheduler", daemon=True)
                self.thread.start()
            self.wakeup.notify()

    def run(self) -> None:
        while True:
            with self.wakeup:
                while not self.queue or self.queue[0][0] > self.clock():
                    self.wakeup.wait(None if not self.queue else max(0.0, self.queue[0][0] - self.clock()))
                _, _, task = heapq.heappop(self.queue)
            try:
                task()
            except Exception:  # a failing task must not stop every later timer of the process
                log.exception("scheduled task failed")


def clean_name(name: str | None) -> str:
    name = " ".join((name or "").split())[:NAME_LENGTH]
    if not name:
        raise Refused("Choose a name first: it is how the table will know you.")
    return name


class RoomRegistry:
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        bot_delay: float = 0.8,
        shard: tuple[int, int] = (0, 1),
    ) -> None:
        self.store = store
        # With several processes, process i of n owns the codes whose first letter is in its slice
        # of the alphabet, so a proxy can pin every room to its process by the code's first letter.
        index, count = shard
        self.first_letters = CODE_ALPHABET[index::count]
        self.clock = clock
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self.lock = threading.Lock()
        self.scheduler = Scheduler(clock)
        self.waking = False  # whether wake_everyone is set going

    # Creating and finding rooms

    def new_code(self) -> str:
        while True:
            code = secrets.choice(self.first_letters) + "".join(
                secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH - 1)
            )
            # Codes stay with their rooms while the rooms are kept: never hand out a used one.
            if code not in self.rooms and not self.store.code_taken(code):
                return code

    def create(self, game_id: str, options: dict[str, Any], uid: str, name: str | None) -> Room:
        if game_id not in GAMES:
            raise Refused("Pick one of the games on the list.")
        name = clean_name(name)
        with self.lock:
            room = Room(self.new_code(), game_id, options, uid, self.clock)
            room.seats.append(Seat(uid, name))
            self.store.save_room(room.row())
            self.rooms[room.code] = room
        room.changed()
        return room

    def get(self, code: str) -> Room | None:
        code = (code or "").strip().upper()
        with self.lock:
            room = self.rooms.get(code)
            if room is None and len(code) == CODE_LENGTH and code.isalpha() and self.owns(code):
                room = self.rebuild(code)
                if room is not None:
                    self.rooms[code] = room
        return room

    def owns(self, code: str) -> bool:
        return code[:1] in self.first_letters

    def restore(self) -> int:
        """On start-up: every unfinished room back from its snapshot and log, its bots moving again."""
        restored = 0
        for code in self.store.unfinished_rooms():
            room = self.get(code) if self.owns(code) else None
            if room is not None:
                restored += 1
                with room.lock:
                    self.after_change(room)
        return restored

    def rebuild(self, code: str) -> Room | None:
        row = self.store.load_room(code)
        if row is None or row.game not in GAMES:
            return None
        room = Room(row.code, row.game, row.options, row.host, self.clock)
        room.seats = [Seat(s.uid, s.name, s.bot) for s in row.seats]
        room.status, room.game_no, room.seed, room.version = row.status, row.game_no, row.seed, row.version
        room.acted = dict.fromkeys(range(len(room.seats)), room.version)
        if row.status != "lobby":
            log = self.store.game_log(code, row.game_no)
            if log is None:
                return None
            rules = room.rules
            state = (
                rules.load(log.snapshot)
                if log.snapshot
                else rules.new_game(log.players, log.seed, log.options)
            )
            for seat, action, now in log.actions:
                state = rules.apply(state, seat, action, now)
            room.state = state
            room.actions = log.snapshot_at + len(log.actions)
        room.snapshot = room.take_snapshot(room.snapshot)
        return room

    # The lobby

    def join(self, room: Room, uid: str, name: str | None) -> int:
        name = clean_name(name)
        with room.lock:
            seat = room.seat_of(uid)
            if seat is not None:
                return seat
            if room.status != "lobby":
                raise Refused("The game has started without you: you can watch it.")
            if len(room.seats) >= room.rules.max_players:
                raise Refused(
                    f"This table is full: {room.rules.title} is for at most {room.rules.max_players}."
                )
            room.seats.append(Seat(uid, name))
            self.save_lobby(room)
            return len(room.seats) - 1

    def leave(self, room: Room, uid: str) -> None:
        with room.lock:
            seat = room.seat_of(uid)
            if seat is None or room.status != "lobby":
                raise Refused("Only a seated player can leave, and only before the game starts.")
            if uid == room.host:
                raise Refused("The host keeps the table: you cannot leave it.")
            del room.seats[seat]
            self.save_lobby(room)

    def add_bot(self, room: Room, uid: str, level: str = "easy") -> None:
        with room.lock:
            self.check_host_in_lobby(room, uid)
            if level not in bots.LEVELS:
                raise Refused("There is no bot of that level.")
            if len(room.seats) >= room.rules.max_players:
                raise Refused("The table is full: there is no seat for a bot.")
            taken = {seat.name for seat in room.seats}
            name = next(n for n in BOT_NAMES if n not in taken)
            room.seats.append(Seat(None, name, level))
            self.save_lobby(room)

    def remove_bot(self, room: Room, uid: str, seat: int) -> None:
        with room.lock:
            self.check_host_in_lobby(room, uid)
            if not 0 <= seat < len(room.seats) or room.seats[seat].bot is None:
                raise Refused("That seat holds no bot.")
            del room.seats[seat]
            self.save_lobby(room)

    def set_options(self, room: Room, uid: str, options: dict[str, Any]) -> None:
        with room.lock:
            self.check_host_in_lobby(room, uid)
            room.options = options
            self.save_lobby(room)

    def check_host_in_lobby(self, room: Room, uid: str) -> None:
        if uid != room.host:
            raise Refused("Only the host can change the table.")
        if room.status != "lobby":
            raise Refused("The game has started: the seats are settled.")

    def save_lobby(self, room: Room) -> None:
        room.version += 1
        self.store.save_room(room.row())
        room.changed()

    def start(self, room: Room, uid: str) -> None:
        with room.lock:
            if uid != room.host:
                raise Refused("Only the host can start the game.")
            if room.status == "playing":
                raise Refused("The game has already started.")
            rules, players = room.rules, len(room.seats)
            if not rules.min_players <= players <= rules.max_players:
                raise Refused(
                    f"{rules.title} needs {rules.min_players} to {rules.max_players} players; "
                    f"the table has {players}. Invite friends or add bots."
                )
            seed = secrets.randbelow(2**31)
            try:
                state = rules.new_game(players, seed, room.options)
            except ValueError as bad:
                raise Refused(f"Those options do not work: {bad}.") from None
            room.game_no += 1
            room.seed, room.state, room.status, room.actions = seed, state, "playing", 0
            room.version += 1
            room.acted = dict.fromkeys(range(players), room.version)
            self.store.save_room(room.row())
            self.store.start_game(room.row(), players, room.options, rules.dump(state))
            self.after_change(room)

    def rematch(self, room: Room, uid: str) -> None:
        """Play again: same seats, a new game (the rules' rematch options, such as the next chooser)."""
        with room.lock:
            if room.status != "over":
                raise Refused("The game is not over yet.")
            if room.seat_of(uid) is None:
                raise Refused("Only a player at the table can start the next game.")
            room.status = "lobby"
            room.options = rematch_options(room)
            self.start(room, room.host)

    # Play

    def act(self, room: Room, uid: str, version: Any, action: Any, seat: Any = None) -> None:
        """A seated player's action, chosen on table `version`; refused (and nothing changed) if off."""
        with room.lock:
            own = room.seat_of(uid)
            if own is None:
                raise Refused("You are watching this table: only its players can act.")
            if seat is not None and str(seat) != str(own):
                raise Refused("You can act only for your own seat.")
            if room.status != "playing":
                raise Refused(
                    "The game is over." if room.status == "over" else "The game has not started yet."
                )
            if (
                isinstance(action, dict)
                and action.get("type") in HOST_ONLY.get(room.game_id, ())
                and uid != room.host
            ):
                raise Refused("Only the host may change that.")
            if str(version) != str(room.version) and not chosen_since_own_move(room, own, version):
                raise Refused("The table changed before your move arrived: here it is now.", stale=True)
            self.apply(room, own, action, f"player:{uid}")

    def apply(self, room: Room, seat: int, action: Any, by: str) -> None:
        """Apply, log durably, then publish (the room's lock is held)."""
        now = self.clock()
        try:
            state = room.rules.apply(room.state, seat, action, now)
        except IllegalAction as refusal:
            raise Refused(refusal.reason) from None
        result = room.rules.result(state)
        number = room.actions + 1
        snapshot = room.rules.dump(state) if number % SNAPSHOT_EVERY == 0 else None
        self.store.append_action(
            room.code, room.game_no, number, seat, action, now, by, room.version + 1, snapshot, result
        )
        room.state, room.actions, room.version = state, number, room.version + 1
        room.acted[seat] = room.version
        if result is not None:
            room.status = "over"
        self.after_change(room)

    def after_change(self, room: Room) -> None:
        """Publish, then set the timers the new state needs: bot moves and expiring sightings."""
        room.changed()
        if room.status != "playing":
            return
        now = self.clock()
        for seat, who in enumerate(room.seats):
            if who.bot and seat not in room.pending_bots and room.rules.legal_actions(room.state, seat, now):
                room.pending_bots.add(seat)
                self.scheduler.call_at(now + self.bot_delay, lambda seat=seat: self.bot_move(room, seat))
        self.schedule_refresh(room, now)

    def bot_move(self, room: Room, seat: int) -> None:
        with room.lock:
            room.pending_bots.discard(seat)
            if room.status != "playing" or room.seats[seat].bot is None:
                return
            now = self.clock()
            legal = room.rules.legal_actions(room.state, seat, now)
            if not legal:
                return
            view = room.rules.view(room.state, seat, now)
            rng = random.Random(f"{room.seed}/{room.actions}/{seat}")
            action = bots.choose(room.game_id, view, legal, room.seats[seat].bot, rng)
            if action is not None:  # else it waits, and is asked again after the next change
                self.apply(room, seat, action, f"bot:{room.seats[seat].bot}")

    def schedule_refresh(self, room: Room, now: float) -> None:
        """Push fresh views when the next one changes with time; once per moment, however many
        actions asked for it (else every action would start a chain of pushes of its own)."""
        when = room.rules.next_change(room.state, now) if room.state else None
        if when is not None and when not in room.refreshes:
            room.refreshes.add(when)
            self.scheduler.call_at(when, lambda: self.refresh(room, when))

    def refresh(self, room: Room, when: float) -> None:
        """A view changed with time alone (no action): push everyone their fresh table."""
        with room.lock:
            room.refreshes.discard(when)
            room.changed()
            self.schedule_refresh(room, self.clock())

    # Live channels and moving seats

    def subscribe(self, room: Room, sub: Subscriber) -> None:
        with room.lock:
            room.subscribers.append(sub)
            room.changed()
        with self.lock:
            if not self.waking:
                self.waking = True
                self.scheduler.call_at(self.clock() + WAKE_EVERY / WAKE_SLICES, self.wake_everyone)

    def wake_everyone(self, turn: int = 0) -> None:
        """Wake every live channel, changed or not, once every WAKE_EVERY seconds: one that has closed
        notices and goes, and its seat shows as away. One timer for all, where a timer per channel
        and wait would be made and dropped a thousand times a second; and a slice of the rooms at a
        time: a thousand channels woken at once hold every table up for some 9 ms."""
        self.wake_slice(turn)
        self.scheduler.call_at(self.clock() + WAKE_EVERY / WAKE_SLICES, partial(self.wake_everyone, turn + 1))

    def wake_slice(self, turn: int) -> None:
        """The live channels of every WAKE_SLICES-th room, from the turn-th on."""
        with self.lock:
            rooms = list(self.rooms.values())[turn % WAKE_SLICES :: WAKE_SLICES]
        for room in rooms:
            for sub in list(room.subscribers):
                sub.wake()

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        with room.lock:
            if sub in room.subscribers:
                room.subscribers.remove(sub)
                room.changed()

    def move_seat(self, room: Room, seat: int, old_uid: str, new_uid: str) -> None:
        """A rejoin link: the seat goes to the identity that opened it (another device)."""
        with room.lock:
            if not 0 <= seat < len(room.seats) or room.seats[seat].uid != old_uid:
                raise Refused("This rejoin link has been used or is out of date.")
            if room.seat_of(new_uid) is not None and room.seat_of(new_uid) != seat:
                raise Refused("This browser already holds another seat at this table.")
            room.seats[seat] = replace(room.seats[seat], uid=new_uid)
            if room.host == old_uid:
                room.host = new_uid
            room.version += 1
            self.store.save_room(room.row())
            room.changed()


# Table settings a game's engine accepts from any seat but the site leaves to the host (Cabo's memory
# mode, switched between rounds).
HOST_ONLY: dict[str, set[str]] = {"cabo": {"memory"}}

# Games where everybody moves at once and no other seat's move changes what yours means (Zero's cards
# played face down): a move chosen on a table that only other seats have changed since still stands.
# Not Cabo: a snap chosen against one discard must not land on the next.
MOVES_AT_ONCE = {"zero"}


def chosen_since_own_move(room: Room, seat: int, version: Any) -> bool:
    """The move was chosen on an older table, but only other seats moved since (a double click did not)."""
    if room.game_id not in MOVES_AT_ONCE:
        return False
    try:
        version = int(version)
    except (TypeError, ValueError):
        return False
    return room.acted.get(seat, room.version) <= version <= room.version


BOT_NAMES = [f"{name} (bot)" for name in ("Ada", "Bix", "Cog", "Dot", "Eve", "Fizz", "Gus")]


def rematch_options(room: Room) -> dict[str, Any]:
    """A game that moves a seat from match to match (Trump Card's chooser) is passed the next one."""
    options = dict(room.options)
    if room.game_id == "trump_card" and room.state is not None:
        options["chooser"] = (room.state["chooser"] + 1) % len(room.seats)
    return options
