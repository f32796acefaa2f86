"""What the trick-taking bots (Zero Game, Trump Card) read alike from the tricks they have seen."""

from __future__ import annotations

from zerogames.games.cards import RANK_ORDER, RANKS


def voids_shown(tricks: list[list[tuple[int, str]]], players: int) -> dict[int, set[str]]:
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
