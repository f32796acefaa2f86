"""For operators: every rating recomputed from the history of rated games, in one transaction.

    python -m zerogames.recompute_ratings [DATABASE]

DATABASE defaults to ZEROGAMES_DB, else the site's own (instance/zerogames.db). It prints how many
ratings changed: none, unless they had gone wrong (or the rating model was changed on purpose). A game
ending meanwhile on a running site waits for the transaction (up to the store's busy timeout), then
rates on from the recomputed ratings.
"""

from __future__ import annotations

import os
import sys

from zerogames.store import Store


def main(arguments: list[str]) -> int:
    path = arguments[0] if arguments else os.environ.get("ZEROGAMES_DB", "instance/zerogames.db")
    if not os.path.exists(path):
        print(f"No database at {path}.", file=sys.stderr)
        return 1
    games, ratings, changed = Store(path).recompute_ratings()
    print(f"Recomputed {games} rated games: {ratings} ratings, {changed} changed.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
