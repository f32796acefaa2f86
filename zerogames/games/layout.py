"""How a game's table is laid out on the page: its regions, the options its host picks, its files.

A region is one partial, `templates/games/<game>/<region>.html`, whose root element has the region's
name as its id; the live channel sends a seat only the regions that changed for it. The styles are
`static/css/games/<game>.css`, and a table that needs a little script of its own has
`static/js/games/<game>.js`. This is data alone: the site (zerogames.web) draws from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

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
    lays out the lines it is given (`lines`), so it changes only when a line does. A line is drawn
    once for every viewer: the one part of it that differs for the seat's own player, its badges
    ("you" among them), it prints with `seating.badges(seat)`, and it reads nothing else of `seat.you`.
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
