"""The live channel: one WebSocket per open table, pushing that viewer's changed regions, and
bringing the page's moves (no HTTP request each).

The socket's own handler sends its pushes, so a slow client holds up nobody else. It sleeps until
the room changes; the first of the room's channels to wake draws every channel's push of the room's
latest publication, one after another, and each handler sends its own: several quick changes are
sent as one, and a table is never replaced by an older one. Between pushes, one heartbeat a second
(Heartbeat) tells the page its channel still flows. A move the page sends is made as a posted one is
(web/table.py), and answered with the page's notice in the message that pushes the table it made.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, current_app, g, request
from flask_sock import Sock
from gevent.lock import Semaphore

from zerogames import metrics, offload
from zerogames.rooms import Published, Room, Subscriber
from zerogames.rooms.lobby import SENT_AWAY

from . import identity, limits, presence, render, table, viewmodel
from .frames import send
from .registry import web_registry

log = logging.getLogger(__name__)
bp = Blueprint("live", __name__)
sock = Sock()


# Seconds a new socket waits for its page to say what it shows, and the longest such message read.
HELLO_WAIT = 2.0
HELLO_LENGTH = 64
# The longest move a table's page sends over its channel (its form's fields as JSON, a few dozen
# characters), and the longest message its socket takes at all (app.py's max_message_size).
MOVE_LENGTH = 256
# The close codes (RFC 6455) of a socket whose first message could not be read (inconsistent data),
# and of one whose page said something other than a move after it (a policy violation).
UNREADABLE = 1007
SPOKE_AGAIN = 1008
NOT_A_HELLO = 'The first message must be {"seq": N}, the change the page shows.'
ONLY_MOVES = 'After its hello, a table\'s page sends only its moves, {"move": {field: value}}.'
SIGNED_OUT = "You were signed out: open the page again to go on."
# The close code of a channel whose room moved to another process (rooms.owners): "service restart",
# on which the page opens its channel again (and the proxy sends it to the room's new owner).
MOVED = 1012


# Seconds between heartbeats: the page that hears nothing for a few of them knows its channel is stalled
# (a proxy that stopped forwarding without closing anything) and opens another (static/js/site.js).
HEARTBEAT_EVERY = 1.0
# An empty text message, whole, unmasked and uncompressed, as a server sends it (RFC 6455 5.2; with
# permessage-deflate an uncompressed message is allowed, and leaves the compression context as it was).
HEARTBEAT_FRAME = b"\x81\x00"
# A ping with no payload, likewise whole and unmasked (RFC 6455 5.5.2): the page's browser answers it.
PING_FRAME = b"\x89\x00"
# Milliseconds a socket's sent data may stay unacknowledged before the system closes it: a page whose
# network went without a word (a phone out of range, a laptop's lid closed) is gone within seconds, and
# its seat shows away. Through a proxy, which acknowledges for the page, the server's ping finds it.
UNANSWERED_MS = 10_000
# Sockets beaten between two turns given to the rest of the event loop: a beat is one system call of
# some 10 us, so a process's thousands of channels beaten in one go would hold every table up once a
# second (3,000 channels: a timer up to 80 ms late, against 20 ms beaten a hundred at a time).
BEATS_AT_ONCE = 100


class Heartbeat:
    """One beat a second on every open live channel, and a ping now and then, from one loop for the
    whole process: a prebuilt frame written straight to each socket, which costs next to nothing (a
    ping from the socket's own reader, as simple-websocket makes it, costs a frame built and a timer
    around every read of every socket; a heartbeat is one system call). A channel sent a push since
    the last beat has just heard from the server: its beat is skipped (at a busy table, most are),
    so it still hears something at least every two beats.

    In the gevent worker `threading` is patched, so the loop is a greenlet of the event loop, not a
    thread: its write never lands inside a push's frame. A frame goes in one send call (greenlets
    switch only between calls), or, to a page slow to read, in parts, and the heartbeat passes over
    the socket until its last part is written (`frames.send`). Served by threads (`flask run`, the
    live benchmark's gthread), it is a thread, writing unlocked beside the handler as
    simple-websocket's own reader does (its pongs)."""

    def __init__(self) -> None:
        # Each socket, with the beats left until its next ping, the beats between two pings, and
        # whether it was sent a push since the last beat.
        self.sockets: dict[Any, list[Any]] = {}
        self.lock = threading.Lock()
        self.beating = False

    def add(self, ws: Any, ping_every: float) -> None:
        """Beat on `ws`, and ping it every `ping_every` seconds (SOCKET_PING_EVERY)."""
        beats = max(1, round(ping_every / HEARTBEAT_EVERY))
        with self.lock:
            self.sockets[ws] = [beats, beats, False]
            if not self.beating:
                self.beating = True
                threading.Thread(target=self.beat, name="heartbeat", daemon=True).start()

    def discard(self, ws: Any) -> None:
        with self.lock:
            self.sockets.pop(ws, None)

    def pushed(self, ws: Any) -> None:
        """`ws` was sent a push: it needs no beat until the next one."""
        pinging = self.sockets.get(ws)
        if pinging is not None:
            pinging[2] = True

    def beat(self) -> None:
        while True:
            time.sleep(HEARTBEAT_EVERY)
            self.beat_once()

    def beat_once(self) -> None:
        with self.lock:
            sockets = list(self.sockets.items())
        for first in range(0, len(sockets), BEATS_AT_ONCE):
            for ws, pinging in sockets[first : first + BEATS_AT_ONCE]:
                pinging[0] -= 1
                if pinging[0] <= 0:
                    pinging[0] = pinging[1]
                    ping(ws)
                elif not pinging[2]:
                    beat(ws)
                pinging[2] = False
            # A turn of the loop, its sockets and timers (a move, a push) polled: sleep(0) would
            # hand over only to greenlets already woken.
            time.sleep(0.001)


def beat(ws: Any, frame: bytes = HEARTBEAT_FRAME) -> bool:
    """The heartbeat (or another prebuilt frame) on one socket, unless it is closing or in the middle
    of a push's frame; never waiting: a socket whose send buffer is full has data on its way, and
    needs no beat. Whether it was written."""
    if not ws.connected or ws.writing:
        return False
    try:
        raw = getattr(ws.sock, "_sock", ws.sock)  # under gevent, the system's socket itself
        raw.send(frame, socket.MSG_DONTWAIT)
    except OSError:
        return False  # full, or closed: its own thread notices
    return True


def ping(ws: Any) -> None:
    """A ping in place of the beat, once the pong to the last one came; else the page is gone (a
    proxy kept its connection open): the channel is closed, as simple-websocket's reader would."""
    if not ws.connected:
        return
    # Still taking a push's frame part by part, the page is slow to read, not gone (and a closing frame
    # would land inside the push's).
    if not ws.pong_received and not ws.writing:
        # Closing writes a frame and may wait: not on the heartbeat's loop.
        threading.Thread(target=give_up_silent, args=(ws,), daemon=True).start()
        return
    # Unless written (the buffer full, or a push's frame in the middle: the page is slow to read, not
    # gone), no pong is awaited.
    ws.pong_received = not beat(ws, PING_FRAME)


def give_up_silent(ws: Any) -> None:
    with contextlib.suppress(Exception):  # closed meanwhile
        ws.close(SPOKE_AGAIN, "Ping/Pong timeout")
    ws.event.set()


def give_up_unanswered(ws: Any) -> None:
    """Have the system close the socket once what it sent stays unacknowledged (Linux)."""
    if hasattr(socket, "TCP_USER_TIMEOUT"):
        with contextlib.suppress(OSError):  # not a TCP socket (a test's)
            ws.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, UNANSWERED_MS)


