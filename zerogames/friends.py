"""Friends and blocks, as rules: who may ask, accept, decline, remove, block, invite or see whom.

Pure: a `Relation` is what two players are to each other, seen from one of them (`me`); each rule
answers what the pair becomes, or refuses in words the player reads. The store keeps the pair as a
line for each side (zerogames.store.friends), so every rule reads one side and writes both. A block
ends the friendship, so only friends, never a blocker nor the blocked, see each other's presence.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Standing(Enum):
    """What the pair is, as `me` reads it."""

    NONE = "none"
    ASKED = "asked"  # I asked them; they have not answered yet
    ASKED_ME = "asked-me"  # they asked me
    FRIENDS = "friends"


# A standing as the other side reads it.
MIRROR = {
    Standing.NONE: Standing.NONE,
    Standing.ASKED: Standing.ASKED_ME,
    Standing.ASKED_ME: Standing.ASKED,
    Standing.FRIENDS: Standing.FRIENDS,
}


class FriendRefused(Exception):
    """The rule refuses; nothing changes. `reason` says why, to the player who asked."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Relation:
    """Two players as `me` sees them: the standing, and either's block of the other. `name` is the
    other's username, for the words of a refusal."""

    name: str
    standing: Standing = Standing.NONE
    i_block: bool = False
    blocks_me: bool = False
    myself: bool = False


@dataclass(frozen=True)
class Outcome:
    """What the pair becomes: the standing from my side (the other's is its mirror), and my block."""

    standing: Standing
    i_block: bool


def not_myself(relation: Relation) -> None:
    if relation.myself:
        raise FriendRefused("That is you: pick another player.")


def ask(relation: Relation) -> Outcome:
    """A friend request. Asking someone who asked you first is accepting theirs. A player who blocked
    me reads as one who takes no requests: a block is never told to the blocked."""
    not_myself(relation)
    if relation.i_block:
        raise FriendRefused(f"You have blocked {relation.name}: unblock them first.")
    if relation.blocks_me:
        raise FriendRefused(f"{relation.name} is not taking friend requests.")
    if relation.standing is Standing.FRIENDS:
        raise FriendRefused(f"{relation.name} is your friend already.")
    if relation.standing is Standing.ASKED:
        raise FriendRefused(f"You asked {relation.name} already: they have not answered yet.")
    if relation.standing is Standing.ASKED_ME:
        return Outcome(Standing.FRIENDS, False)
    return Outcome(Standing.ASKED, False)


def answer(relation: Relation, accept: bool) -> Outcome:
    """Accept or decline the other's request."""
    if relation.standing is not Standing.ASKED_ME:
        raise FriendRefused(f"{relation.name} has no request waiting for your answer.")
    return Outcome(Standing.FRIENDS if accept else Standing.NONE, relation.i_block)


def remove(relation: Relation) -> Outcome:
    """A friend removed, or my own request taken back."""
    if relation.standing not in (Standing.FRIENDS, Standing.ASKED):
        raise FriendRefused(f"{relation.name} is not on your friends list.")
    return Outcome(Standing.NONE, relation.i_block)


def block(relation: Relation) -> Outcome:
    """A block ends the friendship and any request, either way."""
    not_myself(relation)
    if relation.i_block:
        raise FriendRefused(f"You have blocked {relation.name} already.")
    return Outcome(Standing.NONE, True)


def unblock(relation: Relation) -> Outcome:
    if not relation.i_block:
        raise FriendRefused(f"You have not blocked {relation.name}.")
    return Outcome(relation.standing, False)


def invite(relation: Relation) -> None:
    """Only a friend, unblocked either way, is invited to a table."""
    if relation.i_block or relation.blocks_me or relation.standing is not Standing.FRIENDS:
        raise FriendRefused(f"Only your friends can be invited: {relation.name} is not on your list.")
