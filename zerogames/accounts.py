"""Accounts: usernames, passwords and their hashes, and the limits on guessing them.

A password hash takes a quarter to half a second of CPU (and some 16 MB) on purpose: it runs off the
event loop that serves the tables (zerogames.offload), and only HASHES_AT_ONCE at a time, so that a
burst of sign-ins neither starves the tables of CPU nor grows the process by a hash's memory each.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import TypeVar

from werkzeug.security import check_password_hash, generate_password_hash

from zerogames import metrics, talk
from zerogames.offload import off_the_loop

USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
PASSWORD_LENGTH = (8, 200)
# Seconds a wrong password waits for its answer: guessing costs the guesser time.
WRONG_ANSWER_DELAY = 1.0
# Guesses at one account from one address: five at once, then one a minute. Counted by the two
# together, an attacker's guesses never lock the account's owner out from an address of their own.
GUESSES_AT_ONCE, GUESS_EVERY = 5, 60.0
# Guesses from one address at any accounts (trying one password on many): twenty, then one every 30 s.
ADDRESS_GUESSES_AT_ONCE, ADDRESS_GUESS_EVERY = 20, 30.0
# Password hashes computed at once (one per core here), and how many more may wait their turn: the
# rest are told the site is busy.
HASHES_AT_ONCE, HASHES_WAITING = 2, 16
# Sign-ups per address (each costs a hash): ten at once, then one every six minutes.
SIGN_UPS_AT_ONCE, SIGN_UP_EVERY = 10, 360.0


class Refusal(Exception):
    """A sign-up or sign-in turned down; `reason` says why, in words for the person typing."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check_username(username: str) -> str:
    username = username.strip()
    if not USERNAME.fullmatch(username):
        raise Refusal("A username is 3 to 20 letters, digits, - or _ (no spaces).")
    if talk.unwanted(username):
        raise Refusal("That username has a word this site keeps out of names: choose another.")
    return username


def check_new_password(password: str, again: str) -> None:
    shortest, longest = PASSWORD_LENGTH
    if len(password) < shortest:
        raise Refusal(f"That password is too short: use at least {shortest} characters.")
    if len(password) > longest:
        raise Refusal(f"That password is too long: use at most {longest} characters.")
    if password != again:
        raise Refusal("The two passwords do not match: type the same one twice.")


class Busy(Refusal):
    """Too many passwords are being checked at once: nothing was checked, and the same try later will be."""

    def __init__(self) -> None:
        super().__init__("The site is busy checking passwords: try again in a few seconds.")


T = TypeVar("T")


class Hasher:
    """Password hashing (werkzeug's scrypt by default), always off the event loop, `at_once` at a time
    with `waiting` more in line (more are refused: Busy)."""

    def __init__(self, method: str = "scrypt", at_once: int = HASHES_AT_ONCE, waiting: int = HASHES_WAITING):
        self.method = method
        self.nobody: str | None = None
        self.running = threading.Semaphore(at_once)
        self.in_line = threading.Semaphore(at_once + waiting)

    def in_turn(self, work: Callable[..., T], *args: object) -> T:
        if not self.in_line.acquire(blocking=False):
            metrics.HASHES_REFUSED.inc()
            raise Busy()
        try:
            with metrics.HASHES_IN_LINE.track_inprogress(), self.running:
                return off_the_loop(work, *args)
        finally:
            self.in_line.release()

    def hash(self, password: str) -> str:
        return self.in_turn(generate_password_hash, password, self.method)

    def check(self, stored: str | None, password: str) -> bool:
        """Whether the password is the stored hash's. With no account (nothing stored), a hash no one
        can match, made the same way, is checked instead: an unknown name takes as long to refuse as a
        wrong password, and the time tells nothing of which names exist."""
        if stored is None:
            if self.nobody is None:
                self.nobody = self.hash("no account has this password")
            stored = self.nobody
        return self.in_turn(check_password_hash, stored, password)
