"""Live fan-out under load: R rooms of 5 players on one server process, every seat a real WebSocket.

Starts the site as `make run` does (zerogames/serving.py: gunicorn, one gevent worker) on a free port
with a fresh database, fills R Zero Game rooms with 5 players each (development-mode tab identities),
opens one WebSocket per seat, asking for compressed frames as browsers do, then has each room make one
action every INTERVAL seconds (the player whose turn it is clicks their first legal control, as their
page shows it, and sends it over its socket as a live page does). For every action it measures the
time from sending the move to the last seat of that room receiving the push that carries the new
version, and the bytes each seat receives for it, both on the wire and as HTML. It also prints the
CPU the server and these clients used (and what the machine's host took of its cores meanwhile, its
steal time), the server's CPU per action and per push, and the longest a ping on a seat's socket
waited for its pong (the server's worst stall). Last, the machine's pace before and after the run
(the CPU a rules-engine action takes, bench/engine.py) and the server's CPU per action in those
units: this shared machine runs the same code a fifth slower or more at some hours, and every CPU
figure with it, so runs of two hours compare by that figure, not in ms. A pace
that moved between before and after says the hour changed during the run.
Each seat listens from the moment its socket opens; if one is closed or fails, the run stops and says
why. SIGTERM and SIGINT stop its servers too.

Usage: python bench/live.py [rooms=200] [seconds=60] [interval=2.0]
  BENCH_WORKER=gthread: serve with threads instead; BENCH_PLAIN=1: sockets that ask for no compression;
  BENCH_LOCKSTEP=1: every room starts measured at the start of its game, so all of them end their rounds
  within the same two seconds (by default each first plays a random part of its first round, unmeasured).
  BENCH_CLOCK=seconds: each room's turn clock (default 60, as at a table with a bot; 0 for off): every
  action winds it anew and every push carries the new deadline.
  BENCH_PROCESSES=n: n server processes on a throwaway PostgreSQL behind nginx, set up as the README
  says (the clients talk to nginx); the CPU line then shows the servers', nginx's and PostgreSQL's.
  With BENCH_STORE=sqlite, the n processes share one SQLite file instead, each owning its share of the
  room codes, as `make run PROCESSES=n` serves them (zerogames/front.py).
  BENCH_BOTS=level: each room is one player and four bots of that level (easy, normal or hard), moving
  after the site's own bot pause; the player moves whenever it is their turn, after a pause of up to
  INTERVAL seconds, and each of their moves is measured (the move to the push of the new table).
  BENCH_POST=1: moves are posted (POST /r/<code>/act), as a page does while its channel is down.
  BENCH_CLIENTS=n: the clients in n processes of their own, each driving a share of the rooms, so that
  the clients' own CPU does not hold the figures back (a thousand rooms need more than one core).
  BENCH_TALK=1: between two actions of a room (half an interval after each), one of its players sends
  a reaction; prints, besides the move figures, the time from a reaction's POST to the last seat's
  push of it (compare the move figures with a run without it, in the same session).
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import contextlib  # noqa: E402
import gc  # noqa: E402
import html  # noqa: E402
import http.client  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import struct  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
import zlib  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, ClassVar  # noqa: E402

import gevent  # noqa: E402
import gevent.pool  # noqa: E402
import gevent.socket  # noqa: E402
from wsproto import ConnectionType, WSConnection  # noqa: E402
from wsproto.events import AcceptConnection, Ping, Pong, Request, TextMessage  # noqa: E402
from wsproto.extensions import PerMessageDeflate  # noqa: E402

# This checkout's code, not whichever one an installed package points at: the server it starts serves
# from the checkout zerogames.launch is in.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import pace  # noqa: E402  (bench/engine.py, beside this file)

from zerogames.front import Nginx, OneMachine  # noqa: E402
from zerogames.launch import free_port, serve  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SEATS = 5
# Actions in the first round of a five-player game: five bids, then five tricks of five cards.
FIRST_ROUND = 30
VERSION = re.compile(r'id="room-version" name="version" value="(\d+)"')
STATUS = re.compile(r'<section id="status".*?</section>', re.S)
HAND = re.compile(r'<section id="hand".*?</section>', re.S)
ACTION = re.compile(r"""<button [^>]*name="action" value='([^']+)'(?![^>]*disabled)""")
WAITING = re.compile(r"Waiting for P(\d)")
CLOCK = os.environ.get("BENCH_CLOCK", "60")
# The bots' level when each room is one player among bots (BENCH_BOTS), else "" (five players).
BOTS = os.environ.get("BENCH_BOTS", "")
HUMANS = 1 if BOTS else SEATS
TALK = bool(os.environ.get("BENCH_TALK"))
REACTIONS = ("👍", "👏", "😂", "😮", "🎉")
SAID = re.compile(r'<li data-n="(\d+)"')  # the talk log's newest line comes first
WARMING_AT_ONCE = 50  # rooms playing their unmeasured first actions at once, per client process
LATE = 10  # seconds after which a push that has not reached every seat is counted late, not timed
# Moves go over the mover's socket, as a live page sends them; BENCH_POST=1 posts them instead, as a
# page without its channel does.
POSTED = bool(os.environ.get("BENCH_POST"))
# Several processes (BENCH_PROCESSES) share PostgreSQL, or with BENCH_STORE=sqlite the SQLite file.
STORE = os.environ.get("BENCH_STORE", "postgresql")
NOTICE = re.compile(r'<div id="notice".*?</div>', re.S)
ANSWER_WAIT = 30  # seconds a move's answer may take before it counts as unanswered (a POST's timeout)
# The client processes driving the rooms (BENCH_CLIENTS), and the seconds between two pings of the
# stall probe (worst_wait) in all of them together.
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "1"))
PROBE_EVERY = 0.1
CLIENT_EXIT = 30  # seconds a client process that has sent its results may take to close and end


