"""What is kept of a game once it ends, and what is made again from it: each player's line of history,
a replay rebuilt action by action from the log, scores by round, and statistics per game.

Pure: no Flask and no clock. The engines are deterministic, so a replay is the log played again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from zerogames.games import GAMES
from zerogames.games.base import Outcome
from zerogames.store import GameEnd, Place, Record


@dataclass(frozen=True)
class Seated:
    """Who sat at a seat: a player's id, or None for a bot."""

    uid: str | None
    bot: str | None


def ended(outcome: Outcome, seats: list[Seated]) -> GameEnd:
    """The game's end as the store keeps it, with each player's line of history: their place, score
    and the game's own figures. Bots keep no history."""
    lines = [
        Place(
            seat,
            who.uid,
            outcome.places[seat],
            outcome.scores[seat],
            seat in outcome.winners,
            outcome.figures[seat],
        )
        for seat, who in enumerate(seats)
        if who.uid is not None and who.bot is None
    ]
    return GameEnd(outcome.how, outcome.result, lines)


# Replays


@dataclass(frozen=True)
class Step:
    """The table after `n` actions, when, and in which round the table is."""

    n: int
    state: dict[str, Any]
    now: float  # the moment of its action (the game's start for step 0): views are drawn as of it
    round: int


class Replay:
    """A finished game rebuilt from its log, every step of it, by its own engine."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.rules = rules = GAMES[record.game]
        state = rules.new_game(record.players, record.seed, record.options)
        now = record.started
        self.steps = [Step(0, state, now, self.round_of(state, now))]
        for n, (seat, action, now, _by) in enumerate(record.actions, start=1):
            state = rules.apply(state, seat, action, now)
            self.steps.append(Step(n, state, now, self.round_of(state, now)))
        # What the site works out once from the replay and keeps with it (its steps in words, ...).
        self.memo: dict[str, Any] = {}

    def round_of(self, state: dict[str, Any], now: float) -> int:
        return self.rules.view(state, None, now)[self.rules.round_key]

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def view(self, n: int, seat: int | None) -> dict[str, Any]:
        """What `seat` saw after n actions (a spectator for None), with no move to make: it is a replay."""
        step = self.steps[n]
        return {**self.rules.view(step.state, seat, step.now), "legal": []}

    def open_view(self, n: int) -> dict[str, Any]:
        step = self.steps[n]
        return {**self.rules.open_view(step.state, step.now), "legal": []}

    def rounds(self) -> list[tuple[int, int]]:
        """Each round and the step it starts at (its first step after the previous round ended)."""
        starts: dict[int, int] = {}
        for step in self.steps:
            starts.setdefault(step.round, step.n)
        return list(starts.items())

    def scores_by_round(self, until: int | None = None) -> list[list[int]]:
        """Every seat's score at the end of each round (ended by step `until`, if given): a round ends
        with the action that moves the table to the next one, or with the game's last."""
        rules, series = self.rules, []
        steps = self.steps if until is None else self.steps[: until + 1]
        for before, step in pairwise(steps):
            if step.round != before.round or step is self.steps[-1]:
                series.append(rules.scores(step.state))
        return series


# Statistics


@dataclass
class Statistics:
    """A player's figures at one game: the common ones, then the game's own, as (label, value) lines."""

    game: str
    title: str
    games: int
    wins: int
    average_score: float
    lines: list[tuple[str, str]] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def statistics(plays: list[tuple[str, bool, int, float, dict[str, Any]]]) -> list[Statistics]:
    """A player's statistics per game, from each finished game: (game, won, score, seconds, figures)."""
    by_game: dict[str, list[tuple[bool, int, float, dict[str, Any]]]] = {}
    for game, *rest in plays:
        by_game.setdefault(game, []).append(tuple(rest))
    found = []
    for game, rules in GAMES.items():
        games = by_game.get(game)
        if not games:
            continue
        wins = sum(won for won, *_ in games)
        average = sum(score for _, score, _, _ in games) / len(games)
        lines = rules.figure_lines(
            [figures for *_, figures in games], [seconds for _, _, seconds, _ in games]
        )
        found.append(Statistics(game, rules.title, len(games), wins, average, lines))
    return found
