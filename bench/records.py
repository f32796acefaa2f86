"""A player with 1,000 games on record: how long their page and a replay's step take to serve.

Records 1,000 finished games (random legal play, every game in turn, the player at seat 0 beside
bots) through the store as rooms record them, then times through the app itself:
- the player's page (`/me`: statistics over all 1,000 games and a page of the history), its first
  page and a page deep in;
- a replay: its first step (the game rebuilt from its log) and then steps one after another.
Prints the median and the 95th percentile of each, in milliseconds.
Usage: python bench/records.py [games]
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app
from tests.web.conftest import as_player
from zerogames import runtime
from zerogames.games import GAMES
from zerogames.records import Seated, ended
from zerogames.store import RoomRow, SeatRow, Store

PLAYER = "bench-player"
# Steps of a replay timed one after another (a long game has thousands).
STEPS_TIMED = 200
SECONDS_PER_ACTION = 1.0


def record_one(store: Store, rules, code: str, seed: int) -> int:
    """One random game played to its end and recorded as a room records it: its number of actions."""
    players = rules.min_players if rules.min_players == rules.max_players else min(4, rules.max_players)
    bots = [SeatRow(i, None, f"Bot {i}", "easy") for i in range(1, players)]
    seats = [SeatRow(0, PLAYER, "Ann", None), *bots]
    room = RoomRow(code, rules.id, {}, PLAYER, "playing", 1, seed, 1, seats)
    store.rooms.save(room)
    state = rules.new_game(players, seed, {})
    store.games.start(room, players, {}, rules.dump(state))
    pick, now, n = random.Random(seed), time.time(), 0
    while rules.result(state) is None:
        legal_by_seat = [(seat, rules.legal_actions(state, seat, now)) for seat in range(players)]
        seat, legal = pick.choice([(seat, legal) for seat, legal in legal_by_seat if legal])
        action = pick.choice(legal)
        state = rules.apply(state, seat, action, now)
        n += 1
        over = rules.result(state) is not None
        seated = [Seated(s.uid, s.bot) for s in seats]
        end = ended(rules.outcome(state), seated) if over else None
        store.games.append(code, 1, n, seat, dict(action), now, "bench", n + 1, None, end)
        now += SECONDS_PER_ACTION
    return n


def code_of(number: int) -> str:
    letters = "ABCDEFGHJKMNPQRSTUVWXYZ"
    code = ""
    for _ in range(4):
        number, digit = divmod(number, len(letters))
        code += letters[digit]
    return code


def timed(client, path: str, times: int) -> list[tuple[float, float]]:
    """Each request's wall and CPU milliseconds (the app runs in this process: its CPU time is the
    server's work, whatever else the machine is doing)."""
    taken = []
    for _ in range(times):
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.get(path)
        taken.append(((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000))
        assert response.status_code == 200, (path, response.status_code)
    return taken


def report(label: str, taken: list[tuple[float, float]]) -> None:
    line = f"{label:<46}"
    for name, figures in (("wall", [wall for wall, _ in taken]), ("CPU", [cpu for _, cpu in taken])):
        p95 = statistics.quantiles(figures, n=20)[-1] if len(figures) > 1 else figures[0]
        line += f"  {name} median {statistics.median(figures):6.1f} p95 {p95:6.1f} ms"
    print(f"{line}   ({len(taken)} requests)")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    # Recording 200,000 actions is not what is timed: no waiting on the disk for each.
    os.environ["ZEROGAMES_SYNC"] = "OFF"
    folder = tempfile.mkdtemp()
    app = runtime.start(create_app({"TESTING": True, "DATABASE": f"{folder}/bench.db", "BOT_DELAY": 0}))
    store = app.extensions["zerogames"].store
    started, actions = time.perf_counter(), 0
    ids = list(GAMES)
    lengths: dict[str, int] = {}
    for number in range(games):
        code = code_of(number)
        lengths[code] = record_one(store, GAMES[ids[number % len(ids)]], code, number)
        actions += lengths[code]
    print(f"recorded {games} games ({actions} actions) in {time.perf_counter() - started:.1f} s")
    client = as_player(app.test_client(), PLAYER)
    report("/me, first page (stats over all games)", timed(client, "/me", 30))
    report("/me, page 40", timed(client, "/me?page=40", 30))
    # The templates are compiled on a first replay: the timed ones come after it.
    timed(client, f"/replay/{code_of(games - 1)}-1", 1)
    by_length = sorted(lengths, key=lengths.get)
    median, longest = by_length[len(by_length) // 2], by_length[-1]
    for label, code in (("a median game", median), ("the longest game", longest)):
        steps = lengths[code]
        game = store.history.record(code, 1).game
        report(f"replay of {label} ({game}, {steps} actions): rebuilt", timed(client, f"/replay/{code}-1", 1))
        step_times = []
        for step in range(1, min(steps, STEPS_TIMED) + 1):
            step_times += timed(client, f"/replay/{code}-1?step={step}", 1)
        report("  each next step", step_times)
        middle = f"/replay/{code}-1?step={steps // 2}&view=open"
        report("  a step with all cards open", timed(client, middle, 20))


if __name__ == "__main__":
    main()