# A frame's first byte: the message's last frame, compressed (on its first frame), its opcode.
FIN, RSV1, OPCODE = 0x80, 0x40, 0x0F
CONTINUATION, CLOSE, PING, PONG = 0x0, 0x8, 0x9, 0xA
# What permessage-deflate strips from the end of each compressed message (RFC 7692 7.2.2).
DEFLATE_TAIL = b"\x00\x00\xff\xff"


def whole_frame(unread: bytes) -> tuple[int, bytes, bytes] | None:
    """The first frame of `unread` once it is all there, a server's (unmasked): its first byte, its
    payload and what follows it; None while it is not."""
    if len(unread) < 2:
        return None
    length, start = unread[1] & 0x7F, 2
    if length == 126:
        if len(unread) < 4:
            return None
        length, start = struct.unpack_from("!H", unread, 2)[0], 4
    elif length == 127:
        if len(unread) < 10:
            return None
        length, start = struct.unpack_from("!Q", unread, 2)[0], 10
    end = start + length
    if len(unread) < end:
        return None
    return unread[0], unread[start:end], unread[end:]


class ListenerDied(Exception):
    """A seat's socket closed or broke mid-run: the figures would leave it out, so the run stops."""


class Run:
    """The greenlet running the benchmark, for a listener that dies to stop it with the reason, and
    every greenlet it started, to be stopped before the servers are (else each would fail noisily)."""

    greenlet: ClassVar[gevent.Greenlet | None] = None
    started: ClassVar[list[gevent.Greenlet]] = []
    clients: ClassVar[list[subprocess.Popen]] = []  # client processes (BENCH_CLIENTS)

    @classmethod
    def spawn(cls, work, *args) -> gevent.Greenlet:
        cls.started.append(gevent.spawn(work, *args))
        return cls.started[-1]

    @classmethod
    def fail(cls, reason: str) -> None:
        if cls.greenlet is not None and not cls.greenlet.dead:
            cls.greenlet.kill(ListenerDied(reason), block=False)

    @classmethod
    def stop(cls) -> None:
        run, cls.greenlet = cls.greenlet, None
        gevent.killall([run, *cls.started] if run else cls.started)
        for process in cls.clients:
            if process.poll() is None:
                process.terminate()
            process.wait()


