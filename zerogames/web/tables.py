"""Each game's table as the site draws it (laid out by the game's own definition: zerogames.games),
and the options every table shares."""

from __future__ import annotations

from zerogames import clock
from zerogames.games import DEFINITIONS
from zerogames.games.layout import Table
from zerogames.rooms import Refused

TABLES: dict[str, Table] = {game_id: definition.table for game_id, definition in DEFINITIONS.items()}


def picked_clock(form: dict[str, str], dev: bool) -> int | None:
    """The turn clock a host picked on a form, an option of every table (None: the default); a clear
    refusal for anything else."""
    try:
        return clock.picked(form.get(clock.OPTION), dev)
    except ValueError as bad:
        raise Refused(str(bad)) from None
