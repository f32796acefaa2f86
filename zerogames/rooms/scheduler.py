"""The process's one timer thread: bot moves, turn clocks, views that change with time, the live
channels' waking."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

# Cancelled timers are dropped from the queue when it holds more of them than this and than live ones:
# every move winds a table's clock anew, and each winding cancels the timer before it.
CANCELLED_KEPT = 1024


class Timer:
    """A task set for a moment; `cancel` keeps it from running, if it has not yet begun."""

    __slots__ = ("cancelled", "scheduler", "task", "when")

    def __init__(self, scheduler: Scheduler, when: float, task: Callable[[], None]) -> None:
        self.scheduler, self.when = scheduler, when
        self.task: Callable[[], None] | None = task  # None once it has run
        self.cancelled = False

    def cancel(self) -> None:
        self.scheduler.cancel(self)


class Scheduler:
    """Calls each task at its moment, one after another, on a thread of its own (`thread=False`: only
    when `run_due` is called, as tests with a clock of their own do)."""

    def __init__(self, clock: Callable[[], float], *, thread: bool = True) -> None:
        self.clock = clock
        self.queue: list[tuple[float, int, Timer]] = []
        self.cancelled = 0  # cancelled timers still in the queue
        self.counter = itertools.count()
        self.wakeup = threading.Condition()
        self.threaded = thread
        self.thread: threading.Thread | None = None
        self.stopped = False

    def call_at(self, when: float, task: Callable[[], None]) -> Timer:
        timer = Timer(self, when, task)
        with self.wakeup:
            if self.stopped:  # never to run
                timer.cancelled = True
                return timer
            heapq.heappush(self.queue, (when, next(self.counter), timer))
            if self.thread is None and self.threaded:
                self.thread = threading.Thread(target=self.run, name="zerogames-scheduler", daemon=True)
                self.thread.start()
            # The thread sleeps until the first timer's moment: only a new first one changes that (and
            # most are not: every move sets its table's clock a minute ahead).
            if self.queue[0][2] is timer:
                self.wakeup.notify()
        return timer

    def cancel(self, timer: Timer) -> None:
        with self.wakeup:
            if timer.cancelled or timer.task is None:  # cancelled before, or run already
                return
            timer.cancelled = True
            self.cancelled += 1
            if self.cancelled > CANCELLED_KEPT and self.cancelled * 2 > len(self.queue):
                self.queue = [entry for entry in self.queue if not entry[2].cancelled]
                heapq.heapify(self.queue)
                self.cancelled = 0

    def pending(self) -> list[float]:
        """The moments of every timer still to run, soonest first."""
        with self.wakeup:
            return sorted(when for when, _, timer in self.queue if not timer.cancelled)

    def next_due(self) -> Callable[[], None] | None:
        """The task of the first timer whose moment has come, taken from the queue (the lock is held)."""
        while self.queue and self.queue[0][0] <= self.clock():
            _, _, timer = heapq.heappop(self.queue)
            if timer.cancelled:
                self.cancelled -= 1
                continue
            task, timer.task = timer.task, None
            return task
        return None

    def run_due(self) -> int:
        """Run every task whose moment has come, here and now; how many ran."""
        ran = 0
        while True:
            with self.wakeup:
                task = self.next_due()
            if task is None:
                return ran
            perform(task)
            ran += 1

    def run(self) -> None:
        while True:
            with self.wakeup:
                while (task := self.next_due()) is None:
                    if self.stopped:
                        return
                    self.wakeup.wait(None if not self.queue else max(0.0, self.queue[0][0] - self.clock()))
            perform(task)

    def stop(self) -> None:
        """No timer runs from now on: those set are dropped, and the task running is waited for."""
        with self.wakeup:
            self.stopped = True
            self.queue.clear()
            self.cancelled = 0
            self.wakeup.notify()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join()


def perform(task: Callable[[], None]) -> None:
    try:
        task()
    except Exception:  # a failing task must not stop every later timer of the process
        log.exception("scheduled task failed")
