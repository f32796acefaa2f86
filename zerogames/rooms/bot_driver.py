"""Bots' moves: each bot seat that may act is asked for its move after a short delay."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zerogames import bots

from .room import Room

if TYPE_CHECKING:
    from .scheduler import Scheduler


class BotDriver:
    """The registry's part that moves bots: see RoomRegistry."""

    clock: Callable[[], float]
    scheduler: Scheduler
    bot_delay: float
    apply: Callable[[Room, int, Any, str], None]  # Play's

    def schedule_bots(self, room: Room, now: float) -> None:
        """A move for every bot seat that may act now and has none coming yet."""
        for seat, who in enumerate(room.seats):
            if who.bot and seat not in room.pending_bots and room.rules.legal_actions(room.state, seat, now):
                room.pending_bots.add(seat)
                self.scheduler.call_at(now + self.bot_delay, lambda seat=seat: self.bot_move(room, seat))

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
            rng = random.Random(f"{room.seed}/{room.action_count}/{seat}")
            action = bots.choose(room.game_id, view, legal, room.seats[seat].bot, rng)
            if action is not None:  # else it waits, and is asked again after the next change
                self.apply(room, seat, action, f"bot:{room.seats[seat].bot}")
