"""The lobby: seats and options before a game, starting it, and rematches."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from zerogames import bots, clock
from zerogames.store import Store

from .room import BOT_MARK, Refused, Room, Seat, clean_name

BOT_NAMES = [f"{name} {BOT_MARK}" for name in ("Ada", "Bix", "Cog", "Dot", "Eve", "Fizz", "Gus")]


class Lobby:
    """The registry's part that seats players and bots and starts games: see RoomRegistry."""

    store: Store
    after_change: Callable[[Room], None]  # Play's: publish and set the timers
    check_may_sit: Callable[[Room, str], None]  # Ranked's
    check_bots_welcome: Callable[[Room], None]  # Ranked's
    shown_ratings: Callable[[Room], tuple[str | None, ...]]  # Ranked's
    start_clock: Callable[[Room, float], None]  # TurnClock's
    take_back: Callable[[Room, int], None]  # TurnClock's
    clock: Callable[[], float]

    def join(self, room: Room, uid: str, name: str | None) -> int:
        name = clean_name(name)
        with room.lock:
            seat = room.seat_of(uid)
            if seat is not None:
                if room.status == "playing" and room.seats[seat].bot is not None:
                    # Rejoining takes the seat back from the bot the host let play it.
                    self.take_back(room, seat)
                    self.after_change(room)
                return seat
            if room.status != "lobby":
                raise Refused("The game has started without you: you can watch it.")
            if len(room.seats) >= room.rules.max_players:
                raise Refused(
                    f"This table is full: {room.rules.title} is for at most {room.rules.max_players}."
                )
            self.check_may_sit(room, uid)
            room.seats.append(Seat(uid, name))
            self.save_lobby(room)
            return len(room.seats) - 1

    def leave(self, room: Room, uid: str) -> None:
        with room.lock:
            seat = room.seat_of(uid)
            if seat is None or room.status != "lobby":
                raise Refused("Only a seated player can leave, and only before the game starts.")
            if uid == room.host:
                raise Refused("The host keeps the table: you cannot leave it.")
            del room.seats[seat]
            self.save_lobby(room)

    def add_bot(self, room: Room, uid: str, level: str = "easy") -> None:
        with room.lock:
            self.check_host_in_lobby(room, uid)
            if level not in bots.LEVELS:
                raise Refused("There is no bot of that level.")
            self.check_bots_welcome(room)
            if len(room.seats) >= room.rules.max_players:
                raise Refused("The table is full: there is no seat for a bot.")
            taken = {seat.name for seat in room.seats}
            name = next(n for n in BOT_NAMES if n not in taken)
            room.seats.append(Seat(None, name, level))
            self.save_lobby(room)

    def remove_bot(self, room: Room, uid: str, seat: int) -> None:
        with room.lock:
            self.check_host_in_lobby(room, uid)
            if not 0 <= seat < len(room.seats) or room.seats[seat].bot is None:
                raise Refused("That seat holds no bot.")
            del room.seats[seat]
            self.save_lobby(room)

    def set_options(self, room: Room, uid: str, options: dict[str, Any]) -> None:
        with room.lock:
            self.check_host_in_lobby(room, uid)
            room.options = options
            self.save_lobby(room)

    def set_clock(self, room: Room, uid: str, seconds: int | None) -> None:
        """The host's turn clock (None: the default for the table's seats), until the game starts."""
        with room.lock:
            self.check_host_in_lobby(room, uid)
            options = clock.game_options(room.options)
            if seconds is not None:
                options[clock.OPTION] = seconds
            room.options = options
            self.save_lobby(room)

    def check_host_in_lobby(self, room: Room, uid: str) -> None:
        if uid != room.host:
            raise Refused("Only the host can change the table.")
        if room.status != "lobby":
            raise Refused("The game has started: the seats are settled.")

    def save_lobby(self, room: Room) -> None:
        room.version += 1
        self.store.save_room(room.row())
        room.ratings = self.shown_ratings(room)
        room.changed()

    def start(self, room: Room, uid: str, seed: int | None = None) -> None:
        """Deal the game; `seed` (development mode only) deals a chosen deck instead of a random one."""
        with room.lock:
            if uid != room.host:
                raise Refused("Only the host can start the game.")
            if room.status == "playing":
                raise Refused("The game has already started.")
            rules, players = room.rules, len(room.seats)
            if not rules.min_players <= players <= rules.max_players:
                raise Refused(
                    f"{rules.title} needs {rules.min_players} to {rules.max_players} players; "
                    f"the table has {players}. Invite friends or add bots."
                )
            if seed is None:
                seed = secrets.randbelow(2**31)
            options = clock.game_options(room.options)
            try:
                state = rules.new_game(players, seed, options)
            except ValueError as bad:
                raise Refused(f"Those options do not work: {bad}.") from None
            room.game_no += 1
            room.seed, room.state, room.status, room.action_count = seed, state, "playing", 0
            room.version += 1
            room.acted = dict.fromkeys(range(players), room.version)
            now = self.clock()
            self.start_clock(room, now)
            self.store.save_room(room.row())
            self.store.start_game(room.row(), players, options, rules.dump(state), now)
            # Ratings as they are now: other rooms' games may have moved them since the seats were taken.
            room.ratings = self.shown_ratings(room)
            self.after_change(room)

    def rematch(self, room: Room, uid: str) -> None:
        """Play again: same seats, a new game (the rules' rematch options, such as the next Chooser)."""
        with room.lock:
            if room.status != "over":
                raise Refused("The game is not over yet.")
            if room.seat_of(uid) is None:
                raise Refused("Only a player at the table can start the next game.")
            room.status = "lobby"
            room.options = room.rules.rematch_options(room.state, room.options)
            self.start(room, room.host)
