"""Table talk, as rules: what may be said at a table, how often, and the words kept out of names and
chat. Pure: no Flask, no store, no clock (the moment is given).

Talk is a reaction (one emoji), a phrase (one of a short list) or, where the host allows it, a line
of free text. The word filter is the lichess approach: a short list of words, matched as whole words
once the text is folded (case, accents, look-alike digits), not a model.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

REACTIONS = ("👍", "👏", "😂", "😮", "😢", "🎉")
PHRASES = ("Good luck", "Nice bid", "Well played", "Your turn!", "Good game")
KINDS = ("reaction", "phrase", "chat")

LENGTH = 200  # characters of one chat line
EVERY = 0.5  # seconds between two messages of one sender
SHOWN_FOR = 5.0  # seconds a message shows beside its sender's seat
KEPT = 30  # lines a table keeps (and shows in its log)

# The room's option for free-text chat (True or False); without it, chat is on at an unranked table
# and off at a ranked one, where strangers sit together.
CHAT = "chat"

# Words kept out of names and chat: a short list of slurs and the crudest insults, as folded text.
UNWANTED = frozenset(
    {
        "fuck",
        "fucking",
        "fucker",
        "cunt",
        "shit",
        "bitch",
        "asshole",
        "nigger",
        "nigga",
        "faggot",
        "fag",
        "retard",
        "whore",
        "slut",
        "kys",
    }
)
# Digits and signs written for letters to slip a word past a filter.
LOOK_ALIKES = str.maketrans("0134@$5!7", "oieaassit")
WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Said:
    """One message at a table: numbered in the room (`n`), by its sender's identity and name."""

    n: int
    uid: str
    name: str
    kind: str  # reaction, phrase, chat
    text: str
    at: float


def folded(word: str) -> str:
    """A word as the filter compares it: lower case, accents off, look-alike digits read as letters."""
    plain = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in plain if not unicodedata.combining(ch)).translate(LOOK_ALIKES)


def unwanted(text: str) -> bool:
    """Whether the text holds a word of the list: as a word, spelt out (f.u.c.k), or run together
    with others in a name (only the longer words: "Scunthorpe" is a town)."""
    words = [folded(word) for word in WORD.findall(text)]
    joined = "".join(words)
    if joined in UNWANTED or any(word in UNWANTED for word in words):
        return True
    return any(bad in joined for bad in UNWANTED if len(bad) > 4)


def masked(text: str) -> str:
    """The text with each unwanted word starred out (a chat line is said, its bad words not)."""
    return WORD.sub(lambda m: "*" * len(m.group()) if folded(m.group()) in UNWANTED else m.group(), text)


def chat_on(options: Mapping[str, Any], ranked: bool) -> bool:
    return bool(options.get(CHAT, not ranked))


def message(kind: str, text: str, chat_allowed: bool) -> str:
    """What is said, as the table shows it; ValueError with the reason, in words, if it may not be."""
    text = " ".join(("".join(ch for ch in text if unicodedata.category(ch)[0] != "C")).split())
    if kind == "reaction":
        if text not in REACTIONS:
            raise ValueError("Pick one of the reactions shown.")
        return text
    if kind == "phrase":
        if text not in PHRASES:
            raise ValueError("Pick one of the phrases shown.")
        return text
    if kind != "chat":
        raise ValueError("That is not something a table can say.")
    if not chat_allowed:
        raise ValueError("The host has switched chat off at this table: reactions and phrases still work.")
    if not text:
        raise ValueError("Write something first.")
    if len(text) > LENGTH:
        raise ValueError(f"A message is at most {LENGTH} characters: say it in fewer words.")
    return masked(text)


def too_soon(last: float | None, now: float) -> bool:
    """Whether a sender who last spoke at `last` must wait before speaking again."""
    return last is not None and now - last < EVERY


def kept(talk: tuple[Said, ...], said: Said) -> tuple[Said, ...]:
    """The table's talk with one more line: the latest KEPT."""
    return (*talk, said)[-KEPT:]


def heard(talk: tuple[Said, ...], muted: frozenset[str]) -> tuple[Said, ...]:
    """The talk one viewer sees: nothing of the players they muted."""
    return talk if not muted else tuple(said for said in talk if said.uid not in muted)


def fresh(talk: tuple[Said, ...], now: float) -> dict[str, Said]:
    """Each sender's latest message still shown beside their seat at `now`, by identity."""
    return {said.uid: said for said in talk if now - said.at < SHOWN_FOR}
