"""How much one client may ask of the site: live channels held, rooms created, codes looked up.

Each limit counts by client address (behind a proxy, the address the proxy vouches for: see guard.py)
and by guest identity, whichever runs out first; an IPv6 client counts by its /64, which is what one
household or phone is given. A refusal says what ran out and when to try again; nothing is half done.
The counts live in the process: each process of a proxied site (README) counts its own share.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, abort, current_app, g, make_response, render_template, request

from . import guard, identity

log = logging.getLogger(__name__)

# Open live channels (one per open table page) for one address, one identity, and watchers of one
# room without a seat there (its players' own channels count only against them).
LIVE_PER_ADDRESS = 64
LIVE_PER_IDENTITY = 12
SPECTATORS_PER_ROOM = 40
# Open live channels in one process, whoever holds them: well within what the process may open
# (zerogames/serving.py sets its connection and file limits above it), so that page requests and moves
# are always taken. Past the cap less the share kept for seated players, watchers are refused (503);
# past the cap itself, everyone. A thousand rooms of five players is 5,000 channels.
LIVE_CHANNELS = 8000
SEATED_SHARE = 0.25
# Seconds a channel refused for a full process is told to wait before it tries again.
FULL_RETRY = 10
# Rooms created: ten at once, then one a minute more.
ROOMS_AT_ONCE, ROOM_EVERY = 10, 60.0
# Codes looked up that name no room (what scanning for rooms mostly finds): twenty at once, then one
# every three seconds. A client out of them is refused every lookup, found or not, so the refusal
# tells a scanner nothing.
MISSES_AT_ONCE, MISS_EVERY = 20, 3.0
# Buckets that have filled up again are forgotten once there are this many.
FORGET_AFTER = 10_000


def client_key(address: str | None) -> str:
    """What one client's limits count by: its address, or an IPv6 address's /64."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return address or "?"
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


class Buckets:
    """A token bucket per key: `at_once` tokens, one more every `every` seconds."""

    def __init__(self, at_once: int, every: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.at_once, self.every, self.clock = at_once, every, clock
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, as of when)
        self.lock = threading.Lock()

    def tokens(self, key: str, now: float) -> float:
        tokens, when = self.buckets.get(key, (self.at_once, now))
        return min(self.at_once, tokens + (now - when) / self.every)

    def wait(self, *keys: str) -> float:
        """Seconds until every key has a token again (0: now)."""
        with self.lock:
            now = self.clock()
            return max((max(0.0, (1 - self.tokens(key, now)) * self.every) for key in keys), default=0.0)

    def take(self, *keys: str) -> float:
        """Take a token from every key, or from none: 0 when taken, else the seconds to wait."""
        with self.lock:
            now = self.clock()
            have = [self.tokens(key, now) for key in keys]
            short = max((max(0.0, (1 - tokens) * self.every) for tokens in have), default=0.0)
            if short > 0:
                return short
            if len(self.buckets) >= FORGET_AFTER:
                self.forget_full(now)
            for key, tokens in zip(keys, have, strict=True):
                self.buckets[key] = (tokens - 1, now)
            return 0.0

    def give_back(self, *keys: str) -> None:
        """A token taken from every key is returned (what it was taken for did not count)."""
        with self.lock:
            now = self.clock()
            for key in keys:
                self.buckets[key] = (min(self.at_once, self.tokens(key, now) + 1), now)

    def forget_full(self, now: float) -> None:
        full = self.at_once
        self.buckets = {key: kept for key, kept in self.buckets.items() if self.tokens(key, now) < full}


@dataclass(frozen=True)
class Lease:
    """One open live channel, as counted: given back when the channel closes."""

    address: str
    uid: str
    spectating: str | None  # the room's code, for a channel without a seat there


@dataclass(frozen=True)
class Full:
    """A channel refused because the process holds as many as it takes: 503, not the client's doing."""

    message: str


