"""Zero: everyone plays a card face down at once, then everyone guesses the sum (docs/rules/zero.md)."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any, ClassVar

from ..base import (
    Action,
    ActionFields,
    Game,
    SharedAction,
    State,
    checked_options,
    seat_option,
    stacked_decks,
    whole_number,
    winners,
)
from ..cards import deal, shuffle
from ..figures import totals

OPTIONS = {"first_guesser", "decks"}

# One -3, two -2, six -1, twelve 0, eight +1, thirteen +2, thirteen +3. A card's code is its value.
COUNTS = {-3: 1, -2: 2, -1: 6, 0: 12, 1: 8, 2: 13, 3: 13}
DECK: tuple[int, ...] = tuple(value for value, count in COUNTS.items() for _ in range(count))
DEALT = 5
REFILL_TO = 3
SAFE_SUMS = (0, 10)
# Settled: every game ends after this trick (its safe-set step included).
MAX_TRICKS = 100

# Settled: 3 to 7 players.
MOST_PLAYERS = 7
# Legal actions made once and handed out again (see SharedAction): a guesser may have 43 of them.
PLAYS = {card: SharedAction(type="play", card=card) for card in COUNTS}
GUESSES = {
    total: SharedAction(type="guess", total=total) for total in range(-3 * MOST_PLAYERS, 3 * MOST_PLAYERS + 1)
}
DONE = SharedAction(type="done")
# Every guess from -bound to bound, by the bound (3 times the players).
GUESS_ROWS = {
    3 * players: [GUESSES[total] for total in range(-3 * players, 3 * players + 1)]
    for players in range(3, MOST_PLAYERS + 1)
}


class Zero(Game):
    id = "zero"
    round_key = "trick"
    title = "Zero"
    min_players = 3
    max_players = MOST_PLAYERS
    moves_at_once = True  # every card is played face down, each seat on its own
    action_fields: ClassVar[ActionFields] = {
        "play": ("card",),
        "guess": ("total",),
        "safe": ("cards",),
        "done": (),
    }

    # Set-up

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        options = checked_options(self, players, options, OPTIONS)
        drawn = random.Random(f"{seed}/first_guesser").randrange(players)
        first = seat_option(options, "first_guesser", players, drawn)
        # Zero shuffles once: played cards go under the pile, never back into a new shuffle.
        deck = shuffle(DECK, seed, 0, stacked_decks(options))
        if not all(whole_number(card) for card in deck):
            raise ValueError("stacked deck 0 must hold card values, whole numbers from -3 to 3")
        hands, taken = deal(deck, players, DEALT, first)
        state: State = {
            "players": players,
            "seed": seed,
            "trick": 1,
            "first_guesser": first,
            "hands": tuple(tuple(sorted(hand)) for hand in hands),
            # Top card first; only its size is public.
            "pile": deck[taken:],
            "safe": ((),) * players,
            "reveal": None,
            "last": None,
            "end": None,
        }
        return begin_trick(state)

    # A trick

    def legal_actions(self, state: State, seat: int | None, now: float = 0.0) -> list[Action]:
        if seat is None:
            return []
        phase = state["phase"]
        if phase == "play":
            # Everybody acts at once: each seat that has not played yet may play any card it holds.
            if state["played"][seat] is not None:
                return []
            return list(map(PLAYS.__getitem__, sorted(set(state["hands"][seat]))))
        if seat != state["turn"]:  # the turn is None once the game is over
            return []
        if phase == "guess":
            bound = guess_bound(state)
            # Each guess made leaves the list, highest first so that the places of the rest hold.
            legal = GUESS_ROWS[bound][:]
            for total in sorted((total for _, total in state["guesses"]), reverse=True):
                del legal[total + bound]
            return legal
        return [{"type": "safe", "cards": list(cards)} for cards in safe_sets(state["hands"][seat])] + [DONE]

    def listed_form(self, state: State, seat: int, action: Action) -> Action:
        """A safe set's cards in any order: listed highest first."""
        cards = action.get("cards")
        if action["type"] == "safe" and isinstance(cards, list | tuple) and all(map(whole_number, cards)):
            return {**action, "cards": sorted(cards, reverse=True)}
        return action

    def perform(self, state: State, seat: int, action: Action, now: float) -> State:
        kind = action["type"]
        if kind == "play":
            return play(state, seat, action["card"])
        if kind == "guess":
            return guess(state, seat, action["total"])
        if kind == "safe":
            return lay_safe_set(state, seat, tuple(action["cards"]))
        return done(state, seat)

    def refusal(self, state: State, seat: int, action: Action, now: float) -> str | None:
        kind = action["type"]
        if state["phase"] == "over":
            return "The game is over."
        if kind == "play":
            return play_refusal(state, seat, action.get("card"))
        if kind == "guess":
            return guess_refusal(state, seat, action.get("total"))
        if kind == "safe":
            return safe_set_refusal(state, seat, action.get("cards"))
        if kind == "done":
            return safe_step_refusal(state, seat)
        return "That is not an action of Zero."

    # The turn clock

    def awaited(self, state: State, now: float) -> list[int]:
        """Everyone still to play a card face down; else the guesser, or the player laying safe sets."""
        if state["phase"] == "play":
            return [seat for seat, card in enumerate(state["played"]) if card is None]
        return super().awaited(state, now)

    def timeout_actions(self, state: State, seat: int, now: float) -> list[Action]:
        """Safe sets are optional: a timeout in that step closes it as done."""
        if state["phase"] == "safe":
            return [DONE] if seat == state["turn"] else []
        return self.legal_actions(state, seat, now)

    # Scoring

    def scores(self, state: State) -> list[int]:
        """One point per safe card, whatever its value."""
        return [sum(map(len, sets)) for sets in state["safe"]]

    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != "over":
            return None
        scores = self.scores(state)
        return {"scores": scores, "winners": winners(scores), "end": state["end"]}

    # Dump and load by hand, key by key: the state's shape is fixed and shallow, and this is several
    # times faster than the generic JSON round trip (long random playouts dump at every step).

    def figures(self, state: State) -> list[dict[str, Any]]:
        """Safe cards laid, by seat (each one is a point)."""
        return [{"safe_cards": score} for score in self.scores(state)]

    @staticmethod
    def figure_lines(figures: list[dict[str, Any]], durations: list[float]) -> list[tuple[str, str]]:
        summed = totals(figures)
        return [("Safe cards", f"{summed['safe_cards']} ({summed['safe_cards'] / len(figures):.1f} a game)")]

    def open_view(self, state: State, now: float = 0.0) -> dict[str, Any]:
        """Every hand face up, and this trick's cards played face down (`played`, None for no card yet)."""
        return {**super().open_view(state, now), "played": list(state["played"])}

    def dump(self, state: State) -> dict[str, Any]:
        return {
            **state,
            "hands": [list(hand) for hand in state["hands"]],
            "pile": list(state["pile"]),
            "played": list(state["played"]),
            "guesses": [list(pair) for pair in state["guesses"]],
            "safe": [[list(cards) for cards in sets] for sets in state["safe"]],
            "reveal": reveal_view(state["reveal"]),
            "last": last_view(state["last"]),
        }

    def load(self, data: dict[str, Any]) -> State:
        reveal, last = data["reveal"], data["last"]
        if reveal is not None:
            reveal = {
                **reveal,
                "cards": tuple(reveal["cards"]),
                "guesses": tuple(map(tuple, reveal["guesses"])),
                "zeros": tuple(reveal["zeros"]),
            }
        if last is not None:
            last = {**last, "cards": tuple(last["cards"])} if "cards" in last else dict(last)
        return {
            **data,
            "hands": tuple(map(tuple, data["hands"])),
            "pile": tuple(data["pile"]),
            "played": tuple(data["played"]),
            "guesses": tuple(map(tuple, data["guesses"])),
            "safe": tuple(tuple(map(tuple, sets)) for sets in data["safe"]),
            "reveal": reveal,
            "last": last,
        }

    # View

    def view(self, state: State, seat: int | None, now: float = 0.0) -> dict[str, Any]:
        hands, played = state["hands"], state["played"]
        bound = guess_bound(state)
        scores = self.scores(state)
        return {
            "seat": seat,
            "hand": list(hands[seat]) if seat is not None else [],
            "players": state["players"],
            "phase": state["phase"],
            "turn": state["turn"],
            "trick": state["trick"],
            "first_guesser": state["first_guesser"],
            "hand_sizes": list(map(len, hands)),
            "pile_size": len(state["pile"]),
            # Until the reveal only "has played / has not" is public; a seat sees its own card.
            "has_played": [card is not None for card in played],
            "played_card": played[seat] if seat is not None else None,
            "guesses": list(map(list, state["guesses"])),
            "guess_range": [-bound, bound],
            "guess_order": guess_order(state),
            "reveal": reveal_view(state["reveal"]),
            "safe": [list(map(list, sets)) for sets in state["safe"]],
            "scores": scores,
            "last": last_view(state["last"]),
            "legal": self.legal_actions(state, seat),
            "result": self.result(state) if state["phase"] == "over" else None,
        }


