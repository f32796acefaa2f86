"""The process's memo of drawn regions, shared by every viewer of every room."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from zerogames.rooms import Published

from .templating import TemplateEnvironment


class Drawings:
    """Regions already drawn, for every viewer of every room of the process.

    A region drawn from the same inputs is the same HTML, so each is drawn once per distinct input:
    a region every viewer sees alike (the trick on the table) once per change for all of them, and a
    viewer's own regions again only when what they are drawn from changed. The inputs are kept as
    text (their repr, which tells apart every JSON-safe value a view holds, and is made quicker than
    JSON), not as the views' own lists and dicts: strings are quick to compare and hash, and the
    garbage collector never has to walk them (a full collection over a heap of kept views stalls every
    table of the process). Those not asked for during a whole generation are dropped.

    What every viewer of one change shares (the room's facts, the regions seen alike, the seat lines)
    is worked out once per change, by whichever viewer's push comes first, and kept as text.
    """

    # Drawings kept: up to SIZE in all, in two generations of SIZE / 2.
    SIZE = 8192
    CHANGES = 128

    # No lock: every step below is one call into a C-level dict method, which holds Python's lock
    # throughout, so a thread (`flask run`) or greenlet never sees the memo half changed; a drawing
    # taken out by another thread between two steps is at worst drawn again. (A lock here, gevent's
    # under the worker, cost more than the look-ups it guarded: a push makes several.)
    def __init__(self, env: TemplateEnvironment) -> None:
        self.env = env  # the app's, which draws them
        # The drawings put or asked for since the last turn of generations, and those of the one
        # before: a look-up is one or two plain dict gets, where keeping the drawings in the order
        # they were last asked for (an OrderedDict) cost a removal and an insertion at every hit.
        self.young: dict[str, str] = {}
        self.old: dict[str, str] = {}
        self.changes: OrderedDict[tuple[str, int, float], dict[str, Any]] = OrderedDict()

    def get(self, source: str) -> str | None:
        html = self.young.get(source)
        if html is None:
            html = self.old.get(source)
            if html is not None:
                self.put(source, html)  # asked for again: kept through the next turn
        return html

    def put(self, source: str, html: str) -> None:
        young = self.young
        young[source] = html
        if len(young) >= self.SIZE // 2:
            # A turn of generations: the drawings not asked for since the last one are dropped.
            self.old, self.young = young, {}

    def shared(self, code: str, published: Published) -> dict[str, Any]:
        """The memo of one change of one room, for every viewer of it."""
        key = (code, published.seq, published.at)
        memo = self.changes.get(key)
        if memo is None:
            memo = self.changes.setdefault(key, {})
            forget_the_oldest(self.changes, self.CHANGES)
        return memo


def forget_the_oldest(memo: OrderedDict[Any, Any], size: int) -> None:
    # Each thread drops one of more than `size` entries: the memo is never emptied under another.
    if len(memo) > size:
        memo.popitem(last=False)