class Seat:
    """One player's socket, offering compression as browsers do: the latest version, status and hand it
    was sent, and for each version when it came and its bytes on the wire and as HTML."""

    def __init__(self, port: int, code: str, index: int, arrived: gevent.event.Event) -> None:
        self.code, self.index = code, index
        self.arrived = arrived  # set whenever a push lands, for the room waiting on its seats
        self.wire = 0  # bytes read off the socket since the last whole message
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.send(
            Request(
                host=f"127.0.0.1:{port}",
                target=f"/r/{code}/live?seat={index}",
                extensions=[] if os.environ.get("BENCH_PLAIN") else [PerMessageDeflate()],
            )
        )
        while not any(isinstance(event, AcceptConnection) for event in self.events()):
            pass
        # The socket's compressed messages, inflated in one context from the first to the last, as the
        # server compresses them (permessage-deflate with context takeover, RFC 7692).
        self.inflate = zlib.decompressobj(-zlib.MAX_WBITS)
        self.sock.settimeout(None)
        self.version = -1
        self.status = ""
        self.hand = ""
        self.arrivals: dict[int, tuple[float, int, int]] = {}
        self.pushes = 0  # whole messages received
        self.heard: dict[int, float] = {}  # when each line of the table's talk (by number) came
        self.notices: list[str] = []  # the notices its moves over the socket were answered with
        self.ready = gevent.event.Event()
        self.ponged = gevent.event.Event()
        self.send(TextMessage("{}"))  # shows nothing yet: the whole table, please
        # Listening from the moment the socket opens: a socket left unread misses the server's pings
        # and is closed by it within seconds (a thousand rooms take longer than that to open).
        self.listener = Run.spawn(self.listen)

    def send(self, event) -> None:
        self.sock.sendall(self.ws.send(event))

    def events(self):
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed")
        self.wire += len(data)
        self.ws.receive_data(data)
        return list(self.ws.events())

    def listen(self) -> None:
        try:
            self.hear()
        except Exception as error:  # whatever broke it (a close, a protocol error), the run must say so
            Run.fail(f"room {self.code} seat {self.index}'s socket failed: {error!r}")

    def hear(self) -> None:
        """Read the server's frames straight off the socket, as a browser's network code does, rather than
        through wsproto's general parser, which cost these clients more than the server's sending did
        (a thousand rooms' clients took half a core): what they use of the machine's cores is taken from
        the server, whose figures are the point. Pings are answered, a close ends the run."""
        unread, parts, compressed = b"", [], False
        while True:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed")
            self.wire += len(data)
            unread += data
            while (frame := whole_frame(unread)) is not None:
                first, payload, unread = frame
                opcode = first & OPCODE
                if opcode == CLOSE:
                    code = struct.unpack_from("!H", payload)[0] if len(payload) >= 2 else None
                    raise ConnectionError(f"closed by the server: {code} {payload[2:].decode()}")
                if opcode == PING:
                    self.send(Pong(payload))
                    continue
                if opcode == PONG:
                    self.ponged.set()  # the stall probe's ping answered (worst_wait)
                    continue
                if opcode != CONTINUATION:
                    compressed = bool(first & RSV1)
                parts.append(payload)
                if first & FIN:
                    message, parts = b"".join(parts), []
                    if compressed:
                        message = self.inflate.decompress(message + DEFLATE_TAIL)
                    # A heartbeat (empty) is no push: its bytes count towards the next one's.
                    if message:
                        self.received(message.decode())

    def received(self, message: str) -> None:
        now = time.perf_counter()
        version = VERSION.search(message)
        if version:
            self.version = int(version.group(1))
            # The push that brought the version, not a later one on the same table (talk's).
            self.arrivals.setdefault(self.version, (now, self.wire, len(message.encode())))
        notice = NOTICE.search(message)
        if notice:
            self.notices.append(notice.group(0))
        said = SAID.search(message)
        if said:
            self.heard.setdefault(int(said.group(1)), now)
        self.wire = 0
        self.pushes += 1
        status, hand = STATUS.search(message), HAND.search(message)
        if status:
            self.status = status.group(0)
        if hand:
            self.hand = hand.group(0)
        self.ready.set()
        self.arrived.set()