class Channels:
    """Open live channels, counted by address, identity, and spectators of each room, and in all."""

    def __init__(
        self, per_address: int, per_identity: int, spectators: int, cap: int = LIVE_CHANNELS
    ) -> None:
        self.per_address, self.per_identity, self.spectators = per_address, per_identity, spectators
        self.cap, self.watchers_cap = cap, cap - math.ceil(cap * SEATED_SHARE)
        self.open_now = 0
        self.refused_full = 0  # since the process started
        self.told_at = -math.inf  # when the operators were last told the process was full
        self.by_address: Counter[str] = Counter()
        self.by_uid: Counter[str] = Counter()
        self.watching: Counter[str] = Counter()
        self.lock = threading.Lock()

    def open(
        self, address: str, uid: str, spectating: str | None, counted: bool = True
    ) -> Lease | Full | str:
        """A lease on one more channel, or the reason there is none; a refusal for a full process is
        `counted` unless this only asked whether a channel would be let in."""
        with self.lock:
            if self.open_now >= (self.watchers_cap if spectating is not None else self.cap):
                if counted:
                    self.refused_full += 1
                return Full("This site has as many tables open live as it can take: try again shortly.")
            if self.by_address[address] >= self.per_address:
                return f"This address already has {self.per_address} tables open live: close some first."
            if self.by_uid[uid] >= self.per_identity:
                return f"This browser already has {self.per_identity} tables open live: close some first."
            if spectating is not None and self.watching[spectating] >= self.spectators:
                return f"This table already has {self.spectators} watchers: try again later."
            self.open_now += 1
            self.by_address[address] += 1
            self.by_uid[uid] += 1
            if spectating is not None:
                self.watching[spectating] += 1
            return Lease(address, uid, spectating)

    def close(self, lease: Lease) -> None:
        with self.lock:
            self.open_now -= 1
            for counter, key in (
                (self.by_address, lease.address),
                (self.by_uid, lease.uid),
                (self.watching, lease.spectating),
            ):
                if key is not None:
                    counter[key] -= 1
                    if counter[key] <= 0:
                        del counter[key]


class Limits:
    def __init__(self, config: dict) -> None:
        self.channels = Channels(
            config.get("LIVE_PER_ADDRESS", LIVE_PER_ADDRESS),
            config.get("LIVE_PER_IDENTITY", LIVE_PER_IDENTITY),
            config.get("SPECTATORS_PER_ROOM", SPECTATORS_PER_ROOM),
            config.get("LIVE_CHANNELS", LIVE_CHANNELS),
        )
        self.rooms = Buckets(config.get("ROOMS_AT_ONCE", ROOMS_AT_ONCE), config.get("ROOM_EVERY", ROOM_EVERY))
        self.misses = Buckets(
            config.get("MISSES_AT_ONCE", MISSES_AT_ONCE), config.get("MISS_EVERY", MISS_EVERY)
        )


def limits() -> Limits:
    return current_app.extensions["zerogames.limits"]


def client_keys() -> tuple[str, str]:
    return f"address {client_key(request.remote_addr)}", f"identity {identity.current_uid()}"


def too_many(message: str, wait: float, status: int = 429) -> None:
    """Refuse with 429 (or `status`), saying what ran out and (also in Retry-After) when to try again."""
    seconds = max(1, math.ceil(wait))
    said = f"{message} Try again in {seconds} s."
    # A refused live channel's handshake is read by no person (a browser shows no page for it), and
    # a flood of them should cost the server as little as can be: plain words.
    if guard.is_live_handshake():
        response = make_response(said, status, {"Content-Type": "text/plain; charset=utf-8"})
    else:
        page = render_template("refused.html", title="Slow down", message=said)
        response = make_response(page, status)
    response.headers["Retry-After"] = str(seconds)
    abort(response)


def room_created() -> None:
    """Count one room created by this client, or refuse it (429)."""
    wait = limits().rooms.take(*client_keys())
    if wait:
        too_many("You have created many tables in a short time.", wait)


def looking_up() -> None:
    """Before a code is looked up: a client that has run out of misses is refused, found or not."""
    wait = limits().misses.wait(*client_keys())
    if wait:
        too_many("Too many room codes were tried that name no table.", wait)


def missed() -> None:
    """A code looked up named no room: one miss counted."""
    limits().misses.take(*client_keys())


def open_channel(spectating: str | None) -> Lease:
    """A lease on one more live channel for this client, or a refusal before the handshake: 429 when
    this client holds its share, 503 when the process holds as many as it takes (watchers first)."""
    # A page asking over HTTP why its channel was refused (web/live.py, ask) is no second refusal.
    counted = guard.is_live_handshake()
    lease = limits().channels.open(
        client_key(request.remote_addr), identity.current_uid(), spectating, counted
    )
    if isinstance(lease, Full):
        tell_operators_full(limits().channels)
        too_many(lease.message, FULL_RETRY, 503)
    if isinstance(lease, str):
        too_many(lease, 30)
    return lease


def give_the_channel_back(error: BaseException | None) -> None:
    """The end of a live channel's request (a teardown): its lease given back, whatever ended it."""
    lease = g.pop("live_lease", None)
    if lease is not None:
        limits().channels.close(lease)


def tell_operators_full(channels: Channels) -> None:
    """Log the open channels, refusals and open files, at most every FULL_RETRY seconds: a flood
    refused by the thousand must not flood the log too."""
    now = time.monotonic()
    if now - channels.told_at < FULL_RETRY:
        return
    channels.told_at = now
    files = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else -1
    log.warning(
        "live channels full: %d open (cap %d, %d for watchers), %d refused so far, %d files open",
        channels.open_now,
        channels.cap,
        channels.watchers_cap,
        channels.refused_full,
        files,
    )


def init_app(app: Flask) -> None:
    app.extensions["zerogames.limits"] = Limits(app.config)
