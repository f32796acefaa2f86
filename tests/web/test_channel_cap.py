"""The cap on a process's live channels: a flood of watchers from many addresses is refused (503,
with a reason) past the cap less the share kept for seated players, while pages still answer and
players keep and get their channels; once the flood goes, watchers are let in again."""

from __future__ import annotations

import socket
import time
import urllib.request
from collections.abc import Iterator

import pytest
import websocket

from e2e.conftest import Server
from tests.web.test_limits import channel, home_page_seconds, new_room

CAP = 8  # of which a quarter kept for seated players: 6 channels in all for watchers


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    live = Server(tmp_path / "zerogames.db", app=f"app:create_app({{'LIVE_CHANNELS': {CAP}}})")
    live.start()
    yield live
    live.stop()


def watcher(server: Server, code: str, address: int) -> websocket.WebSocket:
    """A watcher's channel from a loopback address of its own (127.0.0.`address`)."""
    sock = socket.create_connection(
        ("127.0.0.1", server.port), timeout=5, source_address=(f"127.0.0.{address}", 0)
    )
    return websocket.create_connection(f"ws://127.0.0.1:{server.port}/r/{code}/live", timeout=5, socket=sock)


def page_seconds(server: Server, path: str, cookie: str) -> float:
    began = time.monotonic()
    request = urllib.request.Request(server.url + path, headers={"Cookie": cookie})
    urllib.request.urlopen(request, timeout=5).close()
    return time.monotonic() - began


def test_a_flood_of_watchers_is_refused_past_the_cap_and_players_keep_theirs(server):
    code, host = new_room(server)
    seated = channel(server, code, cookie=host)
    flood: list[websocket.WebSocket] = []
    waits: list[float] = []
    try:
        for address in range(2, 2 + CAP - 3):
            flood.append(watcher(server, code, address))
            waits += [home_page_seconds(server), page_seconds(server, f"/r/{code}", host)]
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            watcher(server, code, 100)
        assert refused.value.status_code == 503
        assert int(refused.value.resp_headers["retry-after"]) > 0
        assert b"as many tables open live as it can take" in refused.value.resp_body
        # Pages still answer, and a seated player still gets a channel past the watchers' share.
        waits += [home_page_seconds(server), page_seconds(server, f"/r/{code}", host)]
        channel(server, code, cookie=host).close()
        seated.send("{}")
        assert seated.recv()  # the player's channel held through the flood
        print(f"page answers during the flood, ms: max {max(waits) * 1000:.0f} over {len(waits)}")
        assert max(waits) < 1  # generous: on a quiet machine each takes a few ms
    finally:
        for ws in flood:
            ws.close()
    # A channel closed is a channel free again, once the server has seen it go.
    deadline = time.monotonic() + 5
    while True:
        try:
            watcher(server, code, 101).close()
            break
        except websocket.WebSocketBadStatusException:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    seated.close()
