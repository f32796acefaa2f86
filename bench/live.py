"""Live fan-out under load: R rooms of 5 players on one server process, every seat a real WebSocket.

Starts the site as `make run` does (gunicorn, one gevent worker) on a free port with a fresh database,
fills R Zero Game rooms with 5 players each (development-mode tab identities), opens one WebSocket per
seat, then has each room make one action every INTERVAL seconds (the player whose turn it is clicks
their first legal control, as their page shows it). For every action it measures the time from sending
the POST to the last seat of that room receiving the push that carries the new version, and the bytes
each seat receives for it.

Usage: python bench/live.py [rooms=200] [seconds=60] [interval=2.0]   (BENCH_WORKER=gthread: threads)
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import html  # noqa: E402
import http.client  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
import websocket  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SEATS = 5
VERSION = re.compile(r'id="room-version" name="version" value="(\d+)"')
STATUS = re.compile(r'<section id="status".*?</section>', re.S)
HAND = re.compile(r'<section id="hand".*?</section>', re.S)
ACTION = re.compile(r"""<button [^>]*name="action" value='([^']+)'(?![^>]*disabled)""")
WAITING = re.compile(r"Waiting for P(\d)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Seat:
    """One player's socket: the latest version, status and hand it was sent, and when each version came."""

    def __init__(self, port: int, code: str, index: int) -> None:
        self.index = index
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}/r/{code}/live?seat={index}", timeout=30)
        self.ws.send("{}")  # shows nothing yet: the whole table, please
        self.version = -1
        self.status = ""
        self.hand = ""
        self.arrivals: dict[int, tuple[float, int]] = {}
        self.ready = gevent.event.Event()

    def listen(self) -> None:
        while True:
            try:
                message = self.ws.recv()
            except Exception:
                return
            now = time.perf_counter()
            version = VERSION.search(message)
            if version:
                self.version = int(version.group(1))
                self.arrivals[self.version] = (now, len(message.encode()))
            status, hand = STATUS.search(message), HAND.search(message)
            if status:
                self.status = status.group(0)
            if hand:
                self.hand = hand.group(0)
            self.ready.set()


class Room:
    def __init__(self, port: int, code: str) -> None:
        self.port, self.code = port, code
        self.seats = [Seat(port, code, index) for index in range(SEATS)]
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.samples: list[tuple[float, list[int]]] = []
        self.refused = 0

    def turn(self) -> int:
        waiting = WAITING.search(self.seats[0].status)
        return int(waiting.group(1)) if waiting else 0

    def act(self) -> None:
        seat = self.seats[self.turn()]
        choice = ACTION.search(seat.hand)
        if not choice:
            return
        version = seat.version
        body = urllib.parse.urlencode({"action": html.unescape(choice.group(1)), "version": version})
        sent = time.perf_counter()
        self.connection.request(
            "POST",
            f"/r/{self.code}/act?seat={seat.index}",
            body,
            # Its socket is open, as a live page says: the answer carries just the notice.
            {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true", "X-Live": "1"},
        )
        answer = self.connection.getresponse().read().decode()
        if "notice" in answer and '<p class="notice">' in answer:
            self.refused += 1
            return
        new = version + 1
        deadline = time.perf_counter() + 10
        while not all(new in s.arrivals for s in self.seats) and time.perf_counter() < deadline:
            gevent.sleep(0.001)
        if all(new in s.arrivals for s in self.seats):
            last = max(s.arrivals[new][0] for s in self.seats)
            self.samples.append((last - sent, [s.arrivals[new][1] for s in self.seats]))

    def drive(self, seconds: float, interval: float) -> None:
        gevent.sleep(random.uniform(0, interval))
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            started = time.perf_counter()
            self.act()
            gevent.sleep(max(0.0, interval - (time.perf_counter() - started)))


def post(port: int, path: str, fields: dict[str, str]) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(
        "POST", path, urllib.parse.urlencode(fields), {"Content-Type": "application/x-www-form-urlencoded"}
    )
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def make_room(port: int) -> str:
    created = post(port, "/rooms?seat=0", {"game": "zero_game", "name": "P0"})
    code = created.getheader("Location").split("/r/", 1)[1].split("?")[0]
    for index in range(1, SEATS):
        post(port, f"/r/{code}/join?seat={index}", {"name": f"P{index}"})
    post(port, f"/r/{code}/start?seat=0", {})
    return code


def start_server(port: int, database: Path) -> subprocess.Popen:
    env = {**os.environ, "ZEROGAMES_DB": str(database), "ZEROGAMES_DEV": "1", "ZEROGAMES_SECRET_KEY": "bench"}
    # gevent, as `make run` serves; BENCH_WORKER=gthread compares threads (one per open socket).
    if os.environ.get("BENCH_WORKER") == "gthread":
        worker = ["--worker-class", "gthread", "--threads", "1500"]
    else:
        worker = ["--worker-class", "gevent", "--worker-connections", "5000"]
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", *worker, "--workers", "1", "--no-control-socket",
         "--bind", f"127.0.0.1:{port}", "app:create_app()"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    rooms = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    interval = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    # Each socket is a file on both ends: more than the usual 1,024.
    _, most = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (most, most))
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(port, Path(folder) / "bench.db")
        try:
            codes = [make_room(port) for _ in range(rooms)]
            tables = [Room(port, code) for code in codes]
            listeners = [gevent.spawn(seat.listen) for table in tables for seat in table.seats]
            for table in tables:
                for seat in table.seats:
                    seat.ready.wait(30)
            print(f"{rooms} rooms, {rooms * SEATS} sockets open; one action per room every {interval:g} s "
                  f"for {seconds:g} s")
            gevent.joinall([gevent.spawn(table.drive, seconds, interval) for table in tables])
            latencies = [s[0] * 1000 for table in tables for s in table.samples]
            sizes = [size for table in tables for s in table.samples for size in s[1]]
            refused = sum(table.refused for table in tables)
            print(f"actions measured: {len(latencies)} (refused: {refused})")
            print(f"POST to last seat's push, ms: p50 {percentile(latencies, 0.5):.1f}  "
                  f"p90 {percentile(latencies, 0.9):.1f}  p99 {percentile(latencies, 0.99):.1f}  "
                  f"max {max(latencies):.1f}")
            print(f"bytes per seat per action: mean {statistics.mean(sizes):.0f}  "
                  f"p99 {percentile(sizes, 0.99):.0f}  max {max(sizes)}")
            gevent.killall(listeners)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()


if __name__ == "__main__":
    main()
