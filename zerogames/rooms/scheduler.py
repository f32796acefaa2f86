"""The process's one timer thread: bot moves, views that change with time, the live channels' waking."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


class Scheduler:
    """Calls each task at its moment, one after another, on a thread of its own."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.queue: list[tuple[float, int, Callable[[], None]]] = []
        self.counter = itertools.count()
        self.wakeup = threading.Condition()
        self.thread: threading.Thread | None = None

    def call_at(self, when: float, task: Callable[[], None]) -> None:
        with self.wakeup:
            heapq.heappush(self.queue, (when, next(self.counter), task))
            if self.thread is None:
                self.thread = threading.Thread(target=self.run, name="zerogames-scheduler", daemon=True)
                self.thread.start()
            self.wakeup.notify()

    def run(self) -> None:
        while True:
            with self.wakeup:
                while not self.queue or self.queue[0][0] > self.clock():
                    self.wakeup.wait(None if not self.queue else max(0.0, self.queue[0][0] - self.clock()))
                _, _, task = heapq.heappop(self.queue)
            try:
                task()
            except Exception:  # a failing task must not stop every later timer of the process
                log.exception("scheduled task failed")
