"""The rules engines, one per game, behind one contract (docs/engine.md)."""

from .base import Game, IllegalAction, Outcome
from .cabo import RULES as CABO
from .trump_card import RULES as TRUMP_CARD
from .zero import RULES as ZERO
from .zero_down import RULES as ZERO_DOWN
from .zero_game import RULES as ZERO_GAME

GAMES: dict[str, Game] = {rules.id: rules for rules in (ZERO_GAME, ZERO, ZERO_DOWN, TRUMP_CARD, CABO)}

__all__ = ["GAMES", "Game", "IllegalAction", "Outcome"]
