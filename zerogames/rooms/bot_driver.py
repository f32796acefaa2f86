"""Bots' moves: each bot seat that may act is asked for its move after a short delay.

A Normal or Hard bot remembers what its seat was shown, so it is shown every change of its table as it
happens. Its thinking (Hard searches for up to a second) never runs on the event loop that serves the
tables: the move is chosen on a thread of its own (Hard's in a thinking process: zerogames.offload) and
comes back as a command (BotMove), made only if the table has not changed meanwhile (else the bot is
asked again).
"""

from __future__ import annotations

import copy
import random
import threading
import time
from typing import TYPE_CHECKING, Any

from zerogames import bots, metrics
from zerogames.offload import apart, off_the_loop

from .commands import BotMove, Unsaved
from .play import ASKED_AGAIN

if TYPE_CHECKING:
    from zerogames.store import GameLog

    from .registry import RoomRegistry
    from .room import Room


class BotDriver:
    """The registry's bots: shown every change of their tables, asked for their moves, which come back
    to the room as commands (BotMove)."""

    def __init__(self, registry: RoomRegistry) -> None:
        self.registry = registry
        self.thinking: set[threading.Thread] = set()  # the bots' threads still running
        self.stopped = False

    def schedule(self, room: Room, now: float) -> None:
        """Show every bot its seat's table as it is now, then set a move for every bot seat that may act
        now and has none coming yet (called with the room's lock held)."""
        facts = room.facts
        for seat, who in enumerate(facts.seats):
            if not who.bot:
                continue
            bot = bot_at(room, seat, who.bot)
            if bot.memory is not None:
                bot.see(facts.rules.view(facts.state, seat, now))
            if seat not in room.pending_bots and facts.rules.legal_actions(facts.state, seat, now):
                room.pending_bots.add(seat)
                self.registry.scheduler.call_at(
                    now + self.registry.bot_delay, lambda seat=seat: self.ask(room, seat)
                )

    def recall(self, room: Room, game_log: GameLog) -> None:
        """A rebuilt room's Normal and Hard bots see the game again from its first deal, view by view as
        the table showed them (the first deal, then after every action at its moment), so that a restart
        or a takeover leaves them remembering all that their seats were shown. Replaying a whole game
        is CPU work: off the loop."""
        minds = {
            seat: bot
            for seat, who in enumerate(room.seats)
            if who.bot and (bot := bot_at(room, seat, who.bot)).memory is not None
        }
        logged = game_log.actions
        if not minds or not logged:
            return  # before the first move, the view the bots are shown next holds all there is
        rules = room.rules

        def show(state: dict[str, Any], now: float) -> None:
            for seat, bot in minds.items():
                bot.see(rules.view(state, seat, now))

        def replay() -> None:
            state = rules.new_game(game_log.players, game_log.seed, game_log.options)
            # The first deal shows nothing that runs out, so it is seen as at the first move.
            show(state, logged[0][2])
            for mover, action, now, _ in logged:
                state = rules.apply(state, mover, action, now)
                show(state, now)

        off_the_loop(replay)

    def ask(self, room: Room, seat: int) -> None:
        """Take what the bot needs from the table, then let it think on a thread of its own."""
        with room.lock:
            facts, now = room.facts, self.registry.clock()
            level = facts.seats[seat].bot if seat < len(facts.seats) else None
            legal = facts.rules.legal_actions(facts.state, seat, now) if facts.status == "playing" else []
            if level is None or not legal:
                room.pending_bots.discard(seat)
                return
            view = facts.rules.view(facts.state, seat, now)
            # A copy: the bot's memory goes on seeing the table while the copy thinks.
            bot = copy.deepcopy(bot_at(room, seat, level))
            rng = random.Random(f"{facts.seed}/{facts.action_count}/{seat}")
            asked = (facts.game_no, facts.version)
        thread = threading.Thread(
            target=self.think_and_move, args=(room, seat, bot, view, legal, rng, asked), daemon=True
        )
        self.thinking.add(thread)
        thread.start()

    def think_and_move(
        self, room: Room, seat: int, bot: bots.Bot, view: Any, legal: list, rng: random.Random, asked: tuple
    ) -> None:
        try:
            began = time.perf_counter()
            # A search holds Python's lock while it thinks: in a thinking process, it holds up no table.
            think = apart if bot.searches else off_the_loop
            action = think(bot.choose, view, legal, rng)
            metrics.BOT_SECONDS.labels(room.game_id, bot.level).observe(time.perf_counter() - began)
            self.move(room, seat, bot, action, asked)
        finally:
            self.thinking.discard(threading.current_thread())

    def move(self, room: Room, seat: int, bot: bots.Bot, action: Any, asked: tuple) -> None:
        """The bot's chosen move, as a command: none once the registry has stopped (the store may be
        closed), asked again in a moment if the store could not write it."""
        with room.lock:
            room.pending_bots.discard(seat)
            if self.stopped:
                return
            try:
                answer = self.registry.carry_out(room, BotMove(seat, bot.level, asked, action))
            except Unsaved:  # the store could not write it: the bot is asked again in a moment
                room.pending_bots.add(seat)
                self.registry.again_soon(lambda: self.ask(room, seat))
                return
            if answer == ASKED_AGAIN:  # the table changed while it thought: ask on it as it is now
                self.schedule(room, self.registry.clock())

    def stop(self) -> None:
        """No bot moves from now on; those still thinking are waited for (their moves are not made: a
        restored room asks its bots again)."""
        self.stopped = True
        for thread in list(self.thinking):
            thread.join()


def bot_at(room: Room, seat: int, level: str) -> bots.Bot:
    """The bot in this seat for this game (a new one, with an empty memory, for a new game or level)."""
    key = (room.game_no, seat, level)
    bot = room.bots.get(key)
    if bot is None:
        room.bots = {k: b for k, b in room.bots.items() if k[0] == room.game_no and k[1] != seat}
        bot = room.bots[key] = bots.Bot(room.game_id, level)
    return bot
