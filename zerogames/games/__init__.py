"""The games, one package each (rules, bot and table), behind one contract (docs/engine.md).

`GAMES` is the engine contract's registry: each game's rules by id. `DEFINITIONS` holds the rest of
each game as the site knows it (zerogames.games.definition).
"""

from .base import Game, IllegalAction, Outcome
from .definition import Definition, defined

# The games' packages in the order the home page offers them: a new game's package is added here.
DEFINITIONS: dict[str, Definition] = {
    definition.rules.id: definition
    for definition in map(defined, ("zero_game", "zero", "zero_down", "trump_card", "cabo"))
}
GAMES: dict[str, Game] = {game_id: definition.rules for game_id, definition in DEFINITIONS.items()}

__all__ = ["DEFINITIONS", "GAMES", "Definition", "Game", "IllegalAction", "Outcome"]
