"""Owners: on PostgreSQL, several processes (on several machines) serve the rooms, one process a room.

A process owns a room while it holds the room's lock in the database (zerogames.postgres): the
database lets go of it the moment that process dies. The proxy sends every request for a room to one
process, chosen by the room's code (README: several processes), and that process takes the room:
- from the log, if no live process holds it (it was never open, or its owner died): its bots, clock
  and timers go on here, and its open pages, whose live channels closed with the dead process, open
  them again here (the proxy's choice moved with the dead process);
- from its owner, if a live one holds it (the proxy's choice moved back, to a process restarted): the
  owner is asked to let go, closes the room's live channels (its pages open them again, here) and
  drops it, and then it is taken from the log.
So every viewer of a room is served by its one owner, and no change is ever pushed across processes.
On SQLite a process owns the rooms of its letters (ZEROGAMES_SHARD), and nothing ever moves.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from .room import Room

if TYPE_CHECKING:
    from zerogames.store import Store

# How long a request waits for a live owner to let go of its room, and how often it looks meanwhile.
HANDOVER_WAIT = 5.0
HANDOVER_POLL = 0.05


class OwnedElsewhere(Exception):
    """Another live process holds the room."""


class Owners:
    """The registry's part that takes rooms and lets them go: see RoomRegistry."""

    store: Store
    rooms: dict[str, Room]
    lock: threading.Lock
    rebuild: Callable[[str], Room | None]  # the registry's
    after_change: Callable[[Room], None]  # Play's

    def take(self, code: str) -> Room | None:
        """The room from its log, now owned here (the registry's lock is held); None if there is no
        such room; OwnedElsewhere if a live process holds it."""
        if not self.store.own(code):
            raise OwnedElsewhere
        room = self.rebuild(code)
        if room is None:
            self.store.disown(code)
            return None
        self.rooms[code] = room
        if room.status == "playing":
            with room.lock:  # its bots, clock and timers go on here
                self.after_change(room)
        return room

    def take_from_owner(self, code: str) -> Room | None:
        """Ask the live owner to let go of the room, and take it once it has (None if it never does
        within HANDOVER_WAIT seconds)."""
        self.store.ask_others("let_go", code)
        deadline = time.monotonic() + HANDOVER_WAIT
        while time.monotonic() < deadline:
            time.sleep(HANDOVER_POLL)
            with self.lock:
                room = self.rooms.get(code)
                try:
                    return room if room is not None else self.take(code)
                except OwnedElsewhere:
                    continue
        return None

    def let_go(self, code: str) -> None:
        """Another process is sent this room's requests now: stop serving it. Its live channels close
        (their pages open them again, there), and whatever still holds it here changes nothing."""
        with self.lock:
            room = self.rooms.pop(code, None)
            if room is None:
                return
            with room.lock.held:
                room.gone = True
                for timer in (room.clock_timer, room.abandon_timer):
                    if timer is not None:
                        timer.cancel()
                self.store.disown(code)
                for sub in room.subscribers:
                    sub.wake()
