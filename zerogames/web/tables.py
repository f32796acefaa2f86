"""What the site knows of each game beyond its rules: the table's regions and the room's options.

A region is one partial, `templates/games/<game>/<region>.html`, whose root element has the region's
name as its id; the live channel sends a seat only the regions that changed for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zerogames.games import GAMES, Game


@dataclass(frozen=True)
class Choice:
    """A room option the host picks from a few values when creating the room."""

    name: str
    label: str
    values: tuple[tuple[Any, str], ...]


REGIONS: dict[str, tuple[str, ...]] = {
    "zero_game": ("status", "seats", "trick", "hand", "scores"),
    "trump_card": ("status", "tabletop", "hand", "pile", "rounds"),
    "zero": ("status", "trick", "guesses", "hand", "seats"),
    "zero_down": ("status", "pool", "hand", "seats", "rounds"),
    "cabo": ("status", "table", "rounds"),
}

# What a region is drawn from: keys of the seat's view (`now` is the moment it is drawn as of), besides
# the room's seats. A region is drawn from those keys alone, and drawn again only when one of them
# changed; a region not listed is drawn from the whole view on every change (a region drawn seat by
# seat is listed in BY_SEAT instead).
DRAWN_FROM: dict[str, dict[str, tuple[str, ...]]] = {
    "zero_game": {
        "status": (
            "round",
            "rounds",
            "cards_dealt",
            "dealer",
            "phase",
            "turn",
            "trump",
            "last",
            "last_round",
            "result",
        ),
        "trick": ("trick", "last_trick"),
        "hand": ("hand", "legal", "phase", "hook", "result"),
        "scores": ("history", "scores", "result"),
    },
    "zero": {
        "status": (
            "trick",
            "first_guesser",
            "pile_size",
            "phase",
            "turn",
            "legal",
            "has_played",
            "hand_sizes",
            "last",
            "reveal",
            "result",
        ),
        "trick": ("phase", "has_played", "played_card", "reveal"),
        "guesses": (
            "phase",
            "turn",
            "legal",
            "first_guesser",
            "guesses",
            "guess_range",
            "played_card",
            "result",
        ),
        "hand": ("hand", "legal", "phase", "safe", "result"),
        "seats": ("phase", "turn", "first_guesser", "has_played", "hand_sizes", "scores", "safe", "result"),
    },
    "trump_card": {
        "status": (
            "players",
            "round",
            "rounds",
            "trump",
            "chooser",
            "senior",
            "phase",
            "turn",
            "legal",
            "trick",
            "last",
            "notices",
            "last_round",
            "result",
        ),
        "tabletop": (
            "phase",
            "turn",
            "senior",
            "chooser",
            "restricted_seat",
            "hand_sizes",
            "trick",
            "last_round",
            "trump",
            "pile_size",
            "round",
        ),
        "hand": (
            "hand",
            "legal",
            "phase",
            "team",
            "chooser",
            "ace_restricted",
            "ace_reason",
            "trick",
            "result",
        ),
        "pile": ("pile", "pile_size", "banked", "team"),
        "rounds": ("history", "rounds", "result"),
    },
}

# Cabo's table draws every seat's slots with the controls of the moment: it changes with almost any action.
DRAWN_FROM["cabo"] = {
    "status": (
        "round",
        "dealer",
        "phase",
        "to_act",
        "turn",
        "step",
        "power",
        "handover",
        "caller",
        "final_turns",
        "snap_window",
        "discard",
        "memory",
        "sighting_seconds",
        "legal",
        "last",
        "history",
        "result",
    ),
    # `now`: the moment the table is drawn as of, for how long each card stays in sight.
    "table": (
        "now",
        "players",
        "dealer",
        "sighting_seconds",
        "hands",
        "seen_until",
        "phase",
        "ready",
        "turn",
        "to_act",
        "step",
        "deck",
        "discard",
        "discards",
        "drawing",
        "drawn",
        "power",
        "handover",
        "caller",
        "memory",
        "scores",
        "legal",
        "result",
    ),
    "rounds": ("last_round", "history", "scores", "result"),
}

# Zero Down: the pool and the recent moves change with every swap, your cards only on your own.
DRAWN_FROM["zero_down"] = {
    "status": (
        "round",
        "rounds",
        "dealer",
        "phase",
        "turn",
        "knocks",
        "final_turns",
        "moves",
        "last_rounds",
        "result",
    ),
    "pool": ("pool", "turn", "round", "moves", "result"),
    "hand": ("hand", "hand_points", "turn", "phase", "knocks", "result"),
    "seats": ("turn", "dealer", "phase", "knocks", "final_turns", "hand_sizes", "scores", "result"),
    "rounds": ("last_rounds", "history", "scores", "result"),
}


@dataclass(frozen=True)
class SeatLines:
    """A region drawn seat by seat, so that an action redraws and resends only the seats it changed.

    `<region>-line.html` draws one seat's line, with the id `<region>-<seat>`, from that seat (`seat`)
    and `their` alone: for each key of `each`, the seat's entry in that view list; for each key of `at`,
    whether that view key points at the seat (the turn, the dealer). The region's own template only
    lays out the lines it is given (`lines`), so it changes only when a line does.
    """

    each: tuple[str, ...] = ()
    at: tuple[str, ...] = ()


BY_SEAT: dict[str, dict[str, SeatLines]] = {
    "zero_game": {"seats": SeatLines(each=("bids", "tricks", "hand_sizes", "scores"), at=("turn", "dealer"))},
}

# Regions a player sees as a spectator does, drawn once per change for all of them without the
# viewer's seat or links: EVERYONE's alike for every viewer; WAITING's alike for all but the player
# whose turn it is (who sees "Your turn" and their controls).
EVERYONE, WAITING = "everyone", "everyone waiting"
SEEN_ALIKE: dict[str, dict[str, str]] = {
    "zero_game": {"status": WAITING, "trick": EVERYONE, "scores": EVERYONE},
    "trump_card": {"status": WAITING, "rounds": EVERYONE},
    "zero": {},
    "zero_down": {"rounds": EVERYONE},
    "cabo": {"rounds": EVERYONE},
}

# Games whose table needs a little plain JavaScript of its own: static/js/games/<game>.js.
SCRIPTS: set[str] = {"zero"}
SCRIPTS.add("cabo")
SCRIPTS.add("zero_down")

OPTIONS: dict[str, tuple[Choice, ...]] = {
    "zero_game": (),
    # A rematch passes the next Chooser itself (rooms.rematch_options); None leaves the first one to the draw.
    "trump_card": (
        Choice(
            "chooser",
            "Trump Chooser of the first match",
            (
                (None, "Drawn at random"),
                (0, "Seat A (the host)"),
                (1, "Seat B"),
                (2, "Seat C"),
                (3, "Seat D"),
            ),
        ),
    ),
    "zero": (),
    "cabo": (
        Choice(
            "memory",
            "Seen cards",
            ((True, "Turn back after 3 seconds"), (False, "Stay face up (assist mode)")),
        ),
    ),
}

# Two players always lay nine, whatever this says.
OPTIONS["zero_down"] = (
    Choice("pool", "Pool size (with two players, always 9)", ((5, "5 cards"), (7, "7 cards"))),
)


def playable_games() -> list[Game]:
    """The games the site offers: those with rules and a table."""
    return [rules for game_id, rules in GAMES.items() if game_id in REGIONS]


def regions(game_id: str) -> tuple[str, ...]:
    return REGIONS[game_id]


def parse_options(game_id: str, form: dict[str, str]) -> dict[str, Any]:
    """The room options from the create form: only the listed values of the listed options."""
    options: dict[str, Any] = {}
    for choice in OPTIONS.get(game_id, ()):
        picked = form.get(choice.name)
        for value, _ in choice.values:
            if picked == str(value):
                options[choice.name] = value
    return options