class Room:
    def __init__(self, port: int, code: str) -> None:
        self.port, self.code = port, code
        self.arrived = gevent.event.Event()
        self.seats = [Seat(port, code, index, self.arrived) for index in range(HUMANS)]
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        # Per measured action: seconds from POST to the last seat's push; each seat's wire and HTML bytes.
        self.samples: list[tuple[float, list[int], list[int]]] = []
        self.refused = 0
        self.actions = 0  # moves the server took, measured or not
        # A saturated server's signs, counted rather than fatal: a POST unanswered within the client's
        # timeout, a move taken whose push missed a seat for longer than LATE seconds.
        self.timed_out = 0
        self.late = 0
        self.said = 0  # reactions the room took (each is its talk's next line)
        self.talk_samples: list[float] = []  # seconds from a reaction's POST to the last seat's push

    def turn(self) -> int:
        if BOTS:
            return 0  # the one player: they act when their hand offers a move
        waiting = WAITING.search(self.seats[0].status)
        return int(waiting.group(1)) if waiting else 0

    def act(self) -> None:
        seat = self.seats[self.turn()]
        choice = ACTION.search(seat.hand)
        if not choice:
            return
        version = seat.version
        fields = {"action": html.unescape(choice.group(1)), "version": str(version)}
        sent = time.perf_counter()
        if POSTED:
            answer = self.post(f"/r/{self.code}/act?seat={seat.index}", urllib.parse.urlencode(fields))
        else:
            answer = self.over_the_socket(seat, fields)
        if answer is None:
            self.timed_out += 1
            return
        if '<p class="notice">' in answer:
            self.refused += 1
            return
        self.actions += 1
        new = version + 1
        deadline = time.perf_counter() + LATE
        while not all(new in s.arrivals for s in self.seats):
            self.arrived.clear()
            if not self.arrived.wait(max(0.0, deadline - time.perf_counter())):
                self.late += 1
                return
        arrivals = [s.arrivals[new] for s in self.seats]
        self.samples.append(
            (max(a[0] for a in arrivals) - sent, [a[1] for a in arrivals], [a[2] for a in arrivals])
        )

    def react(self) -> None:
        """A player's reaction, timed from its POST to the last seat's push of it."""
        seat = random.choice(self.seats)
        body = urllib.parse.urlencode({"kind": "reaction", "text": random.choice(REACTIONS)})
        sent = time.perf_counter()
        answer = self.post(f"/r/{self.code}/say?seat={seat.index}", body)
        if answer is None:
            self.timed_out += 1
            return
        if '<p class="notice">' in answer:
            return
        self.said += 1
        deadline = time.perf_counter() + LATE
        while not all(self.said in s.heard for s in self.seats):
            self.arrived.clear()
            if not self.arrived.wait(max(0.0, deadline - time.perf_counter())):
                return
        self.talk_samples.append(max(s.heard[self.said] for s in self.seats) - sent)

    def warm_up(self, actions: int) -> None:
        """Play `actions` actions straight away, unmeasured."""
        for _ in range(actions):
            self.act()
        self.samples.clear()
        self.refused = self.actions = self.timed_out = self.late = 0

    def over_the_socket(self, seat: Seat, fields: dict[str, str]) -> str | None:
        """A move sent over the seat's socket, as a live page sends it: the notice it was answered with;
        None when none came within ANSWER_WAIT seconds (saturated)."""
        answered = len(seat.notices)
        seat.send(TextMessage(json.dumps({"move": fields})))
        deadline = time.perf_counter() + ANSWER_WAIT
        while len(seat.notices) == answered:
            self.arrived.clear()
            if not self.arrived.wait(max(0.0, deadline - time.perf_counter())):
                return None
        return seat.notices[answered]

    def post(self, path: str, body: str) -> str | None:
        """The answer's body; None when the server did not answer within the timeout (saturated)."""
        # Its socket is open, as a live page says: the answer carries just the notice.
        headers = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true", "X-Live": "1"}
        try:
            try:
                self.connection.request("POST", path, body, headers)
                return self.connection.getresponse().read().decode()
            except (ConnectionError, http.client.HTTPException):
                # The server closed the idle keep-alive connection as the request left: again on a new one.
                self.connection.close()
                self.connection.request("POST", path, body, headers)
                return self.connection.getresponse().read().decode()
        except TimeoutError:
            self.connection.close()  # its answer may still come: on a new connection, none is mixed up
            return None

    def drive_among_bots(self, seconds: float, interval: float) -> None:
        """The player among bots: whenever the table shows them a move, a pause of up to `interval`
        seconds (reading the table), then the move."""
        seat, end = self.seats[0], time.perf_counter() + seconds
        while time.perf_counter() < end:
            if ACTION.search(seat.hand):
                gevent.sleep(random.uniform(0, interval))
                self.act()
            else:
                self.arrived.clear()
                self.arrived.wait(max(0.0, end - time.perf_counter()))

    def drive(self, seconds: float, interval: float) -> None:
        """One action every `interval` seconds, each on its own room's timetable: a room set back by a
        slow action (or by these clients' own pauses) catches up and keeps its time, rather than
        falling in step with every room held up with it and acting together with them ever after."""
        first = time.perf_counter() + random.uniform(0, interval)
        for turn in itertools.count():
            due = first + turn * interval
            # On a server that cannot keep up, a room falls behind for good: the run still ends on time.
            if due >= first + seconds or time.perf_counter() >= first + seconds:
                return
            gevent.sleep(max(0.0, due - time.perf_counter()))
            self.act()
            if TALK:
                gevent.sleep(max(0.0, due + interval / 2 - time.perf_counter()))
                self.react()


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
    created = post(port, "/rooms?seat=0", {"game": "zero_game", "name": "P0", "clock": CLOCK})
    code = created.getheader("Location").split("/r/", 1)[1].split("?")[0]
    for index in range(1, SEATS):
        if BOTS:
            post(port, f"/r/{code}/bots?seat=0", {"level": BOTS})
        else:
            post(port, f"/r/{code}/join?seat={index}", {"name": f"P{index}"})
    post(port, f"/r/{code}/start?seat=0", {})
    return code


