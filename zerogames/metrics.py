"""What operators watch: the site's figures for Prometheus (served at /metrics, zerogames/web/operating.py).

Figures that count or time something as it happens are module-level (the Prometheus way): each layer
reports with one line where the thing happens (a command carried out, a push sent, a bot's decision, a
password hash in line). Figures that are a state (rooms, seats, open channels) are read from the app
when scraped, by `SiteFigures`, so no hook has to keep them right.

Every label is a word of the code's own (a game's id, a command's name, an endpoint, an error's
class): never a card, a name, a code typed by a visitor or anything else that grows without bound.
Each process is scraped on its own (docs/operating.md): gunicorn serves the site with one worker per
process, so no multiprocess mode is needed.
"""

from __future__ import annotations

import bisect
import functools
import math
import threading
import time
import traceback
from collections import Counter as Tally
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.utils import floatToGoString

if TYPE_CHECKING:
    from zerogames.rooms import Room, RoomRegistry
    from zerogames.web.limits import Channels

# Each counter's "_created" twin (when it was first counted) tells an operator nothing here.
disable_created_metrics()

# Seconds: from a few milliseconds (what a quiet site takes) to the seconds that mean trouble.
LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
THINKING = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 2.0, 5.0)

ACTIONS = Counter(
    "zerogames_actions",
    "Commands carried out that changed a room (Act: a player's move, BotMove, TimeOut, Join, Start...)",
    ["game", "command"],
    registry=None,
)
REFUSALS = Counter(
    "zerogames_refusals",
    "Commands refused (nothing changed), by game and command",
    ["game", "command"],
    registry=None,
)
FAILURES = Counter(
    "zerogames_command_failures",
    "Commands that failed with an error (a database that could not be written, or a bug)",
    ["game", "command", "error"],
    registry=None,
)
DATABASE_ERRORS = Counter(
    "zerogames_database_errors", "Errors from the database, in commands or in pages", ["error"], registry=None
)
REQUEST_ERRORS = Counter(
    "zerogames_request_errors",
    "Requests that failed with an error (answered 500)",
    ["endpoint", "error"],
    registry=None,
)
POST_SECONDS = Histogram(
    "zerogames_post_seconds",
    "Time to answer a POST (a move, a seat, a sign-in)",
    ["endpoint"],
    buckets=LATENCY,
    registry=None,
)


class QuickHistogram:
    """A histogram without labels, for what happens at every push: an observation is one append to a
    deque, which needs no lock (prometheus_client's Histogram takes two locks an observation, gevent's
    under the worker: a fortieth of a push's CPU). The observations are sorted into their buckets when
    the figures are scraped, or once many wait."""

    # Observations left waiting at most: a few thousand floats, sorted in a millisecond or two.
    WAITING = 4096

    def __init__(self, name: str, documentation: str, buckets: tuple[float, ...]) -> None:
        self.name, self.documentation = name, documentation
        self.bounds = (*buckets, math.inf)
        self.counts = [0] * len(self.bounds)
        self.sum = 0.0
        self.waiting: deque[float] = deque()
        self.sorting = threading.Lock()

    def observe(self, amount: float) -> None:
        self.waiting.append(amount)
        if len(self.waiting) > self.WAITING:
            self.sort()

    def sort(self) -> None:
        """Each waiting observation counted in the first bucket whose bound it does not pass."""
        with self.sorting:
            for _ in range(len(self.waiting)):
                amount = self.waiting.popleft()
                self.counts[bisect.bisect_left(self.bounds, amount)] += 1
                self.sum += amount

    def collect(self) -> Iterator[Metric]:
        self.sort()
        with self.sorting:
            running, buckets = 0, []
            for bound, count in zip(self.bounds, self.counts, strict=True):
                running += count
                buckets.append((floatToGoString(bound), running))
            total = self.sum
        yield HistogramMetricFamily(self.name, self.documentation, buckets=buckets, sum_value=total)


PUSH_SECONDS = QuickHistogram(
    "zerogames_push_seconds",
    "From a room's change (or the channel's opening, if later) to its push written to a live channel",
    LATENCY,
)
BOT_SECONDS = Histogram(
    "zerogames_bot_decision_seconds",
    "A bot's decision over one move, from asking it (its wait for the thinking thread included)",
    ["game", "level"],
    buckets=THINKING,
    registry=None,
)
HASHES_IN_LINE = Gauge(
    "zerogames_password_hashes_in_line",
    "Password hashes being computed or waiting their turn",
    registry=None,
)
HASHES_REFUSED = Counter(
    "zerogames_password_hashes_refused", "Sign-ins and sign-ups told the site is busy hashing", registry=None
)

AS_IT_HAPPENS = (
    ACTIONS,
    REFUSALS,
    FAILURES,
    DATABASE_ERRORS,
    REQUEST_ERRORS,
    POST_SECONDS,
    PUSH_SECONDS,
    BOT_SECONDS,
    HASHES_IN_LINE,
    HASHES_REFUSED,
)

