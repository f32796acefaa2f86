"""Where a player lost points: each decision a seat made in a finished game, weighed by Hard's search.

The seat's memory is rebuilt as the bot driver builds a bot's (rooms.bot_driver): every view the seat
was shown, in order, from the first deal. At each of the seat's own decisions (its actions with more
than one legal choice, not those the turn clock made for it), the game's bot module tells what every
legal action was worth from that view (`values`, in the module's `VALUES_IN`): Hard's choice is the
best of them, and what the player chose cost the difference. Where Hard plays by a rule rather than a
search (Cabo's opening peeks, snaps and hand-overs, Zero's safe sets), there is nothing to weigh.

Deterministic: each decision's generator is seeded from the game and the step, and the search runs on
its budget with no time limit. Pure: no Flask and no I/O; it is CPU work (seconds for a long game), to
be run off the event loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from zerogames import bots
from zerogames.games import GAMES
from zerogames.rooms.turn_clock import TIMEOUT
from zerogames.store import Record

Action = dict[str, Any]

# How many of the costliest decisions a replay lists first.
COSTLIEST = 3


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: the replay step its action made, what the player chose and what Hard
    would have, each with its worth by Hard's search."""

    step: int
    played: Action
    played_worth: float
    best: Action
    best_worth: float

    @property
    def cost(self) -> float:
        return self.best_worth - self.played_worth


@dataclass(frozen=True)
class Decided:
    """A seat's moment of decision as the seat saw it: the view (the last one shown), its memory of
    every view before, the legal actions and what it played at replay step `step`."""

    step: int
    view: dict[str, Any]
    memory: Any
    legal: list[Action]
    played: Action


def decisions(record: Record, seat: int) -> Iterator[Decided]:
    """The seat's decisions in the game, each with its memory as it stood then (the same memory goes
    on seeing the game: use it before taking the next)."""
    rules = GAMES[record.game]
    memory = bots.MODULES[record.game].Memory()
    state = rules.new_game(record.players, record.seed, record.options)
    if not record.actions:
        return
    # The first deal is seen as at the first move, as the bot driver shows it.
    view = rules.view(state, seat, record.actions[0][2])
    memory.see(view)
    for step, (mover, action, now, by) in enumerate(record.actions, start=1):
        if mover == seat and by != TIMEOUT:
            legal = rules.legal_actions(state, seat, now)
            if len(legal) > 1 and action in legal:
                yield Decided(step, view, memory, legal, action)
        state = rules.apply(state, mover, action, now)
        view = rules.view(state, seat, now)
        memory.see(view)


def call(work: Callable[..., Any], *args: Any) -> Any:
    return work(*args)


def analyse(
    record: Record, seat: int, budget: int | None = None, run: Callable[..., Any] = call
) -> list[Decision]:
    """Every decision of the seat that Hard's search weighs, in the game's order (`budget`: the search's
    per decision, None for Hard's own). Each decision is weighed by `run(weigh, ...)`: on a site, off
    the event loop, one decision at a time, so that no bot waits behind a whole game's analysis."""
    found = []
    for decided in decisions(record, seat):
        decision = run(weigh, record, seat, decided, budget)
        if decision is not None:
            found.append(decision)
    return found


def weigh(record: Record, seat: int, decided: Decided, budget: int | None) -> Decision | None:
    """One decision weighed by Hard's search (None where Hard does not search)."""
    rng = random.Random(f"{record.code}-{record.game_no}/{seat}/{decided.step}")
    actions = weighed_actions(record.game, decided)
    # No time limit: the same record always weighs the same.
    worths = bots.MODULES[record.game].values(decided.view, actions, decided.memory, rng, budget)
    if worths is None:
        return None
    best = max(range(len(worths)), key=worths.__getitem__)
    played = actions.index(decided.played)
    return Decision(decided.step, decided.played, worths[played], actions[best], worths[best])


def weighed_actions(game: str, decided: Decided) -> list[Action]:
    """The actions weighed at a decision: every legal one, or where Hard weighs only a few (its bot
    module's `shortlist`: Zero Down's, Cabo's), those and the one the player chose."""
    shortlist = getattr(bots.MODULES[game], "shortlist", None)
    if shortlist is None:
        return decided.legal
    listed = shortlist(decided.view, decided.legal, decided.memory)
    return listed if decided.played in listed else [*listed, decided.played]


def costliest(found: list[Decision]) -> list[Decision]:
    """The decisions that cost most, the costliest first (none that cost nothing)."""
    return sorted((d for d in found if d.cost > 0), key=lambda d: -d.cost)[:COSTLIEST]


def as_data(found: list[Decision]) -> list[dict[str, Any]]:
    """The analysis as the store keeps it (JSON)."""
    return [asdict(decision) for decision in found]


def from_data(data: list[dict[str, Any]]) -> list[Decision]:
    return [Decision(**decision) for decision in data]
