"""Rooms: codes, seats, one lock per room, versions, live channels and the timers that move bots.

A room is changed only under its own lock; the registry's lock guards creating and finding rooms.
Every change is written to the store before the room's live channels are woken, and each change
replaces the room's `published` table whole, so a pusher reading it never sees half a change.

By job: `room` (a room, its seats and what it publishes), `registry` (creating, finding and rebuilding
rooms), `lobby` (seats and options before a game, starting, rematches), `play` (a player's action:
checked, applied, logged, published), `bot_driver` (bots' moves), `turn_clock` (deadlines, timeouts,
away seats, abandoned tables), `scheduler` (the process's timers), `channels` (live channels:
subscribing and the regular waking).
"""

from .channels import Subscriber
from .registry import RoomRegistry
from .room import CODE_ALPHABET, Published, Refused, Room, Seat, clean_name

__all__ = [
    "CODE_ALPHABET",
    "Published",
    "Refused",
    "Room",
    "RoomRegistry",
    "Seat",
    "Subscriber",
    "clean_name",
]
