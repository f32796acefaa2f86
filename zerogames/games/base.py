"""What every game's rules share: the engine contract (`Game`), the refusal type, the state's shape,
dump and load, and a game's end as one value (`Outcome`). docs/engine.md states the contract whole.

A state is a plain dict whose values never change once made (numbers, strings, None, tuples, and
dicts that are only ever replaced, never edited). `apply` copies the dict and replaces what the
action changes, so the state it was given is left as it was, cheaply.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

State = dict[str, Any]
Action = dict[str, Any]
# Every type of action a game knows, with the fields such an action holds besides its `type`.
ActionFields = dict[str, tuple[str, ...]]


class IllegalAction(Exception):
    """An action the rules refuse; `reason` is written for the player who tried it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def freeze(value: Any) -> Any:
    """Lists to tuples, all the way down, so that a loaded state is as immutable as a made one."""
    if isinstance(value, SEQUENCES):
        return tuple(freeze(item) for item in value)
    if isinstance(value, dict):
        return {key: freeze(item) for key, item in value.items()}
    return value


def thaw(value: Any) -> Any:
    """Tuples to lists, all the way down: the JSON-safe form of a state or part of one (a view's
    history, say). For the small values a view thaws, twice as quick as a round trip through JSON;
    a number or a text inside is taken as it is, without a call of its own (a view of a long game
    thaws hundreds of them, once per seat at every move)."""
    if isinstance(value, SEQUENCES):
        return [item if type(item) in PLAIN else thaw(item) for item in value]
    if isinstance(value, dict):
        return {key: item if type(item) in PLAIN else thaw(item) for key, item in value.items()}
    return value


# What thaw leaves as it is.
PLAIN = frozenset((int, str, float, bool, type(None)))
# What freeze and thaw go into, named once: `list | tuple` written in a call makes a new union at every
# call, which took as long as the check itself (100 ns against 50, timeit); thaw was a fifth quicker.
SEQUENCES = (list, tuple)


class SharedAction(dict):
    """A legal action made once and handed out again and again, where building fresh dicts for a long
    list of legal actions would be the engine's main cost.

    It equals the plain dict and is as JSON-safe, but refuses edits, so that no caller can change what
    the next is handed (`dict(action)` is an editable copy, and so is what copy and pickle make).
    """

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a legal action is shared: edit a copy, dict(action)")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return (dict, (dict(self),))


# What an action may be made as: a plain dict (a form's, a test's) or one handed out by legal_actions.
ACTION_TYPES = (dict, SharedAction)


def action_type(action: Any) -> str:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("That is not an action of this game.")
    return action["type"]


def whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_players(game: Game, players: int) -> None:
    if not whole_number(players) or not game.min_players <= players <= game.max_players:
        if game.min_players == game.max_players:
            raise ValueError(f"{game.title} is for exactly {game.min_players} players")
        raise ValueError(f"{game.title} is for {game.min_players} to {game.max_players} players")


def checked_options(
    game: Game, players: int, options: dict[str, Any] | None, known: set[str]
) -> dict[str, Any]:
    """A new game's options, once the player count and every option name are checked (ValueError)."""
    check_players(game, players)
    options = dict(options or {})
    unknown = set(options) - known
    if unknown:
        raise ValueError(f"unknown option(s) for {game.title}: {', '.join(sorted(unknown))}")
    return options


def winners(scores: list[int], best: Callable[[list[int]], int] = max) -> list[int]:
    """Every seat with the best score (highest, or lowest with best=min): equal best scores all win."""
    top = best(scores)
    return [seat for seat, score in enumerate(scores) if score == top]


def seat_option(options: dict[str, Any], name: str, players: int, drawn: int) -> int:
    """A seat chosen by option (`dealer`, `chooser`, ...), else the one drawn from the seed."""
    seat = options.get(name)
    if seat is None:
        return drawn
    if not whole_number(seat) or not 0 <= seat < players:
        raise ValueError(f"option {name!r} must be a seat from 0 to {players - 1}")
    return seat