# Every room and socket here comes from one address, and each seat's tab identity sits in every room:
# the limits a site sets per client (README, What one client may ask) would refuse most of them.
UNLIMITED = {"ROOMS_AT_ONCE": 10**6, "LIVE_PER_ADDRESS": 10**6, "LIVE_PER_IDENTITY": 10**6}
APP = f"app:create_app({UNLIMITED!r})"
SERVER_ENV = {"ZEROGAMES_DEV": "1", "ZEROGAMES_SECRET_KEY": "bench"}


def start_server(port: int, database: Path, database_url: str = "") -> subprocess.Popen:
    env = {**os.environ, "ZEROGAMES_DB": str(database), **SERVER_ENV}
    if database_url:
        env.update(ZEROGAMES_DATABASE_URL=database_url, ZEROGAMES_PROXIES="127.0.0.1")
    # As `make run` serves; BENCH_WORKER=gthread compares threads (one per open socket).
    threads = os.environ.get("BENCH_WORKER") == "gthread"
    worker = ("--worker-class", "gthread", "--threads", "1500") if threads else ()
    return serve(port, env, APP, options=worker)


class Site:
    """One server process on SQLite, as `make run` serves; or n behind nginx: on PostgreSQL, or sharing
    the SQLite file as `make run PROCESSES=n` serves them (BENCH_STORE=sqlite). `port` is where the
    site answers (nginx's, when there is one), `ports` each process's own."""

    def __init__(self, folder: Path, processes: int) -> None:
        self.postgres = self.nginx = None
        if processes == 1:
            self.port = free_port()
            self.ports = [self.port]
            self.servers = [start_server(self.port, folder / "bench.db")]
            return
        if STORE == "sqlite":
            self.port = free_port()
            env = {"ZEROGAMES_DB": str(folder / "bench.db"), **SERVER_ENV}
            ports = self.ports = [free_port() for _ in range(processes)]
            machine = OneMachine(ports, self.port, folder, env, app=APP).start()
            self.servers, self.nginx = machine.servers, machine.nginx
            return
        sys.path.insert(0, str(ROOT))
        from tests.postgres import PostgresServer

        self.postgres = PostgresServer().start()
        url = self.postgres.new_database()
        ports = self.ports = [free_port() for _ in range(processes)]
        self.servers = [start_server(port, folder / "unused.db", url) for port in ports]
        self.port = free_port()
        self.nginx = Nginx(folder / "nginx", ports, self.port).start()

    def cpu(self) -> dict[str, float]:
        """CPU seconds used so far: by the servers, and by nginx and PostgreSQL when they are there."""
        name = "server" if len(self.servers) == 1 else "servers"
        used = {name: sum(cpu_seconds(server.pid) for server in self.servers)}
        if self.nginx is not None:
            used["nginx"] = cpu_seconds(self.nginx.process.pid)
        if self.postgres is not None:
            used["PostgreSQL"] = cpu_seconds(self.postgres.process.pid)
        return used

    def stop(self) -> None:
        for server in self.servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait()
        if self.nginx is not None:
            self.nginx.stop()
        if self.postgres is not None:
            self.postgres.stop()


