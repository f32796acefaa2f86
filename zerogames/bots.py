"""Bot players. A bot sees exactly what a human in its seat would: the seat's view and legal actions.

Three levels sit at a table. Easy decides from the view in front of it. Normal and Hard also remember
what the seat has been shown before (cards played, suits a player lacks, swaps, sightings): a memory
folded from every view the seat is shown, in order, so that the same views always make the same
memory. Normal plays a heuristic from view and memory; Hard samples the hidden cards consistently
with all of that and plays each legal move out with the real engine, within a budget (Cabo's Hard
plays its deals out on a lean model of the round; Zero Game's and Trump Card's Hard grow a search tree
over those samples instead: round_search, trump_card). Each game's bot is the `bot` module of its
package (zerogames.games); this module seats them, and is where a bot's search learns the time.

A policy returns one of `legal`, or None when the bot would rather wait (a snap in Cabo that it is not
sure of: out of turn, waiting is always allowed).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from zerogames.games import DEFINITIONS
from zerogames.games.search import OutOfTime

View = dict[str, Any]
Action = dict[str, Any]
Choose = Callable[[View, list[Action], str, random.Random], Action | None]

# The levels a host may seat; the simulator also knows `random` (uniform among the legal actions).
LEVELS = ("easy", "normal", "hard")
SIM_LEVELS = (*LEVELS, "random")

MODULES: dict[str, ModuleType] = {game_id: definition.bot for game_id, definition in DEFINITIONS.items()}
# Easy's policy, by game: it decides from the view alone.
BOTS: dict[str, Choose] = {game_id: module.choose for game_id, module in MODULES.items()}


def choose(game_id: str, view: View, legal: list[Action], level: str, rng: random.Random) -> Action | None:
    """Easy's action for this seat from the view alone (or None: it waits); a game without a bot plays
    at random. Normal and Hard need a memory, so they are asked through a Bot; asked here, they play
    as Easy does."""
    policy = BOTS.get(game_id)
    return policy(view, legal, level, rng) if policy else rng.choice(legal)


@dataclass
class Bot:
    """One bot seat: its level, its memory of the views it was shown, and Hard's search budget
    (determinized deals per decision, in Zero Game search iterations; None: the game's default)."""

    game_id: str
    level: str
    budget: int | None = None

    def __post_init__(self) -> None:
        if self.level not in SIM_LEVELS:
            raise ValueError(f"unknown bot level {self.level!r}: one of {', '.join(SIM_LEVELS)}")
        module = MODULES[self.game_id]
        self.memory = module.Memory() if self.level in ("normal", "hard") else None

    @property
    def searches(self) -> bool:
        """Whether its thinking is a search: long, and pure Python all the way."""
        return self.level == "hard"

    def see(self, view: View) -> None:
        """Fold a view the seat is shown into the memory (every view, in order, before choosing)."""
        if self.memory is not None:
            self.memory.see(view)

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action | None:
        """The action for the view the seat was last shown (see it first)."""
        module = MODULES[self.game_id]
        if self.level == "random":
            return rng.choice(legal)
        if self.level == "easy":
            return module.choose(view, legal, "easy", rng)
        if self.level == "normal":
            return module.normal(view, legal, self.memory, rng)
        return module.hard(view, legal, self.memory, rng, self.budget, after(module.TIME_LIMIT))


def after(seconds: float) -> OutOfTime:
    """A search's time limit, from now: its seat may not think longer whatever its budget."""
    stop = time.perf_counter() + seconds
    return lambda: time.perf_counter() > stop
