"""Every game's bot levels against each other, in the simulator: the table a note on the bots needs.

For every game, three lineups, each one level on its own against the weaker one in every other seat
(a team game: one team against the other): Hard among Normal, Normal among Easy, Hard among Easy. For
Zero Game, also its rounds of five cards against the outside references (OpenSpiel's ISMCTS, see
zerogames/sim.py): Hard among random players, Hard among ISMCTS seats and ISMCTS among Hards (the
reference that knows which unseen cards are in play), then Hard among fair ISMCTS seats, fair ISMCTS
among Hards and fair ISMCTS among random players (the reference that draws the hidden hands from every
card its seat cannot see, as Hard does).
Deals are duplicated and seats rotated as in the simulator, so a lineup's games are a multiple of its
seats. Per lineup: the lone level's win share with its 95% interval, the game's own figure for it and
for the rest, the paired difference of their final scores by deal (turned round where the lowest
score wins, so that a positive one always favours the lone level) with its 95% interval, whether the
lone level is better outside that interval (Trump Card: its team's banked share above one half), and
the lone level's decision times (CPU p99, wall p99 and the longest).

Usage: python bench/levels.py [--games N] [--rounds N] [--seed S] [--jobs N] [--game GAME ...]
                              [--no-reference]
--games counts each game's full games a lineup, --rounds Zero Game's five-card rounds a reference
lineup. Run it under `nice -n 10` on a shared machine: it takes a while.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zerogames import sim
from zerogames.bots import MODULES
from zerogames.games import GAMES, Game

# Each level on its own against the weaker one.
LEVEL_LINEUPS = (("hard", "normal"), ("normal", "easy"), ("hard", "easy"))
# Zero Game's rounds against the reference: five players, five cards.
REFERENCE_LINEUPS = (
    ("hard", "random"),
    ("hard", sim.REFERENCE),
    (sim.REFERENCE, "hard"),
    ("hard", sim.FAIR_REFERENCE),
    (sim.FAIR_REFERENCE, "hard"),
    (sim.FAIR_REFERENCE, "random"),
)
REFERENCE_OPTIONS = {"schedule": [5]}
REFERENCE_PLAYERS = 5


def table_size(rules: Game) -> int:
    """Five at the table where the game allows it, as the goals are set."""
    return min(max(5, rules.min_players), rules.max_players)


def seats_for(rules: Game, one: str, rest: str, players: int) -> list[str]:
    """The lineup: `one` in the seats of the game's first side (one seat, or a team), `rest` in all
    the others."""
    first = rules.rating_sides(rules.new_game(players, 0))[0].seats
    return [one if seat in first else rest for seat in range(players)]


def whole_deals(games: int, players: int) -> int:
    """`games` rounded up to whole deals: each deal is played with the lineup turned through every seat."""
    return players * math.ceil(games / players)


def measure(
    rules: Game, seats: list[str], games: int, seed: int, options: dict[str, Any], jobs: int
) -> dict[str, Any]:
    """One lineup's line of the table, from the simulator's summaries."""
    started = time.perf_counter()
    rows = sim.simulate(rules.id, seats, games, seed, options, None, None, jobs)
    one, rest = rows
    paired = one["paired"]
    sign = -1 if rules.lowest_wins else 1
    difference = sign * paired["difference"]
    low, high = sorted(sign * bound for bound in paired["ci95"])
    teams = seats.count(one["level"]) > 1
    # A team game: the lone team is better when it banks more than half.
    better = one["figure_ci95"][0] > 50 if teams else low > 0
    lineup = (
        f"{one['level']} team vs {rest['level']} team"
        if teams
        else f"{one['level']} vs {len(seats) - 1} {rest['level']}"
    )
    return {
        "game": rules.id,
        "lineup": lineup,
        "games": one["games"] // seats.count(one["level"]),
        "win": one["win_rate"],
        "win_ci": one["win_rate_ci95"],
        "figure": one["figure"],
        "figure_ci": one["figure_ci95"],
        "rest_figure": rest["figure"],
        "difference": difference,
        "difference_ci": (low, high),
        "better": better,
        "cpu_p99": one["decision_cpu_ms_p99"],
        "wall_p99": one["decision_ms_p99"],
        "wall_max": one["decision_ms_max"],
        "seconds": time.perf_counter() - started,
    }


def line(result: dict[str, Any]) -> str:
    win_low, win_high = result["win_ci"]
    figure_low, figure_high = result["figure_ci"]
    low, high = result["difference_ci"]
    better = "yes" if result["better"] else "no"
    return (
        f"{result['game']:<11} {result['lineup']:<31} {result['games']:>6}"
        f" {result['win']:>7.1%} {f'{win_low:.1%}-{win_high:.1%}':>13}"
        f" {result['figure']:>9.2f} {f'{figure_low:.2f}-{figure_high:.2f}':>13} {result['rest_figure']:>9.2f}"
        f" {result['difference']:>+8.2f} {f'{low:+.2f}..{high:+.2f}':>14} {better:>6}"
        f" {result['cpu_p99']:>8.1f} {result['wall_p99']:>8.1f} {result['wall_max']:>8.1f}"
        f" {result['seconds']:>7.0f}"
    )


HEAD = (
    f"{'game':<11} {'lineup':<31} {'games':>6} {'wins':>7} {'95%':>13} {'figure':>9} {'95%':>13}"
    f" {'rest':>9} {'points':>8} {'95%':>14} {'better':>6} {'cpu p99':>8} {'p99 ms':>8} {'max ms':>8}"
    f" {'seconds':>7}"
)


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="full games a lineup (default 1000)")
    parser.add_argument("--rounds", type=int, default=1000, help="Zero Game rounds a reference lineup")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing at once (the same games)")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only these games")
    parser.add_argument("--no-reference", action="store_true", help="leave out the ISMCTS lineups")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    print("figure: the game's own (" + ", ".join(f"{g}: {MODULES[g].FIGURE}" for g in GAMES) + ")")
    print("points: the lone level's final score less the rest's, paired by deal, its better way round")
    print(HEAD, flush=True)
    for game_id in args.game or list(GAMES):
        rules = GAMES[game_id]
        players = table_size(rules)
        for one, rest in LEVEL_LINEUPS:
            seats = seats_for(rules, one, rest, players)
            games = whole_deals(args.games, players)
            print(line(measure(rules, seats, games, args.seed, {}, args.jobs)), flush=True)
        if game_id == sim.ROUND_GAME and not args.no_reference:
            for one, rest in REFERENCE_LINEUPS:
                seats = [one] + [rest] * (REFERENCE_PLAYERS - 1)
                rounds = whole_deals(args.rounds, REFERENCE_PLAYERS)
                result = measure(rules, seats, rounds, args.seed, REFERENCE_OPTIONS, args.jobs)
                result["lineup"] += " (5x5)"
                print(line(result), flush=True)


if __name__ == "__main__":
    main()
