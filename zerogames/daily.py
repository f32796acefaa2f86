"""The daily deal: per game and per UTC day one deal, the same for everyone who plays it that day.

Its seed is made as every fair deal's (zerogames.fairness), from a secret the store draws for that
game and day, with one contribution, the game and the day themselves ("zero_game/2026-12-02" in hex):
so its commitment can be shown before the day starts, and its data checks like any game's once the
day is over. Pure: no clock (the moment is passed in) and no I/O.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

from zerogames.fairness import SCHEME, Fairness, commitment, derived_seed
from zerogames.games import GAMES

# Everyone plays the same deal against Hard bots, at one table size per game.
LEVEL = "hard"
SEATS = {game: min(max(4, rules.min_players), rules.max_players) for game, rules in GAMES.items()}


def day_of(now: float) -> str:
    return datetime.fromtimestamp(now, UTC).date().isoformat()


def start_of(day: str) -> float:
    """The day's first moment (ValueError if `day` is no YYYY-MM-DD date)."""
    return datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC).timestamp()


def next_day(day: str) -> str:
    return day_of(start_of(day) + 86400)


def previous_day(day: str) -> str:
    return day_of(start_of(day) - 86400)


def is_over(day: str, now: float) -> bool:
    """Whether the UTC day has ended (its deal's cards may then be shown to anyone)."""
    return day_of(now) > day


def deal(secret: str, game: str, day: str) -> tuple[Fairness, int]:
    """The day's deal of a game: how its seed is made, and the seed."""
    label = f"{game}/{day}".encode("ascii").hex()
    return Fairness(SCHEME, commitment(secret), (("daily", label),)), derived_seed(secret, [label])


def streak(days: list[str], today: str) -> int:
    """Days in a row a player has played a game's daily deal, up to today (or yesterday, while today's
    is still to play)."""
    played, count = set(days), 0
    day = today if today in played else previous_day(today)
    while day in played:
        count += 1
        day = previous_day(day)
    return count


def share_text(game: str, day: str, seat: int, rounds: list[list[int]], link: str) -> str:
    """What a player shares of their day: one square per round by how their round went against the
    table (the best, in between, the worst), and the link; never a card."""
    rules = GAMES[game]
    squares = []
    before = [0] * len(rounds[0]) if rounds else []
    for totals in rounds:
        gained = [after - earlier for after, earlier in zip(totals, before, strict=True)]
        mine = gained[seat]
        best, worst = (min(gained), max(gained)) if rules.lowest_wins else (max(gained), min(gained))
        squares.append("🟩" if mine == best else "🟥" if mine == worst else "🟨")
        before = totals
    lines = [f"zerogames daily {rules.title} {day}"]
    lines += ["".join(squares[at : at + 10]) for at in range(0, len(squares), 10)]
    return "\n".join([*lines, link])


def friends_first(results: list[dict[str, Any]], friends: Collection[str]) -> list[dict[str, Any]]:
    """The day's results (each with its `player` id and whether it is the viewer's, `me`): the
    viewer's own, then their friends' (`friends`: player ids), then everyone else's, each in the order
    they were, a friend's marked `friend`. By id, not by name: a guest may take any name."""
    marked = [row | {"friend": not row["me"] and row["player"] in friends} for row in results]
    return sorted(marked, key=lambda row: 0 if row["me"] else 1 if row["friend"] else 2)
