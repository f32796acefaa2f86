"""The live channel's push path alone, in one process: what each change costs its five seats' pushes.

R Zero Game rooms of five players, every seat with a live channel open (so that the table shows them
all connected, as in bench/live.py), each room making one random move at a time; after each move every
seat's channel draws its push (zerogames.web.live.Pusher.message), as the server does, without the
sockets. It prints, per change: the CPU the five pushes took, the CPU the collections of the young
and middle generations took (run by the clock in the server: here after every round of moves), the
objects those found in reference cycles, the regions drawn (Jinja templates run) and the HTML made.

The CPU is the process's (time.process_time), so another tenant of a shared machine costs it little,
but the figures still move by a tenth from run to run: compare two checkouts alternating. The counts
(cycles, drawings, HTML) are the same on every run.

Usage: python bench/push_path.py [rooms=20] [rounds of moves=60]
"""

from __future__ import annotations

import gc
import random
import sys
import tempfile
import time
from pathlib import Path

# This checkout's code, not whichever one an installed package points at.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app
from zerogames import runtime
from zerogames.games import GAMES
from zerogames.rooms import Subscriber
from zerogames.web import live, templating, viewmodel

SEATS = 5
# Rounds of moves between two collections: a room moves every 2 s in bench/live.py, and the server
# collects its middle generation every 1.5 s (zerogames/serving.py).
COLLECT_EVERY = 1


class Counted(templating.TemplateEnvironment):
    """The site's template environment, counting the regions it draws."""

    drawn = 0

    def draw(self, name, context):
        Counted.drawn += 1
        return super().draw(name, context)


def main() -> None:
    rooms = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    with tempfile.TemporaryDirectory() as folder:
        settings = {"TESTING": True, "DATABASE": f"{folder}/zerogames.db", "DEV": True, "BOT_DELAY": 0}
        app = create_app(settings)
        app.jinja_env.__class__ = Counted
        runtime.start(app)
        try:
            with app.test_request_context("/"):
                report(measure(app.extensions["zerogames"], rooms, rounds))
        finally:
            runtime.stop(app)


def seated(registry, number: int) -> tuple:
    """A room of five players, started, each seat's channel open on the table as it is: the room and
    its seats' pushers."""
    uids = [f"room{number}-seat{seat}" for seat in range(SEATS)]
    room = registry.create("zero_game", {"clock": 60}, uids[0], "P0")
    for seat, uid in enumerate(uids[1:], 1):
        registry.join(room, uid, f"P{seat}")
    registry.start(room, uids[0], seed=number)  # the same deals on every run
    for uid in uids:
        registry.subscribe(room, Subscriber(uid))
    act_url = f"/r/{room.code}/act"
    viewers = [viewmodel.Viewer(uid, {}, f"P{seat}", act_url) for seat, uid in enumerate(uids)]
    pushers = [live.Pusher(room.code, room.game_id, who) for who in viewers]
    for pusher in pushers:
        # As a channel opens: its page shows the table as it is, and each push carries what changed.
        pusher.seed(room.published)
    return room, uids, pushers


def measure(registry, rooms: int, rounds: int) -> dict[str, float]:
    tables = [seated(registry, number) for number in range(rooms)]
    pick = random.Random(1).choice
    # As the server does: what was set up is left out of collections, which run only when told to.
    gc.collect()
    gc.freeze()
    gc.disable()
    figures = {"changes": 0, "push": 0.0, "collect": 0.0, "cycles": 0, "drawn": 0, "html": 0}
    Counted.drawn = 0
    try:
        for turn in range(rounds):
            for room, uids, pushers in tables:
                published = room.published
                if published.status != "playing":
                    continue
                mover = published.state["turn"]
                action = pick(GAMES[room.game_id].legal_actions(published.state, mover))
                registry.act(room, uids[mover], published.version, action)
                started = time.process_time()
                figures["html"] += sum(len(pusher.message(room.published)) for pusher in pushers)
                figures["push"] += time.process_time() - started
                figures["changes"] += 1
            if turn % COLLECT_EVERY == COLLECT_EVERY - 1:
                started = time.process_time()
                figures["cycles"] += gc.collect(1)
                figures["collect"] += time.process_time() - started
    finally:
        gc.enable()
    figures["drawn"] = Counted.drawn
    return figures


def report(figures: dict[str, float]) -> None:
    changes = max(figures["changes"], 1)
    print(
        f"{figures['changes']} changes of 5 seats: pushes {figures['push'] / changes * 1000:.3f} ms CPU, "
        f"collections {figures['collect'] / changes * 1000:.3f} ms, "
        f"objects in cycles {figures['cycles'] / changes:.0f}, "
        f"regions drawn {figures['drawn'] / changes:.2f}, "
        f"HTML {figures['html'] / changes:.0f} characters (per change)"
    )


if __name__ == "__main__":
    main()
