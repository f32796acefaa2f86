"""Ratings: openskill's Weng-Lin model (Plackett-Luce), one rating per player per game.

Pure: no Flask, no I/O, no clock. A rated game's end becomes each player's `Line` (their side and place);
the store rates those lines in the transaction that records the game's end, and `recompute` rates every
rated game of the history again, in the order they ended, giving the same numbers.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from zerogames.games.base import Side, ranks

MODEL = PlackettLuce()
# A new player's shown rating, and the shown points per point of openskill's ordinal.
SHOWN_START = 1000
SHOWN_SCALE = 40
# A rating stays provisional (kept off the leaderboards) while its uncertainty is above
# this: some 30 games of five players.
PROVISIONAL_SIGMA = 5.0
# The fewest players a rated game has (each game's own minimum counts too: Trump Card's is four).
FEWEST_RATED = 2
# Rated games of one game among the very same players count less the more of them there were in the
# day before: the k-th such game counts for REPEAT_WEIGHT ** k of a game (1, 1/2, 1/4 ...). A day of
# any number of games between two accounts of one person moves their ratings by less than two games
# would; players who meet often, as friends do, are rated fully again the next day.
REPEAT_WINDOW = 24 * 3600.0
REPEAT_WEIGHT = 0.5

# A rated game as REPEAT_WINDOW counts it: its players, and when it ended.
Together = tuple[frozenset[str], float]


@dataclass(frozen=True)
class Rating:
    """A player's rating at one game: openskill's mu and sigma, and the rated games behind them."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The one number shown, as openskill defines it: mu less three sigmas, a cautious estimate
        that rises as the player wins and as the rating settles."""
        return MODEL.rating(self.mu, self.sigma).ordinal()

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def shown(self) -> str:
        """The number players read: 1000 plus 40 points an ordinal point, so that a new player reads
        1000 (openskill's ordinal starts at 0 and a first loss makes it negative), never below 0."""
        return str(max(0, round(SHOWN_START + SHOWN_SCALE * self.ordinal)))


@dataclass(frozen=True)
class Line:
    """One player's part in a rated game: their seat, the side they were rated with (its index among
    the game's sides) and that side's place (1 the best; equal places are a tie)."""

    seat: int
    player: str
    side: int
    place: int


def is_rated(ranked: bool, players: Sequence[str | None]) -> bool:
    """Whether a game changes ratings: played in a ranked room, with every seat a signed-up player
    (None stands for a guest or a bot), at least two of them."""
    return ranked and len(players) >= FEWEST_RATED and all(player is not None for player in players)


def places(sides: Sequence[Side], away: Collection[int] = ()) -> list[int]:
    """Each side's place by its standing, as the game's `Outcome` places its seats (`ranks`). A side
    with a seat away at the game's end places below every side that was there (and among such sides,
    by standing too)."""
    return ranks([(not set(side.seats) & set(away), side.standing) for side in sides])


def lines(sides: Sequence[Side], players: Sequence[str], away: Collection[int] = ()) -> list[Line]:
    """Each seat's line, in seat order, from the game's sides (`Outcome.sides`) and who sat where."""
    placed = places(sides, away)
    side_of = {seat: index for index, side in enumerate(sides) for seat in side.seats}
    return [Line(seat, players[seat], side_of[seat], placed[side_of[seat]]) for seat in sorted(side_of)]


def repeats(earlier: Iterable[Together], game: Sequence[Line], ended: float) -> int:
    """How many of the `earlier` rated games (each its players and when it ended) were among the same
    players as `game`, within REPEAT_WINDOW before it ended."""
    players = frozenset(line.player for line in game)
    return sum(them == players and ended - REPEAT_WINDOW < when <= ended for them, when in earlier)


def rate(ratings: Mapping[str, Rating], game: Sequence[Line], repeated: int = 0) -> dict[str, Rating]:
    """The ratings of a game's players after it, from theirs before it (`ratings`, where a player
    without one starts at the model's own start); the game's `repeated`-th among the same players in a
    day moves them REPEAT_WEIGHT ** repeated as far."""
    sides = sorted({line.side for line in game})
    teams = [[line for line in game if line.side == side] for side in sides]
    before = [[ratings.get(line.player, Rating()) for line in team] for team in teams]
    after = MODEL.rate(
        [[MODEL.rating(old.mu, old.sigma) for old in team] for team in before],
        ranks=[team[0].place for team in teams],
    )
    weight = REPEAT_WEIGHT**repeated
    return {
        line.player: Rating(
            old.mu + weight * (new.mu - old.mu), old.sigma + weight * (new.sigma - old.sigma), old.games + 1
        )
        for team, olds, news in zip(teams, before, after, strict=True)
        for line, old, new in zip(team, olds, news, strict=True)
    }


def rate_game(
    ratings: Mapping[str, Rating], earlier: Iterable[Together], game: Sequence[Line], ended: float
) -> dict[str, Rating]:
    """The ratings of a game's players after it (`rate`), counting how often the same players met in
    the day before it ended (`repeats` of the `earlier` rated games)."""
    return rate(ratings, game, repeats(earlier, game, ended))


def recompute(history: Iterable[tuple[str, Sequence[Line], float]]) -> Iterator[dict[str, Rating]]:
    """Every rated game again, in the order they ended, each as (game id, its lines, when it ended):
    yields the ratings of each game's players after it, from nothing but the games before it."""
    ratings: dict[str, dict[str, Rating]] = {}
    # The earlier games of each game among each set of players: only those can be repeats, and a
    # look through every earlier game for each one would grow with the square of the history.
    tables: dict[tuple[str, frozenset[str]], list[Together]] = {}
    for game, played, ended in history:
        players = frozenset(line.player for line in played)
        of_game, earlier = ratings.setdefault(game, {}), tables.setdefault((game, players), [])
        after = rate_game(of_game, earlier, played, ended)
        of_game.update(after)
        earlier.append((players, ended))
        yield after