# 1. Refill and 2. the end check


def begin_trick(state: State) -> State:
    """Refill every hand to 3 from the first guesser on, then the end check, then everyone plays."""
    players, first = state["players"], state["first_guesser"]
    state = refill(state, [(first + offset) % players for offset in range(players)])
    if not state["pile"] and not all(state["hands"]):
        return game_over(state, "empty")
    return {**state, "phase": "play", "turn": None, "played": (None,) * players, "guesses": ()}


def refill(state: State, seats: list[int]) -> State:
    """Each seat in turn draws from the top of the pile until it holds 3 or the pile is empty."""
    hands, pile = list(state["hands"]), state["pile"]
    for seat in seats:
        short = REFILL_TO - len(hands[seat])
        if short > 0 and pile:
            hands[seat] = tuple(sorted(hands[seat] + pile[:short]))
            pile = pile[short:]
    return {**state, "hands": tuple(hands), "pile": pile}


def next_trick(state: State) -> State:
    """After the reveal and any safe sets: the cap, else the first guesser moves one seat left."""
    if state["trick"] == MAX_TRICKS:
        return game_over(state, "cap")
    return begin_trick(
        {
            **state,
            "trick": state["trick"] + 1,
            "first_guesser": (state["first_guesser"] + 1) % state["players"],
        }
    )


