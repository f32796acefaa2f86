"""Accounts: usernames, passwords and their hashes, and the limits on guessing them.

A password hash takes a quarter to half a second of CPU on purpose: it runs off the event loop that
serves the tables (zerogames.offload).
"""

from __future__ import annotations

import re

from werkzeug.security import check_password_hash, generate_password_hash

from zerogames.offload import off_the_loop

USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
PASSWORD_LENGTH = (8, 200)
# Seconds a wrong password waits for its answer: guessing costs the guesser time.
WRONG_ANSWER_DELAY = 1.0
# Wrong passwords per account and per address: five at once, then one a minute.
WRONG_AT_ONCE, WRONG_EVERY = 5, 60.0
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
