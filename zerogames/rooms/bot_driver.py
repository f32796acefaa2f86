"""Bots' moves: each bot seat that may act is asked for its move after a short delay.

A Normal or Hard bot remembers what its seat was shown, so it is shown every change of its table as it
happens. Its thinking (Hard searches for up to a second) never runs on the event loop that serves the
tables: the move is chosen on a thread of its own, and applied only if the table has not changed
meanwhile (else the bot is asked again).
"""

from __future__ import annotations

import copy
import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zerogames import bots

from .room import Room

if TYPE_CHECKING:
    from zerogames.store import GameLog, Store

    from .scheduler import Scheduler


def off_the_loop(think: Callable[[], Any]) -> Any:
    """Run `think` where it cannot stall the tables, and wait for its answer.

    In the gevent worker one event loop serves every table: the thinking goes to one native thread of
    the worker's own, so the loop runs between its slices. (One thread, not a pool: under the GIL more
    threads would think no faster, and each would take the loop's turn.) Elsewhere the caller is a
    thread of its own already.
    """
    pool = gevent_pool()
    return pool.apply(think) if pool is not None else think()


_pool: list[Any] = []


def gevent_pool() -> Any | None:
    """The worker's thinking thread, when gevent has patched threads into greenlets; else None."""
    try:
        from gevent import monkey
    except ImportError:
        return None
    if not monkey.is_module_patched("threading"):
        return None
    if not _pool:
        from gevent.threadpool import ThreadPool

        _pool.append(ThreadPool(1))
    return _pool[0]


class BotDriver:
    """The registry's part that moves bots: see RoomRegistry."""

    store: Store
    clock: Callable[[], float]
    scheduler: Scheduler
    bot_delay: float
    apply: Callable[[Room, int, Any, str], None]  # Play's

    def schedule_bots(self, room: Room, now: float) -> None:
        """Show every bot its seat's table as it is now, then set a move for every bot seat that may act
        now and has none coming yet (called with the room's lock held)."""
        for seat, who in enumerate(room.seats):
            if not who.bot:
                continue
            bot = bot_at(room, seat, who.bot)
            if bot.memory is not None:
                bot.see(room.rules.view(room.state, seat, now))
            if seat not in room.pending_bots and room.rules.legal_actions(room.state, seat, now):
                room.pending_bots.add(seat)
                self.scheduler.call_at(now + self.bot_delay, lambda seat=seat: self.bot_move(room, seat))

    def recall_bots(self, room: Room, game_log: GameLog) -> None:
        """A rebuilt room's Normal and Hard bots see the game again from its first deal, view by view as
        the table showed them (the first deal, then after every action at its moment), so that a restart
        or a takeover leaves them remembering all that their seats were shown. Replaying a whole game
        is CPU work: off the loop."""
        minds = {
            seat: bot
            for seat, who in enumerate(room.seats)
            if who.bot and (bot := bot_at(room, seat, who.bot)).memory is not None
        }
        logged = self.store.all_actions(room.code, room.game_no)
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

    def bot_move(self, room: Room, seat: int) -> None:
        """Take what the bot needs from the table, then let it think on a thread of its own."""
        with room.lock:
            now = self.clock()
            level = room.seats[seat].bot if seat < len(room.seats) else None
            legal = room.rules.legal_actions(room.state, seat, now) if room.status == "playing" else []
            if level is None or not legal:
                room.pending_bots.discard(seat)
                return
            view = room.rules.view(room.state, seat, now)
            # A copy: the bot's memory goes on seeing the table while the copy thinks.
            bot = copy.deepcopy(bot_at(room, seat, level))
            rng = random.Random(f"{room.seed}/{room.action_count}/{seat}")
            asked = (room.game_no, room.version)
        threading.Thread(
            target=self.think_and_move, args=(room, seat, bot, view, legal, rng, asked), daemon=True
        ).start()

    def think_and_move(
        self, room: Room, seat: int, bot: bots.Bot, view: Any, legal: list, rng: random.Random, asked: tuple
    ) -> None:
        action = off_the_loop(lambda: bot.choose(view, legal, rng))
        with room.lock:
            room.pending_bots.discard(seat)
            if room.status != "playing" or seat >= len(room.seats) or room.seats[seat].bot != bot.level:
                return
            if (room.game_no, room.version) != asked:
                # The table changed while it thought: ask again on the table as it is now.
                self.schedule_bots(room, self.clock())
                return
            if action is not None:  # else it waits, and is asked again after the next change
                self.apply(room, seat, action, f"bot:{bot.level}")


def bot_at(room: Room, seat: int, level: str) -> bots.Bot:
    """The bot in this seat for this game (a new one, with an empty memory, for a new game or level)."""
    key = (room.game_no, seat, level)
    bot = room.bots.get(key)
    if bot is None:
        room.bots = {k: b for k, b in room.bots.items() if k[0] == room.game_no and k[1] != seat}
        bot = room.bots[key] = bots.Bot(room.game_id, level)
    return bot