def stacked_decks(options: dict[str, Any]) -> tuple[tuple[Any, ...], ...]:
    decks = options.get("decks", ())
    if not isinstance(decks, list | tuple) or not all(isinstance(deck, list | tuple) for deck in decks):
        raise ValueError("option 'decks' must be a list of deck orders")
    return freeze(decks)


class Side(NamedTuple):
    """Seats a rating ranks as one, and how they stood at the game's end (the higher, the better)."""

    seats: tuple[int, ...]
    standing: int


def ranks(keys: Sequence[Any]) -> list[int]:
    """Each key's place, 1 for the highest; equal keys share a place and the next skips as many (1, 1, 3)."""
    return [1 + sum(other > key for other in keys) for key in keys]


@dataclass(frozen=True)
class Outcome:
    """How a game ended, the one value the records, the ratings and the pages read of it."""

    how: Literal["finished", "abandoned"]  # abandoned: stopped where it stood, with no result
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # none in a draw or an abandoned game
    # Each seat's standing, 1 the best (`ranks`); None for every seat where nobody won.
    places: tuple[int | None, ...]
    # What a rating ranks: in a draw every side stands equal, as a draw ranks nobody above anybody.
    sides: tuple[Side, ...]
    figures: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None  # the engine's `result`, None for an abandoned game

    @property
    def finished(self) -> bool:
        return self.how == "finished"


def plain(value: Any) -> bool:
    """A value an action's field may hold: a string, a whole number, a truth value or nothing."""
    return value is None or type(value) in (str, int, bool)


def one_of(action: Any, kind: str, key: str, values: Sequence[Any], made: Any) -> Action | None:
    """`made[value]`, the listed action `action` asks for, if it is a `kind` whose `key` is one of
    `values` (and of their type: True is no 1); else None."""
    if type(action) not in ACTION_TYPES or len(action) != 2 or action.get("type") != kind:
        return None
    value = action.get(key)
    if value not in values or type(value) is not type(values[0]):
        return None
    return made[value]


def listed(legal: Sequence[Action], wanted: Any) -> Action | None:
    """The action of `legal` that `wanted` is, if any."""
    # Bots and tests hand back the listed action itself: found by identity, compared with nothing.
    for action in legal:
        if action is wanted:
            return action
    try:
        found = legal[legal.index(wanted)]
    except ValueError:
        return None
    # `==` takes True for 1 and 1.0 for 1: an action made apart from the list (a form's, a test's) must
    # have values of the listed types too.
    if found is not wanted and any(type(wanted[key]) is not type(value) for key, value in found.items()):
        return None
    return found


