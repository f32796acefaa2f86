"""How soon an invitation reaches a friend's open page: the time from a player's invitation (its POST)
to the push that shows it on the friend's home page, over that page's live channel.

Starts the site as bench/live.py does (one process on SQLite, as `make run` serves it; with
BENCH_PROCESSES=n, n processes on a throwaway PostgreSQL, or with BENCH_STORE=sqlite on one SQLite
file, behind nginx). Signs up four pairs of players, each pair friends, the second of each with its
home page's live channel open. Then, one after another, a first player makes a room, invites their
friend to its lobby, and the friend's channel is timed until the invitation is on it; the friend
dismisses it and the next begins, at a random point of the site's round of looks for news. With
several processes every invitation crosses them: the inviter's requests go straight to one process,
the friend's channel to the next one, so that only the store carries the news between them.
BENCH_BUSY=n keeps n other processes spinning on the CPU meanwhile, as a whole test run keeps both
cores of the machine busy.

Usage: python bench/invites.py [invitations=60]
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import http.client  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
from http.cookies import SimpleCookie  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
import gevent.event  # noqa: E402
import websocket  # noqa: E402
from live import Site, percentile, stop_on_signals  # noqa: E402  (bench/live.py, beside this file)

from zerogames.web.presence import NEWS_EVERY  # noqa: E402

PASSWORD = "correct horse battery"
# Pairs of friends: their eight sign-ups stay within what a process takes from one address at once.
PAIRS = 4
ARRIVAL_WAIT = 10.0  # seconds after which an invitation not yet shown counts as lost, not timed


class Player:
    """A signed-up player's browser on one process of the site: its cookies, and its requests."""

    def __init__(self, port: int, username: str) -> None:
        self.port, self.username = port, username
        self.cookies: dict[str, str] = {}
        answer = self.post("/signup", username=username, password=PASSWORD, again=PASSWORD)
        if answer.status != 302:
            raise SystemExit(f"signing {username} up was answered {answer.status}: {answer.text[:300]}")

    def cookie(self) -> str:
        """The Cookie header this browser sends."""
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def post(self, path: str, **fields: str) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
        if self.cookies:
            headers["Cookie"] = self.cookie()
        connection.request("POST", path, urllib.parse.urlencode(fields), headers)
        answer = connection.getresponse()
        answer.text = answer.read().decode(errors="replace")
        connection.close()
        for header in answer.headers.get_all("Set-Cookie") or []:
            self.cookies.update({name: morsel.value for name, morsel in SimpleCookie(header).items()})
        return answer

    def make_room(self) -> str:
        made = self.post("/rooms", game="zero_game", name=self.username)
        if made.status != 302:
            raise SystemExit(f"{self.username}'s room was refused ({made.status}): {made.text[:300]}")
        return made.getheader("Location").rsplit("/", 1)[-1]


class HomePage:
    """A friend's open home page: its live channel, read as it comes, and when each table's invitation
    first showed on it."""

    def __init__(self, player: Player) -> None:
        self.ws = websocket.create_connection(
            f"ws://127.0.0.1:{player.port}/live", header=[f"Cookie: {player.cookie()}"], timeout=30
        )
        self.ws.send("{}")  # nothing shown yet
        self.shown: dict[str, float] = {}
        self.news = gevent.event.Event()
        self.failed = ""  # why the channel stopped, if it did: the run stops and says so
        self.reader = gevent.spawn(self.read)

    def read(self) -> None:
        """Every push, as it comes (websocket-client answers the server's pings as it reads)."""
        try:
            while True:
                message = self.ws.recv()
                now = time.perf_counter()
                for code in self.invited_to(message or ""):
                    self.shown.setdefault(code, now)
                self.news.set()
        except Exception as error:  # a close or a broken socket: its invitations could never show
            self.failed = repr(error)
            self.news.set()

    @staticmethod
    def invited_to(message: str) -> list[str]:
        """The rooms whose invitation the pushed notices show (each has a Join link to its table)."""
        return [part.split('"', 1)[0] for part in message.split('href="/r/')[1:]]

    def close(self) -> None:
        self.reader.kill()
        self.ws.close()


def invitation(inviter: Player, friend: Player, page: HomePage) -> float | None:
    """Seconds from the invitation's POST to its showing on the friend's open page; None if it never
    showed within ARRIVAL_WAIT."""
    code = inviter.make_room()
    # At a random point of the processes' looks for news, not in step with them.
    gevent.sleep(random.uniform(0, NEWS_EVERY * 2))
    sent = time.perf_counter()
    answer = inviter.post(f"/r/{code}/invite", username=friend.username)
    if f"Invited {friend.username}" not in answer.text:
        raise SystemExit(f"the invitation was refused ({answer.status}): {answer.text[:300]}")
    deadline = sent + ARRIVAL_WAIT
    while code not in page.shown and time.perf_counter() < deadline:
        if page.failed:
            raise SystemExit(f"{friend.username}'s channel stopped, no figures: {page.failed}")
        page.news.clear()
        page.news.wait(max(0.0, deadline - time.perf_counter()))
    friend.post(f"/invites/{code}/dismiss")
    return page.shown[code] - sent if code in page.shown else None


def busy(count: int) -> list[subprocess.Popen]:
    """`count` processes each keeping a core busy, as other test processes would."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def run(site: Site, invitations: int) -> None:
    ports = site.ports
    players = [
        (Player(ports[n % len(ports)], f"ann{n}"), Player(ports[(n + 1) % len(ports)], f"bob{n}"))
        for n in range(PAIRS)
    ]
    for ann, bob in players:
        ann.post("/friends/add", username=bob.username)
        if f"{ann.username} is your friend now" not in bob.post(f"/friends/{ann.username}/accept").text:
            raise SystemExit(f"{bob.username} could not accept {ann.username}'s request")
    pages = [HomePage(bob) for _, bob in players]
    spinning = busy(int(os.environ.get("BENCH_BUSY", "0")))
    try:
        took = [invitation(*players[n % PAIRS], pages[n % PAIRS]) for n in range(invitations)]
    finally:
        for process in spinning:
            process.kill()
        for page in pages:
            page.close()
    shown = [seconds * 1000 for seconds in took if seconds is not None]
    crossing = "each from one process to the next" if len(ports) > 1 else "on one process"
    spun = f", {len(spinning)} other processes spinning on the CPU" if spinning else ""
    print(f"{invitations} invitations, {crossing}{spun}")
    lost = len(took) - len(shown)
    print(f"shown on the friend's open page: {len(shown)}; not within {ARRIVAL_WAIT:g} s: {lost}")
    if shown:
        print(
            f"invitation to the friend's page, ms: p50 {percentile(shown, 0.5):.0f}  "
            f"p90 {percentile(shown, 0.9):.0f}  p99 {percentile(shown, 0.99):.0f}  max {max(shown):.0f}"
            f"  (the site looks for news every {NEWS_EVERY * 1000:.0f} ms)"
        )


def main() -> None:
    invitations = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    stop_on_signals()
    with tempfile.TemporaryDirectory() as folder:
        site = Site(Path(folder), int(os.environ.get("BENCH_PROCESSES", "1")))
        try:
            run(site, invitations)
        finally:
            site.stop()


if __name__ == "__main__":
    main()
