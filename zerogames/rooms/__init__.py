"""Rooms: codes, seats, one lock per room, versions, live channels and the timers that move bots.

Every change to a room is a command (`commands`): decided purely from the room's facts (`facts`) by
the rules of the lobby (`lobby`), of play (`play`), of the turn clock (`turn_clock`) and of ranked
tables (`ranked`), through one entry (`decide`); then carried out by the registry (`registry`) under
the room's lock: written in one transaction, swapped in with the version bumped once, published once,
and the timers armed. A refusal changes nothing, anywhere.

Beside them: `room` (a room of this process: its facts, lock, live channels and published tables),
`bot_driver` (bots shown their tables and asked for moves, off the loop), `channels` (live channels:
subscribing and the regular waking), `owners` (taking rooms from other processes), `scheduler` (the
process's timers), `names` (players' and bots' names).
"""

from .channels import Subscriber
from .commands import Refused
from .facts import Facts, Seat
from .names import clean_name
from .registry import RoomRegistry
from .room import CODE_ALPHABET, Published, Room

__all__ = [
    "CODE_ALPHABET",
    "Facts",
    "Published",
    "Refused",
    "Room",
    "RoomRegistry",
    "Seat",
    "Subscriber",
    "clean_name",
]
