"""Numbers as people and links write them: ASCII digits only, within bounds.

Python's own `str.isdigit` and `int` take far more than ASCII: "²" is a digit to `isdigit` and no
number to `int`, and "١٢" is twelve to `int`. A number read from a URL or a form is read here, so that
no such string ever reaches `int` or the database.
"""

from __future__ import annotations

import re

DIGITS = re.compile(r"[0-9]{1,18}")


def whole_number(text: str | None, least: int = 0, most: int = 10**18) -> int | None:
    """`text` as a whole number from `least` to `most`, written in ASCII digits; None for anything else."""
    if text is None or not DIGITS.fullmatch(text):
        return None
    number = int(text)
    return number if least <= number <= most else None
