"""Play: a seated player's action checked, applied, logged durably, then published."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zerogames.games import IllegalAction
from zerogames.ratings import Line
from zerogames.records import game_end
from zerogames.store import SNAPSHOT_EVERY, Store

from .room import Refused, Room

if TYPE_CHECKING:
    from .scheduler import Scheduler


class Play:
    """The registry's part that applies actions and sets what follows them: see RoomRegistry."""

    store: Store
    clock: Callable[[], float]
    scheduler: Scheduler
    schedule_bots: Callable[[Room, float], None]  # BotDriver's
    rated_lines: Callable[[Room, dict[str, Any]], list[Line]]  # Ranked's
    shown_ratings: Callable[[Room], tuple[str | None, ...]]  # Ranked's
    wind_clock: Callable[[Room, float], None]  # TurnClock's
    count_move: Callable[[Room, int, str, float], None]  # TurnClock's
    take_back: Callable[[Room, int], None]  # TurnClock's

    def act(self, room: Room, uid: str, version: Any, action: Any, seat: Any = None) -> None:
        """A seated player's action, chosen on table `version`; refused (and nothing changed) if off."""
        with room.lock:
            own = room.seat_of(uid)
            if own is None:
                raise Refused("You are watching this table: only its players can act.")
            if seat is not None and str(seat) != str(own):
                raise Refused("You can act only for your own seat.")
            if room.status != "playing":
                raise Refused(
                    "The game is over." if room.status == "over" else "The game has not started yet."
                )
            if isinstance(action, dict) and action.get("type") in room.rules.host_only and uid != room.host:
                raise Refused("Only the host may change that.")
            if room.last_sent.get(own) == (str(version), action):
                return  # sent twice (a double tap): made once, and the second time is no news
            if str(version) != str(room.version) and not chosen_since_own_move(room, own, version):
                raise Refused("The table changed before your move arrived: here it is now.", stale=True)
            # A player who moves is back, and takes their seat back from a bot playing it for them.
            self.take_back(room, own)
            self.apply(room, own, action, f"player:{uid}")
            room.last_sent[own] = (str(version), action)

    def apply(self, room: Room, seat: int, action: Any, by: str) -> None:
        """Apply, log durably, then publish (the room's lock is held)."""
        now = self.clock()
        try:
            state = room.rules.apply(room.state, seat, action, now)
        except IllegalAction as refusal:
            raise Refused(refusal.reason) from None
        over = room.rules.result(state) is not None
        end = game_end(room.rules, state, room.seated(), "finished") if over else None
        if end is not None:
            end.rated = self.rated_lines(room, state)
        number = room.action_count + 1
        snapshot = room.rules.dump(state) if number % SNAPSHOT_EVERY == 0 else None
        self.store.append_action(
            room.code, room.game_no, number, seat, action, now, by, room.version + 1, snapshot, end
        )
        room.state, room.action_count, room.version = state, number, room.version + 1
        room.acted[seat] = room.version
        self.count_move(room, seat, by, now)
        if over:
            room.status = "over"
            room.ratings = self.shown_ratings(room)
        self.after_change(room)

    def abandon(self, room: Room) -> None:
        """End a game nobody plays any more where it stands: it stays in its players' history as
        abandoned (with the scores so far), and the room is over (a rematch may follow)."""
        with room.lock:
            if room.status != "playing":
                return
            end = game_end(room.rules, room.state, room.seated(), "abandoned")
            end.rated = self.rated_lines(room, room.state)
            self.store.abandon_game(room.code, room.game_no, room.version + 1, end)
            room.version += 1
            room.status = "over"
            room.ratings = self.shown_ratings(room)
            self.after_change(room)

    def after_change(self, room: Room) -> None:
        """Wind the turn clock, publish, then set the timers the new state needs: bot moves and
        expiring sightings."""
        now = self.clock()
        self.wind_clock(room, now)
        room.changed()
        if room.status != "playing":
            return
        self.schedule_bots(room, now)
        self.schedule_refresh(room, now)

    def schedule_refresh(self, room: Room, now: float) -> None:
        """Push fresh views when the next one changes with time; once per moment, however many
        actions asked for it (else every action would start a chain of pushes of its own)."""
        when = room.rules.next_change(room.state, now) if room.state else None
        if when is not None and when not in room.refreshes:
            room.refreshes.add(when)
            self.scheduler.call_at(when, lambda: self.refresh(room, when))

    def refresh(self, room: Room, when: float) -> None:
        """A view changed with time alone (no action): push everyone their fresh table."""
        with room.lock:
            room.refreshes.discard(when)
            room.changed()
            self.schedule_refresh(room, self.clock())


def chosen_since_own_move(room: Room, seat: int, version: Any) -> bool:
    """The move was chosen on an older table, but only other seats moved since (a double click did not)."""
    if not room.rules.moves_at_once:
        return False
    try:
        version = int(version)
    except (TypeError, ValueError):
        return False
    return room.acted.get(seat, room.version) <= version <= room.version
