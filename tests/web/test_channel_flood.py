"""A flood of live channels from many loopback addresses, up to and past a process's cap (a small one,
LIVE_CHANNELS): the home page and a table of three friends keep answering (in 200 ms typically, and
none held up for seconds, as when the flood once took every connection the process had),
the friends keep their channels, the watchers past the cap are refused (503, with a reason), the
operators' figures show it, and all is as before within seconds of the flood going. And a quiet channel
hears the server's heartbeat."""

from __future__ import annotations

import html
import re
import socket
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from itertools import pairwise

import pytest
import websocket
from prometheus_client.parser import text_string_to_metric_families

from e2e.conftest import Server
from tests.web.test_limits import channel, new_room
from zerogames.web.limits import SEATED_SHARE
from zerogames.web.live import HEARTBEAT_EVERY

CAP = 160
WATCHERS = CAP - int(CAP * SEATED_SHARE)  # watchers are let in up to here
FLOOD = CAP + 60  # channels asked for, from ADDRESSES loopback addresses (at most 5 each)
ADDRESSES = 50
WITHIN = 0.2  # seconds: what a page, a move or a push to the friends takes, typically (the median)
HELD_UP = 2  # seconds no answer may take: on a machine busy with other tests, a few may take a second
LATE = 0.4  # seconds a heartbeat may come late on a busy test machine: well within a page's 2.5 s


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    # Every watcher of the flood watches the friends' table: its pushes go to all of them. The flood's
    # sockets read nothing, so they answer no ping: the pings wait longer than the test takes.
    settings = f"{{'LIVE_CHANNELS': {CAP}, 'SPECTATORS_PER_ROOM': {FLOOD}, 'SOCKET_PING_EVERY': 60}}"
    live = Server(tmp_path / "zerogames.db", app=f"app:create_app({settings})")
    live.start()
    yield live
    live.stop()


def watcher(server: Server, code: str, address: int) -> websocket.WebSocket:
    """A watcher's channel from a loopback address of its own (127.0.0.`address`)."""
    sock = socket.create_connection(
        ("127.0.0.1", server.port), timeout=5, source_address=(f"127.0.0.{address}", 0)
    )
    return websocket.create_connection(f"ws://127.0.0.1:{server.port}/r/{code}/live", timeout=5, socket=sock)


def timed_get(server: Server, path: str, cookie: str = "") -> tuple[float, str]:
    began = time.monotonic()
    with urllib.request.urlopen(
        urllib.request.Request(server.url + path, headers={"Cookie": cookie}), timeout=5
    ) as answer:
        body = answer.read().decode()
    return time.monotonic() - began, body


def post(server: Server, path: str, cookie: str, **form: str) -> float:
    began = time.monotonic()
    request = urllib.request.Request(
        server.url + path,
        data=urllib.parse.urlencode(form).encode(),
        headers={"Cookie": cookie, "HX-Request": "true"},
        method="POST",
    )
    urllib.request.urlopen(request, timeout=5).close()
    return time.monotonic() - began


def a_guest(server: Server) -> str:
    with urllib.request.urlopen(server.url + "/", timeout=5) as answer:
        return answer.headers["Set-Cookie"].split(";", 1)[0]


class Friend:
    """A seated player with the table's live channel open, its pushes read as they come."""

    def __init__(self, server: Server, code: str, cookie: str) -> None:
        self.cookie = cookie
        self.ws = websocket.create_connection(
            f"ws://127.0.0.1:{server.port}/r/{code}/live", timeout=10, cookie=cookie
        )
        self.ws.send("{}")
        self.pushes: list[float] = []  # when each push came
        self.closed = False
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self) -> None:
        try:
            while True:
                opcode, data = self.ws.recv_data()
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    break
                if data:  # the server's heartbeats are empty frames, not pushes
                    self.pushes.append(time.monotonic())
        except (websocket.WebSocketException, OSError):
            pass
        self.closed = True

    def pushed_since(self, moment: float, seconds: float = 5) -> float:
        """Seconds from `moment` to the first push after it."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            later = [at for at in self.pushes if at >= moment]
            if later:
                return later[0] - moment
            time.sleep(0.002)
        return seconds


def the_move(server: Server, code: str, friends: list[Friend]) -> tuple[Friend, str, dict[str, str]]:
    """The friend to move and their move, as a path and form: the first move their table offers
    (not greyed out), or once the game is over, the host's Play again."""
    deadline = time.monotonic() + 5  # a finished trick stays on the table a moment: nobody moves
    while time.monotonic() < deadline:
        for friend in friends:
            _, page = timed_get(server, f"/r/{code}", friend.cookie)
            buttons = re.findall(r"<button[^>]*name=\"action\"[^>]*>", page)
            offered = [
                re.search(r"value='([^']+)'", button) for button in buttons if " disabled" not in button
            ]
            if offered:
                version = re.search(r'id="room-version" name="version" value="(\d+)"', page).group(1)
                return (
                    friend,
                    f"/r/{code}/act",
                    {"action": html.unescape(offered[0].group(1)), "version": version},
                )
            if f'action="/r/{code}/again"' in page:
                return friend, f"/r/{code}/again", {}
        time.sleep(0.05)
    raise AssertionError("nobody is to move")


def figures(server: Server) -> dict[str, float]:
    with urllib.request.urlopen(server.url + "/metrics", timeout=5) as answer:
        text = answer.read().decode()
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if not sample.labels
    }


