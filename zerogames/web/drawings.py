"""The process's memo of drawn regions, shared by every viewer of every room."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from zerogames.rooms import Published


class Drawings:
    """Regions already drawn, for every viewer of every room of the process.

    A region drawn from the same inputs is the same HTML, so each is drawn once per distinct input:
    a region every viewer sees alike (the trick on the table) once per change for all of them, and a
    viewer's own regions again only when what they are drawn from changed. The inputs are kept as
    JSON text, not as the views' own lists and dicts: strings are quick to compare and hash, and the
    garbage collector never has to walk them (a full collection over a heap of kept views stalls every
    table of the process). The drawings asked for least recently are dropped first.

    What every viewer of one change shares (the room's facts, the regions seen alike, the seat lines)
    is worked out once per change, by whichever viewer's push comes first, and kept as text.
    """

    SIZE = 8192
    CHANGES = 128

    def __init__(self) -> None:
        self.entries: OrderedDict[str, str] = OrderedDict()
        self.changes: OrderedDict[tuple[str, int, float], dict[str, Any]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, source: str) -> str | None:
        with self.lock:
            html = self.entries.get(source)
            if html is not None:
                self.entries.move_to_end(source)
            return html

    def put(self, source: str, html: str) -> None:
        with self.lock:
            self.entries[source] = html
            if len(self.entries) > self.SIZE:
                self.entries.popitem(last=False)

    def shared(self, code: str, published: Published) -> dict[str, Any]:
        """The memo of one change of one room, for every viewer of it."""
        key = (code, published.seq, published.at)
        with self.lock:
            memo = self.changes.get(key)
            if memo is None:
                memo = self.changes[key] = {}
                if len(self.changes) > self.CHANGES:
                    self.changes.popitem(last=False)
            return memo