def worst_wait(seats: list[Seat], every: float, waits: list[float]) -> None:
    """Ping the server on one seat's socket after another, one every `every` seconds, keeping each
    wait for its pong in ms: the longest is the longest the server's event loop left a socket
    unanswered (with these clients' own delay). The socket's reader answers on the event loop, as it
    reads a page's move, for the cost of a read and a write; a small file's request instead cost the
    server an HTTP request's parsing and the file's headers, 0.05-0.15 ms of each action's figure at
    200 rooms: the probe's cost, no action's."""
    for seat in itertools.cycle(seats):
        seat.ponged.clear()
        sent = time.perf_counter()
        seat.send(Ping())
        if not seat.ponged.wait(ANSWER_WAIT):
            Run.fail(f"room {seat.code} seat {seat.index}'s ping went unanswered")
            return
        waits.append((time.perf_counter() - sent) * 1000)
        gevent.sleep(every)


def stop_on_signals() -> None:
    """SIGTERM (as `timeout` sends) and SIGINT end the run as an error would, so that its servers are
    stopped too: they run in process groups of their own, which neither signal reaches."""

    def stop(number: int, _frame: object) -> None:
        raise SystemExit(f"stopped by {signal.Signals(number).name}")

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def cpu_seconds(group: int) -> float:
    """CPU time (user and system) used so far by the server's processes: its process group's, and its
    leader's children that made groups of their own (PostgreSQL's backends each do)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if group in (int(fields[1]), int(fields[2])):  # the parent and the process group, fields 4 and 5
            total += int(fields[11]) + int(fields[12])  # utime and stime, fields 14 and 15
    return total / os.sysconf("SC_CLK_TCK")


def stolen_seconds() -> float:
    """CPU seconds this machine's cores have waited so far while its host ran others (a virtual
    machine's steal time: /proc/stat's first line, its eighth figure; 0 where there is none). A run
    whose moves waited on the cores may have lost them to the host, not to the site."""
    try:
        figures = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return 0.0
    return int(figures[8]) / os.sysconf("SC_CLK_TCK") if len(figures) > 8 else 0.0


def spread(values: list[float]) -> str:
    return (
        f"mean {statistics.mean(values):.0f}  p50 {percentile(values, 0.5):.0f}  "
        f"p99 {percentile(values, 0.99):.0f}  max {max(values):.0f}"
    )


def main() -> None:
    rooms = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    interval = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    # Each socket is a file on both ends: more than the usual 1,024.
    _, most = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (most, most))
    stop_on_signals()
    if os.environ.get("BENCH_PORT"):  # one of several client processes (BENCH_CLIENTS)
        supervise(lambda: client(int(os.environ["BENCH_PORT"]), rooms, seconds, interval))
        return
    processes = int(os.environ.get("BENCH_PROCESSES", "1"))
    before = pace()
    with tempfile.TemporaryDirectory() as folder:
        site = Site(Path(folder), processes)
        try:
            per_action = supervise(lambda: run(site, rooms, seconds, interval))
        finally:
            site.stop()
    after = pace()
    print(
        f"this machine's pace, CPU µs per action of the rules engine (bench/engine.py's Zero Game): "
        f"{before:.2f} before the run, {after:.2f} after; the server's CPU per action is "
        f"{per_action * 2e6 / (before + after):.0f} of those"
    )


def supervise(work: Callable[[], Any]) -> Any:
    """Run `work` in a greenlet a dying listener can stop, and end with the reason if one does; what
    `work` returned."""
    try:
        Run.greenlet = gevent.spawn(work)
        return Run.greenlet.get()
    except ListenerDied as died:
        sys.exit(f"a listener died, no figures: {died}")
    finally:
        Run.stop()


def prepare(port: int, rooms: int) -> list[Room]:
    """`rooms` rooms made, their seats' sockets open and sent their tables, each room at its own
    point of its first round (or at the start, with BENCH_LOCKSTEP)."""
    tables = [Room(port, make_room(port)) for _ in range(rooms)]
    for table in tables:
        for seat in table.seats:
            if not seat.ready.wait(30):
                raise ListenerDied(f"room {table.code} seat {seat.index} was never sent its table")
    # Rooms on a site are each at their own point of their game: each room first plays a random
    # part of the first round, unmeasured, so that rounds end (the biggest changes) now in one
    # room, now in another, as they would, and not in every room within the same two seconds.
    if not os.environ.get("BENCH_LOCKSTEP") and not BOTS:  # bots play on from the start
        # A few rooms at a time: a thousand warming up at once would wait on the server past any timeout.
        warming = gevent.pool.Pool(WARMING_AT_ONCE)
        for table in tables:
            Run.started.append(warming.spawn(table.warm_up, random.randrange(FIRST_ROUND)))
        warming.join(raise_error=True)
    # The clients' own garbage collections would show as the server's delays: as the server does
    # (zerogames/serving.py), leave what is set up out of them, and run them seldom.
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    return tables


def measure(tables: list[Room], seconds: float, interval: float) -> dict[str, Any]:
    """Drive the rooms for `seconds`: what came of it, and these clients' own CPU seconds."""
    for table in tables:
        table.actions = 0
    pushes = sum(seat.pushes for table in tables for seat in table.seats)
    own_cpu = time.process_time()
    waits: list[float] = []
    # Ten pings a second in all, however many client processes share them.
    probe = Run.spawn(worst_wait, [table.seats[0] for table in tables], PROBE_EVERY * CLIENTS, waits)
    driving = [table.drive_among_bots if BOTS else table.drive for table in tables]
    gevent.joinall([Run.spawn(drive, seconds, interval) for drive in driving], raise_error=True)
    probe.kill()
    return {
        "waits": waits,
        "latencies": [s[0] * 1000 for table in tables for s in table.samples],
        "talk": [s * 1000 for table in tables for s in table.talk_samples],
        "wire": [size for table in tables for s in table.samples for size in s[1]],
        "markup": [size for table in tables for s in table.samples for size in s[2]],
        "refused": sum(table.refused for table in tables),
        "timed_out": sum(table.timed_out for table in tables),
        "late": sum(table.late for table in tables),
        "actions": sum(table.actions for table in tables),
        "pushes": sum(seat.pushes for table in tables for seat in table.seats) - pushes,
        "cpu": time.process_time() - own_cpu,
    }