def test_a_flood_of_channels_past_the_cap_leaves_the_site_and_its_players_unhurt(server):
    code, ann = new_room(server)
    bea, cal = a_guest(server), a_guest(server)
    for cookie, name in ((bea, "Bea"), (cal, "Cal")):
        post(server, f"/r/{code}/join", cookie, name=name)
    post(server, f"/r/{code}/start", ann)
    friends = [Friend(server, code, cookie) for cookie in (ann, bea, cal)]
    quiet = figures(server)

    flood: list[websocket.WebSocket] = []
    refusals: list[websocket.WebSocketBadStatusException] = []

    def flood_in() -> None:
        for n in range(FLOOD):
            try:
                ws = watcher(server, code, 10 + n % ADDRESSES)
                ws.send("{}")
                flood.append(ws)
            except websocket.WebSocketBadStatusException as refused:
                refusals.append(refused)

    flooding = threading.Thread(target=flood_in)
    waits: dict[str, list[float]] = {"home page": [], "table page": [], "move": [], "push": []}

    def look_and_move() -> None:
        waits["home page"].append(timed_get(server, "/")[0])
        waits["table page"].append(timed_get(server, f"/r/{code}", bea)[0])
        mover, path, form = the_move(server, code, friends)
        moment = time.monotonic()
        waits["move"].append(post(server, path, mover.cookie, **form))
        waits["push"] += [friend.pushed_since(moment) for friend in friends if friend is not mover]

    began = time.monotonic()
    flooding.start()
    while flooding.is_alive():
        look_and_move()
    flooded = time.monotonic() - began
    try:
        look_and_move()
        full = figures(server)
        # A seated player's new channel (a second tab) is still let in past the watchers' share.
        Friend(server, code, ann).ws.close()
    finally:
        for ws in flood:
            ws.close()
    ended = time.monotonic()
    # Once the flood has gone, watchers are let in again, and the channels it held are given back.
    while True:
        try:
            watcher(server, code, 200).close()
            break
        except websocket.WebSocketBadStatusException:
            assert time.monotonic() - ended < 5
            time.sleep(0.05)
    let_in_after = time.monotonic() - ended
    while figures(server)["zerogames_live_channels"] > len(friends):
        assert time.monotonic() - ended < 5
        time.sleep(0.05)
    back_after = time.monotonic() - ended
    after = figures(server)

    print(
        f"flood of {FLOOD} channels from {ADDRESSES} addresses in {flooded:.1f} s: {len(flood)} let in, "
        f"{len(refusals)} refused; {len(waits['move'])} moves meanwhile; slowest ms: "
        + ", ".join(
            f"{what} {max(seen) * 1000:.0f} (median {sorted(seen)[len(seen) // 2] * 1000:.0f})"
            for what, seen in waits.items()
        )
        + f"; figures at the full: {full['zerogames_live_channels']:.0f} channels open, "
        f"{full['zerogames_live_channels_refused_total']:.0f} refused, {full['process_open_fds']:.0f} files "
        f"of {full['process_max_fds']:.0f} "
        f"(quiet: {quiet['process_open_fds']:.0f}, after: {after['process_open_fds']:.0f}); "
        f"watchers let in again {let_in_after:.2f} s after the flood, all its channels given back in "
        f"{back_after:.2f} s"
    )
    # Players and pages were served throughout, and the friends kept their channels.
    for what, seen in waits.items():
        assert sorted(seen)[len(seen) // 2] < WITHIN and max(seen) < HELD_UP, (what, seen)
    assert not any(friend.closed for friend in friends)
    # The flood filled the watchers' share and no more; the rest were refused, saying why.
    assert len(flood) == WATCHERS - len(friends) and len(refusals) == FLOOD - len(flood)
    for refused in refusals:
        assert refused.status_code == 503 and int(refused.resp_headers["retry-after"]) > 0
        assert b"as many tables open live as it can take" in refused.resp_body
    # The operators saw it: the channels open, the refusals, the files the process held.
    assert full["zerogames_live_channels"] == WATCHERS
    assert full["zerogames_live_channels_refused_total"] - quiet[
        "zerogames_live_channels_refused_total"
    ] == len(refusals)
    assert full["process_open_fds"] >= quiet["process_open_fds"] + len(flood)
    assert after["process_open_fds"] < quiet["process_open_fds"] + 20
    # Every push was timed: the friends' (each one they saw) and the flood's own.
    pushes = full["zerogames_push_seconds_count"] - quiet["zerogames_push_seconds_count"]
    assert pushes >= len(waits["push"]) + len(flood) and full["zerogames_push_seconds_sum"] > 0
    for friend in friends:
        friend.ws.close()


def test_a_quiet_channel_hears_the_servers_heartbeat_every_second(server):
    """Else a page, hearing nothing for 2.5 s, calls its channel stalled and opens another (site.js).
    The beat just after a push is skipped (the push was news enough): the first beat may come two
    seconds after it, every other one a second after the last."""
    code, host = new_room(server)
    ws = channel(server, code, cookie=host)
    ws.send("{}")
    assert 'id="room-version"' in ws.recv()  # the table, whole
    heard = [time.monotonic()]
    for _ in range(3):
        assert ws.recv() == ""  # nothing changed: heartbeats, empty
        heard.append(time.monotonic())
    gaps = [later - earlier for earlier, later in pairwise(heard)]
    assert gaps[0] < 2 * HEARTBEAT_EVERY + LATE, gaps
    assert all(gap < HEARTBEAT_EVERY + LATE for gap in gaps[1:]), gaps
    ws.close()
