"""What the trick-taking bots (Zero Game, Trump Card) read alike from the tricks they have seen."""

from __future__ import annotations

from typing import Any

from .cards import RANK_ORDER, RANKS

Trick = list[tuple[int, str]]


class TricksSeen:
    """The finished tricks (Trump Card's rounds), in order, as the seat saw them finish: a view shows
    only the trick on the table and the one just finished, so the ones before are kept from view to
    view."""

    def __init__(self) -> None:
        self.tricks: list[Trick] = []
        # False when one finished unseen (the bot sat down part-way): then it does not search.
        self.whole = True

    def catch_up(self, finished: int, last: dict[str, Any] | None) -> None:
        """Count in the tricks finished since the last view: the one just finished is shown whole; any
        finished before it went by unseen."""
        if len(self.tricks) < finished:
            if last is not None and len(self.tricks) == finished - 1:
                self.tricks.append([(seat, card) for seat, card in last["cards"]])
            else:
                self.whole = False
                self.tricks.extend([[]] * (finished - len(self.tricks)))

    def played(self, view: dict[str, Any]) -> Trick:
        """Every card played that the seat saw, in order, the table's trick included."""
        return [*(pair for trick in self.tricks for pair in trick), *((s, c) for s, c in view["trick"])]

    def voids(self, view: dict[str, Any]) -> dict[int, set[str]]:
        """The suits each seat has shown it lacks, the table's trick included."""
        return voids_shown([*self.tricks, view["trick"]], view["players"])


def voids_shown(tricks: list[Trick], players: int) -> dict[int, set[str]]:
    """The suits each seat has shown it lacks: it did not follow the suit led."""
    lacking: dict[int, set[str]] = {seat: set() for seat in range(players)}
    for trick in tricks:
        if trick:
            led = trick[0][1][1]
            for seat, card in trick[1:]:
                if card[1] != led:
                    lacking[seat].add(led)
    return lacking


def higher_unseen(card: str, known: set[str]) -> int:
    """How many cards of its suit above it might still be in another hand."""
    return sum(1 for rank in RANKS[RANK_ORDER[card[0]] + 1 :] if rank + card[1] not in known)
