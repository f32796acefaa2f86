"""How long Hard bots' thinking holds the gevent event loop: inline, and the way rooms run it.

A ticker on the loop sleeps 1 ms again and again and records how late it wakes, while Hard Trump Card
bots make the same decisions three ways: not at all (the machine's own noise), inline on the loop, and
through the site's `off_the_loop` (zerogames.offload: native threads; under the GIL the loop still
gets its turns).
Usage: python bench/bot_pause.py [decisions]
"""

from gevent import monkey

monkey.patch_all()

import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zerogames.bots import Bot  # noqa: E402
from zerogames.games import GAMES  # noqa: E402
from zerogames.offload import off_the_loop  # noqa: E402

RULES = GAMES["trump_card"]
TICK = 0.001
# The time an idle run waits per decision, about what a Hard decision takes.
IDLE = 0.02


def decisions(count: int) -> list[tuple[Bot, dict, list]]:
    """Hard bots' card plays with a real choice (four legal cards or more), from random matches."""
    found: list[tuple[Bot, dict, list]] = []
    seed = 0
    while len(found) < count:
        state = RULES.new_game(4, seed)
        seed += 1
        bots = [Bot(RULES.id, "hard") for _ in range(4)]
        pick = random.Random(seed)
        while RULES.result(state) is None and len(found) < count:
            for seat in range(4):
                bots[seat].see(RULES.view(state, seat))
            seat = state["turn"]
            legal = RULES.legal_actions(state, seat)
            if len(legal) > 3 and legal[0]["type"] == "play":
                found.append((bots[seat], RULES.view(state, seat), legal))
            state = RULES.apply(state, seat, pick.choice(legal))
    return found


def lateness_while(work: list, how: str) -> tuple[float, list[float]]:
    late: list[float] = []
    running = [True]

    def ticker() -> None:
        while running[0]:
            start = time.perf_counter()
            gevent.sleep(TICK)
            late.append(time.perf_counter() - start - TICK)

    clock = gevent.spawn(ticker)
    gevent.sleep(0.01)
    start = time.perf_counter()
    for bot, view, legal in work:

        def think(bot=bot, view=view, legal=legal) -> dict:
            return bot.choose(view, legal, random.Random(1))

        if how == "idle":
            gevent.sleep(IDLE)
        elif how == "inline":
            think()
        else:
            off_the_loop(think)
        gevent.sleep(0)
    spent = time.perf_counter() - start
    running[0] = False
    clock.join()
    return spent, sorted(late)


def main() -> None:
    work = decisions(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
    for how in ("idle", "inline", "off_the_loop"):
        spent, late = lateness_while(work, how)
        p99 = late[int(len(late) * 0.99)] * 1000
        print(
            f"{how:<13} {len(work)} decisions in {spent:.2f} s; the loop woke late by "
            f"p50 {late[len(late) // 2] * 1000:.1f} ms, p99 {p99:.1f} ms, at most {late[-1] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
