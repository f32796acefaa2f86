"""What a finished game's analysis costs (zerogames.analysis, "Where you lost points" on a replay): per
game at the daily deal's table size, one whole game played by Normal bots, then one seat's decisions
weighed by Hard's search on its own budget, in the process's CPU seconds.
Usage: python bench/analysis.py [SEED]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zerogames import analysis, bots, daily
from zerogames.games import GAMES
from zerogames.store import Record


def a_game(game: str, players: int, seed: int) -> Record:
    """A game played to its end by Normal bots, an action a second, as the store records it."""
    rules = GAMES[game]
    seated = [bots.Bot(game, "normal") for _ in range(players)]
    state, rng, actions, now = rules.new_game(players, seed, {}), random.Random(seed), [], 0.0
    while rules.result(state) is None:
        now += 1.0
        for seat, bot in enumerate(seated):
            bot.see(rules.view(state, seat, now))
        for seat, bot in enumerate(seated):
            legal = rules.legal_actions(state, seat, now)
            action = bot.choose(rules.view(state, seat, now), legal, rng) if legal else None
            if action is not None:
                state = rules.apply(state, seat, action, now)
                actions.append((seat, action, now, "bot"))
                break
    seats = [{"seat": seat, "name": f"Bot {seat}", "bot": "normal"} for seat in range(players)]
    return Record("BENCH", 1, game, players, seed, {}, seats, 0.0, now, "finished", actions, {})


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    print(f"{'game':<12}{'seats':>6}{'actions':>9}{'weighed':>9}{'CPU s':>8}{'ms/decision':>13}")
    for game in GAMES:
        record = a_game(game, daily.SEATS[game], seed)
        began = time.process_time()
        found = analysis.analyse(record, 0)
        spent = time.process_time() - began
        each = 1000 * spent / max(1, len(found))
        print(
            f"{game:<12}{record.players:>6}{len(record.actions):>9}{len(found):>9}{spent:>8.2f}{each:>13.0f}"
        )


if __name__ == "__main__":
    main()