class Game(ABC):
    """The engine contract (docs/engine.md): one instance per game, holding nothing between calls, so
    that every room and bot thread may share it. A state is made by `new_game` and only ever replaced.

    Besides the contract, a game declares what the site asks of it, so that nothing outside the game's
    own modules names it: `moves_at_once`, `host_only`, `rematch_options`, how a rating ranks its
    players (`lowest_wins`, `rating_sides`, `rating_rule`), `action_fields` (what a posted move may
    hold, checked by `check_action`), `round_key` (replays and charts) and `figure_lines` (statistics).
    """

    id: str
    title: str
    min_players: int
    max_players: int
    # Everybody moves at once and no other seat's move changes what yours means (Zero's cards played
    # face down): a move chosen on a table that only other seats have changed since still stands.
    moves_at_once: bool = False
    # Action types the engine accepts from any seat but the site leaves to the room's host.
    host_only: frozenset[str] = frozenset()
    # Whether the lowest score is the best (penalty points): the players' places are counted from it.
    lowest_wins = False
    # How a rating ranks the game's players, in words, where it is not each player by their own score.
    rating_rule: str | None = None
    action_fields: ActionFields
    # The view's key that counts the game's rounds (in Zero, its tricks): replays jump from round to
    # round, and charts plot the scores at the end of each.
    round_key = "round"

    @abstractmethod
    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """A new game's state, dealt: the same (players, seed, options) always give the same state, all
        randomness drawn from a generator seeded from `seed`. `options["decks"]` stacks the successive
        shuffles (docs/engine.md). A bad player count, option or deck raises ValueError."""

    @abstractmethod
    def view(self, state: State, seat: int | None, now: float = 0.0) -> dict[str, Any]:
        """What `seat` may see (None: a spectator), JSON-safe: a face-up card as its code, a face-down
        one as None; always `seat` and `hand` (a spectator's is empty), and the seat's `legal` actions."""

    @abstractmethod
    def result(self, state: State) -> dict[str, Any] | None:
        """None until the game is over; then at least {"scores": [...], "winners": [...]} (a draw has no
        winners), and whatever else the game's result screen shows."""

    def outcome(self, state: State, abandoned: bool = False) -> Outcome:
        """The game's end as one value: finished (the game must be over) or abandoned where it stands."""
        result = None if abandoned else self.result(state)
        if result is None and not abandoned:
            raise ValueError("a game ends unfinished only when it is abandoned")
        scores = tuple(self.scores(state))
        winners = tuple(result["winners"]) if result else ()
        sides = tuple(self.rating_sides(state))
        if result is not None and not winners:
            sides = tuple(Side(side.seats, 0) for side in sides)
        placed: list[int | None] = [None] * len(scores)
        if winners:
            for side, place in zip(sides, ranks([side.standing for side in sides]), strict=True):
                for seat in side.seats:
                    placed[seat] = place
        return Outcome(
            "abandoned" if abandoned else "finished",
            scores,
            winners,
            tuple(placed),
            sides,
            tuple(self.figures(state)),
            result,
        )

    def rematch_options(self, state: State, options: dict[str, Any]) -> dict[str, Any]:
        """The options of the next game at the same table, after the finished game `state` was played
        with `options`: the same, unless the game passes something on from match to match."""
        return dict(options)

    def check_action(self, action: Any) -> Action:
        """The action, if it holds only what this game's actions hold: a known `type`, that type's
        fields, and in each a plain value or a list of them (a seat and a slot, a set of cards).
        Anything else is refused whole, so that nothing the game does not know is ever stored."""
        kind = action_type(action)
        if kind not in self.action_fields:
            raise IllegalAction(f"That is not an action of {self.title}.")
        unknown = set(action) - {"type", *self.action_fields[kind]}
        if unknown:
            known = ", ".join(sorted(unknown))
            raise IllegalAction(f"That move holds what {self.title} does not know: {known}.")
        for value in action.values():
            if not (plain(value) or (type(value) is list and all(plain(item) for item in value))):
                raise IllegalAction("That move holds a value that could not be read.")
        return action

    # Who may do what: one check. `apply` does an action only if `legal_actions` lists it, so that
    # the list and the check cannot disagree; a game writes the list (`legal_actions`), the effects
    # (`perform`) and, for an action it refuses, the reason (`refusal`).

    @abstractmethod
    def legal_actions(self, state: State, seat: int | None, now: float = 0.0) -> list[Action]:
        """Every action `seat` may take now, each a JSON-safe dict with a `type`; [] when it may not act
        (a spectator, a finished game)."""

    def apply(self, state: State, seat: int, action: Action, now: float = 0.0) -> State:
        """The state after `seat` does `action`, if `legal_actions` lists it; else IllegalAction with
        the reason. Never changes `state`."""
        found = (
            self.legal_move(state, seat, action, now)
            if type(seat) is int and 0 <= seat < state["players"]
            else None
        )
        return self.perform(state, seat, found or self.check(state, seat, action, now), now)

    def check(self, state: State, seat: int, action: Any, now: float) -> Action:
        """The listed action that `action` asks for (as listed: shared, its values of the listed
        types), or IllegalAction with the reason it is refused."""
        if type(seat) is not int or not 0 <= seat < state["players"]:
            raise IllegalAction("Only a player at the table may act.")
        found = self.legal_move(state, seat, action, now)
        if found is None:
            action_type(action)
            found = self.legal_move(state, seat, self.listed_form(state, seat, action), now)
        if found is None:
            raise IllegalAction(self.refusal(state, seat, action, now) or "That move is not allowed now.")
        return found

    def legal_move(self, state: State, seat: int, action: Any, now: float) -> Action | None:
        """The action of `legal_actions` that `action` is, if any. A game may answer from what its list
        is made of (the cards a seat may play), without making the list: the same check, sooner."""
        return listed(self.legal_actions(state, seat, now), action)

    def listed_form(self, state: State, seat: int, action: Action) -> Action:
        """The action as `legal_actions` would list it, for a game that takes other spellings of one
        move (its own slot by number alone, a pair in either order); most take only the listed one."""
        return action

    @abstractmethod
    def refusal(self, state: State, seat: int, action: Action, now: float) -> str | None:
        """Why an action the list leaves out is refused, in the player's words (None: no better reason
        than that it is not allowed now). Asked only once the action is known to be refused."""

    @abstractmethod
    def perform(self, state: State, seat: int, action: Action, now: float) -> State:
        """The state after a listed action: a round's last action also scores it and deals the next."""

    def dump(self, state: State) -> dict[str, Any]:
        """The state as JSON-safe data; `load` gives it back, equal, and so does a dump of that."""
        return thaw(state)

    def load(self, data: dict[str, Any]) -> State:
        """The state `dump` made `data` from."""
        return freeze(data)

    def scores(self, state: State) -> list[int]:
        """Each seat's score so far, in the game's own figures (points; penalty points where the lowest
        wins; Trump Card's cards banked by the seat's team), as most games keep them in `state["scores"]`."""
        return list(state["scores"])

    def next_change(self, state: State, now: float) -> float | None:
        """When a view next changes with no action (Cabo's sightings running out); None: never."""
        return None

    def rating_sides(self, state: State) -> list[Side]:
        """The sides a rating ranks against each other at the game's end: by default every seat on its
        own, standing by its score (turned round where the lowest score wins)."""
        sign = -1 if self.lowest_wins else 1
        return [Side((seat,), sign * score) for seat, score in enumerate(self.scores(state))]

    # The turn clock

    def awaited(self, state: State, now: float) -> list[int]:
        """The seats the table is waiting for, whose clocks run: in a game of turns, the player whose
        turn it is (the turn is None once the game is over)."""
        turn = state["turn"]
        return [] if turn is None else [turn]

    def timeout_actions(self, state: State, seat: int, now: float) -> list[Action]:
        """What may be done for an awaited seat whose time ran out: its legal actions, less any the rules
        leave optional (a timeout never makes an optional move; it ends the step instead)."""
        return self.legal_actions(state, seat, now)

    # Records: replays and statistics

    def open_view(self, state: State, now: float = 0.0) -> dict[str, Any]:
        """The table as a spectator sees it, with every card face up: `hands` holds each seat's cards,
        for a replay with all cards open (never for a game in progress)."""
        return {**self.view(state, None, now), "hands": [list(hand) for hand in state["hands"]], "open": True}

    @abstractmethod
    def figures(self, state: State) -> list[dict[str, Any]]:
        """Each seat's game-specific figures so far, JSON-safe, for the players' statistics."""

    @staticmethod
    @abstractmethod
    def figure_lines(figures: list[dict[str, Any]], durations: list[float]) -> list[tuple[str, str]]:
        """A player's own lines of statistics at this game, (label, figure), from the `figures` of every
        game they finished there and how many seconds each took."""
