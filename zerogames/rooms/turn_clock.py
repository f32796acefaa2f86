"""The turn clock, decided: deadlines for the seats a table awaits, the moves made when they run out,
and seats marked away.

Every deadline counts from the moment the game's last action was logged, so a restart resumes each
clock where it was, and a deadline that fell while the server was down is met at once. A timeout is an
ordinary action: chosen by the Easy bot from the seat's own view, logged with `by` set to "timeout".
The deadlines are stored nowhere: the registry draws them from the facts and the pages open whenever
either changes, publishes them, and sets one timer for the first (rooms.registry.arm_clock).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from zerogames import bots, clock

from .facts import Facts

TIMEOUT = "timeout"
PLAYER = "player:"  # a move of the player's own is logged by "player:<uid>"
# The bot that moves for a seat whose time ran out: simple, legal, and quick to decide.
TIMEOUT_LEVEL = "easy"


def seconds_in_force(facts: Facts) -> int:
    """The clock the table runs now (0: off)."""
    return clock.seconds(dict(facts.options), facts.has_bots(), facts.ranked)


def deadlines(
    facts: Facts, now: float, bot_delay: float, closed: Mapping[str, float]
) -> tuple[tuple[int, float], ...]:
    """The deadlines of the seats the table awaits now: a seat marked away gets no more than a bot's
    pause; a seat a bot plays, none (the bot moves). `closed` says since when each player has had no
    page of the table open: a player gone for the length of a clock is moved for then, not waited for
    a full clock each turn until marked away (a closed tab is not coming back to move), unless they
    have moved since (plain forms work without a page's live channel). Derived from the facts and the
    pages open, nothing else: a page opening again draws them anew, no command."""
    seconds = seconds_in_force(facts)
    if facts.status != "playing" or not seconds:
        return ()
    away = facts.away()

    def deadline(seat: int) -> float:
        if seat in away:
            return facts.last_at + bot_delay
        uid = facts.seats[seat].uid or ""
        gone_at = closed.get(uid)
        if gone_at is None or facts.moved_at.get(uid, gone_at) > gone_at:
            return facts.last_at + seconds
        return max(facts.last_at + bot_delay, min(facts.last_at, gone_at) + seconds)

    return tuple(
        (seat, deadline(seat))
        for seat in facts.rules.awaited(facts.state, now)
        if facts.seats[seat].bot is None
    )


def counted(facts: Facts, seat: int, by: str, now: float) -> Facts:
    """What a logged action means to the clock: the time every deadline counts from, the seat's
    timeouts in a row (a move of the player's own ends the run, and with it being away), and when the
    player last moved themselves."""
    timeouts, moved_at = dict(facts.timeouts), facts.moved_at
    if by == TIMEOUT:
        timeouts[seat] = timeouts.get(seat, 0) + 1
    elif by.startswith(PLAYER):
        timeouts.pop(seat, None)
        moved_at = {**moved_at, by.removeprefix(PLAYER): now}
    timed_out = seat if by == TIMEOUT else None
    return facts.but(last_at=now, timed_out=timed_out, timeouts=timeouts, moved_at=moved_at)


def started(facts: Facts, now: float) -> Facts:
    """A new game: every clock counts from its start."""
    return facts.but(last_at=now, timeouts={}, timed_out=None)


def replayed(facts: Facts, begun: float, moves: list[tuple[int, float, str]]) -> Facts:
    """The clock as the log has it: the game's start, then each action's (seat, moment, maker)."""
    facts = started(facts, begun)
    for seat, now, by in moves:
        facts = counted(facts, seat, by, now)
    return facts


def due(facts: Facts, running: Sequence[tuple[int, float]], now: float) -> list[int]:
    """The seats whose deadline of those `running` (as `deadlines` drew them) has passed, and whom the
    table still awaits."""
    awaited = facts.rules.awaited(facts.state, now)
    return [seat for seat, until in running if until <= now and seat in awaited]


def timeout_move(facts: Facts, seat: int, now: float) -> Any:
    """The Easy bot's choice for the seat, from its own view, among the moves a timeout may make (its
    generator seeded from the game and the move, so the choice is decided, not drawn)."""
    rules = facts.rules
    forced = rules.timeout_actions(facts.state, seat, now)
    rng = random.Random(f"{facts.seed}/{facts.action_count}/{seat}/{TIMEOUT}")
    return bots.choose(facts.game_id, rules.view(facts.state, seat, now), forced, TIMEOUT_LEVEL, rng)
