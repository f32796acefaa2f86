"""The rules engines, one per game, behind one contract (see DESIGN.md)."""

from .base import Game, IllegalAction
from .zero_game import RULES as ZERO_GAME

GAMES: dict[str, Game] = {rules.id: rules for rules in (ZERO_GAME,)}

__all__ = ["GAMES", "Game", "IllegalAction"]
