"""The leaderboard page's time with 10,000 rated players: each page of the top 100, for a viewer far
down the board (their place is counted) and for one on the page shown.

Single process, Flask's test client (no network): the time to answer GET /leaderboard/<game>, queries
and template included, in wall time and in the process's CPU time (on a shared machine, wall time also
counts the moments another tenant held the core). The players and ratings are written straight into a
fresh SQLite store, as the site keeps them; some 45% of them still provisional (not listed, but in the
table the queries read).
Usage: python bench/leaderboard.py [players] [requests]
"""

from __future__ import annotations

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
from zerogames.ratings import Rating
from zerogames.store import Store, open_store

# The board timed, and another game some players are rated at too (as on a real site).
GAME, OTHER = list(GAMES)[:2]


def fill(store: Store, players: int) -> None:
    """`players` accounts, each rated at the game (and some at a second game, as real sites have)."""
    rng = random.Random(1)
    with store.transaction():
        for n in range(players):
            player = f"player-{n}"
            store.db.execute(
                "insert into players (id, name, username, handle, created) values (?,?,?,?,?)",
                [player, f"Player {n}", f"player{n}", f"player{n}", 0.0],
            )
            for game in (GAME, OTHER) if n % 3 else (GAME,):
                rating = Rating(rng.gauss(25, 6), rng.uniform(2.5, 7.0), rng.randint(1, 300))
                store.ratings.save(game, player, rating)


def timed(client, url: str, requests: int) -> tuple[list[float], list[float]]:
    """Each request's wall time and the process's CPU time for it, in ms."""
    walls, cpus = [], []
    for _ in range(requests):
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
        assert response.status_code == 200, response.status_code
    return sorted(walls), sorted(cpus)


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    requests = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "bench.db")
        store = open_store("", path)
        fill(store, players)
        app = runtime.start(create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "bench"}))
        (settled,) = store.db.execute(
            "select count(*) from ratings where game = ? and sigma <= 5", [GAME]
        ).fetchone()
        board = store.ratings.leaderboard(GAME, 0, 100)
        viewers = {
            "far down the board": store.ratings.leaderboard(GAME, settled // 2, 1)[0][0],
            "on the page shown": board[1][0],
        }
        print(f"{players:,} players rated at {GAME}, {settled:,} settled; {requests} requests per line")
        for who, uid in viewers.items():
            client = as_player(app.test_client(), uid)
            for page in (1, 4):
                url = f"/leaderboard/{GAME}?page={page}"
                timed(client, url, 10)  # warm: templates compiled, pages cached by SQLite
                walls, cpus = timed(client, url, requests)
                p95 = walls[int(len(walls) * 0.95) - 1]
                print(
                    f"page {page}, viewer {who}: median {statistics.median(walls):.2f} ms"
                    f" (CPU {statistics.median(cpus):.2f} ms), p95 {p95:.2f} ms, max {walls[-1]:.2f} ms"
                )


if __name__ == "__main__":
    main()
