"""Check a game's deal without the site: python tools/check_deal.py GAME-fair.json

The file is what a replay's "Download this game's data" gives. The check (docs/fairness.md) uses
only the standard library, the recipe in zerogames/fairness.py and the games in zerogames/games/, so
a copy of the repository and Python are all it takes. It prints each check, and exits with 0 when
the deal is fair, 1 when it is not (or cannot be checked), 2 when the file cannot be read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# Run from anywhere: the repository this script sits in holds the recipe and the games.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zerogames.fairness import check


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    try:
        data = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    except (OSError, ValueError) as bad:
        print(f"Cannot read {argv[1]}: {bad}", file=sys.stderr)
        return 2
    try:
        checked = check(data)
    except (KeyError, TypeError, ValueError) as bad:
        print(f"FAILED: the file is not a game's published data ({bad!r}).")
        return 1
    for line in checked.passed:
        print(f"ok: {line}")
    for line in checked.failed:
        print(f"FAILED: {line}")
    print(f"{data.get('game_id', 'The game')}: {'fair deal' if checked.fair else 'NOT a checked fair deal'}.")
    return 0 if checked.fair else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