# 3. Play


def play_refusal(state: State, seat: int, card: Any) -> str | None:
    if state["phase"] != "play":
        return not_now(state, "play a card")
    if state["played"][seat] is not None:
        return "You have already played a card this trick."
    if not whole_number(card) or card not in state["hands"][seat]:
        return "You do not hold that card."
    return None


def play(state: State, seat: int, card: int) -> State:
    played = state["played"]
    hand = state["hands"][seat]
    at = hand.index(card)
    hands = state["hands"][:seat] + (hand[:at] + hand[at + 1 :],) + state["hands"][seat + 1 :]
    played = played[:seat] + (card,) + played[seat + 1 :]
    # The card's value stays out of `last`: nobody else may learn it before the reveal.
    state = {**state, "hands": hands, "played": played, "last": {"seat": seat, "type": "play"}}
    if None not in played:
        return {**state, "phase": "guess", "turn": state["first_guesser"]}
    return state


# 4. Guess


def guess_order(state: State) -> list[int]:
    """The seats in the order they guess: from the first guesser, clockwise."""
    players, first = state["players"], state["first_guesser"]
    return [(first + offset) % players for offset in range(players)]


def guess_bound(state: State) -> int:
    """Settled: a guess lies between -3n and +3n, the totals n cards can make."""
    return 3 * state["players"]


def guess_refusal(state: State, seat: int, total: Any) -> str | None:
    if state["phase"] != "guess":
        return not_now(state, "guess")
    if seat != state["turn"]:
        return "It is not your turn to guess."
    bound = guess_bound(state)
    if not whole_number(total) or not -bound <= total <= bound:
        return f"A guess is a whole number from {-bound} to {bound}."
    if any(said == total for _, said in state["guesses"]):
        return f"{total} has already been guessed this trick: every guess must differ."
    return None


def guess(state: State, seat: int, total: int) -> State:
    guesses = (*state["guesses"], (seat, total))
    last = {"seat": seat, "type": "guess", "total": total}
    if len(guesses) == state["players"]:
        # The last guess turns the cards up: `reveal` in the view tells what happened.
        return reveal({**state, "guesses": guesses, "last": {**last, "revealed": True}})
    return {**state, "guesses": guesses, "last": last, "turn": (seat + 1) % state["players"]}


# 5. Reveal


def reveal(state: State) -> State:
    """All cards face up: the exact guesser, else a lone 0, takes them; else they go under the pile."""
    played, hands, pile = state["played"], list(state["hands"]), state["pile"]
    total = sum(played)
    zeros = tuple(seat for seat, card in enumerate(played) if card == 0)
    taker = next((seat for seat, said in state["guesses"] if said == total), None)
    outcome = "guessed"
    if taker is None and len(zeros) == 1:
        taker, outcome = zeros[0], "zero"
    if taker is not None:
        hands[taker] = tuple(sorted(hands[taker] + played))
    elif zeros:
        # The zeros cancel: each goes back to its owner, the rest under the pile from seat 0 on.
        outcome = "zeros_cancel"
        for seat in zeros:
            hands[seat] = tuple(sorted((*hands[seat], 0)))
        pile += tuple(card for card in played if card != 0)
    else:
        outcome = "pile"
        pile += played
    summary = {
        "trick": state["trick"],
        "cards": played,
        "total": total,
        "guesses": state["guesses"],
        "outcome": outcome,
        "taker": taker,
        "zeros": zeros,
    }
    state = {
        **state,
        "hands": tuple(hands),
        "pile": pile,
        "played": (None,) * state["players"],
        "reveal": summary,
    }
    return safe_set_step(state, taker)


