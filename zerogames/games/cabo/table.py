"""Cabo's table."""

from ..layout import EVERYONE, Choice, Region, Table

# Cabo's table draws every seat's slots with the controls of the moment: it changes with almost any action.
TABLE = Table(
    "cabo",
    tagline="Four hidden cards: use powers, snap matches and remember where the low ones are.",
    regions=(
        Region(
            "status",
            drawn_from=(
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
                "limits",
                "result",
            ),
        ),
        Region(
            "table",
            # `now`: the moment the table is drawn as of, for how long each card stays in sight.
            drawn_from=(
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
                "drawn_power",
                "power",
                "handover",
                "caller",
                "memory",
                "scores",
                "legal",
                "result",
                # Which slot the last discard came from, for it to glide from there.
                "last",
            ),
        ),
        Region(
            "rounds", drawn_from=("last_round", "history", "scores", "limits", "result"), seen_alike=EVERYONE
        ),
    ),
    options=(
        Choice(
            "memory",
            "Seen cards",
            ((True, "Turn back after 3 seconds"), (False, "Stay face up (assist mode)")),
        ),
    ),
    script=True,
)
