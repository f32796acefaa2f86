"""The turn clock: deadlines for the seats a table awaits, the moves made when they run out, seats
marked away, and tables that every player has left (PLATFORM.md, Turn timer).

Every deadline counts from the moment the game's last action was logged, so a restart resumes each
clock where it was, and a deadline that fell while the server was down is met at once. A timeout is an
ordinary action: chosen by the Easy bot from the seat's own view, version-checked, logged with `by`
set to "timeout", then published.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from zerogames import bots, clock
from zerogames.store import Store

from .room import Refused, Room

if TYPE_CHECKING:
    from .scheduler import Scheduler

TIMEOUT = "timeout"
# The bot that moves for a seat whose time ran out: simple, legal, and quick to decide.
TIMEOUT_LEVEL = "easy"


class TurnClock:
    """The registry's part that runs turn clocks: see RoomRegistry."""

    store: Store
    clock: Callable[[], float]
    scheduler: Scheduler
    bot_delay: float
    apply: Callable[[Room, int, Any, str], None]  # Play's
    after_change: Callable[[Room], None]  # Play's
    abandon: Callable[[Room], None]  # Play's

    # Setting the clock

    def wind_clock(self, room: Room, now: float) -> None:
        """The deadlines of the seats the table awaits now, and a timer for the first of them (the
        room's lock is held; called before the change is published, so that pages show them).

        A seat marked away gets no more than a bot's pause; a seat a bot plays, none (the bot moves).
        """
        if room.clock_timer is not None:
            room.clock_timer.cancel()
            room.clock_timer = None
        seconds = clock.seconds(room.options, has_bots(room), room.ranked)
        if room.status != "playing" or not seconds:
            room.deadlines = ()
            self.watch_desertion(room, now, False)
            return
        away = room.away()
        room.deadlines = tuple(
            (seat, room.last_at + (self.bot_delay if seat in away else seconds))
            for seat in room.rules.awaited(room.state, now)
            if room.seats[seat].bot is None
        )
        if room.deadlines:
            first = min(until for _, until in room.deadlines)
            room.clock_timer = self.scheduler.call_at(first, partial(self.time_out, room, room.version))
        self.watch_desertion(room, now, True)

    def count_move(self, room: Room, seat: int, by: str, now: float) -> None:
        """What a logged action means to the clock: the time every deadline counts from, and the seat's
        timeouts in a row (a move of the player's own ends the run, and with it being away)."""
        room.last_at = now
        room.timed_out = seat if by == TIMEOUT else None
        if by == TIMEOUT:
            room.timeouts[seat] = room.timeouts.get(seat, 0) + 1
        elif by.startswith("player:"):
            room.timeouts.pop(seat, None)
            # Someone is playing (perhaps without a live channel: plain forms work too): the table
            # is not deserted, whoever else is away.
            self.watch_desertion(room, now, False)

    def start_clock(self, room: Room, now: float) -> None:
        """A new game: every clock counts from its start."""
        room.last_at, room.timeouts, room.timed_out, room.deserted_since = now, {}, None, None

    def rebuild_clock(self, room: Room) -> None:
        """The clock as the store has it: the last action's time, and each seat's timeouts in a row."""
        started, moves = self.store.timeline(room.code, room.game_no)
        self.start_clock(room, started)
        for seat, now, by in moves:
            self.count_move(room, seat, by, now)

    # When time runs out

    def time_out(self, room: Room, version: int) -> None:
        """Move for every seat whose deadline has passed, unless the table changed since the timer was
        set: then a player's move got there first, and only it counts."""
        with room.lock:
            if room.status != "playing" or room.version != version:
                return
            now = self.clock()
            for seat in [seat for seat, until in room.deadlines if until <= now]:
                if room.status == "playing" and seat in room.rules.awaited(room.state, now):
                    self.move_for(room, seat, now)

    def move_for(self, room: Room, seat: int, now: float) -> None:
        """The Easy bot's choice for the seat, from its own view, among the moves a timeout may make."""
        rules = room.rules
        forced = rules.timeout_actions(room.state, seat, now)
        rng = random.Random(f"{room.seed}/{room.action_count}/{seat}/{TIMEOUT}")
        action = bots.choose(room.game_id, rules.view(room.state, seat, now), forced, TIMEOUT_LEVEL, rng)
        self.apply(room, seat, action, TIMEOUT)

    # Away and back

    def back(self, room: Room, uid: str) -> None:
        """I'm back (or a rejoin): the seat is no longer away, and is taken back from a bot."""
        with room.lock:
            seat = room.seat_of(uid)
            if seat is None:
                raise Refused("You are watching this table: only its players can be away.")
            self.take_back(room, seat)
            self.after_change(room)

    def take_back(self, room: Room, seat: int) -> None:
        room.timeouts.pop(seat, None)
        who = room.seats[seat]
        if who.bot is not None and who.uid is not None:
            room.seats[seat] = replace(who, bot=None)
            room.version += 1
            self.store.save_room(room.row())

    def hand_to_bot(self, room: Room, uid: str, seat: int) -> None:
        """The host lets a bot play an away player's seat, until the player comes back for it."""
        with room.lock:
            if uid != room.host:
                raise Refused("Only the host can hand a seat to a bot.")
            if room.status != "playing":
                raise Refused("The game is not being played.")
            if not 0 <= seat < len(room.seats) or room.seats[seat].uid is None:
                raise Refused("That seat holds no player.")
            if seat not in room.away() or room.seats[seat].bot is not None:
                raise Refused(f"{room.seats[seat].name} is not away: they play their own seat.")
            room.seats[seat] = replace(room.seats[seat], bot=TIMEOUT_LEVEL)
            room.version += 1
            self.store.save_room(room.row())
            self.after_change(room)

    # Tables every player has left

    def watch_desertion(self, room: Room, now: float, running: bool) -> None:
        """Note when every player of a table with a running clock became away (or lost their live
        channel), and end the game as abandoned if they stay so for clock.ABANDON_AFTER seconds."""
        if not (running and deserted(room)):
            room.deserted_since = None
            if room.abandon_timer is not None:
                room.abandon_timer.cancel()
                room.abandon_timer = None
            return
        if room.deserted_since is None:
            room.deserted_since = now
            room.abandon_timer = self.scheduler.call_at(
                now + clock.ABANDON_AFTER, partial(self.abandon_if_deserted, room)
            )

    def abandon_if_deserted(self, room: Room) -> None:
        with room.lock:
            room.abandon_timer = None
            if room.status != "playing" or not deserted(room):
                room.deserted_since = None
                return
            self.abandon(room)


def has_bots(room: Room) -> bool:
    """Whether a bot of its own sits at the table (not one playing for an away player)."""
    return any(seat.bot is not None and seat.uid is None for seat in room.seats)


def deserted(room: Room) -> bool:
    """Every player's seat is away, or has no live channel open."""
    connected = {sub.uid for sub in room.subscribers}
    away = room.away()
    players = [seat for seat, who in enumerate(room.seats) if who.uid is not None]
    return bool(players) and all(seat in away or room.seats[seat].uid not in connected for seat in players)
