"""Owners: on PostgreSQL, several processes (on several machines) serve the rooms, one process a room.

A process owns a room while it holds the room's lock in the database (zerogames.store.postgres): the
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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .registry import RoomRegistry
    from .room import Room

# How long a request waits for a live owner to let go of its room, and how often it looks meanwhile.
HANDOVER_WAIT = 5.0
HANDOVER_POLL = 0.05


class OwnedElsewhere(Exception):
    """Another live process holds the room."""


class Owners:
    """The registry's taking of rooms, and letting them go."""

    def __init__(self, registry: RoomRegistry) -> None:
        self.registry = registry
        # One lock per code being taken, so that two requests for a room not yet here rebuild it once,
        # while the registry's own lock (which every request passes) is held only to look and to add.
        self.taking: dict[str, threading.Lock] = {}

    def take(self, code: str) -> Room | None:
        """The room from its log, now owned here; None if there is no such room; OwnedElsewhere if a
        live process holds it. The log is read and played again outside the registry's lock."""
        registry = self.registry
        with registry.lock:
            one_at_a_time = self.taking.setdefault(code, threading.Lock())
        with one_at_a_time:
            with registry.lock:
                room = registry.rooms.get(code)
            if room is not None:
                return room
            if not registry.store.peers.own(code):
                raise OwnedElsewhere
            room = registry.rebuild(code)
            if room is None:
                registry.store.peers.disown(code)
                return None
            with registry.lock:
                registry.rooms[code] = room
            if room.status == "playing":
                with room.lock:  # its bots, clock and timers go on here
                    registry.arm(room)
            return room

    def take_from_owner(self, code: str) -> Room | None:
        """Ask the live owner to let go of the room, and take it once it has (None if it never does
        within HANDOVER_WAIT seconds)."""
        registry = self.registry
        registry.store.peers.ask_others("let_go", code)
        deadline = time.monotonic() + HANDOVER_WAIT
        while time.monotonic() < deadline:
            time.sleep(HANDOVER_POLL)
            try:
                return self.take(code)
            except OwnedElsewhere:
                continue
        return None

    def let_go(self, code: str) -> None:
        """Another process is sent this room's requests now: stop serving it. Its live channels close
        (their pages open them again, there), and whatever still holds it here changes nothing."""
        registry = self.registry
        with registry.lock:
            room = registry.rooms.pop(code, None)
            self.taking.pop(code, None)
            if room is None:
                return
            with room.lock.held:
                room.gone = True
                for timer in (room.clock_timer, room.abandon_timer):
                    if timer is not None:
                        timer.cancel()
                registry.store.peers.disown(code)
                for sub in room.subscribers:
                    sub.wake()
