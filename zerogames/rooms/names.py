"""Names at a table: players' names as the table shows them, and the bots'."""

from __future__ import annotations

import unicodedata

from zerogames import talk

from .commands import Refused

NAME_LENGTH = 20
# What every bot's name ends with, and no player's may.
BOT_MARK = "(bot)"
UNWANTED_NAME = "That name has a word this site keeps out of names: choose another."
BOT_NAMES = [f"{name} {BOT_MARK}" for name in ("Ada", "Bix", "Cog", "Dot", "Eve", "Fizz", "Gus")]


def bot_name(taken: list[str]) -> str:
    """The first bot's name free at a table whose seats have the names `taken`: no bot's there, nor
    one that reads as a player's there (no "Ada (bot)" beside a player named Ada: "Ada won the trick"
    would name either), compared as the word filter reads them (talk.folded: case, accents and
    look-alikes folded). Seven names for at most six other seats, each ruling out one: one is free."""
    ruled_out = {talk.folded(name) for name in taken} | {talk.folded(f"{name} {BOT_MARK}") for name in taken}
    return next(name for name in BOT_NAMES if talk.folded(name) not in ruled_out)


def clean_name(name: str | None) -> str:
    """A player's name as the table shows it: white space folded, and no control or format characters
    (a right-to-left override would turn the words around it; zero-width ones hide one name in
    another). A name that reads as a bot's is kept for the bots."""
    text = name or ""
    shown = "".join(ch for at, ch in enumerate(text) if unicodedata.category(ch)[0] != "C" or joins(text, at))
    name = " ".join(shown.split())
    if len(name) > NAME_LENGTH:
        raise Refused(f"A name is at most {NAME_LENGTH} characters: choose a shorter one.")
    if not name:
        raise Refused("Choose a name first: it is how the table will know you.")
    if talk.folded(name).replace(" ", "").endswith(BOT_MARK):
        raise Refused(f"Names ending in {BOT_MARK} are kept for the bots: choose another.")
    if talk.unwanted(name):
        raise Refused(UNWANTED_NAME)
    return name


ZERO_WIDTH_JOINER = "\u200d"


def joins(text: str, at: int) -> bool:
    """Whether the character at `at` is a zero-width joiner inside an emoji (a family, a flag of skin
    tones): kept there, so the emoji shows whole; anywhere else it would hide one name in another."""
    if text[at] != ZERO_WIDTH_JOINER or not 0 < at < len(text) - 1:
        return False
    before = text[at - 1] if text[at - 1] != "\ufe0f" or at < 2 else text[at - 2]
    return unicodedata.category(before) == "So" and unicodedata.category(text[at + 1]) == "So"
