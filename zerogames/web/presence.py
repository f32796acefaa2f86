"""Presence and news on the live channel, for signed-up players, on every page of the site.

A table page's channel (zerogames.web.live) carries them beside the table; every other page of a
signed-up player opens the same kind of channel at `/live` (zerogames.web.site_channel; site.js opens
both alike), which carries only them. Each open channel is a `Listener` of the process's `Hub`.

Across processes, one loop a process (no query per socket):
- every PRESENCE_EVERY seconds it writes, in one transaction, a line for each player with a page open
  here (and which table's), and marks the ones who came, went or changed tables as news for their
  friends;
- every NEWS_EVERY seconds it asks the store who has news (a request, an invitation, a friend's
  presence) and wakes those players' channels here, which draw the player's notices again.
A change made here (an invitation sent) also wakes this process's channels at once.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import current_app

from zerogames.store import Store, Unavailable

from . import identity

log = logging.getLogger(__name__)

# Seconds between a process's presence writes, and after which a line not rewritten is a process gone.
PRESENCE_EVERY = 2.0
FRESH_FOR = 3 * PRESENCE_EVERY
# Seconds between a process's looks for news; and how far back each looks: for clocks a little apart,
# and for a page drawn a moment before its channel opened.
NEWS_EVERY = 0.25
NEWS_OVERLAP = 2.0


@dataclass(eq=False)
class Listener:
    """One open channel of a signed-up player: its page (a table's code, or a page's name), and the
    event its socket's handler waits on."""

    uid: str
    code: str | None
    page: str | None
    event: threading.Event
    due: bool = False
    lobby: tuple[Any, ...] | None = None  # the table's status and seats, as last drawn

    def follow(self, status: str, seats: tuple[Any, ...]) -> bool:
        """Whether there is news to draw, the table's lobby as it is now seen: its seats changed (a
        friend to invite sat down, a player to befriend came) or its game started."""
        lobby = (status, tuple(seat.uid for seat in seats))
        if self.lobby is not None and lobby != self.lobby:
            self.due = True
        self.lobby = lobby
        return self.due

    def wake(self) -> None:
        self.due = True
        self.event.set()

    def take(self) -> str:
        """The notices drawn again (zerogames.web.friends), if there is news since the last take."""
        if not self.due:
            return ""
        self.due = False
        return current_app.extensions["zerogames.presence"].draw(self.uid, self.code, self.page)


@dataclass
class Hub:
    """A process's open channels of signed-up players, and the loop that writes their presence and
    reads everyone's news."""

    store: Store
    draw: Callable[[str, str | None, str | None], str]  # a listener's notices, drawn again
    process: str = field(default_factory=lambda: secrets.token_hex(8))
    listeners: dict[str, set[Listener]] = field(default_factory=dict)
    written: dict[str, str | None] = field(default_factory=dict)  # each player's page, as last written
    woken: dict[str, float] = field(default_factory=dict)  # the news each player was woken for
    came: set[str] = field(default_factory=set)  # players who opened a channel since the last write
    lock: threading.Lock = field(default_factory=threading.Lock)
    running: bool = False

    def tune_in(self, uid: str, code: str | None, page: str | None, event: threading.Event) -> Listener:
        listener = Listener(uid, code, page, event)
        with self.lock:
            self.listeners.setdefault(uid, set()).add(listener)
            self.came.add(uid)
            # News of the moments before: the page may have been drawn before it, its channel opened after.
            self.woken.setdefault(uid, time.time() - NEWS_OVERLAP)
            if not self.running:
                self.running = True
                threading.Thread(target=self.run, name="presence", daemon=True).start()
        return listener

    def leave(self, listener: Listener) -> None:
        with self.lock:
            mine = self.listeners.get(listener.uid, set())
            mine.discard(listener)
            if not mine:
                self.listeners.pop(listener.uid, None)
                self.woken.pop(listener.uid, None)

    def wake(self, players: set[str] | list[str]) -> None:
        """This process's channels of `players`, at once (their news is in the store already)."""
        with self.lock:
            found = [listener for player in players for listener in self.listeners.get(player, ())]
        for listener in found:
            listener.wake()

    def pages(self) -> dict[str, str | None]:
        """Each player here and the table they have open (any one of them), else None."""
        with self.lock:
            listening = list(self.listeners.items())
        return {uid: next((one.code for one in mine if one.code), None) for uid, mine in listening}

    def run(self) -> None:
        written_at, heard_at = 0.0, time.time()
        while True:
            time.sleep(NEWS_EVERY)
            try:
                if time.monotonic() - written_at >= PRESENCE_EVERY:
                    written_at = time.monotonic()
                    if not self.write_presence():
                        with self.lock:
                            if not self.listeners:
                                self.running = False
                                return
                heard_at = self.hear_news(heard_at)
            except Unavailable:
                pass  # the store is away (and says so itself): the next turn tries again
            except Exception:
                log.exception("presence: this turn failed; the next tries again")

    def write_presence(self) -> bool:
        """Write who is here; tell the friends of whoever came, went or moved. Whether anyone was."""
        pages = self.pages()
        with self.lock:
            came, self.came = self.came, set()
        # Gone since: those written here before, and those who came and went between two writes.
        left = [player for player in sorted(set(self.written) | came) if player not in pages]
        changed = {p for p, code in pages.items() if self.written.get(p, "-") != code} | set(left)
        if pages or left:
            self.store.friends.seen_here(self.process, pages, left)
        if changed:
            self.store.friends.tell(self.store.friends.friends_of(changed))
        self.written = pages
        return bool(pages or left)

    def hear_news(self, heard_at: float) -> float:
        now = time.time()
        news = self.store.friends.news_since(heard_at - NEWS_OVERLAP)
        due = []
        with self.lock:
            for player, at in news.items():
                if player in self.listeners and at > self.woken.get(player, now):
                    self.woken[player] = at
                    due.append(player)
        self.wake(due)
        return now


def hub() -> Hub:
    return current_app.extensions["zerogames.presence"]


def tune_in(uid: str, code: str, event: threading.Event) -> Listener | None:
    """A listener for a table channel's player, if they have an account (a guest has no friends)."""
    account = identity.signed_in_account()
    if account is None or account.id != uid:
        return None
    return hub().tune_in(uid, code, None, event)
