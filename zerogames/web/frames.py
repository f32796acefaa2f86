"""A live channel's frames, written and read here rather than through wsproto's general path.

wsproto handles any frame a peer may send: any opcode, fragments, extensions in a chain, data cut
anywhere. A live channel's traffic is nearly all of two kinds, each whole in one read: the server's
pushes (one unmasked text frame each, compressed when the page asked for it) and the page's own small
messages (its hello, its moves, the pongs to the server's pings). Those are framed and read here, in
the socket's own compression context; anything else (a close, a ping, a fragment, a frame cut between
two reads) goes through wsproto as before, and what is read here leaves wsproto as it would have.

This reaches past wsproto's public API (its connection's `_proto`, `_events`, its frame decoder's
state and the deflate extension's `_compressor`, `_decompressor`, `_compressible_opcode`) and
replaces the names that simple-websocket and flask-sock build their objects by: all three are pinned
in pyproject.toml.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

import flask_sock
import simple_websocket
import simple_websocket.ws
from wsproto.connection import ConnectionState
from wsproto.events import CloseConnection
from wsproto.extensions import PerMessageDeflate
from wsproto.frame_protocol import CloseReason, Opcode, RsvBits
from wsproto.utilities import LocalProtocolError

# A text message's first header byte, whole (FIN) and, when compressed, marked so (RSV1); the
# reserved bits as a frame starts with them, before an extension sets its own.
TEXT, COMPRESSED = 0x81, 0x40
UNSET = RsvBits(False, False, False)
# A pong's first header byte, whole; the mask bit of a frame's second byte, and its length bits.
PONG = 0x8A
MASKED, LENGTH = 0x80, 0x7F
# The longest payload a frame's second byte states by itself (longer ones take more bytes).
SHORT = 125
# A client's frame header with its mask: two bytes and the four of the mask.
HEADER = 6
# What a compressed message's end lacks as sent (RFC 7692 7.2.2): given back before inflating.
TAIL = b"\x00\x00\xff\xff"
# How hard a push is compressed, and the size of the compressor's hash table (LightDeflate).
LEVEL, MEMORY_LEVEL = 2, 2


class LightDeflate(PerMessageDeflate):
    """Browsers ask for compressed frames, and get them: a push compresses to about a tenth against the
    ones before it. With a thousand sockets open, though, zlib's default state (256 KB a socket, hash
    tables read at random) no longer fits any cache. Timed over a thousand seats' pushes compressed
    socket by socket in turn, each in its own context, as a busy server has them (40,000 pushes of
    bench/push_path.py's tables): zlib's default (level 6, memory level 8) 128 bytes a push and 59 us;
    level 2 with a small hash table (memory level 2) 187 bytes and 24 us; level 1 211 bytes and 22 us,
    an eighth more bytes for 2 us less."""

    def frame_outbound(self, proto: Any, opcode: Any, rsv: Any, data: bytes, fin: bool) -> Any:
        if self._compressor is None and self._compressible_opcode(opcode):
            bits = self.client_max_window_bits if proto.client else self.server_max_window_bits
            self._compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -int(bits), MEMORY_LEVEL)
        return super().frame_outbound(proto, opcode, rsv, data, fin)

    def inflate(self, payload: bytes) -> bytes:
        """A page's whole compressed message, sent as one frame, inflated in the socket's context, as
        wsproto's reading of it frame by frame would (frame_inbound_header, _payload_data, _complete);
        raises zlib.error on data that does not inflate."""
        if self._decompressor is None:
            self._decompressor = zlib.decompressobj(-int(self.client_max_window_bits))
        data = self._decompressor.decompress(payload + TAIL)
        if self.client_no_context_takeover:
            self._decompressor = None
        return data


def send(ws: Any, text: str) -> None:
    """`ws.send(text)`, the frame made here: wsproto builds a frame through a general path (any
    opcode, fragments, masking, a chain of extensions) that cost as much as the push's compression.
    A server's whole text message is one unmasked frame, compressed when the page asked for it."""
    connection = ws.ws.connection
    if not ws.connected or connection is None or connection.state is not ConnectionState.OPEN:
        ws.send(text)  # closed or closing: simple-websocket and wsproto say so
        return
    proto, payload, first = connection._proto, text.encode(), TEXT
    deflate = compression(proto)
    if deflate is not None:
        # The extension's own compression of a final frame, in the socket's own context.
        _, payload = deflate.frame_outbound(proto, Opcode.TEXT, UNSET, payload, True)
        first |= COMPRESSED
    length = len(payload)
    if length < 126:
        header = bytes((first, length))
    elif length < 1 << 16:
        header = struct.pack("!BBH", first, 126, length)
    else:
        header = struct.pack("!BBQ", first, 127, length)
    # One send, not gevent's sendall: a push's frame nearly always goes whole at once, and a 200-byte
    # frame's sendall took 2.3 us against send's 0.9 (a loop in Python around the same call).
    frame = header + payload
    sent = ws.sock.send(frame)
    if sent < len(frame):
        # The page reads slowly (a phone on a weak network): its socket took part of the frame. The
        # rest follows as room comes, for a frame is whole or nothing to the page, and meanwhile no
        # heartbeat is written inside it (`writing`).
        ws.writing = True
        try:
            ws.sock.sendall(memoryview(frame)[sent:])
        finally:
            ws.writing = False


def compression(proto: Any) -> LightDeflate | None:
    """The socket's deflate extension, when its page asked for one."""
    for extension in proto.extensions:
        if isinstance(extension, LightDeflate):
            return extension
    return None


class ChannelServer(simple_websocket.Server):
    """simple-websocket's server socket, whose reader takes the page's whole small frames itself.

    Read through wsproto, the pages' moves and pongs took 8% of a busy server's time besides their
    reads off the sockets (its frame parser, generators and events: a profile at 200 tables, 100 moves
    a second); read here, 4%. The reader's loop is simple-websocket's without its pinger: the
    channels' heartbeat pings them all (web/live.py)."""

    # Whether a push's frame is partly written, its rest waiting for room in the socket (`send`):
    # nothing else is written to the socket until it is whole.
    writing = False

    def _thread(self) -> None:
        while self.connected:
            try:
                data = self.sock.recv(self.receive_bytes)
                if not data:
                    raise OSError("closed by the page")
                rest = self.read_whole_frames(data)
                if rest:
                    self.ws.receive_data(rest)
                    self.connected = self._handle_events()
            except (OSError, LocalProtocolError):
                self.connected = False
                self.event.set()
                break
        self.sock.close()

    def read_whole_frames(self, data: bytes) -> bytes:
        """Take the whole text messages and pongs at the start of `data` (a read off the socket) while
        wsproto is between two messages: what is left, for wsproto to read."""
        connection = self.ws.connection
        if connection is None or connection.state is not ConnectionState.OPEN:
            return data
        proto = connection._proto
        deflate = compression(proto)
        if not between_messages(proto, deflate) or self.incoming_message is not None:
            return data
        at, end = 0, len(data)
        while self.connected and at + HEADER <= end:
            first, second = data[at], data[at + 1]
            length = second & LENGTH
            if not second & MASKED or length > SHORT or at + HEADER + length > end:
                break  # unmasked (wsproto refuses it), long or cut: wsproto's
            if first == PONG:
                self.pong_received = True
            elif first == TEXT or (first == TEXT | COMPRESSED and deflate is not None):
                payload = unmask(data[at + 2 : at + HEADER], data[at + HEADER : at + HEADER + length])
                self.message(payload, deflate if first & COMPRESSED else None)
            else:
                break
            at += HEADER + length
        return data[at:] if self.connected else b""

    def message(self, payload: bytes, deflate: LightDeflate | None) -> None:
        """A page's whole text message, given to the channel as simple-websocket's reader gives it
        (its input buffer, its event), or refused as it would refuse it."""
        try:
            text = (payload if deflate is None else deflate.inflate(payload)).decode()
        except (zlib.error, UnicodeDecodeError):
            self.refuse(CloseReason.INVALID_FRAME_PAYLOAD_DATA, "invalid message")
            return
        if self.max_message_size and len(text) > self.max_message_size:
            self.refuse(CloseReason.MESSAGE_TOO_BIG, "Message is too big")
            return
        self.input_buffer.append(text)
        self.event.set()

    def refuse(self, code: CloseReason, reason: str) -> None:
        """Close the channel as wsproto and simple-websocket do on a message they cannot take."""
        self.ws.connection._events.append(CloseConnection(code=code, reason=reason))
        self.connected = self._handle_events()  # answers the close, and wakes the channel to see it


def between_messages(proto: Any, deflate: LightDeflate | None) -> bool:
    """Whether wsproto holds nothing of a frame or a message read before."""
    decoder = proto._frame_decoder
    return (
        decoder.header is None
        and not len(decoder.buffer)
        and proto._message_decoder.opcode is None
        and (deflate is None or deflate._inbound_compressed is None)
    )


def unmask(mask: bytes, payload: bytes) -> bytes:
    """A client's payload unmasked (RFC 6455 5.3): each byte XORed with the mask's, in turn."""
    length = len(payload)
    key = (mask * (length // 4 + 1))[:length]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(key, "little")).to_bytes(length, "little")


# simple-websocket offers wsproto's extension by this module-level name when a socket opens, and
# flask-sock makes each route's socket by its module-level name of simple-websocket's server.
simple_websocket.ws.PerMessageDeflate = LightDeflate
flask_sock.Server = ChannelServer
