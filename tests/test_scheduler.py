"""The process's timers: run at their moment, cancellable, and known while pending."""

from __future__ import annotations

import threading
import time

from zerogames.rooms import scheduler as timers
from zerogames.rooms.scheduler import Scheduler


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_timers_run_at_their_moment_in_order_and_a_cancelled_one_never():
    now, ran = Clock(), []
    scheduler = Scheduler(now, thread=False)
    scheduler.call_at(102.0, lambda: ran.append("second"))
    scheduler.call_at(101.0, lambda: ran.append("first"))
    cancelled = scheduler.call_at(101.5, lambda: ran.append("cancelled"))
    cancelled.cancel()
    assert scheduler.pending() == [101.0, 102.0]
    assert scheduler.run_due() == 0
    now.now = 102.0
    assert scheduler.run_due() == 2
    assert ran == ["first", "second"] and scheduler.pending() == []


def test_cancelling_a_timer_that_has_run_changes_nothing():
    now, ran = Clock(), []
    scheduler = Scheduler(now, thread=False)
    timer = scheduler.call_at(100.0, lambda: ran.append(1))
    scheduler.run_due()
    timer.cancel()
    assert ran == [1] and scheduler.cancelled == 0


def test_cancelled_timers_do_not_pile_up(monkeypatch):
    monkeypatch.setattr(timers, "CANCELLED_KEPT", 10)
    scheduler = Scheduler(Clock(), thread=False)
    kept = scheduler.call_at(500.0, lambda: None)
    for moment in range(100):
        scheduler.call_at(200.0 + moment, lambda: None).cancel()
    assert len(scheduler.queue) < 25
    assert scheduler.pending() == [kept.when]


def test_a_stopped_scheduler_waits_for_the_task_running_and_runs_no_other():
    """What the site's rooms set going stops with them, before their store closes."""
    running, go_on, ran = threading.Event(), threading.Event(), []

    def slow() -> None:
        running.set()
        go_on.wait(5)
        ran.append("slow")

    scheduler = Scheduler(time.time)
    scheduler.call_at(time.time(), slow)
    scheduler.call_at(time.time(), lambda: ran.append("due"))
    running.wait(5)
    stopping = threading.Thread(target=scheduler.stop)
    stopping.start()
    stopping.join(0.1)
    assert stopping.is_alive(), "the task running was not waited for"
    go_on.set()
    stopping.join(5)
    scheduler.call_at(time.time(), lambda: ran.append("after"))
    time.sleep(0.4)
    assert ran == ["slow"] and scheduler.pending() == [] and not scheduler.thread.is_alive()