HEARTBEAT = Heartbeat()


class Pusher:
    """What one socket has been sent, so that each push carries only the regions that changed.

    A push may be drawn by another channel of the room (`draw_ahead`), and is then sent by the socket's
    own handler with whatever it draws next: each drawing of it holds its lock, for `flask run` serves
    every channel in a thread of its own."""

    def __init__(self, code: str, game_id: str, who: viewmodel.Viewer) -> None:
        self.code, self.game_id, self.who = code, game_id, who
        self.seq = -1
        self.layout: tuple[str, ...] = ()
        self.sent = render.Drawn({}, {})
        self.kept: render.Kept = {}  # this viewer's own regions, with what they were drawn from
        self.site = render.this_site()
        self.ahead = ""  # drawn by another channel of the room, not yet sent
        self.lock = drawing_lock()

    def seed(self, published: Published) -> None:
        """Start from what the page already shows (drawn from `published`): nothing to resend."""
        self.sent = render.render_regions(self.code, self.game_id, published, self.who, self.kept, self.site)
        self.seq, self.layout = published.seq, (published.status, *self.sent.regions)

    def message(self, published: Published) -> str:
        """What the socket is to be sent for `published`: what was drawn ahead of it, then the regions
        changed since (nothing when it has them all)."""
        with self.lock:
            message, self.ahead = self.ahead, ""
            if published.seq > self.seq:
                message += self.changes(published)
        return message

    def draw_ahead(self, published: Published) -> None:
        """Draw the push for `published` now, for the socket's own handler to send; not while it
        draws one itself, nor while one drawn ahead waits (its handler is busy, a slow client's
        socket full: what changed meanwhile it will draw as one push, as it sends)."""
        if not self.lock.acquire(blocking=False):
            return
        try:
            if published.seq > self.seq and not self.ahead:
                self.ahead = self.changes(published)
        finally:
            self.lock.release()

    def changes(self, published: Published) -> str:
        drawn = render.render_regions(self.code, self.game_id, published, self.who, self.kept, self.site)
        sent, self.sent, self.seq = self.sent, drawn, published.seq
        layout = (published.status, *drawn.regions)
        if layout != self.layout:
            # The table's layout changed (the game started, or this is the first push): send it whole.
            self.layout = layout
            return viewmodel.room_body(drawn.regions, published.status, self.game_id)
        changed = []
        for name, html in drawn.regions.items():
            if sent.regions.get(name) == html:
                continue
            lines, shown = drawn.lines.get(name), sent.lines.get(name)
            if lines is not None and shown is not None and lines.keys() == shown.keys():
                # A region drawn seat by seat only lays out its lines: send the lines that changed.
                changed += [line for key, line in lines.items() if shown[key] != line]
            else:
                changed.append(html)
        return "".join(changed)