def client(port: int, rooms: int, seconds: float, interval: float) -> None:
    """One of several client processes: its rooms made and warmed up, it says so, waits for the word
    to go, so that all of them are measured over the same seconds, and prints what came of it."""
    tables = prepare(port, rooms)
    print("ready", flush=True)
    gevent.socket.wait_read(sys.stdin.fileno())
    sys.stdin.readline()
    print(json.dumps(measure(tables, seconds, interval)), flush=True)


def start_clients(port: int, rooms: int, seconds: float, interval: float, count: int) -> list:
    """`count` client processes sharing the rooms, once each has its rooms made and warmed up."""
    env = {**os.environ, "BENCH_PORT": str(port)}
    shares = [rooms // count + (index < rooms % count) for index in range(count)]
    pipes = {"env": env, "stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "text": True}
    clients = [
        subprocess.Popen([sys.executable, __file__, str(share), str(seconds), str(interval)], **pipes)
        for share in shares
    ]
    Run.clients = clients
    for process in clients:
        if process.stdout.readline().strip() != "ready":
            raise ListenerDied("a client process failed while its rooms were made (its error is above)")
    return clients


def go(clients: list) -> list[dict[str, Any]]:
    """Each client process's results, all of them told to start at once."""
    for process in clients:
        process.stdin.write("go\n")
        process.stdin.flush()
    results = [process.stdout.readline() for process in clients]
    if not all(results):
        raise ListenerDied("a client process failed during the run (its error is above)")
    return [json.loads(line) for line in results]


def merged(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Several client processes' results as one: lists joined, counts and seconds added up."""
    return {key: sum((result[key] for result in results), type(results[0][key])()) for key in results[0]}


def run(site: Site, rooms: int, seconds: float, interval: float) -> float:
    """Open the rooms' sockets, play, print the figures; the servers' CPU seconds per action."""
    if CLIENTS > 1:
        clients = start_clients(site.port, rooms, seconds, interval, CLIENTS)
    else:
        tables = prepare(site.port, rooms)
    lockstep = bool(os.environ.get("BENCH_LOCKSTEP"))
    where = "all at the start of their game" if lockstep else "each at its own point of round 1"
    clock = f"a {CLOCK} s turn clock" if int(CLOCK) else "no turn clock"
    pace = f"one action per room every {interval:g} s"
    if BOTS:
        where = f"each one player and {SEATS - 1} {BOTS} bots"
        pace = f"the player moves on their turn after up to {interval:g} s"
    driven = f"; clients in {CLIENTS} processes" if CLIENTS > 1 else ""
    pace += ", and a reaction between two" if TALK else ""
    print(f"{rooms} rooms, {rooms * HUMANS} sockets open, {where}, {clock}; {pace} for {seconds:g} s{driven}")
    server_cpu, stolen, started = site.cpu(), stolen_seconds(), time.perf_counter()
    results = go(clients) if CLIENTS > 1 else [measure(tables, seconds, interval)]
    elapsed = time.perf_counter() - started
    server_cpu = {name: cpu - server_cpu[name] for name, cpu in site.cpu().items()}
    stolen = stolen_seconds() - stolen
    # Among bots a player moves only on their turn: no rate is asked of the server.
    asked = 0.0 if BOTS else rooms / interval
    per_action = report(merged(results), server_cpu, stolen, elapsed, asked)
    for process in Run.clients:
        # Done, each closes its sockets and ends: stopped meanwhile (Run.stop), it would say so. Waited
        # for only now, so that its sockets' closing counts in neither the server's CPU nor the rate.
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(CLIENT_EXIT)
    return per_action


def report(
    results: dict[str, Any], server_cpu: dict[str, float], stolen: float, elapsed: float, asked: float
) -> float:
    latencies, wire, markup = results["latencies"], results["wire"], results["markup"]
    waits = results["waits"]
    actions, pushes = results["actions"], results["pushes"]
    rate = len(latencies) / elapsed
    of_asked = f" of {asked:.0f}/s asked" if asked else ""
    print(
        f"actions measured: {len(latencies)} ({rate:.0f}/s{of_asked}; refused: {results['refused']}, "
        f"unanswered within 30 s: {results['timed_out']}, "
        f"pushed to every seat only after {LATE} s or never: {results['late']})"
    )
    if results["timed_out"] or results["late"] or rate < 0.9 * asked or not latencies:
        print("the server could not keep up: the figures below are a saturated server's")
    print(
        f"{'POST' if POSTED else 'move'} to last seat's push, ms: p50 {percentile(latencies, 0.5):.1f}  "
        f"p90 {percentile(latencies, 0.9):.1f}  p99 {percentile(latencies, 0.99):.1f}  "
        f"max {max(latencies):.1f}"
    )
    if results["talk"]:
        talk = results["talk"]
        print(
            f"reactions: {len(talk)}; POST to last seat's push, ms: p50 {percentile(talk, 0.5):.1f}  "
            f"p90 {percentile(talk, 0.9):.1f}  p99 {percentile(talk, 0.99):.1f}  max {max(talk):.1f}"
        )
    print(f"bytes per seat per action on the wire (compressed, as browsers ask): {spread(wire)}")
    print(f"bytes per seat per action of HTML: {spread(markup)}")
    shares = ", ".join(f"{name} {cpu / elapsed:.0%}" for name, cpu in server_cpu.items())
    print(
        f"CPU, share of one core: {shares}, these clients {results['cpu'] / elapsed:.0%}; "
        f"taken from this machine's cores by its host meanwhile (steal) {stolen / elapsed:.0%}"
    )
    serving = sum(cpu for name, cpu in server_cpu.items() if name.startswith("server"))
    # Among bots only the player's moves count as actions: the bots' own moves' cost is part of each.
    action, included = ("player action", "pings and bots") if BOTS else ("action", "pings")
    print(
        f"server CPU, ms: {serving / max(actions, 1) * 1000:.2f} per {action} ({actions} taken, "
        f"{included} included), {serving / max(pushes, 1) * 1000:.2f} per push ({pushes} pushed)"
    )
    print(
        f"a ping's wait for its pong (the event loop's stalls, with these clients' own), ms: "
        f"p99 {percentile(waits, 0.99):.1f}  max {max(waits):.1f} over {len(waits)} pings"
    )
    return serving / max(actions, 1)


if __name__ == "__main__":
    main()
