"""Random playouts that check the engine contract's invariants; shared by every game's tests.

A game's test module supplies what only it knows: which cards exist (`deck`), where every card is in a
state (`cards_of`), and which cards a seat must not see in a state (`secret`, or `secret_at` for a game
whose views change with time: then also `later`, to look at every view again some seconds on).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii
from typing import Any

from zerogames.games import Game, IllegalAction

State = dict[str, Any]
CardsOf = Callable[[State], Iterable[Hashable]]
Secret = Callable[[State, int | None], Iterable[Hashable]]
# Which cards a seat must not see in a state at a given moment (for views that change with time).
SecretAt = Callable[[State, int | None, float], Iterable[Hashable]]
# Which seat does what, given the seats that may act and their legal actions.
Pick = Callable[[random.Random, list[tuple[int, list[dict]]]], tuple[int, dict]]


@dataclass
class Playout:
    """One finished random game: its set-up, its log and its final state."""

    players: int
    seed: int
    options: dict[str, Any]
    log: list[tuple[int, dict[str, Any], float]] = field(default_factory=list)
    final: State | None = None


QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def strings_in(value: Any) -> set[str]:
    """Every string anywhere in a JSON-like value: where a card code would show up in a view."""
    return set(QUOTED.findall(json.dumps(value)))


def acting_seats(rules: Game, state: State, players: int, now: float) -> list[tuple[int, list[dict]]]:
    seats = []
    for seat in range(players):
        legal = rules.legal_actions(state, seat, now)
        if legal:
            seats.append((seat, legal))
    return seats


def assert_refused(rules: Game, state: State, seat: int, action: Any, now: float) -> None:
    """An illegal action raises IllegalAction with a reason a player can read.

    (That it changed nothing is checked by the caller, once for the whole step.)
    """
    try:
        rules.apply(state, seat, action, now)
    except IllegalAction as refusal:
        assert isinstance(refusal.reason, str) and len(refusal.reason) > 5, refusal.reason
    else:
        raise AssertionError(f"seat {seat} was allowed {action!r}")


def check_agreement(
    rules: Game,
    state: State,
    seats: list[tuple[int, list[dict]]],
    others: list[dict],
    now: float,
    rng: random.Random,
) -> None:
    """`legal_actions` and `apply` agree: listed actions apply (a few of each acting seat's), and
    actions listed elsewhere in the game but not for this seat now are refused with a reason."""
    for seat, legal in seats:
        for action in rng.sample(legal, min(AGREEMENT_SAMPLE, len(legal))):
            try:
                rules.apply(state, seat, action, now)
            except IllegalAction as refusal:
                raise AssertionError(
                    f"seat {seat} was listed {action!r} but refused: {refusal.reason}"
                ) from None
        for action in rng.sample(others, min(AGREEMENT_SAMPLE, len(others))):
            if action not in legal:
                assert_refused(rules, state, seat, action, now)
        others.append(rng.choice(legal))
    del others[:-OTHERS_KEPT]


# How many listed actions of each acting seat are applied at each step, and how many actions listed
# earlier are offered to it; how many earlier actions are kept to offer.
AGREEMENT_SAMPLE = 3
OTHERS_KEPT = 200


def check_views(
    rules: Game,
    state: State,
    players: int,
    now: float,
    secret: Secret | None,
    secret_at: SecretAt | None = None,
) -> None:
    for seat in [*range(players), None]:
        view = rules.view(state, seat, now)
        text = json.dumps(view)
        assert view["seat"] == seat
        assert isinstance(view["hand"], list)
        if seat is None:
            assert view["hand"] == []
        hidden = [
            *(secret(state, seat) if secret else ()),
            *(secret_at(state, seat, now) if secret_at else ()),
        ]
        # A code in JSON, quotes and all, is in the text exactly when some string there is that code.
        leaked = [card for card in hidden if isinstance(card, str) and encode_basestring_ascii(card) in text]
        assert not leaked, f"seat {seat} sees {sorted(leaked)} at {now}"


def random_pick(rng: random.Random, seats: list[tuple[int, list[dict]]]) -> tuple[int, dict]:
    """Any seat that may act, any of its legal actions."""
    seat, legal = rng.choice(seats)
    return seat, rng.choice(legal)


def random_playout(
    rules: Game,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    deck: Iterable[Hashable] | None = None,
    cards_of: CardsOf | None = None,
    secret: Secret | None = None,
    secret_at: SecretAt | None = None,
    later: tuple[float, SecretAt] | None = None,
    pick: Pick = random_pick,
    seconds_per_action: float = 0.0,
    max_actions: int = 50_000,
    checks: bool = True,
) -> Playout:
    """Play one game with random legal actions (from random seats), checking invariants at each step.

    At every step: legal_actions and apply agree (check_agreement); apply leaves its input unchanged;
    every card is accounted for; no view holds a secret card (nor, `later[0]` seconds on, a card of
    `later[1]`); the state survives dump/load (the game goes on from the loaded copy); a seat with no
    legal action and a nonsense action are both refused with a reason. At the end: the game ended,
    and replaying the log from the start rebuilds the same state. The clock moves on by
    `seconds_per_action` on average; `pick` chooses the moves.
    """
    rng = random.Random(seed)
    options = dict(options or {})
    playout = Playout(players, seed, options)
    full_deck = Counter(deck) if deck is not None else None
    others: list[dict] = []
    # The agreement checks draw from a generator of their own: the games played stay as they were.
    sampler = random.Random(f"{seed}/agreement")
    state = rules.new_game(players, seed, options)
    now = 0.0
    for _ in range(max_actions):
        if rules.result(state) is not None:
            break
        seats = acting_seats(rules, state, players, now)
        assert seats, "nobody can act, yet the game is not over"
        seat, action = pick(rng, seats)
        if checks:
            before = rules.dump(state)
            idle = [s for s in range(players) if s not in {s for s, _ in seats}]
            if idle:
                assert_refused(rules, state, rng.choice(idle), action, now)
            assert_refused(rules, state, seat, {"type": "no-such-action"}, now)
            check_agreement(rules, state, seats, others, now, sampler)
        new = rules.apply(state, seat, action, now)
        playout.log.append((seat, action, now))
        if checks:
            assert rules.dump(state) == before, "apply or a refusal changed its input"
            if cards_of is not None and full_deck is not None:
                assert Counter(cards_of(new)) == full_deck, "cards were lost or made"
            check_views(rules, new, players, now, secret, secret_at)
            if later is not None:
                check_views(rules, new, players, now + later[0], None, later[1])
            dumped = rules.dump(new)
            assert json.loads(json.dumps(dumped)) == dumped
            new = rules.load(dumped)
            assert rules.dump(new) == dumped
        state = new
        now += rng.uniform(0, 2 * seconds_per_action)
    result = rules.result(state)
    assert result is not None, f"the game did not end within {max_actions} actions"
    assert result["scores"] == rules.scores(state)
    assert set(result["winners"]) <= set(range(players))
    playout.final = state
    if checks:
        assert rules.dump(replay(rules, playout)) == rules.dump(state), "replaying the log differs"
    return playout


def replay(rules: Game, playout: Playout) -> State:
    state = rules.new_game(playout.players, playout.seed, playout.options)
    for seat, action, now in playout.log:
        state = rules.apply(state, seat, action, now)
    return state


def seeds_and_players(rules: Game, games: int = 300) -> list[tuple[int, int]]:
    """`games` seeds spread over every player count the game allows."""
    counts = range(rules.min_players, rules.max_players + 1)
    return [(seed, counts[seed % len(counts)]) for seed in range(games)]