def drawing_lock() -> Any:
    """A pusher's lock: under the event loop gevent's own semaphore, whose taking and letting go are
    compiled (the patched threading.Lock is a Python class over it, twice the calls); else a thread's."""
    return Semaphore() if offload.served_by_the_loop() else threading.Lock()


class Channel(Subscriber):
    """A room's subscriber that is a live channel of this process, and what its socket was pushed."""

    def __init__(self, uid: str, event: threading.Event, pusher: Pusher) -> None:
        super().__init__(uid, event)
        self.pusher = pusher


def draw_every_push(room: Room, published: Published, site: render.Site) -> None:
    """Every push of the room's channels for `published`, drawn one after another by the first of them
    to wake; each channel sends its own. Drawn straight after one another, the pushes find what they
    share (the templates' code, the change's memo, the rules, the room) still in the processor's
    caches. Drawn each in its channel's turn, between other sockets' reads and sends, they cost more:
    with 4 MB of other memory read before each channel's turn (`python bench/push_path.py 20 40 4`), a
    change's five pushes took 0.81-0.85 ms drawn here, against 1.00-1.03 ms each drawn in its own
    turn; and a thousand busy rooms' actions took 5-11% less CPU (bench/live.py)."""
    shared = site.drawings.shared(room.code, published)
    if DRAWN_AHEAD in shared:
        return
    shared[DRAWN_AHEAD] = ""
    for subscriber in tuple(room.subscribers):  # one copy, taken whole: others subscribe meanwhile
        if type(subscriber) is Channel:
            try:
                subscriber.pusher.draw_ahead(published)
            except Exception:
                # Another viewer's drawing that fails is theirs: their own handler draws it again
                # (and fails there, closing their channel alone), and this one goes on.
                log.exception("a push drawn ahead failed: its own channel draws it")


# The key in a change's shared memo (Drawings.shared) that marks its pushes drawn.
DRAWN_AHEAD = "pushes drawn"


class Unreadable(Exception):
    """A page's first message that is not `{"seq": N}`: the socket is closed, saying so."""


def shown_seq(message: str | bytes | None) -> int | None:
    """The change a page says its table was drawn from, `{"seq": N}` (N a whole number, or its digits);
    None when the page says nothing (silence, or `{}`)."""
    if not message:
        return None
    try:
        hello = json.loads(message) if len(message) <= HELLO_LENGTH else None
    except ValueError:
        hello = None
    if not isinstance(hello, dict) or set(hello) - {"seq"}:
        raise Unreadable
    seq = hello.get("seq")
    if seq is None:
        return None
    if isinstance(seq, str) and seq.isascii() and seq.isdigit():
        return int(seq)
    if type(seq) is not int:  # not True, not 1e400
        raise Unreadable
    return seq


def what_the_page_shows(ws, room) -> tuple[bool, Published | None]:
    """The page's first message names the change its table was drawn from: whether it came
    within the wait, and that change.

    A page that says nothing, or whose change the room no longer keeps, is sent its table whole.
    """
    message = ws.receive(timeout=HELLO_WAIT)
    seq = shown_seq(message)
    return message is not None, None if seq is None else room.recent.get(seq)


