"""Accounts: usernames, passwords and their hashes, and the limits on guessing them.

A password hash takes a quarter to half a second of CPU on purpose: it runs off the event loop that
serves the tables (zerogames.offload).
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from collections.abc import Callable

from werkzeug.security import check_password_hash, generate_password_hash

from zerogames.offload import off_the_loop

USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
PASSWORD_LENGTH = (8, 200)
# Wrong passwords: each answer waits this long, and after this many in the window, no more tries.
WRONG_ANSWER_DELAY = 1.0
TRIES = 5
TRIES_WINDOW = 300.0
# Past this many keys with failures, those whose failures are all old are dropped.
KEYS_KEPT = 10_000


class Refusal(Exception):
    """A sign-up or sign-in turned down; `reason` says why, in words for the person typing."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check_username(username: str) -> str:
    username = username.strip()
    if not USERNAME.fullmatch(username):
        raise Refusal("A username is 3 to 20 letters, digits, - or _ (no spaces).")
    return username


def check_new_password(password: str, again: str) -> None:
    shortest, longest = PASSWORD_LENGTH
    if len(password) < shortest:
        raise Refusal(f"That password is too short: use at least {shortest} characters.")
    if len(password) > longest:
        raise Refusal(f"That password is too long: use at most {longest} characters.")
    if password != again:
        raise Refusal("The two passwords do not match: type the same one twice.")


class Hasher:
    """Password hashing (werkzeug's scrypt by default), always off the event loop."""

    def __init__(self, method: str = "scrypt") -> None:
        self.method = method
        self.nobody: str | None = None

    def hash(self, password: str) -> str:
        return off_the_loop(generate_password_hash, password, self.method)

    def check(self, stored: str | None, password: str) -> bool:
        """Whether the password is the stored hash's. With no account (nothing stored), a hash no one
        can match, made the same way, is checked instead: an unknown name takes as long to refuse as a
        wrong password, and the time tells nothing of which names exist."""
        if stored is None:
            if self.nobody is None:
                self.nobody = self.hash("no account has this password")
            stored = self.nobody
        return off_the_loop(check_password_hash, stored, password)


class Limiter:
    """Failed tries per key (an account, an address) in a sliding window, in this process's memory."""

    def __init__(
        self, tries: int = TRIES, window: float = TRIES_WINDOW, clock: Callable[[], float] = time.time
    ) -> None:
        self.tries, self.window, self.clock = tries, window, clock
        self.failures: dict[str, deque[float]] = {}
        self.lock = threading.Lock()

    def recent(self, key: str) -> deque[float]:
        """The key's failures within the window (a key with none is forgotten: the memory holds only
        the keys tried lately)."""
        failures = self.failures.get(key, deque())
        while failures and failures[0] <= self.clock() - self.window:
            failures.popleft()
        if not failures:
            self.failures.pop(key, None)
        return failures

    def blocked(self, *keys: str) -> float:
        """Seconds until every key may try again (0: they may now)."""
        with self.lock:
            waits = [
                failures[0] + self.window - self.clock()
                for failures in map(self.recent, keys)
                if len(failures) >= self.tries
            ]
        return max(waits, default=0.0)

    def failed(self, *keys: str) -> None:
        with self.lock:
            if len(self.failures) > KEYS_KEPT:
                for key in list(self.failures):
                    self.recent(key)
            for key in keys:
                self.failures[key] = self.recent(key)
                self.failures[key].append(self.clock())

    def forget(self, *keys: str) -> None:
        with self.lock:
            for key in keys:
                self.failures.pop(key, None)
