"""Trump Card's table."""

from ..layout import EVERYONE, WAITING, Choice, Region, Table

TABLE = Table(
    "trump_card",
    tagline="Two teams of two bank the pile; only a 52\u20110 sweep wins.",
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
