"""Zero Game's table."""

from ..layout import EVERYONE, WAITING, Region, SeatLines, Table

TABLE = Table(
    "zero_game",
    tagline="Trick-taking: bid the tricks you will take; the dealer may not make the bids add up.",
    regions=(
        Region(
            "status",
            drawn_from=(
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
            seen_alike=WAITING,
        ),
        Region(
            "seats", lines=SeatLines(each=("bids", "tricks", "hand_sizes", "scores"), at=("turn", "dealer"))
        ),
        Region("trick", drawn_from=("trick", "last_trick"), seen_alike=EVERYONE),
        Region("hand", drawn_from=("hand", "legal", "phase", "hook", "result")),
        Region("scores", drawn_from=("history", "scores", "result"), seen_alike=EVERYONE),
    ),
)
