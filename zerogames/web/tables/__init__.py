"""What the site knows of each game beyond its rules: its table, one definition per game.

Each module of this package defines one game's `TABLE`: the regions of its page, the options its host
picks, its templates and its assets. A region is one partial, `templates/games/<game>/<region>.html`,
whose root element has the region's name as its id; the live channel sends a seat only the regions
that changed for it. The styles are `static/css/games/<game>.css`, and a table that needs a little
script of its own has `static/js/games/<game>.js`.

A new game is its engine (zerogames/games), its bot (zerogames/bots), a module here and its templates,
styles and script: nothing else names it.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from zerogames import clock
from zerogames.games import GAMES, Game
from zerogames.rooms import Refused

# Whom a region looks the same to (Region.seen_alike): EVERYONE's is alike for every viewer; WAITING's
# for all but the player whose turn it is (who sees "Your turn" and their controls).
EVERYONE, WAITING = "everyone", "everyone waiting"


@dataclass(frozen=True)
class Choice:
    """A room option the host picks from a few values when creating the room."""

    name: str
    label: str
    values: tuple[tuple[Any, str], ...]


@dataclass(frozen=True)
class SeatLines:
    """A region drawn seat by seat, so that an action redraws and resends only the seats it changed.

    `<region>-line.html` draws one seat's line, with the id `<region>-<seat>`, from that seat (`seat`)
    and `their` alone: for each key of `each`, the seat's entry in that view list; for each key of `at`,
    whether that view key points at the seat (the turn, the dealer). The region's own template only
    lays out the lines it is given (`lines`), so it changes only when a line does.
    """

    each: tuple[str, ...] = ()
    at: tuple[str, ...] = ()


@dataclass(frozen=True)
class Region:
    """One swappable part of a table.

    `drawn_from`: the keys of the seat's view it is drawn from (`now` is the moment it is drawn as of),
    besides the room's seats; it is drawn from those keys alone, and again only when one of them
    changed. None: drawn from the whole view on every change. `seen_alike`: EVERYONE or WAITING when
    the region is drawn once per change from the spectator's view for those viewers. `lines`: a region
    drawn seat by seat (then `drawn_from` is None: each line says what it is drawn from).
    """

    name: str
    drawn_from: tuple[str, ...] | None = None
    seen_alike: str | None = None
    lines: SeatLines | None = None


@dataclass(frozen=True)
class Table:
    """One game's table: its regions in page order, the options its host picks, whether it has a script."""

    game_id: str
    regions: tuple[Region, ...]
    options: tuple[Choice, ...] = ()
    script: bool = False
    # What the game is, in one line for the home page, to tell it from its neighbours.
    tagline: str = ""
    # Where its templates, styles and script are, from the game's id.
    templates: str = field(init=False)
    stylesheet: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "templates", f"games/{self.game_id}")
        object.__setattr__(self, "stylesheet", f"css/games/{self.game_id}.css")

    @property
    def rules(self) -> Game:
        return GAMES[self.game_id]

    @property
    def script_file(self) -> str | None:
        return f"js/games/{self.game_id}.js" if self.script else None

    @cached_property
    def region_names(self) -> tuple[str, ...]:
        return tuple(region.name for region in self.regions)

    @cached_property
    def region(self) -> dict[str, Region]:
        return {region.name: region for region in self.regions}

    def parse_options(self, form: dict[str, str]) -> dict[str, Any]:
        """The room options from the create form: only the listed values of the listed options."""
        options: dict[str, Any] = {}
        for choice in self.options:
            picked = form.get(choice.name)
            for value, _ in choice.values:
                if picked == str(value):
                    options[choice.name] = value
        return options


def defined_tables() -> dict[str, Table]:
    """Every module of this package's TABLE, by game id, in the order of the games' registry."""
    found = [
        importlib.import_module(f"{__name__}.{module.name}").TABLE
        for module in pkgutil.iter_modules(__path__)
    ]
    by_id = {table.game_id: table for table in found}
    return {game_id: by_id[game_id] for game_id in GAMES if game_id in by_id}


TABLES: dict[str, Table] = defined_tables()


def playable_games() -> list[Game]:
    """The games the site offers: those with rules and a table."""
    return [table.rules for table in TABLES.values()]


def picked_clock(form: dict[str, str], dev: bool) -> int | None:
    """The turn clock a host picked on a form, an option of every table (None: the default); a clear
    refusal for anything else."""
    try:
        return clock.picked(form.get(clock.OPTION), dev)
    except ValueError as bad:
        raise Refused(str(bad)) from None
