"""The live channel's push path alone, in one process: what each change costs its five seats' pushes.

R Zero Game rooms of five players, every seat with a live channel open (so that the table shows them
all connected, as in bench/live.py), each room making one random move at a time. After each move the
first of its channels draws every seat's push (zerogames.web.live.draw_every_push) and each channel
takes its own (Pusher.message), as the server does, without the sockets. It prints, per change: the
CPU the five pushes took, the CPU the collections of the young and middle generations took (run by
the clock in the server: here after every round of moves), the objects those found in reference
cycles, the regions drawn (Jinja templates run) and the HTML made.

With `between` megabytes, each channel's turn comes after that much other memory is read (not
counted), as a busy server's channels wake among other sockets' reads and sends: what the pushes
cost with the processor's caches cold.

The CPU is the process's (time.process_time), so another tenant of a shared machine costs it little,
but the figures still move by a tenth from run to run: compare two checkouts alternating. The counts
(cycles, drawings, HTML) are the same on every run.

With --count, the same rounds are run under valgrind, their instructions counted rather than timed
(bench/counting.py): per change, those of a run making them less those of one that only seats the
rooms, so the move itself (its check and its write to the store) is in it with the five pushes, and
so are this script's clock readings. Within a thousandth from run to run: a change that saves a
hundredth shows, where the timed figures of one revision move by a tenth.

Usage: python bench/push_path.py [rooms=20] [rounds of moves=60] [between=0]
       python bench/push_path.py --count [rooms=20] [rounds of moves=30]
"""

from __future__ import annotations

import gc
import random
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

# This checkout's code, not whichever one an installed package points at.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from counting import counted

from app import create_app
from zerogames import runtime
from zerogames.games import GAMES
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


def count(rooms: str, rounds: str) -> None:
    seated_only, _ = counted([__file__, rooms, "0"])
    total, printed = counted([__file__, rooms, rounds])
    changes = int(printed.split()[0])
    each = (total - seated_only) / changes
    print(f"push path: {each:.0f} instructions a change ({changes} changes: a move, 5 pushes; callgrind)")


def main() -> None:
    if sys.argv[1:2] == ["--count"]:
        count(sys.argv[2] if len(sys.argv) > 2 else "20", sys.argv[3] if len(sys.argv) > 3 else "30")
        return
    rooms = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    between = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    with tempfile.TemporaryDirectory() as folder:
        settings = {"TESTING": True, "DATABASE": f"{folder}/zerogames.db", "DEV": True, "BOT_DELAY": 0}
        app = create_app(settings)
        app.jinja_env.__class__ = Counted
        runtime.start(app)
        try:
            with app.test_request_context("/"):
                report(measure(app.extensions["zerogames"], rooms, rounds, between))
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
    act_url = f"/r/{room.code}/act"
    viewers = [viewmodel.Viewer(uid, {}, f"P{seat}", act_url) for seat, uid in enumerate(uids)]
    pushers = [live.Pusher(room.code, room.game_id, who) for who in viewers]
    for uid, pusher in zip(uids, pushers, strict=True):
        registry.subscribe(room, live.Channel(uid, threading.Event(), pusher))
    for pusher in pushers:
        # As a channel opens: its page shows the table as it is, and each push carries what changed.
        pusher.seed(room.published)
    return room, uids, pushers


def measure(registry, rooms: int, rounds: int, between: int) -> dict[str, float]:
    other = bytearray(between << 20)
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
                for pusher in pushers:  # each channel in its turn, as the server wakes them
                    if other:
                        zlib.crc32(other)  # read through, pushing the pushes' own data out of the caches
                    started = time.process_time()
                    published = room.published
                    if published.seq > pusher.seq:
                        live.draw_every_push(room, published, pusher.site)
                    figures["html"] += len(pusher.message(published))
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