T = TypeVar("T")


def counted(carry_out: Callable[..., T]) -> Callable[..., T]:
    """RoomRegistry.carry_out, counted: each command carried out, refused or failed, by its room's game."""

    @functools.wraps(carry_out)
    def counting(registry: RoomRegistry, room: Room, command: Any) -> T:
        game, name, version = room.facts.game_id, type(command).__name__, room.facts.version
        try:
            answer = carry_out(registry, room, command)
        except Exception as error:
            from zerogames.rooms.commands import Refused  # here: the rooms import this module

            if isinstance(error, Refused):
                REFUSALS.labels(game, name).inc()
            else:
                FAILURES.labels(game, name, type(error).__name__).inc()
            cause = database_cause(error)  # a refusal's: the database could not save it ("try again")
            if cause is not None:
                DATABASE_ERRORS.labels(type(cause).__name__).inc()
            raise
        if room.facts.version != version:
            ACTIONS.labels(game, name).inc()
        return answer

    return counting


def from_the_database(error: BaseException | None) -> bool:
    """Whether SQLite or PostgreSQL raised it (checked by module: psycopg is imported only when used)."""
    return type(error).__module__.split(".")[0] in ("sqlite3", "psycopg")


def database_cause(error: BaseException | None) -> BaseException | None:
    """The database's own error that `error` is, or came from (a refusal that the table cannot be saved
    comes from the store's Unavailable, which comes from SQLite's or psycopg's error)."""
    while error is not None and not from_the_database(error):
        error = error.__cause__ or error.__context__
    return error


def counted_by_a_command(error: BaseException) -> bool:
    """Whether the error came up through a command (and was counted there)."""
    return any(frame.f_code is counting_code for frame, _ in traceback.walk_tb(error.__traceback__))


# The code every counting wrapper runs (one code object, whatever it wraps): what a frame of it is.
counting_code = counted(lambda *_: None).__code__


def pushed(since: float) -> None:
    """A push written to a live channel, for a change made at `since` (the rooms' clock, time.time)."""
    PUSH_SECONDS.observe(max(0.0, time.time() - since))


class SiteFigures:
    """The figures read from the app when scraped: rooms and seats, live channels, whether the rooms
    are back after a start, and the store's waits for another process's writes."""

    def __init__(self, registry: RoomRegistry, channels: Channels) -> None:
        self.registry, self.channels = registry, channels

    def collect(self) -> Iterator[Metric]:
        with self.registry.lock:
            rooms = [room.facts for room in self.registry.rooms.values()]
        by_status, seats = Tally(), Tally()
        for facts in rooms:
            by_status[facts.game_id, facts.status] += 1
            for seat in facts.seats:
                seats[facts.game_id, "bot" if seat.bot else "player"] += 1
        yield family(
            GaugeMetricFamily, "zerogames_rooms", "Rooms in this process", ["game", "status"], by_status
        )
        yield family(
            GaugeMetricFamily, "zerogames_seats", "Seats taken in its rooms", ["game", "kind"], seats
        )
        channels = self.channels
        yield GaugeMetricFamily("zerogames_live_channels", "Open live channels", value=channels.open_now)
        caps = GaugeMetricFamily(
            "zerogames_live_channels_cap",
            "Live channels taken, for everyone and for watchers",
            labels=["who"],
        )
        caps.add_metric(["everyone"], channels.cap)
        caps.add_metric(["watchers"], channels.watchers_cap)
        yield caps
        yield CounterMetricFamily(
            "zerogames_live_channels_refused",
            "Live channels refused because the process held as many as it takes (503)",
            value=channels.refused_full,
        )
        yield GaugeMetricFamily(
            "zerogames_rooms_restored", "1 once the rooms unfinished at start are back", value=self.restored()
        )
        db = self.registry.store.db
        yield CounterMetricFamily(
            "zerogames_database_waits",
            "Statements that found the SQLite file locked by another process's write, and waited",
            value=db.waits,
        )
        yield CounterMetricFamily(
            "zerogames_database_wait_seconds", "Seconds those statements waited", value=db.waited
        )

    def restored(self) -> int:
        return int(self.registry.restored)


def family(kind: type, name: str, documentation: str, labels: list[str], values: Tally) -> Metric:
    figures = kind(name, documentation, labels=labels)
    for key, value in sorted(values.items()):
        figures.add_metric(list(key), value)
    return figures


def site_registry(registry: RoomRegistry, channels: Channels) -> CollectorRegistry:
    """Everything one process shows: its app's figures, those counted as they happen, and the
    process's own (open files and their limit, memory, CPU time)."""
    figures = CollectorRegistry(auto_describe=True)
    for metric in AS_IT_HAPPENS:
        figures.register(metric)
    figures.register(SiteFigures(registry, channels))
    ProcessCollector(registry=figures)
    return figures
