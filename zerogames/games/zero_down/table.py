"""Zero Down's table."""

from ..layout import EVERYONE, Choice, Region, Table

# Zero Down: the pool and the recent moves change with every swap, your cards only on your own.
TABLE = Table(
    "zero_down",
    tagline="Swap with a face-up pool to collect five of a colour and five of a number.",
    regions=(
        Region(
            "status",
            drawn_from=(
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
        ),
        Region("pool", drawn_from=("pool", "turn", "round", "moves", "result")),
        Region("hand", drawn_from=("hand", "hand_score", "colours", "turn", "phase", "knocks", "result")),
        Region(
            "seats",
            drawn_from=("turn", "dealer", "phase", "knocks", "final_turns", "hand_sizes", "scores", "result"),
        ),
        Region("rounds", drawn_from=("last_rounds", "history", "scores", "result"), seen_alike=EVERYONE),
    ),
    # Two players always lay nine, whatever this says.
    options=(Choice("pool", "Pool size (with two players, always 9)", ((5, "5 cards"), (7, "7 cards"))),),
    script=True,
)
