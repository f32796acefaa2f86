"""Cabo's Easy bot: keep low cards, throw high ones, use powers simply, call Cabo when it looks low.

It decides from what its view shows right now: in memory mode that is only the cards whose sighting
has not yet run out, so it forgets as a hurried player does.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..cards import STANDARD_DECK

# How long its seat may think (zerogames.bots), whatever the budget.
from ..search import TIME_LIMIT as TIME_LIMIT
from ..search import OutOfTime, best, mean_by_deals
from .rules import EMPTY, VALUE, power_of, round_points, total

# A card this low is worth taking from the pile or keeping in place of an unknown card.
LOW = 3
KEEP_OVER_UNKNOWN = 5
# What an unseen card of one's own is reckoned to be worth.
UNKNOWN_WORTH = 5
# Call Cabo when the reckoned total is this low; now and then call anyway, so that rounds end.
CALL_AT = 8
CALL_ANYWAY = 0.03


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any] | None:
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    if "peek" in by_type:
        return by_type["peek"][0]
    if "give" in by_type:
        return give(view, by_type["give"], rng)
    if "keep" in by_type:
        return keep_or_discard(view, by_type, rng)
    if "look" in by_type or "swap" in by_type:
        return use_power(view, by_type, rng)
    snap = sure_snap(view, by_type.get("snap", []))
    if snap is not None:
        return snap
    if "draw" in by_type:
        return start_turn(view, by_type, rng)
    # Only snaps are left and none is sure: a person would keep their hands still, and so does the bot.
    return None


def known(view: dict[str, Any]) -> dict[int, int]:
    """The values of its own cards it sees now, by slot."""
    return {slot: VALUE[card] for slot, card in enumerate(view["hand"]) if card not in (None, EMPTY)}


def unknown(view: dict[str, Any]) -> list[int]:
    return [slot for slot, card in enumerate(view["hand"]) if card is None]


def place_for(view: dict[str, Any], value: int, rng: random.Random) -> int | None:
    """The slot a card of this value should go to: over its highest known card if higher, else over
    an unknown card if the new one is low; None to let it go."""
    values = known(view)
    highest = max(values, key=values.__getitem__, default=None)
    if highest is not None and values[highest] > max(value, KEEP_OVER_UNKNOWN):
        return highest
    blind = unknown(view)
    if blind and value <= KEEP_OVER_UNKNOWN:
        return rng.choice(blind)
    if highest is not None and values[highest] > value:
        return highest
    return None


def give(view: dict[str, Any], gives: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Hand over its highest known card if it is no better than an unknown one, else an unknown one."""
    values = known(view)
    blind = [action for action in gives if action["slot"] not in values]
    seen = [action for action in gives if action["slot"] in values]
    if seen:
        highest = max(seen, key=lambda action: values[action["slot"]])
        if values[highest["slot"]] >= UNKNOWN_WORTH or not blind:
            return highest
    return rng.choice(blind)


def start_turn(view: dict[str, Any], by_type: dict[str, list], rng: random.Random) -> dict[str, Any]:
    values = known(view)
    reckoned = sum(values.values()) + UNKNOWN_WORTH * len(unknown(view))
    if "cabo" in by_type and (reckoned <= CALL_AT or rng.random() < CALL_ANYWAY):
        return by_type["cabo"][0]
    top = VALUE[view["discard"]]
    if top <= LOW:
        slot = place_for(view, top, rng)
        for action in by_type.get("take", []):
            if action["slot"] == slot:
                return action
    return by_type["draw"][0]


def keep_or_discard(view: dict[str, Any], by_type: dict[str, list], rng: random.Random) -> dict[str, Any]:
    slot = place_for(view, VALUE[view["drawn"]], rng)
    for action in by_type["keep"]:
        if action["slot"] == slot:
            return action
    return by_type["discard"][0]


