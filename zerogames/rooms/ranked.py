"""Ranked rooms: the host's choice; only signed-up players sit at them, no bots, and the end of each of
their games changes the players' ratings (zerogames.ratings). An unranked room never changes one."""

from __future__ import annotations

from collections.abc import Callable

from zerogames import ratings
from zerogames.games.base import State
from zerogames.ratings import Line, Rating
from zerogames.store import Store

from .room import Refused, Room

ONLY_SIGNED_UP = "a ranked table is for signed-up players only"


class Ranked:
    """The registry's part that keeps ranked rooms ranked and rates their games: see RoomRegistry."""

    store: Store
    check_host_in_lobby: Callable[[Room, str], None]  # Lobby's
    save_lobby: Callable[[Room], None]  # Lobby's

    def set_ranked(self, room: Room, uid: str, ranked: bool) -> None:
        """The host marks the table ranked (or not) before the game, once every seat is a signed-up
        player's."""
        with room.lock:
            self.check_host_in_lobby(room, uid)
            if ranked:
                if any(seat.uid is None for seat in room.seats):
                    raise Refused(f"Remove the bots first: {ONLY_SIGNED_UP}.")
                guests = [seat.name for seat in room.seats if not self.store.signed_up(seat.uid)]
                if guests:
                    raise Refused(
                        f"{' and '.join(guests)} {'is a guest' if len(guests) == 1 else 'are guests'}:"
                        f" {ONLY_SIGNED_UP}."
                    )
            room.ranked = ranked
            self.save_lobby(room)

    def check_may_sit(self, room: Room, uid: str) -> None:
        if room.ranked and not self.store.signed_up(uid):
            raise Refused(f"This table is ranked: sign in or sign up to take a seat ({ONLY_SIGNED_UP}).")

    def check_bots_welcome(self, room: Room) -> None:
        if room.ranked:
            raise Refused(f"A ranked table has no bots: {ONLY_SIGNED_UP}.")

    def shown_ratings(self, room: Room) -> tuple[str | None, ...]:
        """Each seat's rating at the room's game, as shown beside its name at a ranked table ("0?" for
        a player not rated yet); none at an unranked one."""
        if not room.ranked:
            return ()
        known = self.store.ratings_of(room.game_id, [seat.uid for seat in room.seats if seat.uid])
        return tuple(known.get(seat.uid, Rating()).shown if seat.uid else None for seat in room.seats)

    def rated_lines(self, room: Room, state: State) -> list[Line]:
        """What the end of the game in `state` rates: nothing unless the room is ranked and every seat is
        a signed-up player's (a bot's seat has no player; a player's seat handed to a bot still does).
        A player marked away as it ends finishes last."""
        players = [seat.uid for seat in room.seats]
        if not ratings.is_rated(room.ranked, players):
            return []
        return ratings.lines(room.rules.rating_sides(state), [uid for uid in players if uid], room.away())
