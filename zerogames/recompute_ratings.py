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

from zerogames import ratings
from zerogames.store import Store, open_store


def recompute(store: Store) -> tuple[int, int, int]:
    """Every rating again from the rated games' lines, in the order they were rated, in one
    transaction: (rated games, ratings, ratings whose numbers changed)."""
    with store.transaction():
        games = store.ratings.rated_games()
        stored = store.ratings.every_rating()
        after = ratings.recompute((game, lines, ended) for game, _, lines, ended in games)
        final = store.ratings.rewrite(zip(games, after, strict=True))
    changed = sum(stored.get(key) != rating for key, rating in final.items()) + len(stored.keys() - final)
    return len(games), len(final), changed


def main(arguments: list[str]) -> int:
    path = arguments[0] if arguments else os.environ.get("ZEROGAMES_DB", "instance/zerogames.db")
    if not os.path.exists(path):
        print(f"No database at {path}.", file=sys.stderr)
        return 1
    games, rated, changed = recompute(open_store("", path))
    print(f"Recomputed {games} rated games: {rated} ratings, {changed} changed.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
