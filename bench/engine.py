"""Random full games through the engine contract, per registered game: games/s and actions/s.

Single process. Each step asks every seat for its legal actions (as a room would), picks a random
acting seat and a random action, and applies it. Prints a line per game: the best of three timed runs,
timed in the process's CPU seconds (on a shared machine, wall time also counts the moments another
tenant held the core).
Usage: python bench/engine.py [seconds per run]
       python bench/engine.py --count [games=100]
bench/live.py times `pace` before and after its run, to tell a slow hour from slow code.

With --count, the same games (seeds 0 to games-1) are played under valgrind, their instructions
counted rather than timed (bench/counting.py): within two thousandths from run to run, where two
revisions' timed runs differ by a tenth from one minute to the next. A revision's engines against
another's, in one go: `python bench/alternate.py --here OLD NEW 1 -- bench/engine.py --count`.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from counting import counted

from zerogames.games import GAMES, Game

# Seconds of play each action stands for, so that timed views (Cabo's sightings) do expire.
SECONDS_PER_ACTION = 1.0


def bench_players(rules: Game) -> int:
    """Five at the table where the game allows it: the size the speed goals are set for."""
    return min(max(5, rules.min_players), rules.max_players)


def play_one(rules: Game, players: int, seed: int) -> int:
    pick = random.Random(seed).random
    state = rules.new_game(players, seed)
    actions = 0
    now = 0.0
    while rules.result(state) is None:
        acting = []
        for seat in range(players):
            legal = rules.legal_actions(state, seat, now)
            if legal:
                acting.append((seat, legal))
        seat, legal = acting[int(pick() * len(acting))]
        state = rules.apply(state, seat, legal[int(pick() * len(legal))], now)
        actions += 1
        now += SECONDS_PER_ACTION
    return actions


def bench(rules: Game, seconds: float, runs: int = 3) -> tuple[float, float, float]:
    """The best of `runs` timed runs (this machine is shared: the best run is the least disturbed)."""
    players = bench_players(rules)
    best = (0.0, 0.0, 0.0)
    seed = 0
    for _ in range(runs):
        games = actions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            actions += play_one(rules, players, seed)
            games += 1
            seed += 1
        elapsed = time.process_time() - start
        best = max(best, (games / elapsed, actions / elapsed, actions / games))
    return best


def pace(seconds: float = 0.5, runs: int = 3) -> float:
    """This machine's pace now: the CPU microseconds one Zero Game action takes here, the best of
    `runs`. The same code reads a fifth slower or more at some hours, with nothing else running here,
    and so does every CPU figure taken meanwhile: read against this, figures of two hours compare."""
    _, actions, _ = bench(GAMES["zero_game"], seconds, runs)
    return 1e6 / actions


def played(rules: Game, games: int) -> int:
    """The actions of the first `games` games (seeds 0 on), played one after another."""
    return sum(play_one(rules, bench_players(rules), seed) for seed in range(games))


def count(games: int) -> None:
    """Each game's instructions an action over its first `games` games, less a start-up's (`--play`
    of no game: Python starting, every game imported)."""
    start_up, _ = counted([__file__, "--play", next(iter(GAMES)), "0"])
    for game in GAMES:
        total, printed = counted([__file__, "--play", game, str(games)])
        actions = int(printed)
        each = (total - start_up) / actions
        print(f"{game}: {each:.0f} instructions an action ({games} games, {actions} actions, callgrind)")


def main() -> None:
    if sys.argv[1:2] == ["--play"]:  # what `count` has valgrind run
        print(played(GAMES[sys.argv[2]], int(sys.argv[3])))
        return
    if sys.argv[1:2] == ["--count"]:
        count(int(sys.argv[2]) if len(sys.argv) > 2 else 100)
        return
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    for rules in GAMES.values():
        games, actions, per_game = bench(rules, seconds)
        # A line "game: figures", the rate first: bench/alternate.py sets two revisions' side by side.
        print(
            f"{rules.id}: {actions:.0f} actions/s, {games:.0f} games/s "
            f"({bench_players(rules)} players, {per_game:.1f} actions a game)"
        )


if __name__ == "__main__":
    main()
