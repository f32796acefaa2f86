"""How much one client may ask: rooms created and codes looked up (through the app), and live channels
held (against the site as `make run` serves it, since a WebSocket needs a real server)."""

from __future__ import annotations

import itertools
import json
import socket
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest
import websocket

from e2e.conftest import Server
from tests.web.conftest import create_room
from tests.web.test_records import PASSWORD
from zerogames.web import limits
from zerogames.web.live import HELLO_WAIT, ONLY_MOVES

HX = {"HX-Request": "true"}


def test_one_client_creates_ten_rooms_at_once_then_is_told_to_wait(player):
    ann = player("Ann")
    form = {"game": "zero_game", "name": "Ann"}
    answers = [ann.post("/rooms", data=form) for _ in range(limits.ROOMS_AT_ONCE)]
    assert {answer.status_code for answer in answers} == {302}
    refused = ann.post("/rooms", data={"game": "zero_game", "name": "Ann"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "created many tables" in refused.text
    # Another client is not held up by the first.
    create_room(player("Bea"))


def test_a_new_cookie_does_not_reset_the_count_of_an_address(player):
    ann = player("Ann")
    for _ in range(limits.ROOMS_AT_ONCE):
        create_room(ann)
        ann.delete_cookie("session")
    assert ann.post("/rooms", data={"game": "zero_game", "name": "Ann"}).status_code == 429


def test_scanning_for_codes_is_stopped_and_then_learns_nothing(player):
    ann, scanner = player("Ann"), player("Sid")
    code = create_room(ann)
    misses = [scanner.get(f"/join?code=ZZZ{letter}").status_code for letter in "ABCDEFGHJKMNPQRSTUVWXYZ"]
    assert misses[: limits.MISSES_AT_ONCE] == [302] * limits.MISSES_AT_ONCE
    assert set(misses[limits.MISSES_AT_ONCE :]) == {429}
    # Out of misses, a code that exists is refused just the same: the answer tells nothing.
    assert scanner.get(f"/join?code={code}").status_code == 429
    assert scanner.get(f"/r/{code}").status_code == 429
    # The players of the room are not held up.
    assert ann.get(f"/r/{code}").status_code == 200


# Against a real server


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    # Rooms are made as if through a proxy, each for a client of its own: this module counts channels.
    live = Server(tmp_path_factory.mktemp("limits") / "zerogames.db", {"ZEROGAMES_PROXIES": "127.0.0.1"})
    live.start()
    yield live
    live.stop()


def new_room(server: Server, name: str = "Ann") -> tuple[str, str]:
    """A room made through the site: its code, and its creator's cookie."""
    request = urllib.request.Request(
        server.url + "/rooms",
        data=f"game=zero_game&name={name}".encode(),
        headers={"X-Forwarded-For": f"192.0.2.{next(CLIENTS)}"},
        method="POST",
    )
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(request)
    except urllib.error.HTTPError as redirect:
        cookie = redirect.headers["Set-Cookie"].split(";", 1)[0]
        return redirect.headers["Location"].rsplit("/", 1)[-1], cookie
    raise AssertionError("no redirect")


CLIENTS = itertools.count(1)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def channel(server: Server, code: str, **options) -> websocket.WebSocket:
    return websocket.create_connection(f"ws://127.0.0.1:{server.port}/r/{code}/live", timeout=5, **options)


def refused_status(server: Server, code: str, **options) -> int:
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        channel(server, code, **options)
    return refused.value.status_code


def home_page_seconds(server: Server) -> float:
    began = time.monotonic()
    urllib.request.urlopen(server.url + "/", timeout=5).close()
    return time.monotonic() - began


def test_one_address_holds_a_bounded_number_of_live_channels(server):
    code, _ = new_room(server)
    held = [channel(server, code) for _ in range(limits.SPECTATORS_PER_ROOM)]
    other, _ = new_room(server, "Bea")
    held += [channel(server, other) for _ in range(limits.LIVE_PER_ADDRESS - len(held))]
    try:
        assert refused_status(server, other) == 429
        assert home_page_seconds(server) < 1
        held.pop().close()
        # A channel closed is a channel free again (once the server has seen it go).
        deadline = time.monotonic() + 5
        while True:
            try:
                held.append(channel(server, other))
                break
            except websocket.WebSocketBadStatusException:
                assert time.monotonic() < deadline
                time.sleep(0.05)
    finally:
        for ws in held:
            ws.close()


def test_a_room_takes_a_bounded_number_of_watchers_but_always_its_players(server):
    code, host = new_room(server)
    watchers = []
    try:
        for _ in range(limits.SPECTATORS_PER_ROOM):
            watchers.append(channel(server, code))
        assert refused_status(server, code) == 429
        seated = channel(server, code, cookie=host)
        seated.close()
    finally:
        for ws in watchers:
            ws.close()


def test_one_browser_holds_a_bounded_number_of_live_channels(server):
    code, host = new_room(server)
    held = [channel(server, code, cookie=host) for _ in range(limits.LIVE_PER_IDENTITY)]
    try:
        assert refused_status(server, code, cookie=host) == 429
    finally:
        for ws in held:
            ws.close()


def test_a_live_channel_opened_from_another_origin_is_refused(server):
    code, host = new_room(server)
    assert refused_status(server, code, cookie=host, origin="http://127.0.0.1:1") == 403
    assert refused_status(server, code, cookie=host, header=["Sec-Fetch-Site: same-site"]) == 403
    channel(server, code, cookie=host, origin=server.url).close()


def closing(ws: websocket.WebSocket, seconds: float = 5) -> tuple[int, bytes]:
    """The code and reason of the close frame the server sends next, within `seconds` (its heartbeats
    would keep a read without a deadline waiting for ever)."""
    deadline = time.monotonic() + seconds
    ws.settimeout(seconds)
    opcode, frame = ws.recv_data(control_frame=True)
    while opcode != websocket.ABNF.OPCODE_CLOSE:
        assert time.monotonic() < deadline, f"the channel stayed open for {seconds} s"
        opcode, frame = ws.recv_data(control_frame=True)
    return int.from_bytes(frame[:2], "big"), frame[2:]


def next_push(ws: websocket.WebSocket) -> str:
    """The next push the server sends, past its heartbeats (empty frames, one a second)."""
    ws.settimeout(5)
    while not (data := ws.recv()):
        pass
    return data


@pytest.mark.parametrize(
    "hello", ['{"seq":1e400}', "[" * 60 + "]" * 60, '{"seq": [1]}', "not json", '{"seq": "²"}']
)
def test_an_unreadable_first_message_closes_the_channel_with_a_reason(server, hello):
    code, _ = new_room(server)
    ws = channel(server, code)
    ws.send(hello)
    assert closing(ws) == (1007, b'The first message must be {"seq": N}, the change the page shows.')
    ws.close()
    assert home_page_seconds(server) < 1


def test_a_long_message_or_a_second_that_is_no_move_closes_the_channel_with_a_reason(server):
    code, _ = new_room(server)
    ws = channel(server, code)
    ws.send("[" * 3000)
    assert closing(ws) == (1009, b"Message is too big")
    ws = channel(server, code)
    ws.send("{}")
    ws.send("{}")
    assert closing(ws) == (1008, ONLY_MOVES.encode())


def test_a_readable_first_message_is_answered_with_the_table(server):
    code, _ = new_room(server)
    ws = channel(server, code)
    ws.send(json.dumps({"seq": "0"}))
    assert 'id="room-version"' in next_push(ws)
    ws.close()


Answer = tuple[tuple[str, int], float]


def huge_post(port: int, path: str, size: int, head: bytes, cookie: str = "") -> Answer:
    """POST `size` bytes (starting with `head`), sent as fast as the server takes them: the first line
    of its answer and the bytes it had taken when it answered, and the seconds it all took."""
    began = time.perf_counter()
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    connection.sendall(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {size}\r\nCookie: {cookie}\r\n\r\n".encode()
    )
    chunk, sent = b"x" * 65536, 0
    try:
        connection.sendall(head)
        sent = len(head)
        while sent < size:
            connection.sendall(chunk[: size - sent])
            sent += min(len(chunk), size - sent)
    except OSError:
        pass  # the server answered and closed before the whole body was sent
    try:
        answer = connection.recv(200).split(b"\r\n", 1)[0].decode()
    except ConnectionResetError:
        answer = "(the connection was reset before the answer was read)"
    connection.close()
    return (answer, sent), time.perf_counter() - began


def test_a_body_over_the_limit_is_answered_at_once_and_never_read(server):
    """Refused before it is read, and its connection closed: the worker never reads 50 MB to keep it."""
    (answer, taken), seconds = huge_post(server.port, "/rooms", 50 * 2**20, b"game=zero_game&name=Ann&pad=")
    assert answer.startswith("HTTP/1.1 413") and taken < 10 * 2**20 and seconds < 5
    assert home_page_seconds(server) < 1


def test_the_live_channel_of_a_missing_room_is_a_plain_404(server):
    assert refused_status(server, "ZZZZ") == 404


def test_a_first_message_that_comes_after_the_wait_keeps_the_channel(server):
    """A page on a slow network says what it shows after the server stopped waiting: it has been sent
    its table whole meanwhile, and its channel goes on pushing (closed, it would stay closed: pages open
    theirs again only after a lost connection or a restart)."""
    code, host = new_room(server)
    ws = channel(server, code, cookie=host)
    assert 'id="room-version"' in next_push(ws)  # after the wait, the table whole
    ws.send(json.dumps({"seq": 0}))
    urllib.request.urlopen(
        urllib.request.Request(
            f"{server.url}/r/{code}/bots", data=b"level=easy", headers={"Cookie": host, "HX-Request": "true"}
        )
    ).read()
    assert "Easy bot" in next_push(ws)
    ws.send("{}")
    assert closing(ws) == (1008, ONLY_MOVES.encode())


def signed_up(server: Server, username: str) -> str:
    """A player signed up through the site, from an address of their own: their cookie."""
    form = {"username": username, "password": PASSWORD, "again": PASSWORD}
    request = urllib.request.Request(
        server.url + "/signup",
        data=urllib.parse.urlencode(form).encode(),
        headers={"X-Forwarded-For": f"192.0.2.{next(CLIENTS)}"},
        method="POST",
    )
    try:
        urllib.request.build_opener(NoRedirect).open(request)
    except urllib.error.HTTPError as redirect:
        return redirect.headers["Set-Cookie"].split(";", 1)[0]
    raise AssertionError("no redirect")


def test_every_page_s_channel_keeps_a_first_message_that_comes_after_the_wait(server):
    """The channel of a signed-up player's other pages (their notices) treats a late hello as a table's
    does: it goes on carrying what they are told, and closes only on a second message."""
    ann, bob = signed_up(server, "lateann"), signed_up(server, "latebob")
    ws = websocket.create_connection(f"ws://127.0.0.1:{server.port}/live", timeout=5, cookie=ann)
    time.sleep(HELLO_WAIT + 0.5)
    ws.send(json.dumps({"seq": 0}))
    request = urllib.request.Request(
        server.url + "/friends/add", data=b"username=lateann", headers={"Cookie": bob, "HX-Request": "true"}
    )
    urllib.request.urlopen(request).read()
    assert "1 friend request waiting" in next_push(ws)
    ws.send("{}")
    assert closing(ws) == (1008, ONLY_MOVES.encode())