def use_power(view: dict[str, Any], by_type: dict[str, list], rng: random.Random) -> dict[str, Any]:
    """Look at an unknown card of its own if it may, else at anyone's; swap only a sure gain."""
    seat = view["seat"]
    looks = by_type.get("look", [])
    if looks:
        blind = set(unknown(view))
        own = [look for look in looks if look["seat"] == seat and look["slot"] in blind]
        return rng.choice(own or looks)
    swap = good_swap(view, by_type.get("swap", []))
    return swap if swap is not None else by_type["skip"][0]


def good_swap(view: dict[str, Any], swaps: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Its highest known card for a lower card it sees in another hand."""
    seat = view["seat"]
    values = known(view)
    if not values:
        return None
    mine = max(values, key=values.__getitem__)
    lower = [
        (VALUE[card], other, slot)
        for other, hand in enumerate(view["hands"])
        if other != seat
        for slot, card in enumerate(hand)
        if card not in (None, EMPTY) and VALUE[card] < values[mine]
    ]
    if not lower:
        return None
    best = min(lower)[1:]
    for swap in swaps:
        if {tuple(swap["a"]), tuple(swap["b"])} == {(seat, mine), best}:
            return swap
    return None


def sure_snap(view: dict[str, Any], snaps: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A snap of a card it sees with the top discard's rank: its own first, then another's."""
    rank = view["discard"][0]
    seat = view["seat"]
    sure = [
        action
        for action in snaps
        if (card := view["hands"][action["seat"]][action["slot"]]) not in (None, EMPTY) and card[0] == rank
    ]
    sure.sort(key=lambda action: action["seat"] != seat)
    return sure[0] if sure else None


# Normal and Hard remember every card their seat has seen, and follow it when it moves: a view shows a
# card only while its sighting lasts, but a player who pays attention knows where it went.


class Memory:
    """Cards by board position ((seat, slot) to code) as last seen, the discard pile, and the slots of
    its own each seat has seen (its peeks, keeps, takes and looks; a swap or a hand-over hides them)."""

    def __init__(self) -> None:
        self.round: int | None = None
        self.cards: dict[tuple[int, int], str] = {}
        self.pile: list[str] = []
        self.owners: dict[int, set[int]] = {}
        self.moment: Any = None

    def see(self, view: dict[str, Any]) -> None:
        moment = (
            view["round"],
            view["phase"],
            view["turn"],
            view["step"],
            view["discards"],
            view["deck"],
            repr(view["last"]),
            repr(view["hands"]),
        )
        if moment == self.moment:
            return
        self.moment = moment
        if view["round"] != self.round:
            self.owners = {}
        if view["round"] != self.round or view["phase"] == "peek":
            self.round, self.cards, self.pile = view["round"], {}, [view["discard"]]
            self.owners_saw(view["last"])
        elif view["phase"] == "play":
            self.owners_saw(view["last"])
            self.moved(view["last"], view["seat"])
            self.follow_pile(view)
        for seat, hand in enumerate(view["hands"]):
            for slot, card in enumerate(hand):
                if card == EMPTY:
                    self.cards.pop((seat, slot), None)
                elif card is not None:
                    self.cards[(seat, slot)] = card

    def moved(self, last: dict[str, Any] | None, me: int) -> None:
        """Follow the cards the last action moved (it is public which slots, if not which faces)."""
        if not last:
            return
        kind, seat = last["type"], last["seat"]
        if kind == "keep" and seat != me:
            self.cards.pop((seat, last["slot"]), None)
        elif kind == "take" and "card" in last:
            self.cards[(seat, last["slot"])] = last["card"]
        elif kind == "take":
            self.cards[(seat, last["slot"])] = self.pile[-1] if self.pile else None
        elif kind == "swap":
            a, b = tuple(last["a"]), tuple(last["b"])
            first, second = self.cards.pop(a, None), self.cards.pop(b, None)
            if first:
                self.cards[b] = first
            if second:
                self.cards[a] = second
        elif kind == "snap" and last["hit"]:
            self.cards.pop(tuple(last["target"]), None)
        elif kind == "give":
            card = self.cards.pop((seat, last["slot"]), None)
            if card:
                self.cards[tuple(last["to"])] = card

    def owners_saw(self, last: dict[str, Any] | None) -> None:
        """Follow which slots of its own each seat has seen: it is public which slots a move touched."""
        if not last:
            return
        kind, seat = last["type"], last["seat"]
        own = self.owners.setdefault(seat, set())
        if kind == "peek":
            own.update(last["slots"])
        elif kind in ("keep", "take"):
            own.add(last["slot"])
        elif kind == "look" and last["target"][0] == seat:
            own.add(last["target"][1])
        elif kind == "swap":
            for owner, slot in (last["a"], last["b"]):
                self.owners.setdefault(owner, set()).discard(slot)
        elif kind == "give":
            own.discard(last["slot"])
            to, slot = last["to"]
            self.owners.setdefault(to, set()).discard(slot)

    def follow_pile(self, view: dict[str, Any]) -> None:
        """The discard pile, card by card: every card on it landed face up."""
        if view["discards"] == len(self.pile) + 1:
            self.pile.append(view["discard"])
        elif view["discards"] == len(self.pile) - 1:
            self.pile.pop()
        elif view["discards"] != len(self.pile):
            # Reshuffled into a new deck (or missed): only the top is known.
            self.pile = [view["discard"]]

    def remembered(self, view: dict[str, Any]) -> dict[str, Any]:
        """The view with every remembered card face up where it now lies: what Easy would do if it
        remembered is then what Normal does."""
        hands = [
            [self.cards.get((seat, slot), card) if card is None else card for slot, card in enumerate(hand)]
            for seat, hand in enumerate(view["hands"])
        ]
        return {**view, "hands": hands, "hand": hands[view["seat"]]}


def reckoned(hand: list[str | None], unknown: float) -> float:
    """A hand's total as far as it is known, an unknown card counted at `unknown`."""
    return sum(unknown if card is None else VALUE[card] for card in hand if card != EMPTY)


def normal(
    view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random
) -> dict | None:
    """Easy's play on the cards it remembers, calling Cabo once its hand looks lower than every other."""
    seen = memory.remembered(view)
    by_type = {action["type"] for action in legal}
    if "cabo" in by_type and calls_now(seen, memory):
        return next(action for action in legal if action["type"] == "cabo")
    action = choose(seen, [a for a in legal if a["type"] != "cabo"] or legal, "normal", rng)
    return action


def calls_now(view: dict[str, Any], memory: Memory) -> bool:
    """Call when the hand is surely low, or lower than every other hand as far as it is known."""
    unknown = unseen_mean(view, memory)
    mine = reckoned(view["hand"], unknown)
    others = [reckoned(hand, unknown) for seat, hand in enumerate(view["hands"]) if seat != view["seat"]]
    return mine <= SURELY_LOW or mine + MARGIN <= min(others)


# Call at once below this; else only with this lead over every other hand.
SURELY_LOW = 4
MARGIN = 4


def unseen_mean(view: dict[str, Any], memory: Memory) -> float:
    """The average value of the cards this seat has not placed."""
    placed = Counter(memory.cards.values()) + Counter(memory.pile)
    unseen = Counter(STANDARD_DECK) - placed
    total = sum(unseen.values())
    return sum(VALUE[card] * times for card, times in unseen.items()) / total if total else UNKNOWN_WORTH


# Hard weighs every move of its own turn (the draw or the take, the keep, each look and swap of a
# power, the call) over deals of the cards it has not placed: each deal puts them into the slots it
# does not remember and the deck, and each move is played out to the round's end on a lean model of
# the round (no snaps) in which every seat, Hard included, plays as Normal on the cards it knows. What
# a seat knows is kept by card, so it follows every swap: Hard's own memory, and for each other seat
# the slots of its own it is known to have seen (its peeks, keeps, takes and looks). A move scores its
# round points less the others' mean, so that it wins rounds rather than only scoring low. Snaps and
# hand-overs are Normal's.

DEFAULT_BUDGET = 120
# What a card nobody has placed is reckoned to be worth in the model (the deck's mean).
MEAN = sum(VALUE.values()) / len(VALUE)
# A played-out round with no call by then is scored as it lies.
MODEL_TURNS = 40
# The swaps weighed: those of one of its own cards for another's that look the best trades.
SWAPS_WEIGHED = 5


class Board:
    """A round as it may be, in the model: the hands (None for an emptied slot), the deck (drawn from
    its end), the top discard, the caller, and the cards each seat knows the place of."""

    __slots__ = ("caller", "deck", "hands", "knows", "top")

    def __init__(self, hands: list, deck: list, top: str, caller: int | None, knows: list) -> None:
        self.hands, self.deck, self.top, self.caller, self.knows = hands, deck, top, caller, knows

    def copy(self) -> Board:
        return Board(
            [list(h) for h in self.hands],
            list(self.deck),
            self.top,
            self.caller,
            [set(k) for k in self.knows],
        )

    def guess(self, seat: int, card: str) -> float:
        return VALUE[card] if card in self.knows[seat] else MEAN

    def reckoned(self, seat: int, owner: int) -> float:
        return sum(self.guess(seat, card) for card in self.hands[owner] if card is not None)

    def put(self, seat: int, slot: int, card: str) -> None:
        """A card into a slot of one's own; the one there goes face up onto the pile."""
        self.top, self.hands[seat][slot] = self.hands[seat][slot], card

    def exchange(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        hands = self.hands
        hands[a[0]][a[1]], hands[b[0]][b[1]] = hands[b[0]][b[1]], hands[a[0]][a[1]]


def model_place(board: Board, seat: int, value: int, rng: random.Random) -> int | None:
    """Normal's place_for on the cards the seat knows."""
    knows = board.knows[seat]
    hand = board.hands[seat]
    values = {slot: VALUE[card] for slot, card in enumerate(hand) if card is not None and card in knows}
    highest = max(values, key=values.__getitem__, default=None)
    if highest is not None and values[highest] > max(value, KEEP_OVER_UNKNOWN):
        return highest
    blind = [slot for slot, card in enumerate(hand) if card is not None and card not in knows]
    if blind and value <= KEEP_OVER_UNKNOWN:
        return rng.choice(blind)
    if highest is not None and values[highest] > value:
        return highest
    return None


def model_calls(board: Board, seat: int) -> bool:
    """Normal's call, on the cards the seat knows."""
    mine = board.reckoned(seat, seat)
    others = [board.reckoned(seat, other) for other in range(len(board.hands)) if other != seat]
    return mine <= SURELY_LOW or mine + MARGIN <= min(others)


def model_turn(board: Board, seat: int, rng: random.Random) -> bool:
    """One whole turn as Normal plays it; False when the deck has run out (the round ends there)."""
    if board.caller is None and model_calls(board, seat):
        board.caller = seat
        return True
    top = VALUE[board.top]
    if top <= LOW:
        slot = model_place(board, seat, top, rng)
        if slot is not None:
            take_into(board, seat, slot)
            return True
    if not board.deck:
        return False
    drawn = board.deck.pop()
    board.knows[seat].add(drawn)
    model_drawn(board, seat, drawn, rng)
    return True


def take_into(board: Board, seat: int, slot: int) -> None:
    """The top discard into a slot, seen by everyone."""
    card = board.top
    board.put(seat, slot, card)
    for knows in board.knows:
        knows.add(card)


def model_drawn(board: Board, seat: int, drawn: str, rng: random.Random) -> None:
    """Keep the drawn card where Normal would, else discard it and use its power."""
    slot = model_place(board, seat, VALUE[drawn], rng)
    if slot is not None:
        board.put(seat, slot, drawn)
        return
    board.top = drawn
    power = power_of(drawn)
    if power is not None:
        looks, reach, swap = power
        model_power(board, seat, looks, reach, swap, rng)


def model_power(board: Board, seat: int, looks: int, reach: str, swap: bool, rng: random.Random) -> None:
    """Look at an unknown card of one's own if the power may, else at another's; swap only a sure gain."""
    knows = board.knows[seat]
    for _ in range(looks):
        own = [card for card in board.hands[seat] if card is not None and card not in knows]
        if reach != "opponent" and own:
            knows.add(rng.choice(own))
        elif reach != "own":
            others = [
                card
                for other, hand in enumerate(board.hands)
                if other != seat
                for card in hand
                if card is not None and card not in knows
            ]
            if others:
                knows.add(rng.choice(others))
    if swap:
        trade = sure_trade(board, seat)
        if trade is not None:
            board.exchange(*trade)


def sure_trade(board: Board, seat: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Normal's swap: its highest known card for the lowest known lower one in an unlocked hand."""
    knows = board.knows[seat]
    mine = [
        (VALUE[card], slot)
        for slot, card in enumerate(board.hands[seat])
        if card is not None and card in knows
    ]
    if not mine:
        return None
    value, slot = max(mine)
    lower = [
        (VALUE[card], other, at)
        for other, hand in enumerate(board.hands)
        if other not in (seat, board.caller)
        for at, card in enumerate(hand)
        if card is not None and card in knows and VALUE[card] < value
    ]
    if not lower:
        return None
    _, other, at = min(lower)
    return (seat, slot), (other, at)


def played_out(board: Board, seat: int, rng: random.Random) -> float:
    """The round played on from the seat after `seat`: the seat's points less the others' mean."""
    players = len(board.hands)
    turn = (seat + 1) % players
    for _ in range(MODEL_TURNS):
        if turn == board.caller or not model_turn(board, turn, rng):
            break
        turn = (turn + 1) % players
    points, _ = round_points(tuple(total(hand) for hand in board.hands), board.caller)
    return points[seat] - (sum(points) - points[seat]) / (players - 1)


def move_on(
    board: Board, seat: int, view: dict[str, Any], action: dict[str, Any], rng: random.Random
) -> None:
    """Hard's move on the board; the rest of its turn (a keep after a draw, a power's other looks and
    its swap) as the model plays it."""
    kind = action["type"]
    if kind == "cabo":
        board.caller = seat
    elif kind == "take":
        take_into(board, seat, action["slot"])
    elif kind == "draw":
        if board.deck:
            drawn = board.deck.pop()
            board.knows[seat].add(drawn)
            model_drawn(board, seat, drawn, rng)
    elif kind == "keep":
        board.put(seat, action["slot"], view["drawn"])
    elif kind == "discard":
        board.top = view["drawn"]
        power = power_of(view["drawn"])
        if power is not None:
            model_power(board, seat, *power, rng)
    elif kind == "look":
        board.knows[seat].add(board.hands[action["seat"]][action["slot"]])
        power = view["power"]
        if power["looks"] > 1 or power["swap"]:
            model_power(board, seat, power["looks"] - 1, power["reach"], power["swap"], rng)
    elif kind == "swap":
        board.exchange(tuple(action["a"]), tuple(action["b"]))


# What `values` reckons in: the round's points, fewer is better, against the other seats' mean.
VALUES_IN = "round points fewer than the other seats' mean"


def values(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None = None,
    out_of_time: OutOfTime | None = None,
) -> list[float] | None:
    """Each move's mean worth over Hard's deals, each played out on the model: the others' mean round
    points less the seat's. None out of its turn's searched steps, for a move the model does not play
    (a snap or a hand-over: Normal's), or when no deal could be drawn."""
    seat = view["seat"]
    if not searched_now(view) or any(action["type"] not in MODELLED for action in legal):
        return None

    def deal() -> tuple[Board, int]:
        return sample_board(view, memory, rng), rng.randrange(1 << 30)

    def outcome(dealt: tuple[Board, int], action: dict[str, Any]) -> float:
        board, seed = dealt[0].copy(), dealt[1]
        # The same generator for every move on a deal: the moves differ, not their luck.
        played = random.Random(seed)
        move_on(board, seat, view, action, played)
        return -played_out(board, seat, played)

    return mean_by_deals(legal, deal, outcome, budget or DEFAULT_BUDGET, out_of_time)


def hard(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None,
    out_of_time: OutOfTime | None = None,
) -> dict[str, Any] | None:
    weighed = shortlist(view, legal, memory)
    if len(weighed) < 2:
        return weighed[0] if weighed else normal(view, legal, memory, rng)
    means = values(view, weighed, memory, rng, budget, out_of_time)
    return best(weighed, means) if means else normal(view, legal, memory, rng)


# The moves the model plays out (move_on): a skip ends the turn, as in the rules.
MODELLED = ("draw", "take", "cabo", "keep", "discard", "look", "swap", "skip")


def searched_now(view: dict[str, Any]) -> bool:
    """Whether it is a step of the seat's own turn that Hard searches."""
    return view["turn"] == view["seat"] and view["step"] in ("start", "drawn", "power")


def shortlist(view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory) -> list[dict[str, Any]]:
    """The moves of its turn Hard weighs (none out of turn, nor a hand-over: snaps and hand-overs are
    Normal's): every draw, take, keep, call and look at a card it does not know, and the few
    best-looking swaps."""
    if not searched_now(view):
        return []
    seen = memory.remembered(view)
    moves = [
        action for action in legal if action["type"] in MODELLED and action["type"] not in ("swap", "look")
    ]
    looks = [action for action in legal if action["type"] == "look"]
    moves += [look for look in looks if seen["hands"][look["seat"]][look["slot"]] is None] or looks[:1]
    swaps = [action for action in legal if action["type"] == "swap"]
    return moves + best_swaps(seen, swaps)


def best_swaps(seen: dict[str, Any], swaps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The swaps of one of its own cards for another seat's, most promising first, the unknown card
    reckoned at the deck's mean."""
    seat = seen["seat"]
    hands = seen["hands"]

    def worth(ref: list[int]) -> float:
        card = hands[ref[0]][ref[1]]
        return MEAN if card is None else VALUE[card]

    trades = []
    for swap in swaps:
        a, b = swap["a"], swap["b"]
        if (a[0] == seat) != (b[0] == seat):
            mine, theirs = (a, b) if a[0] == seat else (b, a)
            gain = worth(mine) - worth(theirs)
            if gain > 0:
                trades.append((-gain, swap))
    trades.sort(key=lambda trade: trade[0])
    return [swap for _, swap in trades[:SWAPS_WEIGHED]]


def sample_board(view: dict[str, Any], memory: Memory, rng: random.Random) -> Board:
    """The round as it may be: remembered cards where they lie, the others and the deck drawn from the
    cards not placed; Hard knows what it remembers, each other seat the slots it has seen of its own."""
    seen = memory.remembered(view)
    placed = [card for hand in seen["hands"] for card in hand if card not in (None, EMPTY)]
    placed += memory.pile + ([view["drawn"]] if view["drawn"] else [])
    unseen = list((Counter(STANDARD_DECK) - Counter(placed)).elements())
    rng.shuffle(unseen)
    hands = []
    for hand in seen["hands"]:
        cards: list[str | None] = []
        for card in hand:
            if card == EMPTY:
                cards.append(None)
            elif card is None:
                cards.append(unseen.pop() if unseen else "2C")
            else:
                cards.append(card)
        hands.append(cards)
    seat = view["seat"]
    knows = [
        {hand[slot] for slot in memory.owners.get(owner, ()) if slot < len(hand) and hand[slot] is not None}
        for owner, hand in enumerate(hands)
    ]
    knows[seat] = set(placed)
    deck = unseen[-view["deck"] :] if view["deck"] else []
    return Board(hands, deck, view["discard"], view["caller"], knows)


# The simulator's figure: points per round; it also counts Cabo calls and calls won.
FIGURE = "mean round points"
COUNTED: tuple[str, ...] = ("calls", "calls_won")


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    history = rules.view(state, None)["history"]
    return sum(summary["points"][seat] for summary in history), len(history)