def heard_since(ws, heard: bool, move: Callable[[table.Fields], None] | None = None) -> bool | None:
    """What the page said since its hello's wait, read without a timer (ws.receive(timeout=0) makes
    one per waking): whether the page has spoken now, or None when that closed the channel.

    Its first message come after the wait (a slow network, a busy phone) is read and let be: the page
    was sent its whole table (or news) meanwhile, and what it says it showed before that is moot.
    After the hello, a table's page sends its moves, each handed to `move` (one a waking: the push it
    makes goes out before the next is read); any other message closes the channel."""
    if not ws.input_buffer:
        return heard
    message = ws.input_buffer.pop(0)
    if ws.input_buffer:
        ws.event.set()  # more to read: the channel's loop comes round again at once
    if not heard:
        try:
            shown_seq(message)
        except Unreadable:
            ws.close(UNREADABLE, NOT_A_HELLO)
            return None
        return True
    fields = move_fields(message) if move is not None else None
    if fields is None:
        ws.close(SPOKE_AGAIN, ONLY_MOVES)
        return None
    move(fields)
    return True


def move_fields(message: str | bytes) -> table.Fields | None:
    """A move's form fields, from `{"move": {field: value}}` (a value that is not text is left out, so
    the move is refused as unreadable); None for any other message."""
    try:
        said = json.loads(message) if len(message) <= MOVE_LENGTH else None
    except ValueError:
        said = None
    if not isinstance(said, dict) or set(said) != {"move"} or not isinstance(said["move"], dict):
        return None
    return {name: value for name, value in said["move"].items() if isinstance(value, str)}


@bp.before_request
def take_a_channel() -> None:
    """Before the handshake: the room must exist and this client have a live channel to spare, else a
    plain 404 or 429 answers it (no socket is opened only to be closed)."""
    limits.looking_up()
    room = web_registry().get((request.view_args or {}).get("code", ""))
    if room is None:
        limits.missed()
        abort(404, description="No table has that code.")
    if identity.current_uid() in room.published.kicked:
        abort(403, description=SENT_AWAY)
    seated = room.seat_of(identity.current_uid()) is not None
    g.live_lease = limits.open_channel(None if seated else room.code)


bp.teardown_request(limits.give_the_channel_back)


@bp.get("/r/<code>/live")
def ask(code: str) -> tuple[str, int]:
    """A page whose channel closed before it opened asks here, over plain HTTP, why: a browser gives
    a page nothing of a refused handshake, its status or its Retry-After. The same checks answer
    (take_a_channel): a channel would be let in now (204), or the refusal, with its Retry-After."""
    return "", 204


@sock.route("/r/<code>/live", bp=bp)
def live(ws, code: str) -> None:
    registry = web_registry()
    room = registry.get(code)
    who = viewmodel.viewer(room.code)
    pusher = Pusher(room.code, room.game_id, who)
    try:
        heard, shown = what_the_page_shows(ws, room)
    except Unreadable:
        ws.close(UNREADABLE, NOT_A_HELLO)
        return
    if shown is not None:
        pusher.seed(shown)
    # One event for both: the room's changes, and the socket's own news (a message, or its closing),
    # so that a closed channel goes at once and gives its place back.
    subscriber = Channel(who.uid, ws.event, pusher)
    registry.subscribe(room, subscriber)
    news = presence.tune_in(who.uid, room.code, ws.event)  # a signed-up player's notices ride along
    opened = time.time()
    give_up_unanswered(ws)
    HEARTBEAT.add(ws, current_app.config["SOCKET_PING_EVERY"])
    signed_in = identity.session_still_open()
    # The notice a move over the channel is answered with, sent with the push the move made.
    said = ""

    def move(fields: table.Fields) -> None:
        nonlocal said
        if not signed_in():
            ws.close(SPOKE_AGAIN, SIGNED_OUT)
            return
        said = table.moved_over_the_channel(room, who.uid, fields)

    try:
        while ws.connected:
            subscriber.event.clear()
            heard = heard_since(ws, heard, move)
            if heard is None or not ws.connected:
                return
            if room.gone:
                ws.close(MOVED, "The table is served elsewhere now: open the channel again.")
                return
            published = room.published
            if published.seq > pusher.seq:
                draw_every_push(room, published, pusher.site)
            pushed = pusher.message(published)
            if said or pushed:
                send(ws, said + pushed)
                HEARTBEAT.pushed(ws)
                said = ""
            if pushed:
                metrics.pushed(max(published.at, opened))
            if who.uid in published.kicked:
                ws.close(SPOKE_AGAIN, SENT_AWAY)  # told in words by the push: nothing more to see
                return
            if news is not None and news.follow(published.status, published.seats):
                send(ws, news.take())
            subscriber.event.wait()  # a change, the socket's news, or the registry's regular waking
    finally:
        HEARTBEAT.discard(ws)
        registry.unsubscribe(room, subscriber)
        if news is not None:
            presence.hub().leave(news)
