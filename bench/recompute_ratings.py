"""The CPU cost of recomputing every rating (python -m zerogames.recompute_ratings) from a history of
rated two-player games among 200 players, a minute apart: the rating model's work and the counting
of each game's repeats among the same players in the day before it.

Usage: python bench/recompute_ratings.py [games ...]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zerogames import ratings
from zerogames.ratings import Line

PLAYERS = [f"player{i}" for i in range(200)]


def history(games: int) -> list[tuple[str, list[Line], float]]:
    rng = random.Random(games)
    played = []
    for n in range(games):
        first, second = rng.sample(PLAYERS, 2)
        played.append(("zero_game", [Line(0, first, 0, 1), Line(1, second, 1, 2)], n * 60.0))
    return played


def main(sizes: list[int]) -> None:
    for games in sizes:
        played = history(games)
        began = time.process_time()
        for _ in ratings.recompute(played):
            pass
        print(f"{games:>7} rated games: {time.process_time() - began:.2f} s CPU")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [5000, 20000])
