"""Provably fair deals: a game's seed is made from a secret the server commits to before the deal and
randomness every seat adds, so no one (the site included) can choose the cards, and anyone can check
them once the game is over. docs/fairness.md says it in plain words.

Scheme "zerogames-fair-v1":
- before the deal the server draws a secret (32 random bytes, written as 64 hex digits) and shows every
  seat its commitment, SHA-256 of the secret's text;
- each seat adds a contribution (hex digits: the browser draws it when its player presses Start or Play
  again; the server draws one for bots and players who send none);
- the game's seed is HMAC-SHA256 with the secret's text as key over the scheme's name and the
  contributions in seat order, one per line; its first 8 bytes, as a big-endian number shifted right
  by one bit (63 bits, what every database keeps as a whole number);
- the engine's seeded shuffles (zerogames.games.cards.shuffle) then shuffle every deck of the game
  from that seed, so each deal follows from it.
After the game the secret is published with the contributions, the seed, the actions and each round's
deal: `check` plays the game again from them and says whether every deal is the one they make.

Pure: standard library and the engines (zerogames.games) only, so tools/check_deal.py runs it alone.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from zerogames.games import GAMES, IllegalAction

SCHEME = "zerogames-fair-v1"
# A deal chosen on purpose (a stacked deck in tests, a chosen deal number in development mode): the
# table and the replay say so instead of claiming fairness.
STACKED = "stacked"

SECRET_HEX = 64  # 32 bytes
# A contribution is hex digits: enough to matter, short enough for a form field.
CONTRIBUTION_HEX = range(16, 129)


@lru_cache(maxsize=4096)
def commitment(secret: str) -> str:
    """What every seat is shown before the deal: SHA-256 of the secret's text, in hex (remembered for
    the rooms playing: every change of a room publishes its next deal's commitment)."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def derived_seed(secret: str, contributions: Sequence[str]) -> int:
    """The game's seed (the scheme above), from the secret and the contributions in seat order."""
    message = "\n".join((SCHEME, *contributions)).encode("ascii")
    digest = hmac.new(secret.encode("ascii"), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def contribution(text: str | None) -> str | None:
    """A browser's contribution as it is used (lower-case hex), or None if it is none (the server
    then draws one for that seat)."""
    text = (text or "").strip().lower()
    if len(text) not in CONTRIBUTION_HEX or any(c not in "0123456789abcdef" for c in text):
        return None
    return text


@dataclass(frozen=True)
class Fairness:
    """How a game's seed was made: the scheme (or STACKED), the commitment shown before the deal, and
    each seat's contribution with who drew it ("player" or "server"). The secret stays in the store
    until the game is over (`published`)."""

    scheme: str
    commitment: str | None = None
    contributions: tuple[tuple[str, str], ...] = ()  # (who, hex) by seat

    @property
    def stacked(self) -> bool:
        return self.scheme == STACKED

    def to_json(self) -> dict[str, Any]:
        return {
            "scheme": self.scheme,
            "commitment": self.commitment,
            "contributions": [{"by": by, "value": value} for by, value in self.contributions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Fairness | None:
        if not data:
            return None
        pairs = tuple((c["by"], c["value"]) for c in data.get("contributions", ()))
        return cls(data["scheme"], data.get("commitment"), pairs)


def fair_deal(secret: str, offered: Sequence[str | None], drawn: Sequence[str]) -> tuple[Fairness, int]:
    """The game's fairness record and seed: each seat's offered contribution, or the server's drawn one
    for that seat where it offered none."""
    pairs = tuple(
        ("player", mine) if mine is not None else ("server", theirs)
        for mine, theirs in zip(offered, drawn, strict=True)
    )
    seed = derived_seed(secret, [value for _, value in pairs])
    return Fairness(SCHEME, commitment(secret), pairs), seed


# What a finished game publishes, and its check.

Action = tuple[int, dict[str, Any], float]  # (seat, action, when)


@dataclass(frozen=True)
class Played:
    """A game as its engine plays it again: the game, its seats, its seed and options, when it began,
    and every action in order."""

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    started: float
    actions: Sequence[Action]

    def deals(self) -> list[dict[str, Any]]:
        """Each round's deal, every hand open, as the engine makes it from the seed and the actions:
        the table at the round's first step (the action that ends a round deals the next)."""
        rules = GAMES[self.game]

        def deal(state: Any, n: int, now: float) -> dict[str, Any]:
            hands = json.loads(json.dumps(rules.open_view(state, now)["hands"]))  # as a file holds them
            return {"round": rules.view(state, None, now)[rules.round_key], "step": n, "hands": hands}

        state = rules.new_game(self.players, self.seed, self.options)
        found = [deal(state, 0, self.started)]
        for n, (seat, action, now) in enumerate(self.actions, start=1):
            state = rules.apply(state, seat, action, now)
            if rules.view(state, None, now)[rules.round_key] != found[-1]["round"]:
                found.append(deal(state, n, now))
        return found


def published(name: str, played: Played, fairness: Fairness | None, secret: str | None) -> dict[str, Any]:
    """A game's published data, once it is over: everything `check` needs, as JSON."""
    return {
        "game_id": name,
        "game": played.game,
        "players": played.players,
        "options": played.options,
        "started": played.started,
        **(fairness.to_json() if fairness else {"scheme": None}),
        "secret": secret,
        "seed": played.seed,
        "actions": [[seat, action, now] for seat, action, now in played.actions],
        "deals": played.deals(),
    }


@dataclass
class Checked:
    """What `check` found: each check passed (in words), and each failure."""

    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    rounds: int = 0

    @property
    def fair(self) -> bool:
        return not self.failed


def check(data: dict[str, Any]) -> Checked:
    """Check a game's published data: the secret matches the commitment, the seed is the one the secret
    and the contributions make, and playing the game again from that seed deals every recorded hand."""
    checked = Checked()
    if data.get("scheme") != SCHEME:
        why = "a stacked (chosen) deck" if data.get("scheme") == STACKED else "no fair-deal record"
        checked.failed.append(f"This game was dealt from {why}: there is nothing to check.")
        return checked
    secret, promised = str(data.get("secret") or ""), data.get("commitment")
    if commitment(secret) != promised:
        checked.failed.append("The revealed secret does not hash to the commitment shown before the deal.")
    else:
        checked.passed.append(f"The revealed secret hashes to the commitment {promised}.")
    values = [c["value"] for c in data["contributions"]]
    seed = derived_seed(secret, values)
    if seed != data["seed"]:
        checked.failed.append("The seed is not the one the secret and the contributions make.")
    else:
        checked.passed.append(f"The secret and the {len(values)} contributions make the seed {seed}.")
    actions = [(seat, action, now) for seat, action, now in data["actions"]]
    try:
        replayed = Played(
            data["game"], data["players"], seed, data["options"], data["started"], actions
        ).deals()
    except (IllegalAction, ValueError, KeyError) as bad:
        checked.failed.append(f"The game cannot be played again from that seed: {bad}.")
        return checked
    recorded = data["deals"]
    if len(recorded) != len(replayed):
        checked.failed.append(
            f"{len(recorded)} deals are recorded, but the game played again deals {len(replayed)}."
        )
    elif wrong := [
        n for n, (deal, made) in enumerate(zip(recorded, replayed, strict=True), start=1) if deal != made
    ]:
        checked.failed.append(f"Deals {wrong} are not the ones the seed makes.")
    else:
        checked.rounds = len(replayed)
        checked.passed.append(
            f"Played again from that seed, all {len(replayed)} deals are the ones recorded."
        )
    return checked
