"""Zero's table."""

from ..layout import Region, Table

TABLE = Table(
    "zero",
    tagline="Everyone plays a card face down at once, then guesses the sum.",
    regions=(
        Region(
            "status",
            drawn_from=(
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
        ),
        Region("trick", drawn_from=("phase", "has_played", "played_card", "reveal")),
        Region(
            "guesses",
            drawn_from=(
                "phase",
                "turn",
                "legal",
                "guess_order",
                "guesses",
                "guess_range",
                "played_card",
                "result",
            ),
        ),
        Region("hand", drawn_from=("hand", "legal", "phase", "safe", "result")),
        Region(
            "seats",
            drawn_from=(
                "phase",
                "turn",
                "first_guesser",
                "has_played",
                "hand_sizes",
                "scores",
                "safe",
                "result",
            ),
        ),
    ),
    script=True,
)
