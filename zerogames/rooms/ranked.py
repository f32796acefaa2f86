"""Ranked rooms: the host's choice; only signed-up players sit at them, no bots, and the end of each of
their games changes the players' ratings (zerogames.ratings). An unranked room never changes one."""

from __future__ import annotations

from collections.abc import Sequence

from zerogames import ratings
from zerogames.games.base import Side
from zerogames.ratings import Line, Rating
from zerogames.store import Store

from .facts import Facts

ONLY_SIGNED_UP = "a ranked table is for signed-up players only"


def why_not_ranked(facts: Facts, store: Store) -> str | None:
    """Why the table cannot be marked ranked as it is seated, or None."""
    if any(seat.uid is None for seat in facts.seats):
        return f"Remove the bots first: {ONLY_SIGNED_UP}."
    guests = [seat.name for seat in facts.seats if not store.players.signed_up(seat.uid)]
    if guests:
        verb = "is a guest" if len(guests) == 1 else "are guests"
        return f"{' and '.join(guests)} {verb}: {ONLY_SIGNED_UP}."
    return None


def why_not_seated(facts: Facts, uid: str, store: Store) -> str | None:
    if facts.ranked and not store.players.signed_up(uid):
        return f"This table is ranked: sign in or sign up to take a seat ({ONLY_SIGNED_UP})."
    return None


def why_no_bots(facts: Facts) -> str | None:
    return f"A ranked table has no bots: {ONLY_SIGNED_UP}." if facts.ranked else None


def with_ratings(facts: Facts, store: Store, rated: Sequence[Line] = ()) -> Facts:
    """The facts with each seat's rating at the room's game, as shown beside its name at a ranked table
    (1000 for a player not rated yet: `Rating.shown`); none at an unranked one. `rated`: the lines of a
    game ending with this change, whose new ratings the store writes with it (and so shows here already)."""
    if not facts.ranked:
        return facts.but(ratings=()) if facts.ratings else facts
    uids = [seat.uid for seat in facts.seats if seat.uid]
    known = store.ratings.of(facts.game_id, uids)
    if rated:
        known = {**known, **ratings.rate(known, rated)}
    shown = tuple(known.get(seat.uid, Rating()).shown if seat.uid else None for seat in facts.seats)
    return facts.but(ratings=shown)


def rated_lines(facts: Facts, sides: Sequence[Side]) -> list[Line]:
    """What a game's end rates, its sides as its outcome ranks them: nothing unless the room is ranked
    and every seat is a signed-up player's (a bot's seat has no player; a player's seat handed to a bot
    still does). A player marked away as it ends finishes last."""
    seated = [seat.uid for seat in facts.seats]
    if not ratings.is_rated(facts.ranked, seated):
        return []
    return ratings.lines(sides, [uid for uid in seated if uid], facts.away())
