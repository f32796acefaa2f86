"""Bot players. A bot sees exactly what a human in its seat would: the seat's view and legal actions.

Each game's module offers `choose(view, legal, level, rng)`: one of `legal`, or None when the bot would
rather wait (a snap in Cabo that it is not sure of: out of turn, waiting is always allowed).
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Callable
from typing import Any

from zerogames.games import GAMES

Choose = Callable[[dict[str, Any], list[dict[str, Any]], str, random.Random], dict[str, Any] | None]

LEVELS = ("easy",)

# Each game's bot is the module named after the game's id.
BOTS: dict[str, Choose] = {
    module.name: importlib.import_module(f"{__name__}.{module.name}").choose
    for module in pkgutil.iter_modules(__path__)
    if module.name in GAMES
}


def choose(
    game_id: str, view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any] | None:
    """The bot's action for this seat (or None: it waits); a game without a bot plays at random."""
    policy = BOTS.get(game_id)
    return policy(view, legal, level, rng) if policy else rng.choice(legal)
