"""Moves over a table's live channel, as a page sends them while live: made as a posted move is, the
mover's page answered on its own socket (its notice, with the push of the table), a refusal said to it
alone and changing nothing, and a copy of a signed-out cookie moving no one."""

from __future__ import annotations

import html
import json
import re
import time
import urllib.parse
import urllib.request

import pytest
import websocket

from e2e.conftest import Server
from tests.web.conftest import headline
from tests.web.test_channel_flood import a_guest
from tests.web.test_limits import NoRedirect, channel, closing, new_room, signed_up
from tests.web.test_limits import server as server  # the site these tests play on, one per module
from tests.web.test_records import PASSWORD
from zerogames.web.live import SIGNED_OUT


def post(server: Server, path: str, cookie: str, **form: str) -> str:
    request = urllib.request.Request(
        server.url + path,
        data=urllib.parse.urlencode(form).encode(),
        headers={"Cookie": cookie, "HX-Request": "true"},
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return answer.read().decode()


def page(server: Server, code: str, cookie: str) -> str:
    request = urllib.request.Request(f"{server.url}/r/{code}", headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return answer.read().decode()


def version(html_text: str) -> str:
    return re.search(r'id="room-version" name="version" value="(\d+)"', html_text).group(1)


def my_turn(html_text: str) -> bool:
    return headline(html_text).startswith("Your turn")


def first_move(html_text: str) -> str:
    """The first move the page offers its player (a bid, at the start of a round)."""
    return html.unescape(re.search(r'name="action" value=\'([^\']+)\'', html_text).group(1))


def started_table(server: Server, host: tuple[str, str] | None = None, guests: list[str] | None = None):
    """A Zero Game of three players started through the site: its code, and the cookies of the
    players, the one whose turn it is first."""
    code, cookie = host or new_room(server)
    players = [cookie, *(guests or [a_guest(server), a_guest(server)])]
    for name, guest in zip(("Bob", "Cy"), players[1:], strict=True):
        post(server, f"/r/{code}/join", guest, name=name)
    post(server, f"/r/{code}/start", cookie)
    first = next(player for player in players if my_turn(page(server, code, player)))
    return code, [first] + [player for player in players if player != first]


def opened(server: Server, code: str, *cookies: str) -> list[websocket.WebSocket]:
    """Each player's page's channel, open, and everything it was pushed as the pages opened (each
    page's presence is news to the others) read: what comes next comes of what the test does."""
    sockets = []
    for cookie in cookies:
        ws = channel(server, code, cookie=cookie)
        ws.send(json.dumps({"seq": 0}))
        sockets.append(ws)
    for ws in sockets:
        quiet_for(ws, 0.5)
    return sockets


def push_with(ws: websocket.WebSocket, part: str, seconds: float = 5) -> str:
    """The first push that holds `part` (others, such as news of a page opened, may come first)."""
    deadline = time.monotonic() + seconds
    ws.settimeout(seconds)
    while part not in (data := ws.recv()):
        assert time.monotonic() < deadline, f"no push held {part!r} within {seconds} s"
    return data


def send_move(ws: websocket.WebSocket, **fields: str) -> None:
    ws.send(json.dumps({"move": fields}))


def quiet_for(ws: websocket.WebSocket, seconds: float) -> list[str]:
    """What the channel pushes in `seconds` (its heartbeats left out)."""
    ws.settimeout(seconds)
    pushed = []
    try:
        while True:
            if data := ws.recv():
                pushed.append(data)
    except websocket.WebSocketTimeoutException:
        return pushed


def test_a_move_over_the_channel_is_made_and_every_seat_is_pushed_the_new_table(server):
    code, (mover, other, _) = started_table(server)
    shown = page(server, code, mover)
    mine, theirs = opened(server, code, mover, other)
    send_move(mine, version=version(shown), action=first_move(shown))
    moved_on = f'name="version" value="{int(version(shown)) + 1}"'
    # The mover's notice (empty: nothing refused) comes with the table moved on, in one message.
    answer = push_with(mine, '<div id="notice"')
    assert 'class="notice"' not in answer and moved_on in answer
    push_with(theirs, moved_on)
    assert not my_turn(page(server, code, mover))


def test_a_refused_move_is_said_to_its_page_alone_and_changes_nothing(server):
    code, (mover, other, _) = started_table(server)
    shown = page(server, code, mover)
    mine, theirs = opened(server, code, other, mover)
    send_move(mine, version=version(shown), action=first_move(shown))  # not their turn
    assert "It is not your turn." in push_with(mine, '<div id="notice"')
    assert not any("notice" in pushed for pushed in quiet_for(theirs, 1.0))
    assert version(page(server, code, mover)) == version(shown)
    # The channel stays open: the player whose turn it is still moves over theirs.
    send_move(theirs, version=version(shown), action=first_move(shown))
    push_with(theirs, f'name="version" value="{int(version(shown)) + 1}"')


@pytest.mark.parametrize(
    "fields",
    [
        {"action": ["not", "text"]},
        {"action": "{not json"},
        {"action": '{"type": "bid", "bid": 99}'},
    ],
)
def test_an_unreadable_or_impossible_move_is_refused_with_a_reason(server, fields):
    code, (mover, *_) = started_table(server)
    shown = page(server, code, mover)
    (mine,) = opened(server, code, mover)
    mine.send(json.dumps({"move": {"version": version(shown), **fields}}))
    assert 'class="notice"' in push_with(mine, '<div id="notice"')
    assert version(page(server, code, mover)) == version(shown)


def test_a_signed_out_copy_of_a_cookie_moves_no_one_over_a_channel_it_opened_before(server):
    """A player signs out everywhere else: a channel opened by another copy of their cookie (a stolen
    one, say) is closed at its next move, which is not made."""
    names = ["chann", "chbob", "chcy"]
    cookies = [signed_up(server, name) for name in names]
    code, (mover, *_) = started_table(server, new_room_for(server, cookies[0]), cookies[1:])
    shown = page(server, code, mover)
    (copied,) = opened(server, code, mover)
    elsewhere = signed_in_again(server, names[cookies.index(mover)])
    post(server, "/signout/elsewhere", elsewhere)
    send_move(copied, version=version(shown), action=first_move(shown))
    assert closing(copied) == (1008, SIGNED_OUT.encode())
    assert version(page(server, code, elsewhere)) == version(shown)
    assert my_turn(page(server, code, elsewhere))


def new_room_for(server: Server, cookie: str) -> tuple[str, str]:
    request = urllib.request.Request(
        server.url + "/rooms", data=b"game=zero_game&name=Ann", headers={"Cookie": cookie}, method="POST"
    )
    try:
        urllib.request.build_opener(NoRedirect).open(request)
    except urllib.error.HTTPError as redirect:
        return redirect.headers["Location"].rsplit("/", 1)[-1], cookie
    raise AssertionError("no redirect")


def signed_in_again(server: Server, username: str) -> str:
    form = urllib.parse.urlencode({"username": username, "password": PASSWORD}).encode()
    request = urllib.request.Request(server.url + "/signin", data=form, method="POST")
    try:
        urllib.request.build_opener(NoRedirect).open(request)
    except urllib.error.HTTPError as redirect:
        return redirect.headers["Set-Cookie"].split(";", 1)[0]
    raise AssertionError("no redirect")
