"""The room registry: one per process. It creates, finds and rebuilds rooms, and carries out every
command on them (rooms.commands) the one way: decided purely, written in one transaction, swapped in
with the version bumped once, published once, then the timers the new facts need.

Its helpers are objects of their own: live channels (`channels.Channels`), bots (`bot_driver.BotDriver`)
and the taking of rooms from other processes (`owners.Owners`).
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from zerogames import clock as turn_clocks
from zerogames import metrics
from zerogames.fairness import SECRET_HEX, Fairness
from zerogames.games import GAMES, Game
from zerogames.offload import off_the_loop
from zerogames.store import GameLog, Store, Unavailable

from . import commands as c
from . import ranked, turn_clock
from .bot_driver import BotDriver
from .channels import Channels, Subscriber
from .decide import decide
from .facts import Facts, Seat, deserted
from .names import clean_name
from .owners import OwnedElsewhere, Owners
from .room import CODE_ALPHABET, CODE_LENGTH, Moved, Room, a_code, first_letters
from .scheduler import Scheduler, Timer

# Random codes tried at one length before a longer one is made: with nine codes in ten taken, twenty
# tries all miss one time in eight.
CODE_TRIES = 20
# Seconds a room never started or finished is kept after its last change, and between droppings.
KEEP_IDLE = 24 * 3600.0
DROP_EVERY = 600.0


class RoomRegistry:
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        bot_delay: float = 0.8,
        shard: tuple[int, int] = (0, 1),
    ) -> None:
        self.store = store
        # With several processes on one SQLite file, process i of n owns the codes whose first letter
        # is in its share, so a proxy can pin every room to its process by the code's first letter.
        self.first_letters = first_letters(*shard)
        self.clock = clock
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self.lock = threading.Lock()
        self.scheduler = Scheduler(clock)
        self.channels = Channels(self)
        self.bots = BotDriver(self)
        self.owners = Owners(self)
        self.restored = False  # whether `restore` has brought back the rooms unfinished at start

    def stop(self) -> None:
        """Nothing of the registry runs from now on (its timers, its bots' moves), so that its store
        may be closed: a task or a bot's thought on the way is waited for."""
        self.scheduler.stop()
        self.bots.stop()

    # Carrying out commands

    def run(self, room: Room, command: c.Command) -> Any:
        """Carry the command out on the room; its answer, or Refused (and nothing has changed)."""
        with room.lock:
            return self.carry_out(room, command)

    @metrics.counted
    def carry_out(self, room: Room, command: c.Command) -> Any:
        """As `run`, with the room's lock held."""
        now = self.clock()
        context = c.Context(room.code, now, room.connected(), self.bot_delay, self.store, room.deadlines)
        verdict = decide(room.facts, command, context)
        if isinstance(verdict, c.Refusal):
            raise c.Refused(verdict.reason, stale=verdict.stale)
        if isinstance(verdict, c.Unchanged):
            return verdict.answer
        facts = verdict.facts.but(version=room.facts.version + verdict.table)
        row = facts.row(room.code)
        try:
            with self.store.transaction():
                for write in verdict.writes:
                    write(self.store, row)
        except Unavailable as error:
            if error.doubt:
                # It may be written after all: nothing more changes the room here, and it is dropped
                # (outside its lock), to be rebuilt from what the store has on its next request.
                room.gone = True
                self.scheduler.call_at(self.clock(), partial(self.owners.let_go, room.code))
            raise c.Unsaved from error
        room.facts = facts
        self.watch_desertion(room, now, restart=played_by_a_player(verdict))
        self.arm(room)
        room.changed()
        return verdict.answer

    def arm(self, room: Room) -> None:
        """The timers the room's facts need (the lock is held): its turn clock's first deadline, its bots'
        moves, and a push when a view next changes with time."""
        self.arm_clock(room)
        if room.facts.status != "playing":
            return
        now = self.clock()
        self.bots.schedule(room, now)
        self.schedule_refresh(room, now)

    def arm_clock(self, room: Room) -> None:
        """The turn clock's deadlines drawn as of now from the room's facts and its pages open, for its
        next publication, and the timer for the first (the lock is held). Called after every command
        and when a player's page opens again (their full clock back, which their closed page had cut
        short): the deadlines are what the facts and the pages make of the clock, no fact of their own."""
        if room.clock_timer is not None:
            room.clock_timer.cancel()
            room.clock_timer = None
        room.deadlines = self.deadlines(room)
        if room.deadlines:
            first = min(until for _, until in room.deadlines)
            room.clock_timer = self.scheduler.call_at(
                first, partial(self.timed, room, c.TimeOut(room.facts.version))
            )

    def deadlines(self, room: Room) -> tuple[tuple[int, float], ...]:
        return turn_clock.deadlines(room.facts, self.clock(), self.bot_delay, room.closed)

    def timed(self, room: Room, command: c.TimeOut) -> None:
        """A timer's command: nothing, once the room has moved to another process; tried again in a
        moment while the store cannot save it (unless the table has moved on meanwhile)."""
        with contextlib.suppress(Moved), room.lock:
            try:
                self.carry_out(room, command)
            except c.Unsaved:
                if room.facts.version == command.version:
                    if room.clock_timer is not None:
                        room.clock_timer.cancel()
                    room.clock_timer = self.again_soon(partial(self.timed, room, command))

    def again_soon(self, task: Callable[[], None]) -> Timer:
        """A timed change the store could not save, tried again in a moment (RETRY_UNSAVED)."""
        return self.scheduler.call_at(self.clock() + c.RETRY_UNSAVED, task)

    def watch_desertion(self, room: Room, now: float, restart: bool) -> None:
        """Note when every player of a table with a running clock became away (or lost their live
        channel), and end the game as abandoned if they stay so for ABANDON_AFTER seconds. A player's
        move (perhaps without a live channel: plain forms work too) starts the count again."""
        facts = room.facts
        gone = facts.status == "playing" and turn_clock.seconds_in_force(facts) > 0
        gone = gone and deserted(facts, room.connected())
        if restart or not gone:
            room.deserted_since = None
            if room.abandon_timer is not None:
                room.abandon_timer.cancel()
                room.abandon_timer = None
        if gone and room.deserted_since is None:
            room.deserted_since = now
            room.abandon_timer = self.scheduler.call_at(
                now + turn_clocks.ABANDON_AFTER, partial(self.abandon_if_deserted, room)
            )

    def abandon_if_deserted(self, room: Room) -> None:
        with contextlib.suppress(Moved), room.lock:
            since = room.deserted_since
            room.abandon_timer, room.deserted_since = None, None
            try:
                self.carry_out(room, c.Abandon(if_deserted=True))
            except c.Unsaved:
                room.deserted_since = since
                room.abandon_timer = self.again_soon(partial(self.abandon_if_deserted, room))

    def schedule_refresh(self, room: Room, now: float) -> None:
        """Push fresh views when the next one changes with time; once per moment, however many
        actions asked for it (else every action would start a chain of pushes of its own)."""
        when = room.rules.next_change(room.state, now) if room.state else None
        if when is not None and when not in room.refreshes:
            room.refreshes.add(when)
            self.scheduler.call_at(when, partial(self.refresh, room, when))

    def refresh(self, room: Room, when: float) -> None:
        """A view changed with time alone (no command): push everyone their fresh table."""
        with contextlib.suppress(Moved), room.lock:
            room.refreshes.discard(when)
            room.changed()
            self.schedule_refresh(room, self.clock())

    # The commands, as the site asks for them

    def join(self, room: Room, uid: str, name: str | None, contribution: str | None = None) -> int:
        return self.run(room, c.Join(uid, name, contribution))

    def leave(self, room: Room, uid: str) -> None:
        self.run(room, c.Leave(uid))

    def add_bot(self, room: Room, uid: str, level: str = "easy") -> None:
        self.run(room, c.AddBot(uid, level))

    def remove_bot(self, room: Room, uid: str, seat: int) -> None:
        self.run(room, c.RemoveBot(uid, seat))

    def set_options(self, room: Room, uid: str, options: dict[str, Any]) -> None:
        self.run(room, c.SetOptions(uid, options))

    def set_clock(self, room: Room, uid: str, seconds: int | None) -> None:
        self.run(room, c.SetClock(uid, seconds))

    def set_ranked(self, room: Room, uid: str, ranked: bool) -> None:
        self.run(room, c.SetRanked(uid, ranked))

    def start(self, room: Room, uid: str, seed: int | None = None, contribution: str | None = None) -> None:
        """Deal the game, fairly (zerogames.fairness) with the starting player's `contribution` if they
        sent one; `seed` (development mode only) deals a chosen deck instead."""
        self.run(room, c.Start(uid, seed, None if seed is not None else a_draw(), contribution))

    def start_daily(self, room: Room, uid: str, seed: int, dealt: c.Dealt) -> None:
        """Deal the day's deal (zerogames.daily), made from the day's secret."""
        self.run(room, c.Start(uid, seed, dealt=dealt))

    def rematch(self, room: Room, uid: str, contribution: str | None = None) -> None:
        self.run(room, c.Rematch(uid, None, a_draw(), contribution))

    def act(self, room: Room, uid: str, version: Any, action: Any, seat: Any = None) -> None:
        """A seated player's action, chosen on table `version`; refused (and nothing changed) if off."""
        self.run(room, c.Act(uid, version, action, seat))

    def back(self, room: Room, uid: str) -> None:
        self.run(room, c.Back(uid))

    def hand_to_bot(
        self, room: Room, uid: str, seat: int, level: str = turn_clock.TIMEOUT_LEVEL, remove: bool = False
    ) -> None:
        self.run(room, c.HandToBot(uid, seat, level, remove))

    def say(self, room: Room, uid: str, kind: str, text: str) -> None:
        self.run(room, c.Say(uid, kind, text))

    def set_chat(self, room: Room, uid: str, on: bool) -> None:
        self.run(room, c.SetChat(uid, on))

    def kick(self, room: Room, uid: str, kicked: str) -> None:
        self.run(room, c.Kick(uid, kicked))

    def abandon(self, room: Room) -> None:
        self.run(room, c.Abandon())

    def move_seat(self, room: Room, seat: int, old_uid: str, new_uid: str, moves: int) -> None:
        """A rejoin link: the seat goes to the identity that opened it (another device)."""
        self.run(room, c.MoveSeat(seat, old_uid, new_uid, moves))

    def hand_over(self, old_uid: str, new_uid: str) -> None:
        """A guest signed in to an account on this browser: the guest's seats (and hosting) become the
        account's, but where the account already holds a seat: in the rooms of this process, and of
        every other (on PostgreSQL, each is asked)."""
        self.hand_over_here(old_uid, new_uid)
        self.store.peers.ask_others("hand_over", old_uid, new_uid)

    def hand_over_here(self, old_uid: str, new_uid: str) -> None:
        with self.lock:
            rooms = list(self.rooms.values())
        for room in rooms:
            with contextlib.suppress(Moved):
                self.run(room, c.HandOver(old_uid, new_uid))

    # Live channels

    def subscribe(self, room: Room, sub: Subscriber) -> None:
        self.channels.subscribe(room, sub)

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        self.channels.unsubscribe(room, sub)

    # Rooms: creating, finding, rebuilding, dropping

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
                store = self.store
                if code not in self.rooms and not store.rooms.code_taken(code) and store.peers.own(code):
                    return code
            length += 1

    def create(self, game_id: str, options: dict[str, Any], uid: str, name: str | None) -> Room:
        if game_id not in GAMES:
            raise c.Refused("Pick one of the games on the list.")
        facts = Facts(game_id, options, uid, seats=(Seat(uid, clean_name(name)),), secret=a_secret())
        with self.lock:
            try:
                room = Room(self.new_code(), facts, self.clock)
                self.store.rooms.save(facts.row(room.code))
            except Unavailable as error:
                raise c.Unsaved from error
            self.rooms[room.code] = room
        with room.lock:
            room.changed()
        return room

    def get(self, code: str) -> Room | None:
        code = (code or "").strip().upper()
        with self.lock:
            room = self.rooms.get(code)
        if room is not None or not (a_code(code) and self.owns(code)):
            return room
        try:
            return self.owners.take(code)
        except OwnedElsewhere:
            return self.owners.take_from_owner(code)

    def exists(self, code: str) -> bool:
        """Whether a room has the code, wherever it is served: a look that takes no room here (the
        proxy sends the room's own pages to the process that serves it)."""
        code = (code or "").strip().upper()
        with self.lock:
            if code in self.rooms:
                return True
        return a_code(code) and self.store.rooms.load(code) is not None

    def owns(self, code: str) -> bool:
        return code[:1] in self.first_letters

    def let_go(self, code: str) -> None:
        self.owners.let_go(code)

    def drop_idle_rooms(self) -> int:
        """Drop the rooms never started or finished that nobody has changed for KEEP_IDLE seconds (their
        games stay in the history); then again every DROP_EVERY seconds. How many went."""
        # Set first: a store away now (its log says so) stops no later dropping.
        self.scheduler.call_at(self.clock() + DROP_EVERY, self.drop_idle_rooms)
        before = self.clock() - KEEP_IDLE
        dropped = 0
        for code in self.store.rooms.idle(before):
            with self.lock:
                room = self.rooms.get(code)
                if room is not None and room.subscribers:
                    continue  # someone has its page open: kept while they look
                if room is None and not self.store.peers.own(code):
                    continue  # another process's, which drops it if it will
                if self.store.rooms.drop(code, before):
                    self.rooms.pop(code, None)
                    self.owners.taking.pop(code, None)
                    self.store.peers.disown(code)
                    dropped += 1
                elif room is None:
                    self.store.peers.disown(code)
        return dropped

    def restore(self) -> int:
        """On start-up: idle rooms dropped; every unfinished room back from its snapshot and log, its
        bots moving again."""
        self.drop_idle_rooms()
        restored = 0
        for code in self.store.rooms.unfinished():
            if not self.owns(code):
                continue
            with contextlib.suppress(OwnedElsewhere):  # a live process serves it
                restored += self.owners.take(code) is not None
        self.restored = True
        return restored

    def rebuild(self, code: str) -> Room | None:
        """The room as the store has it: its row, then its game from one read of its log (the state
        from the latest snapshot on, the turn clock and the bots' memories from every action)."""
        row = self.store.rooms.load(code)
        if row is None or row.game not in GAMES:
            return None
        facts = Facts(
            row.game,
            row.options,
            row.host,
            seats=tuple(Seat(s.uid, s.name, s.bot, s.contribution) for s in row.seats),
            status=row.status,
            game_no=row.game_no,
            seed=row.seed,
            version=row.version,
            acted=dict.fromkeys(range(len(row.seats)), row.version),
            ranked=row.ranked,
            # A room kept from before fair deals gets its secret now (saved with its next change).
            secret=row.secret or a_secret(),
            talk=self.store.talk.recent(code),
            kicked=self.store.rooms.kicked(code),
            series=self.store.rooms.series(code),
        )
        game_log = None
        if row.status != "lobby":
            game_log = self.store.games.log(code, row.game_no)
            if game_log is None:
                return None
            # Playing a long game's log again is CPU work: off the event loop that serves every table.
            state = off_the_loop(replayed_state, facts.rules, game_log)
            moves = [(seat, now, by) for seat, _, now, by in game_log.actions]
            fairness = Fairness.from_json(game_log.fairness)
            facts = facts.but(state=state, action_count=len(game_log.actions), fairness=fairness)
            facts = turn_clock.replayed(facts, game_log.started, moves)
            if row.status == "over":
                # A game ended with a result finished; one that was stopped has none (Outcome.how).
                outcome = facts.rules.outcome(state, abandoned=facts.rules.result(state) is None)
                facts = facts.but(outcome=outcome)
        room = Room(code, facts, self.clock)
        room.facts = ranked.with_ratings(room.facts, self.store)
        if game_log is not None and row.status == "playing":
            self.bots.recall(room, game_log)
        # Pages drop pushes numbered below the one they show: a room rebuilt (after a restart, or in
        # another process after a takeover) numbers its changes on from the moment it was rebuilt, in
        # milliseconds, past any number its last owner (counting from its own start) can have reached.
        room.seq = int(self.clock() * 1000)
        # Shown from its first publication; its timer is set once the room is taken (owners.take).
        room.deadlines = self.deadlines(room)
        room.published = room.publication(room.published)
        return room


def replayed_state(rules: Game, game_log: GameLog) -> dict[str, Any]:
    """The game's state from its latest snapshot (or its deal) and the actions after it."""
    state = (
        rules.load(game_log.snapshot)
        if game_log.snapshot
        else rules.new_game(game_log.players, game_log.seed, game_log.options)
    )
    for seat, action, now, _ in game_log.after_snapshot():
        state = rules.apply(state, seat, action, now)
    return state


MOST_SEATS = max(rules.max_players for rules in GAMES.values())


def a_secret() -> str:
    return secrets.token_hex(SECRET_HEX // 2)


def a_draw() -> c.Draw:
    """The server's randomness for a fair deal: a contribution for each seat that may send none, and
    the next game's secret."""
    return c.Draw(tuple(secrets.token_hex(16) for _ in range(MOST_SEATS)), a_secret())


def played_by_a_player(verdict: c.Decision) -> bool:
    """Whether the decision logs a player's own move."""
    return any(isinstance(w, c.AppendAction) and w.by.startswith(turn_clock.PLAYER) for w in verdict.writes)
