"""Zero Game Hard's CPU per decision, on the same decisions every run.

Plays `--games` five-player games of Hard against four random players (its seat turned round the
table from game to game, as in zerogames.sim) and keeps every decision Hard had a choice in: its
view, legal moves and memory (`--decisions FILE` keeps them, so that two versions of the bot are timed
on the very same decisions). Then decides each one again on its own generator (`--seed` and the
decision's number), with no time limit, so that a run's choices depend on the code alone, and reports
the CPU each took (mean, p50, p99, the longest). `--moves FILE` writes the move chosen at every
decision, one a line, to compare two versions of the bot move for move; `--values` asks Hard's values
(the analysis) instead of its move.

Usage: nice -n 19 python bench/zero_game_hard.py [--games N] [--seed S] [--budget N] [--decisions FILE]
                                                 [--moves FILE] [--values] [--profile FILE]
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import json
import pickle
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zerogames import sim
from zerogames.bots import Bot
from zerogames.games import GAMES
from zerogames.games.zero_game import bot as zero_game

RULES = GAMES["zero_game"]
LINEUP = ["hard", "random", "random", "random", "random"]
# The games are played out at this budget to reach Hard's decisions: the decisions, not the play, are
# what is measured, and a smaller budget reaches them sooner.
PLAYING_BUDGET = 200

Decision = tuple[dict[str, Any], list[dict[str, Any]], zero_game.Memory]


def decisions(games: int, seed: int) -> list[Decision]:
    """Every decision with more than one legal move the Hard seat met in `games` games."""
    met: list[Decision] = []
    for game in range(games):
        lineup = sim.lineup_for(LINEUP, game)
        hard_seat = lineup.index("hard")
        bots = [Bot(RULES.id, level) for level in lineup]
        rngs = [random.Random(f"{seed}/{game}/{seat}") for seat in range(len(lineup))]
        state = RULES.new_game(len(lineup), seed + game)
        while RULES.result(state) is None:
            seat = state["turn"]
            legal = RULES.legal_actions(state, seat)
            view = RULES.view(state, hard_seat)
            bots[hard_seat].see(view)
            if seat == hard_seat and len(legal) > 1:
                met.append(copy.deepcopy((view, legal, bots[hard_seat].memory)))
            if seat == hard_seat:
                # No time limit: the games played are the same on a busy machine.
                chosen = zero_game.hard(view, legal, bots[seat].memory, rngs[seat], PLAYING_BUDGET)
            else:
                chosen = bots[seat].choose(RULES.view(state, seat), legal, rngs[seat])
            state = RULES.apply(state, seat, chosen)
    return met


def decide(decision: Decision, seed: int, number: int, budget: int | None, values: bool) -> Any:
    """Hard's move (or its values) at one decision, on the decision's own generator and no time limit."""
    view, legal, memory = decision
    rng = random.Random(f"{seed}/decision/{number}")
    if values:
        return zero_game.values(view, legal, memory, rng, budget)
    return zero_game.hard(view, legal, memory, rng, budget)


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games to collect decisions from")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, help="iterations a decision (default: Hard's own)")
    parser.add_argument("--decisions", type=Path, help="read the decisions here, else keep them here")
    parser.add_argument("--moves", type=Path, help="write each decision's move here, one a line")
    parser.add_argument("--values", action="store_true", help="time Hard's values, not its move")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the decisions here")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    if args.decisions and args.decisions.exists():
        met = pickle.loads(args.decisions.read_bytes())
    else:
        met = decisions(args.games, args.seed)
        if args.decisions:
            args.decisions.write_bytes(pickle.dumps(met))
    cpu_ms: list[float] = []
    chosen: list[Any] = []
    profile = cProfile.Profile() if args.profile else None
    for number, decision in enumerate(met):
        started = time.thread_time()
        if profile:
            profile.enable()
        chosen.append(decide(decision, args.seed, number, args.budget, args.values))
        if profile:
            profile.disable()
        cpu_ms.append((time.thread_time() - started) * 1000)
    if profile:
        profile.dump_stats(args.profile)
    if args.moves:
        args.moves.write_text("".join(json.dumps(move, sort_keys=True) + "\n" for move in chosen))
    print(
        f"{len(met)} decisions, CPU ms: mean {statistics.fmean(cpu_ms):.1f}"
        f" p50 {sim.percentile(cpu_ms, 0.5):.1f} p99 {sim.percentile(cpu_ms, 0.99):.1f} max {max(cpu_ms):.1f}"
    )


if __name__ == "__main__":
    main()
