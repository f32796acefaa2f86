"""Trump Card's table."""

from collections import Counter
from typing import Any

from zerogames.games.cards import SUIT_NAMES
from zerogames.records import minutes, totals

from . import EVERYONE, WAITING, Choice, Region, Table


def figure_lines(figures: list[dict[str, Any]], durations: list[float]) -> list[tuple[str, str]]:
    summed = totals(figures)
    trumps = Counter(each["trump"] for each in figures if each["trump"])
    average = summed["collected"] / summed["collections"] if summed["collections"] else 0
    return [
        ("Average collection", f"{average:.1f} cards" if summed["collections"] else "none yet"),
        (
            "Favourite trump suit",
            SUIT_NAMES[trumps.most_common(1)[0][0]].title() if trumps else "never chose",
        ),
        ("Average match", minutes(sum(durations) / len(durations))),
        ("KHOTI", str(summed["khoti"])),
    ]


TABLE = Table(
    "trump_card",
    tagline="Two teams of two bank the pile; only a 52-0 sweep wins.",
    figure_lines=figure_lines,
    regions=(
        Region(
            "status",
            drawn_from=(
                "teams",
                "next_chooser",
                "bank_rule",
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
            seen_alike=WAITING,
        ),
        Region(
            "tabletop",
            drawn_from=(
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
                "seat_teams",
            ),
        ),
        Region(
            "hand",
            drawn_from=(
                "hand",
                "legal",
                "phase",
                "team",
                "partner",
                "chooser",
                "ace_restricted",
                "ace_reason",
                "trick",
                "result",
            ),
        ),
        Region("pile", drawn_from=("pile", "pile_size", "banked", "team", "teams")),
        Region("rounds", drawn_from=("history", "rounds", "result"), seen_alike=EVERYONE),
    ),
    # A rematch passes the next Chooser itself (TrumpCard.rematch_options); None leaves the first one to
    # the draw.
    options=(
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
)
