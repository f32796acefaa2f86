"""The turn clock's settings: how long a seat may take over a move, when it counts as away, and when a
table gives up on its players.

The clock is a room option beside the game's own (`options["clock"]`): it never reaches the engine.
"""

from __future__ import annotations

from typing import Any

from zerogames import talk
from zerogames.numbers import whole_number

OPTION = "clock"
# Seconds a move may take; 0 is off. In development mode any whole number from 1 is allowed too.
CHOICES = (0, 30, 60, 120)
# The clock when the host leaves it to the table: on when a bot sits there (people playing bots expect
# the table to move), off among friends only.
WITH_BOTS = 60
# Timeouts in a row that mark a seat away: its moves are then made at once, after a bot's pause.
AWAY_AFTER = 2
# Seconds every human of a table may stay away before its game ends as abandoned.
ABANDON_AFTER = 600.0


def picked(value: Any, dev: bool = False) -> int | None:
    """The clock a host picked from a form value: None for the default, 0 for off, else seconds.

    Raises ValueError, with words for the host, for anything else.
    """
    text = str(value if value is not None else "").strip().lower()
    if text in ("", "default"):
        return None
    if text == "off":
        return 0
    seconds = whole_number(text)
    if seconds is not None and (seconds in CHOICES or dev):
        return seconds
    if dev:
        raise ValueError("A turn clock is a whole number of seconds (0 for off).")
    raise ValueError("A turn clock is off, 30, 60 or 120 seconds a move.")


def seconds(options: dict[str, Any], any_bot: bool, ranked: bool = False) -> int:
    """The clock in force: the host's pick, else the default for the table's seats (0: off). A ranked
    table always runs one (WITH_BOTS when the host picked none or off): a player losing there who stops
    moving is moved for, then counted away, and finishes last, rather than hold the game unrated."""
    chosen = options.get(OPTION)
    if not chosen and ranked:
        return WITH_BOTS
    if chosen is None:
        return WITH_BOTS if any_bot else 0
    return chosen


def game_options(options: dict[str, Any]) -> dict[str, Any]:
    """A room's options less the room's own (its clock, its chat switch), as the game's engine takes them."""
    return {name: value for name, value in options.items() if name not in (OPTION, talk.CHAT)}


def described(options: dict[str, Any], any_bot: bool, ranked: bool = False) -> str:
    """The clock in force, in words: "60 seconds a move" or "off"."""
    clock = seconds(options, any_bot, ranked)
    return f"{clock} second{'s' if clock != 1 else ''} a move" if clock else "off"
