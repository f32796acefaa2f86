"""The room registry: one per process, creating, finding and rebuilding rooms.

Its other jobs live in modules of their own and are mixed in: the lobby (`lobby.Lobby`), play
(`play.Play`), bots (`bot_driver.BotDriver`), turn clocks (`turn_clock.TurnClock`) and live channels
(`channels.Channels`).
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from zerogames.games import GAMES
from zerogames.store import Store

from .bot_driver import BotDriver
from .channels import Channels
from .lobby import Lobby
from .owners import OwnedElsewhere, Owners
from .play import Play
from .ranked import Ranked
from .room import CODE_ALPHABET, CODE_LENGTH, Refused, Room, Seat, a_code, clean_name
from .scheduler import Scheduler
from .turn_clock import TurnClock

# Random codes tried at one length before a longer one is made: with nine codes in ten taken, twenty
# tries all miss one time in eight.
CODE_TRIES = 20
# Seconds a room never started or finished is kept after its last change, and between droppings.
KEEP_IDLE = 24 * 3600.0
DROP_EVERY = 600.0


class RoomRegistry(Lobby, Play, BotDriver, TurnClock, Channels, Ranked, Owners):
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
        self.waking = False

    def new_code(self) -> str:
        """A code no room has or had: four letters, or, once four-letter codes are hard to find free,
        five, and so on. A few tries at each length keep the registry's lock held only briefly."""
        length = CODE_LENGTH
        while True:
            for _ in range(CODE_TRIES):
                code = secrets.choice(self.first_letters) + "".join(
                    secrets.choice(CODE_ALPHABET) for _ in range(length - 1)
                )
                # Codes stay with their rooms and their games' history: never hand out a used one (nor
                # one another process is handing out at this moment).
                if code not in self.rooms and not self.store.code_taken(code) and self.store.own(code):
                    return code
            length += 1

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
            if room is not None or not (a_code(code) and self.owns(code)):
                return room
            try:
                return self.take(code)
            except OwnedElsewhere:
                pass
        return self.take_from_owner(code)

    def exists(self, code: str) -> bool:
        """Whether a room has the code, wherever it is served: a look that takes no room here (the
        proxy sends the room's own pages to the process that serves it)."""
        code = (code or "").strip().upper()
        with self.lock:
            if code in self.rooms:
                return True
        return a_code(code) and self.store.load_room(code) is not None

    def owns(self, code: str) -> bool:
        return code[:1] in self.first_letters

    def drop_idle_rooms(self) -> int:
        """Drop the rooms never started or finished that nobody has changed for KEEP_IDLE seconds (their
        games stay in the history); then again every DROP_EVERY seconds. How many went."""
        before = self.clock() - KEEP_IDLE
        dropped = 0
        for code in self.store.idle_rooms(before):
            with self.lock:
                room = self.rooms.get(code)
                if room is not None and room.subscribers:
                    continue  # someone has its page open: kept while they look
                if room is None and not self.store.own(code):
                    continue  # another process's, which drops it if it will
                if self.store.drop_room(code, before):
                    self.rooms.pop(code, None)
                    self.store.disown(code)
                    dropped += 1
                elif room is None:
                    self.store.disown(code)
        self.scheduler.call_at(self.clock() + DROP_EVERY, self.drop_idle_rooms)
        return dropped

    def restore(self) -> int:
        """On start-up: idle rooms dropped; every unfinished room back from its snapshot and log, its
        bots moving again."""
        self.drop_idle_rooms()
        restored = 0
        for code in self.store.unfinished_rooms():
            with self.lock:
                if not self.owns(code) or code in self.rooms:
                    continue
                with contextlib.suppress(OwnedElsewhere):  # a live process serves it
                    restored += self.take(code) is not None  # its bots moving again
        return restored

    def rebuild(self, code: str) -> Room | None:
        row = self.store.load_room(code)
        if row is None or row.game not in GAMES:
            return None
        room = Room(row.code, row.game, row.options, row.host, self.clock)
        room.seats = [Seat(s.uid, s.name, s.bot) for s in row.seats]
        room.status, room.game_no, room.seed, room.version = row.status, row.game_no, row.seed, row.version
        room.acted = dict.fromkeys(range(len(room.seats)), room.version)
        room.ranked = row.ranked
        room.ratings = self.shown_ratings(room)
        if row.status != "lobby":
            game_log = self.store.game_log(code, row.game_no)
            if game_log is None:
                return None
            rules = room.rules
            state = (
                rules.load(game_log.snapshot)
                if game_log.snapshot
                else rules.new_game(game_log.players, game_log.seed, game_log.options)
            )
            for seat, action, now in game_log.actions:
                state = rules.apply(state, seat, action, now)
            room.state = state
            room.action_count = game_log.snapshot_at + len(game_log.actions)
            self.rebuild_clock(room)
            if room.status == "playing":
                self.recall_bots(room, game_log)
        # Pages drop pushes numbered below the one they show: a room rebuilt (after a restart, or in
        # another process after a takeover) numbers its changes on from the moment it was rebuilt, in
        # milliseconds, past any number its last owner (counting from its own start) can have reached.
        room.seq = int(self.clock() * 1000)
        room.published = room.publication(room.published)
        return room

    def move_seat(self, room: Room, seat: int, old_uid: str, new_uid: str, moves: int) -> None:
        """A rejoin link: the seat goes to the identity that opened it (another device), if the seat is
        still `old_uid`'s and has moved `moves` times, as when the link was made (then never again)."""
        with room.lock:
            if (
                not 0 <= seat < len(room.seats)
                or room.seats[seat].uid != old_uid
                or self.store.seat_moves(room.code, seat) != moves
            ):
                raise Refused("This rejoin link has been used or is out of date.")
            if room.seat_of(new_uid) is not None and room.seat_of(new_uid) != seat:
                raise Refused("This browser already holds another seat at this table.")
            self.give_seat(room, seat, new_uid)

    def hand_over(self, old_uid: str, new_uid: str) -> None:
        """A guest signed in to an account on this browser: the guest's seats (and hosting) become the
        account's, but where the account already holds a seat: in the rooms of this process, and of
        every other (on PostgreSQL, each is asked)."""
        self.hand_over_here(old_uid, new_uid)
        self.store.ask_others("hand_over", old_uid, new_uid)

    def hand_over_here(self, old_uid: str, new_uid: str) -> None:
        with self.lock:
            rooms = list(self.rooms.values())
        for room in rooms:
            with room.lock:
                seat = room.seat_of(old_uid)
                if seat is not None and room.seat_of(new_uid) is None:
                    self.give_seat(room, seat, new_uid)

    def give_seat(self, room: Room, seat: int, new_uid: str) -> None:
        """The seat (and the hosting, if it was the host's) to another identity (the lock is held); the
        seat's moves are counted, so every rejoin link made before is dead."""
        if room.host == room.seats[seat].uid:
            room.host = new_uid
        room.seats[seat] = replace(room.seats[seat], uid=new_uid)
        room.version += 1
        self.store.save_moved_seat(room.row(), seat)
        room.changed()
