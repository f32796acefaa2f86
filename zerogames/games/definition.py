"""One game as the site knows it: its rules, its bot and its table, defined together in the game's
own package (zerogames/games/<game>/), which is all a new game adds besides its templates, styles and
rules page (docs/engine.md says what each part holds)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from .base import Game
from .layout import Table


@dataclass(frozen=True)
class Definition:
    """A game's rules engine, its bot module (Easy's `choose`, `Memory`, `normal`, `hard`, `values`,
    `VALUES_IN`, `TIME_LIMIT`) and how its table is laid out."""

    rules: Game
    bot: ModuleType
    table: Table

    def __post_init__(self) -> None:
        if self.table.game_id != self.rules.id:
            raise ValueError(f"{self.table.game_id!r}'s table defined with {self.rules.id!r}'s rules")


def defined(package: str) -> Definition:
    """The definition of the game whose package is `package` (under zerogames.games): its
    `rules.RULES`, its `bot` module and its `table.TABLE`."""
    rules = import_module(f"{__package__}.{package}.rules").RULES
    bot = import_module(f"{__package__}.{package}.bot")
    return Definition(rules, bot, import_module(f"{__package__}.{package}.table").TABLE)
