"""Live channels: a room's subscribers, and the regular waking that notices the ones that closed."""

from __future__ import annotations

import threading
from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .registry import RoomRegistry
    from .room import Room

# Seconds between wakings of every live channel, changed or not (Channels.wake_everyone), and in how
# many slices of the rooms, woken one after another, they are spread over that time.
WAKE_EVERY = 20.0
WAKE_SLICES = 20


class Subscriber:
    """One open live channel: woken on every change, it pushes that viewer's fresh fragments."""

    def __init__(self, uid: str, event: threading.Event | None = None) -> None:
        self.uid = uid
        # Its own, or one it shares with whatever else its channel waits on (the socket's news).
        self.event = event or threading.Event()

    def wake(self) -> None:
        self.event.set()


class Channels:
    """The registry's live channels: subscribing, and the regular waking that notices closed ones. A
    channel opening or closing changes no facts of its room, only what its table shows (who is
    connected) and when a player's last one closed (the turn clock's next deadlines count from it): it
    publishes, and is no command."""

    def __init__(self, registry: RoomRegistry) -> None:
        self.registry = registry
        self.waking = False  # whether wake_everyone is set going

    def subscribe(self, room: Room, sub: Subscriber) -> None:
        with room.lock:
            shows_connected = seen_connected(room, sub.uid)
            room.subscribers.append(sub)
            came_back = room.closed.pop(sub.uid, None) is not None
            if not shows_connected and room.seat_of(sub.uid) is not None:
                if came_back:
                    self.registry.rewind(room)
                room.changed()  # the seat shows as connected now
        registry = self.registry
        with registry.lock:
            if not self.waking:
                self.waking = True
                registry.scheduler.call_at(registry.clock() + WAKE_EVERY / WAKE_SLICES, self.wake_everyone)

    def wake_everyone(self, turn: int = 0) -> None:
        """Wake every live channel, changed or not, once every WAKE_EVERY seconds: one that has closed
        notices and goes, and its seat shows as away. One timer for all, where a timer per channel
        and wait would be made and dropped a thousand times a second; and a slice of the rooms at a
        time: a thousand channels woken at once hold every table up for some 9 ms."""
        self.wake_slice(turn)
        registry = self.registry
        registry.scheduler.call_at(
            registry.clock() + WAKE_EVERY / WAKE_SLICES, partial(self.wake_everyone, turn + 1)
        )

    def wake_slice(self, turn: int) -> None:
        """The live channels of every WAKE_SLICES-th room, from the turn-th on."""
        with self.registry.lock:
            rooms = list(self.registry.rooms.values())[turn % WAKE_SLICES :: WAKE_SLICES]
        for room in rooms:
            for sub in list(room.subscribers):
                sub.wake()

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        with room.lock.held:  # also once the room has moved to another process
            if sub in room.subscribers:
                room.subscribers.remove(sub)
                if not seen_connected(room, sub.uid) and room.seat_of(sub.uid) is not None:
                    room.closed[sub.uid] = self.registry.clock()
                    room.changed()  # the seat shows as away now


def seen_connected(room: Room, uid: str) -> bool:
    """Whether a live channel of `uid` is open. Only a seat's first channel opening and its last one
    closing change what the table shows: a watcher's channel, or a player's second tab, wakes no one
    (a thousand watchers of one table would otherwise wake each other a million times)."""
    return any(other.uid == uid for other in room.subscribers)