def reveal_view(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """The last reveal in its JSON form, as views and dumps hold it."""
    if summary is None:
        return None
    return {
        **summary,
        "cards": list(summary["cards"]),
        "guesses": list(map(list, summary["guesses"])),
        "zeros": list(summary["zeros"]),
    }


def last_view(last: dict[str, Any] | None) -> dict[str, Any] | None:
    """The last action in public terms: a play never names its card (see `play`)."""
    if last is None:
        return None
    return {**last, "cards": list(last["cards"])} if "cards" in last else dict(last)


# 6. Safe sets


@lru_cache(maxsize=1 << 15)
def safe_sets(hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every different set of cards from `hand` (sorted) whose values sum to exactly 0 or 10."""
    counts = Counter(hand)
    values = sorted(counts, reverse=True)
    # The lowest and highest sums the values from index i on can still add.
    low, high = [0] * (len(values) + 1), [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        extreme = values[i] * counts[values[i]]
        low[i], high[i] = low[i + 1] + min(0, extreme), high[i + 1] + max(0, extreme)
    found: list[tuple[int, ...]] = []
    # Depth first over (next value's index, sum so far, cards chosen), with a stack of its own: a
    # nested function calling itself would be a reference cycle left to the collector at every call.
    stack: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
    while stack:
        i, total, chosen = stack.pop()
        if i == len(values):
            if chosen and total in SAFE_SUMS:
                found.append(chosen)
            continue
        value = values[i]
        for k in range(counts[value], -1, -1):  # pushed last-first: taken in the order of k
            reached = total + value * k
            if any(reached + low[i + 1] <= aim <= reached + high[i + 1] for aim in SAFE_SUMS):
                stack.append((i + 1, reached, chosen + (value,) * k))
    return tuple(found)


def safe_set_step(state: State, taker: int | None) -> State:
    """Only a player who just took cards may lay sets; the step ends at once if they hold none."""
    if taker is not None and safe_sets(state["hands"][taker]):
        return {**state, "phase": "safe", "turn": taker}
    return next_trick(state)


def safe_set_refusal(state: State, seat: int, cards: Any) -> str | None:
    step = safe_step_refusal(state, seat)
    if step:
        return step
    if not isinstance(cards, list | tuple) or not cards or not all(whole_number(card) for card in cards):
        return "A safe set is one or more cards from your hand."
    left = Counter(state["hands"][seat])
    left.subtract(cards)
    if min(left.values()) < 0:
        return "You do not hold those cards."
    if sum(cards) not in SAFE_SUMS:
        return "A safe set must sum to exactly 0 or exactly 10."
    return None


def lay_safe_set(state: State, seat: int, laid: tuple[int, ...]) -> State:
    """Lay `laid` (highest first) from the hand."""
    left = Counter(state["hands"][seat])
    left.subtract(laid)
    hands = list(state["hands"])
    hands[seat] = tuple(sorted(left.elements()))
    safe = list(state["safe"])
    safe[seat] += (laid,)
    state = {**state, "hands": tuple(hands), "safe": tuple(safe)}
    # Below 3 cards after a set: refill at once; the new cards may make further sets.
    before = len(state["pile"])
    state = refill(state, [seat])
    state = {
        **state,
        "last": {"seat": seat, "type": "safe", "cards": laid, "drew": before - len(state["pile"])},
    }
    if safe_sets(state["hands"][seat]):
        return state
    return next_trick(state)


def done(state: State, seat: int) -> State:
    return next_trick({**state, "last": {"seat": seat, "type": "done"}})


def safe_step_refusal(state: State, seat: int) -> str | None:
    if state["phase"] != "safe" or seat != state["turn"]:
        return "Only the player who just took the played cards may lay safe sets, right after."
    return None


def not_now(state: State, what: str) -> str:
    """Why a seat may not `what` in this phase, in a player's words."""
    if state["phase"] == "play":
        return f"You cannot {what} yet: everyone must first play a card."
    if state["phase"] == "guess":
        return f"You cannot {what} now: everyone has played, it is time to guess."
    return f"You cannot {what} now: the player who took the cards is laying safe sets."


# End


def game_over(state: State, end: str) -> State:
    """`end` says why: "empty" (a hand and the pile are empty) or "cap" (the 100th trick is over)."""
    return {
        **state,
        "phase": "over",
        "turn": None,
        "played": (None,) * state["players"],
        "guesses": (),
        "end": end,
    }


RULES = Zero()
