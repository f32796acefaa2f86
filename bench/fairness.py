"""What a fair deal's check costs (zerogames.fairness): per game at its largest table, one random
full game, then its published data made (what /replay/GAME/fair.json sends) and checked (what each
replay page shows, and tools/check_deal.py runs), in the process's CPU milliseconds.
Usage: python bench/fairness.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zerogames import fairness
from zerogames.games import GAMES

SECRET = "ab" * 32


def a_game(game: str, players: int) -> tuple[fairness.Fairness, int, list]:
    rules = GAMES[game]
    record, seed = fairness.fair_deal(SECRET, [None] * players, ["cd" * 16] * players)
    state, rng, actions, now = rules.new_game(players, seed, {}), random.Random(1), [], 0.0
    while rules.result(state) is None:
        now += 1.0
        movers = [seat for seat in range(players) if rules.legal_actions(state, seat, now)]
        if movers:
            seat = rng.choice(movers)
            action = rng.choice(rules.legal_actions(state, seat, now))
            state = rules.apply(state, seat, action, now)
            actions.append((seat, action, now))
    return record, seed, actions


def main() -> None:
    for game, rules in GAMES.items():
        players = rules.max_players
        record, seed, actions = a_game(game, players)
        began = time.process_time()
        data = fairness.published(
            "X-1", fairness.Played(game, players, seed, {}, 0.0, actions), record, SECRET
        )
        made = time.process_time()
        checked = fairness.check(data)
        done = time.process_time()
        print(
            f"{game:10} {players} seats, {len(actions):4} actions, {len(data['deals']):2} deals:"
            f" published in {1000 * (made - began):5.1f} ms, checked in {1000 * (done - made):5.1f} ms"
            f" CPU ({'fair' if checked.fair else 'NOT fair'})"
        )


if __name__ == "__main__":
    main()
