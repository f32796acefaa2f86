"""Cabo: four hidden cards, powers, snapping, calling Cabo; lowest hand wins the round (docs/rules/cabo.md).

A game uses one standard deck, so a card's code names that very card: a sighting is kept by card, not
by slot, and so follows its card through every swap. Sightings live in the state as (viewer, card,
until): `until` is the moment the card turns back (None in assist mode: it stays face up for that
viewer until it leaves the board). A view shows a face only to a viewer with a live sighting of it.
"""

from __future__ import annotations

import random
from itertools import combinations, compress
from typing import Any, ClassVar

from ..base import (
    ACTION_TYPES,
    Action,
    ActionFields,
    Game,
    IllegalAction,
    SharedAction,
    State,
    action_type,
    checked_options,
    seat_option,
    stacked_decks,
    thaw,
    whole_number,
    winners,
)
from ..base import listed as listed_action
from ..cards import STANDARD_DECK, deal, shuffle
from ..figures import share, totals

OPTIONS = {"memory", "sighting_seconds", "dealer", "decks"}
SLOTS = 4
# The viewer of a sighting the whole table shares, spectators included (a take, a snap flip).
EVERYONE = -1
# How a view shows a slot whose card has gone for the rest of the round.
EMPTY = "empty"
# Scores over this end the game; landing on it exactly drops a score to HALFWAY.
LIMIT = 100
HALFWAY = 50
# What a losing caller adds to their total.
CALLER_BEATEN = 5
# The scoring figures as a view gives them to the table.
LIMITS = {"limit": LIMIT, "halfway": HALFWAY, "caller_beaten": CALLER_BEATEN}
OPENING_PAIRS = tuple(combinations(range(SLOTS), 2))

# Legal actions are listed after every action, snaps for every seat: those that name no card are made
# once and handed out again (see SharedAction). Penalty cards can make a hand longer than this (hardly
# ever): actions for slots beyond it are made afresh.
MADE_SLOTS = 64
DRAW = SharedAction(type="draw")
CABO = SharedAction(type="cabo")
DISCARD = SharedAction(type="discard")
SKIP = SharedAction(type="skip")
TAKES, KEEPS, GIVES = (
    tuple(SharedAction(type=kind, slot=slot) for slot in range(MADE_SLOTS))
    for kind in ("take", "keep", "give")
)

# Set-up: the values of the cards (both red kings are the prize, -1).
VALUE = {card: "A23456789TJQK".index(card[0]) + 1 for card in STANDARD_DECK} | {"KH": -1, "KD": -1}

# Powers of a card drawn from the deck and discarded: (looks, whose cards a look may reach, swap after).
POWERS: dict[str, tuple[int, str, bool]] = {
    "7": (1, "own", False),
    "8": (1, "own", False),
    "9": (1, "opponent", False),
    "T": (1, "opponent", False),
    "J": (0, "any", True),
    "Q": (1, "any", True),
    "KS": (2, "any", True),
    "KC": (2, "any", True),
}


def drawn_has_power(state: State) -> bool:
    """Whether the drawn card, discarded, would give its power."""
    return state["drawn"] is not None and power_of(state["drawn"]) is not None


def power_of(card: str) -> tuple[int, str, bool] | None:
    """A black king's power, or its rank's; red kings and A-6 have none."""
    return POWERS.get(card) or (POWERS.get(card[0]) if card[0] != "K" else None)


class Cabo(Game):
    id = "cabo"
    title = "Cabo"
    min_players = 2
    max_players = 6
    # Memory mode is switched between rounds, by the host alone. Not moves at once: a snap chosen
    # against one discard must not land on the next.
    host_only = frozenset({"memory"})
    lowest_wins = True
    action_fields: ClassVar[ActionFields] = {
        "peek": ("slots",),
        "memory": ("on",),
        "draw": (),
        "keep": ("slot",),
        "discard": (),
        "take": ("slot",),
        "cabo": (),
        "look": ("seat", "slot"),
        "swap": ("a", "b"),
        "skip": (),
        "snap": ("seat", "slot"),
        "give": ("slot",),
    }

    # Set-up

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        options = checked_options(self, players, options, OPTIONS)
        memory = options.get("memory", True)
        if not isinstance(memory, bool):
            raise ValueError("option 'memory' must be true or false")
        seconds = options.get("sighting_seconds", 3)
        if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not seconds > 0:
            raise ValueError("option 'sighting_seconds' must be a number of seconds above 0")
        dealer = seat_option(options, "dealer", players, random.Random(f"{seed}/dealer").randrange(players))
        state: State = {
            "players": players,
            "seed": seed,
            "decks": stacked_decks(options),
            "memory": memory,
            "sighting_seconds": seconds,
            "round": 0,
            "dealer": dealer,
            "shuffles": 0,
            "scores": (0,) * players,
            "history": (),
            "last_round": None,
            "last": None,
        }
        return deal_round(state)

    # Who may do what

    def legal_actions(self, state: State, seat: int | None, now: float = 0.0) -> list[Action]:
        return [] if seat is None else moves(state, seat)

    def legal_move(self, state: State, seat: int, action: Any, now: float) -> Action | None:
        # A snap, most moves at a lively table, is looked for among the snaps alone, and in the
        # board's own list: no list of moves is made for it.
        if type(action) in ACTION_TYPES and action.get("type") == "snap":
            return listed_action(snaps(state, seat) if state["phase"] == "play" else (), action)
        return listed_action(moves(state, seat), action)

    def check(self, state: State, seat: int, action: Any, now: float) -> Action:
        # Switching memory mode is accepted from any seat during the opening peeks but is a table
        # setting, not a move: listing it would keep every ready seat "to act" (and bots flipping it).
        if action_type(action) != "memory":
            return super().check(state, seat, action, now)
        if type(seat) is not int or not 0 <= seat < state["players"]:
            raise IllegalAction("Only a player at the table may act.")
        if state["phase"] == "over":
            raise IllegalAction("The game is over.")
        memory_check(state, action)
        return {"type": "memory", "on": action["on"]}

    def listed_form(self, state: State, seat: int, action: Action) -> Action:
        """Other spellings of a listed move: one's own slot as [seat, slot], a look or a snap at one's
        own card without its seat, a pair picked in either order."""
        kind = action["type"]
        if kind in ("keep", "take", "give"):
            ref = action.get("slot")
            if slot_ref(ref) and ref[0] == seat:
                return {"type": kind, "slot": ref[1]}
        elif kind in ("look", "snap") and "seat" not in action:
            return {**action, "seat": seat}
        elif kind == "peek":
            slots = action.get("slots")
            if slot_ref(slots):
                return {"type": kind, "slots": sorted(slots)}
        elif kind == "swap":
            pair = [own_ref(seat, action.get("a")), own_ref(seat, action.get("b"))]
            if all(map(slot_ref, pair)):
                a, b = sorted(list(ref) for ref in pair)
                return {"type": kind, "a": a, "b": b}
        return action

    def perform(self, state: State, seat: int, action: Action, now: float) -> State:
        return ACTIONS[action["type"]](state, seat, action, now)

    def refusal(self, state: State, seat: int, action: Action, now: float) -> str | None:
        checked = CHECKS.get(action["type"])
        if checked is None:
            return "That is not an action of Cabo."
        if state["phase"] == "over":
            return "The game is over."
        try:
            checked(state, seat, action)
        except IllegalAction as refused:
            return refused.reason
        return None

    def load(self, data: dict[str, Any]) -> State:
        state = super().load(data)
        return {**state, "hands": Board(state["hands"])}

    # Scoring

    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != "over":
            return None
        scores = list(state["scores"])
        return {"scores": scores, "winners": winners(scores, min)}

    def figures(self, state: State) -> list[dict[str, Any]]:
        """Rounds played, Cabo calls, and calls won (the caller's hand was the lowest), by seat."""
        history = state["history"]
        return [
            {
                "rounds": len(history),
                "calls": sum(1 for summary in history if summary["caller"] == seat),
                "calls_won": sum(
                    1 for summary in history if summary["caller"] == seat and summary["outcome"] == "lowest"
                ),
            }
            for seat in range(state["players"])
        ]

    @staticmethod
    def figure_lines(figures: list[dict[str, Any]], durations: list[float]) -> list[tuple[str, str]]:
        summed = totals(figures)
        return [
            ("Cabo calls", str(summed["calls"])),
            ("Calls won", share(summed["calls_won"], summed["calls"])),
        ]

    def open_view(self, state: State, now: float = 0.0) -> dict[str, Any]:
        """Every slot face up (an emptied one "empty"), and the card in the drawer's hand (`drawn`)."""
        hands = [[EMPTY if card is None else card for card in hand] for hand in state["hands"]]
        return {**self.view(state, None, now), "hands": hands, "drawn": state["drawn"], "open": True}

    # View

    def view(self, state: State, seat: int | None, now: float = 0.0) -> dict[str, Any]:
        phase = state["phase"]
        seen = seen_by(state, seat, now)
        if phase == "over":
            # All hands are shown at the round's end, and this round is the last.
            seen = {card: None for hand in state["hands"] for card in hand if card is not None}
        hands = [[face(card, seen) for card in hand] for hand in state["hands"]]
        turn = state["turn"]
        power = state["power"]
        handover = state["handover"]
        return {
            "seat": seat,
            "hand": hands[seat] if seat is not None else [],
            "hands": hands,
            # When each card this seat sees turns back (None: it stays face up), as [seat, slot, until].
            "seen_until": [
                [owner, slot, seen[card]]
                for owner, hand in enumerate(state["hands"])
                for slot, card in enumerate(hand)
                if card in seen
            ],
            "players": state["players"],
            "round": state["round"] + 1,
            "dealer": state["dealer"],
            "phase": phase,
            "ready": [peek is not None for peek in state["peeks"]],
            "turn": turn,
            "step": state["step"],
            "to_act": seats_to_act(state),
            "deck": len(state["deck"]),
            "discard": state["pile"][-1],
            "discards": len(state["pile"]),
            "drawing": turn if state["drawn"] is not None else None,
            "drawn": state["drawn"] if seat is not None and seat == turn else None,
            "drawn_power": seat is not None and seat == turn and drawn_has_power(state),
            "power": {"seat": turn, **listed(power)} if power is not None else None,
            "snap_window": state["window"],
            "handover": {"seat": handover[0], "to": list(handover[1:])} if handover is not None else None,
            "caller": state["caller"],
            "final_turns": final_turns(state),
            "memory": state["memory"],
            "sighting_seconds": state["sighting_seconds"],
            "limits": LIMITS,
            "scores": list(state["scores"]),
            "history": [listed(summary) for summary in state["history"]],
            # The reveal stays on the table while the next round's peeks are chosen (and at the end).
            "last_round": thaw(state["last_round"]) if phase != "play" and state["last_round"] else None,
            "last": last_seen(state["last"], now),
            "legal": self.legal_actions(state, seat, now),
            "result": self.result(state),
        }

    # The turn clock

    def awaited(self, state: State, now: float) -> list[int]:
        return seats_to_act(state)

    def timeout_actions(self, state: State, seat: int, now: float) -> list[Action]:
        """Snaps are optional: a timeout never snaps."""
        return [action for action in self.legal_actions(state, seat, now) if action["type"] != "snap"]

    def next_change(self, state: State, now: float) -> float | None:
        """The next moment a sighting expires (the face leaves a slot, and the last action's words)."""
        times = [until for _, _, until in state["sightings"] if until is not None and until > now]
        last = state["last"]
        if last is not None and last.get("card_until") is not None and last["card_until"] > now:
            times.append(last["card_until"])
        return min(times, default=None)


# Set-up


def moves(state: State, seat: int) -> list[Action]:
    """What `seat` may do now, a new list at each call (its actions are shared, the list is not)."""
    phase = state["phase"]
    if phase != "play":
        if phase == "peek" and state["peeks"][seat] is None:
            return [{"type": "peek", "slots": [a, b]} for a, b in OPENING_PAIRS]
        return []
    handover = state["handover"]
    if handover is not None:
        return own_cards(state, seat, GIVES) if seat == handover[0] else []
    step = state["step"]
    if seat == state["turn"]:
        if step == "drawn":
            return [*own_cards(state, seat, KEEPS), DISCARD]
        if step == "power":
            return power_actions(state, seat)
        actions = [DRAW, *own_cards(state, seat, TAKES)]
        if state["caller"] is None:
            actions.append(CABO)
        actions += snaps(state, seat)
        return actions
    return list(snaps(state, seat))


def deal_round(state: State) -> State:
    """Shuffle, deal four each from the dealer's left, turn up the next card; then the opening peeks."""
    players, dealer = state["players"], state["dealer"]
    deck = shuffle(STANDARD_DECK, state["seed"], state["shuffles"], state["decks"])
    hands, taken = deal(deck, players, SLOTS, (dealer + 1) % players)
    return {
        **state,
        "shuffles": state["shuffles"] + 1,
        "hands": Board(hands),
        # The first card of the discard pile lands through no player's action: it opens no window.
        "pile": (deck[taken],),
        "deck": deck[taken + 1 :],
        "phase": "peek",
        "peeks": (None,) * players,
        "turn": None,
        "step": None,
        "drawn": None,
        "power": None,
        "window": False,
        "handover": None,
        "caller": None,
        "sightings": (),
    }


def peek_check(state: State, seat: int, action: Action) -> None:
    if state["phase"] != "peek":
        raise IllegalAction("The opening peeks are over.")
    if state["peeks"][seat] is not None:
        raise IllegalAction("You have already picked your two cards.")
    slots = action.get("slots")
    if (
        not isinstance(slots, list | tuple)
        or len(slots) != 2
        or not all(whole_number(slot) and 0 <= slot < SLOTS for slot in slots)
        or slots[0] == slots[1]
    ):
        raise IllegalAction("Pick two different cards of your own, slots 0 to 3.")


def peek(state: State, seat: int, action: Action, now: float) -> State:
    """Pick two of one's own slots and say ready; when all are ready, all see theirs at once."""
    slots = action["slots"]
    peeks = replaced(state["peeks"], seat, tuple(slots))
    last = {"seat": seat, "type": "peek", "slots": tuple(slots)}
    if None in peeks:
        return {**state, "peeks": peeks, "last": last}
    sightings = state["sightings"]
    for viewer, pair in enumerate(peeks):
        for slot in pair:
            sightings = sighted(state, viewer, state["hands"][viewer][slot], now, sightings)
    return {
        **state,
        "peeks": peeks,
        "sightings": sightings,
        "phase": "play",
        "turn": (state["dealer"] + 1) % state["players"],
        "step": "start",
        "last": {**last, "all_ready": True},
    }


def memory_check(state: State, action: Action) -> None:
    if state["phase"] != "peek":
        raise IllegalAction("Memory mode can be switched only between rounds, during the opening peeks.")
    if not isinstance(action.get("on"), bool):
        raise IllegalAction("Say whether memory mode is to be on (true) or off (false).")


def switch_memory(state: State, seat: int, action: Action, now: float) -> State:
    """Memory mode on or off (assist mode), only between rounds: while the opening peeks are chosen."""
    on = action["on"]
    return {**state, "memory": on, "last": {"seat": seat, "type": "memory", "on": on}}


# A turn


def draw(state: State, seat: int, action: Action, now: float) -> State:
    """The deck's top card, seen by the drawer alone until it is kept or discarded."""
    last: dict[str, Any] = {"seat": seat, "type": "draw"}
    if not state["deck"]:
        last["reshuffled"] = True
    deck, card = card_from_deck(state)
    if card is None:
        return finish_round({**state, **deck}, {**last, "no_card": True})
    # Starting a turn shuts the snap window.
    return {**state, **deck, "window": False, "step": "drawn", "drawn": card, "last": last}


def keep(state: State, seat: int, action: Action, now: float) -> State:
    """Swap the drawn card into one's own slot; the card that was there goes face up onto the pile."""
    slot = action["slot"]
    card = state["drawn"]
    hands, out = placed(state["hands"], seat, slot, card)
    # Seen until kept, then for the sighting's seconds.
    state = {**state, "hands": hands, "drawn": None, "sightings": sighted(state, seat, card, now)}
    return end_turn(
        {**state, **landed(state, out)}, {"seat": seat, "type": "keep", "slot": slot, "discarded": out}
    )


def discard(state: State, seat: int, action: Action, now: float) -> State:
    """Discard the drawn card face up; a card with a power lets the drawer use it now."""
    card = state["drawn"]
    state = {**state, **landed(state, card), "drawn": None}
    last = {"seat": seat, "type": "discard", "card": card}
    power = power_of(card)
    if power is None:
        return end_turn(state, last)
    looks, reach, swap = power
    pending = {"card": card, "looks": looks, "reach": reach, "swap": swap, "looked": None}
    return {**state, "step": "power", "power": pending, "last": last}


def take(state: State, seat: int, action: Action, now: float) -> State:
    """The top discard, seen by all, into one's own slot; that slot's card goes face up onto the pile."""
    slot = action["slot"]
    pile = state["pile"]
    card = pile[-1]
    hands, out = placed(state["hands"], seat, slot, card)
    until = sighting_end(state, now)
    state = {**state, "hands": hands, "pile": pile[:-1], "sightings": sighted(state, EVERYONE, card, now)}
    # Taken from the pile it never fires a power, whatever its rank.
    last = {"seat": seat, "type": "take", "slot": slot, "card": card, "card_until": until, "discarded": out}
    return end_turn({**state, **landed(state, out)}, last)


def cabo_check(state: State, seat: int, action: Action) -> None:
    require_turn(state, seat, "start")
    if state["caller"] is not None:
        raise IllegalAction("Cabo has already been called this round.")


def call_cabo(state: State, seat: int, action: Action, now: float) -> State:
    """The caller's turn ends at once and their hand is locked; the others take one final turn each."""
    # Starting a turn shuts the snap window.
    return end_turn({**state, "caller": seat, "window": False}, {"seat": seat, "type": "cabo"})


def end_turn(state: State, last: dict[str, Any]) -> State:
    """The turn passes left; after the last final turn the round ends with no snap window."""
    following = (state["turn"] + 1) % state["players"]
    if following == state["caller"]:
        return finish_round(state, last)
    return {**state, "turn": following, "step": "start", "power": None, "last": last}


def seats_to_act(state: State) -> list[int]:
    """Who the table waits for (snaps are never awaited): the unready, else the snapper handing a card
    over, else the player whose turn it is."""
    phase = state["phase"]
    if phase == "peek":
        return [seat for seat, pair in enumerate(state["peeks"]) if pair is None]
    if phase != "play":
        return []
    handover = state["handover"]
    return [handover[0] if handover is not None else state["turn"]]


def final_turns(state: State) -> list[int]:
    """After a call: the seats still owed their final turn, in order, the one playing now first."""
    caller, turn = state["caller"], state["turn"]
    if caller is None or turn is None:
        return []
    players = state["players"]
    return [(turn + step) % players for step in range((caller - turn) % players)]


# Powers


def require_power(state: State, seat: int) -> dict[str, Any]:
    require_turn(state, seat, "power")
    return state["power"]


def skip_check(state: State, seat: int, action: Action) -> None:
    require_power(state, seat)


def power_actions(state: State, seat: int) -> list[Action]:
    power = state["power"]
    if power["looks"]:
        return [*looks_allowed(state, seat, power), SKIP]
    caller = state["caller"]
    unlocked = [
        [target, slot]
        for target, hand in enumerate(state["hands"])
        if target != caller
        for slot, card in enumerate(hand)
        if card is not None
    ]
    return [{"type": "swap", "a": a, "b": b} for a, b in combinations(unlocked, 2)] + [SKIP]


def looks_allowed(state: State, seat: int, power: dict[str, Any]) -> list[Action]:
    reach, looked = power["reach"], power["looked"]
    return [
        {"type": "look", "seat": target, "slot": slot}
        for target, hand in enumerate(state["hands"])
        if reach == "any" or (target == seat) == (reach == "own")
        for slot, card in enumerate(hand)
        if card is not None and (target, slot) != looked
    ]


def look_check(state: State, seat: int, action: Action) -> None:
    power = require_power(state, seat)
    if not power["looks"]:
        raise IllegalAction("This power has no look left: swap two cards or skip.")
    target, slot = slot_named(state, seat, (action.get("seat", seat), action.get("slot")))
    if power["reach"] == "own" and target != seat:
        raise IllegalAction("A 7 or an 8 looks at one of your own cards.")
    if power["reach"] == "opponent" and target == seat:
        raise IllegalAction("A 9 or a 10 looks at another player's card.")
    if (target, slot) == power["looked"]:
        raise IllegalAction("A black king looks at two different cards: pick another one.")


def look(state: State, seat: int, action: Action, now: float) -> State:
    """A power's look: the looker alone sees the card, for the sighting's seconds."""
    power = state["power"]
    target, slot = action["seat"], action["slot"]
    card = state["hands"][target][slot]
    state = {**state, "sightings": sighted(state, seat, card, now)}
    last = {"seat": seat, "type": "look", "target": (target, slot)}
    looks = power["looks"] - 1
    if not looks and not power["swap"]:
        return end_turn(state, last)
    return {**state, "power": {**power, "looks": looks, "looked": (target, slot)}, "last": last}


def swap_check(state: State, seat: int, action: Action) -> None:
    power = require_power(state, seat)
    if not power["swap"]:
        raise IllegalAction("This power has no swap.")
    if power["looks"]:
        raise IllegalAction("Look first: a power's looks come before its swap.")
    a = slot_named(state, seat, action.get("a"))
    b = slot_named(state, seat, action.get("b"))
    if a == b:
        raise IllegalAction("Swap two different cards.")
    if state["caller"] in (a[0], b[0]):
        raise IllegalAction("The caller's cards are locked: no swap may involve them.")


def swap(state: State, seat: int, action: Action, now: float) -> State:
    """A power's swap of any two cards on the board: public which two slots, never which cards."""
    a, b = tuple(action["a"]), tuple(action["b"])
    hands, card_a = placed(state["hands"], a[0], a[1], state["hands"][b[0]][b[1]])
    hands, _ = placed(hands, b[0], b[1], card_a)
    # The sightings name the cards, so whoever has seen one sees it in its new place.
    return end_turn({**state, "hands": hands}, {"seat": seat, "type": "swap", "a": a, "b": b})


def skip(state: State, seat: int, action: Action, now: float) -> State:
    """End what is left of a power."""
    return end_turn(state, {"seat": seat, "type": "skip"})


# Snapping


# The snap list is the longest list of legal actions by far, asked for every seat after every action:
# its snaps are made once, a row per seat (made afresh only past MADE_SLOTS), and each board remembers
# the list it offers (see Board).
SNAPS = tuple(
    tuple(SharedAction(type="snap", seat=target, slot=slot) for slot in range(MADE_SLOTS))
    for target in range(Cabo.max_players)
)


class Board(tuple):
    """The hands on the table by seat: a plain tuple of hands to every reader (equal to one, dumped as
    one) that remembers the snaps it offers, by the hand locked from them (the caller's, or None), and
    each hand's part of them.

    A board is never changed, so neither is what it offers: each list is made at most once per board,
    and the memo lives and dies with the states holding the board. A move makes a new board
    (`with_hand`), which takes over the parts of the hands the move left alone. The engine keeps
    nothing between calls, and no room or bot thread sees a memo it was not handed with the board.
    """

    # Made on the first look (most boards are looked at by every seat, some by none).
    snaps: dict[int | None, tuple[SharedAction, ...]] | None = None
    # Each hand's snaps by seat (None: not made yet).
    parts: list[tuple[SharedAction, ...] | None] | None = None

    def __reduce__(self) -> tuple[type, tuple[tuple[Any, ...]]]:
        # A copy is a new board, its memo made afresh.
        return (Board, (tuple(self),))


def with_hand(hands: tuple, seat: int, hand: tuple) -> Board:
    """The board with `seat`'s hand replaced by `hand`."""
    board = Board(replaced(hands, seat, hand))
    parts = getattr(hands, "parts", None)
    if parts is not None:
        # The other hands are the same cards in the same slots: they offer the same snaps.
        board.parts = parts = parts.copy()
        parts[seat] = None
    return board


def snaps(state: State, seat: int) -> tuple[SharedAction, ...]:
    """Every slot this seat may snap now: while the window is open at the start of a turn, with no
    snapped card's place waiting to be filled (the board's own list: `moves` hands out a copy)."""
    if not state["window"] or state["step"] != "start" or state["handover"] is not None:
        return ()
    hands = state["hands"]
    mine = hands[seat]
    # A snap away of one's own last card is refused, and snapping another needs a spare card.
    if len(mine) - mine.count(None) < 2:
        return ()
    caller = state["caller"]
    # Nobody but the caller may snap the caller's cards.
    locked = caller if caller != seat else None
    if type(hands) is not Board:
        # A board a caller put together (a test's, say) is a plain tuple: its list is made each time.
        return board_snaps(hands, locked, [None] * len(hands))
    made = hands.snaps
    if made is None:
        made = hands.snaps = {}
    targets = made.get(locked)
    if targets is None:
        parts = hands.parts
        if parts is None:
            parts = hands.parts = [None] * len(hands)
        targets = made[locked] = board_snaps(hands, locked, parts)
    return targets


def board_snaps(
    hands: tuple, locked: int | None, parts: list[tuple[SharedAction, ...] | None]
) -> tuple[SharedAction, ...]:
    """A snap of every card on the board outside the `locked` hand, each hand's part taken from
    `parts` where made, and left there where not."""
    targets: tuple[SharedAction, ...] = ()
    for target, hand in enumerate(hands):
        if target != locked:
            part = parts[target]
            if part is None:
                part = parts[target] = hand_snaps(target, hand)
            targets += part
    return targets


def hand_snaps(target: int, hand: tuple[str | None, ...]) -> tuple[SharedAction, ...]:
    """A snap of each card in seat `target`'s hand."""
    row = SNAPS[target]
    if len(hand) > MADE_SLOTS:
        return tuple(
            SharedAction(type="snap", seat=target, slot=slot) for slot, card in enumerate(hand) if card
        )
    if None in hand:
        # A card's code is never empty: the slots holding one pick their snaps from the row.
        return tuple(compress(row, hand))
    return row[: len(hand)]


def snap_check(state: State, seat: int, action: Action) -> None:
    require_phase_play(state)
    if not state["window"]:
        raise IllegalAction("Too late: the snap window has shut.")
    if state["step"] == "power":
        raise IllegalAction("Wait: nobody may snap while a power is being used.")
    if state["handover"] is not None:
        raise IllegalAction("Too late: another snap hit first; wait until its card is handed over.")
    target, _ = slot_named(
        state, seat, (action.get("seat", seat), action.get("slot")), "Too late: that card has already gone."
    )
    hands = state["hands"]
    own = target == seat
    if len(hands[seat]) - hands[seat].count(None) < 2:
        if own:
            raise IllegalAction("You may not snap away your last card.")
        raise IllegalAction("Snapping another player's card needs at least two cards in your hand.")
    if target == state["caller"] and not own:
        raise IllegalAction("The caller's cards are locked: nobody else may snap them.")


def snap(state: State, seat: int, action: Action, now: float) -> State:
    """Claim a slot's card has the top discard's rank; the card is turned face up for everyone."""
    target, slot = action["seat"], action["slot"]
    hands = state["hands"]
    own = target == seat
    card = hands[target][slot]
    # Kings match kings whatever their colour: the rank alone counts.
    hit = card[0] == state["pile"][-1][0]
    last: dict[str, Any] = {"seat": seat, "type": "snap", "target": (target, slot), "hit": hit, "card": card}
    if hit:
        hands, _ = placed(hands, target, slot, None)
        handover = None if own else (seat, target, slot)
        return {**state, **landed(state, card), "hands": hands, "handover": handover, "last": last}
    # A miss: everyone has seen the card as it goes back face down; the snapper takes a penalty card.
    last["card_until"] = sighting_end(state, now)
    sightings = sighted(state, EVERYONE, card, now)
    if not state["deck"]:
        last["reshuffled"] = True
    deck, penalty = card_from_deck(state)
    if penalty is None:
        return finish_round({**state, **deck, "sightings": sightings}, {**last, "no_card": True})
    hands = with_hand(hands, seat, (*hands[seat], penalty))
    last["penalty_slot"] = len(hands[seat]) - 1
    return {**state, **deck, "sightings": sightings, "hands": hands, "last": last}


def give_check(state: State, seat: int, action: Action) -> None:
    require_phase_play(state)
    handover = state["handover"]
    if handover is None:
        raise IllegalAction("There is no card to hand over.")
    if seat != handover[0]:
        raise IllegalAction("Wait until the card is handed over.")
    own_slot(state, seat, action.get("slot"))


def give(state: State, seat: int, action: Action, now: float) -> State:
    """After a hit on another's card: hand one of one's own cards face down into the emptied slot."""
    _, target, empty = state["handover"]
    slot = action["slot"]
    hands, card = placed(state["hands"], seat, slot, None)
    # The snapper's slot it came from stays empty for the rest of the round.
    hands, _ = placed(hands, target, empty, card)
    last = {"seat": seat, "type": "give", "slot": slot, "to": (target, empty)}
    return {**state, "hands": hands, "handover": None, "last": last}


# Deck running out


def card_from_deck(state: State) -> tuple[dict[str, Any], str | None]:
    """The deck's top card and what taking it changes; an empty deck is first refilled from every
    discard but the top one. None (and no change) when no card can be had even then.

    Nobody has a sighting of a discard (it left the board), so nothing known survives the shuffle.
    """
    deck = state["deck"]
    if deck:
        return {"deck": deck[1:]}, deck[0]
    pile = state["pile"]
    if len(pile) < 2:
        return {}, None
    deck = shuffle(pile[:-1], state["seed"], state["shuffles"], state["decks"])
    return {"deck": deck[1:], "pile": pile[-1:], "shuffles": state["shuffles"] + 1}, deck[0]


# Scoring


def total(hand: tuple[str | None, ...]) -> int:
    """The sum of the hand's values; empty slots count nothing."""
    return sum(VALUE[card] for card in hand if card is not None)


def round_points(totals: tuple[int, ...], caller: int | None) -> tuple[list[int], str | None]:
    """Everyone scores their total, but the caller: lowest (ties to the caller) 0 or less, else +5."""
    points = list(totals)
    if caller is None:
        return points, None
    if totals[caller] <= min(totals):
        points[caller] = min(0, totals[caller])
        return points, "lowest"
    points[caller] = totals[caller] + CALLER_BEATEN
    return points, "beaten"


def finish_round(state: State, last: dict[str, Any]) -> State:
    """Show every hand, score the round, then deal the next (dealer one seat left) or end the game."""
    hands = state["hands"]
    totals = tuple(total(hand) for hand in hands)
    caller = state["caller"]
    points, outcome = round_points(totals, caller)
    # A cumulative score of exactly 100 drops to 50.
    scores = tuple(HALFWAY if s + p == LIMIT else s + p for s, p in zip(state["scores"], points, strict=True))
    summary = {"round": state["round"] + 1, "dealer": state["dealer"], "caller": caller, "outcome": outcome}
    state = {
        **state,
        "scores": scores,
        "history": (*state["history"], {**summary, "points": tuple(points)}),
        "last_round": {
            **summary,
            "hands": tuple(tuple(EMPTY if card is None else card for card in hand) for hand in hands),
            "totals": totals,
            "points": tuple(points),
        },
        "last": {**last, "round_over": True},
        "sightings": (),
        "window": False,
        "handover": None,
        "power": None,
        "drawn": None,
        "step": None,
        "turn": None,
    }
    if max(scores) > LIMIT:
        return {**state, "phase": "over"}
    return deal_round(
        {**state, "round": state["round"] + 1, "dealer": (state["dealer"] + 1) % state["players"]}
    )


# Seeing cards


def sighting_end(state: State, now: float) -> float | None:
    """When a card seen now turns back: after the sighting's seconds, or never in assist mode."""
    return now + state["sighting_seconds"] if state["memory"] else None


def sighted(state: State, viewer: int, card: str, now: float, sightings: tuple | None = None) -> tuple:
    """The state's sightings (or these) with `viewer` seeing `card` from now on.

    A fresh sighting replaces an older one of the same card by the same viewer; expired ones are
    dropped here too (views ignore them anyway: this only keeps the state small).
    """
    if sightings is None:
        sightings = state["sightings"]
    kept = [s for s in sightings if (s[1] != card or s[0] != viewer) and (s[2] is None or s[2] > now)]
    kept.append((viewer, card, sighting_end(state, now)))
    return tuple(kept)


def seen_by(state: State, seat: int | None, now: float) -> dict[str, float | None]:
    """The cards on the board this seat sees now, each with when it turns back (None: it stays)."""
    seen: dict[str, float | None] = {}
    for viewer, card, until in state["sightings"]:
        if viewer in (seat, EVERYONE) and (until is None or until > now):
            if card in seen and (seen[card] is None or (until is not None and seen[card] > until)):
                continue
            seen[card] = until
    return seen


def face(card: str | None, seen: dict[str, float | None]) -> str | None:
    if card is None:
        return EMPTY
    return card if card in seen else None


def last_seen(last: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
    """The last action as the table may describe it: a face that has turned back is left out."""
    if last is None:
        return None
    until = last.get("card_until")
    if until is not None and now >= until:
        return listed({key: value for key, value in last.items() if key not in ("card", "card_until")})
    return listed(last)


def listed(record: dict[str, Any]) -> dict[str, Any]:
    """A flat record of the state as a view gives it: its tuples as lists (thaw's quick case)."""
    return {key: list(value) if type(value) is tuple else value for key, value in record.items()}


# The board


def require_phase_play(state: State) -> None:
    if state["phase"] != "play":
        raise IllegalAction("Wait until everyone has picked their two cards.")


def require_turn(state: State, seat: int, step: str) -> None:
    """Refuse unless it is this seat's turn at this step, with no hand-over pending."""
    require_phase_play(state)
    if seat != state["turn"]:
        raise IllegalAction("It is not your turn.")
    if state["handover"] is not None:
        raise IllegalAction("Wait until the snapped card's place is filled.")
    if state["step"] != step:
        raise IllegalAction(STEP_REMINDERS[state["step"]])


STEP_REMINDERS = {
    "start": "Start your turn: draw, take the top discard or call Cabo.",
    "drawn": "Keep the card you drew or discard it.",
    "power": "Use your power (look or swap) or skip it.",
}


def own_cards(state: State, seat: int, row: tuple[SharedAction, ...]) -> list[Action]:
    """A take, keep or give of each of the seat's own cards."""
    hand = state["hands"][seat]
    if None not in hand and len(hand) <= MADE_SLOTS:
        return list(row[: len(hand)])
    return [
        row[slot] if slot < MADE_SLOTS else SharedAction(type=row[0]["type"], slot=slot)
        for slot, card in enumerate(hand)
        if card is not None
    ]


def slot_named(state: State, seat: int, ref: Any, empty: str | None = None) -> tuple[int, int]:
    """A slot named [seat, slot] (or by its number alone, for one's own) that holds a card."""
    # type() is int, not isinstance: True is no slot number.
    if type(ref) is int:
        target, slot = seat, ref
    elif type(ref) in (list, tuple) and len(ref) == 2 and type(ref[0]) is int and type(ref[1]) is int:
        target, slot = ref
    else:
        raise IllegalAction("Name a slot as [seat, slot], or by its number for one of your own.")
    hands = state["hands"]
    if not 0 <= target < len(hands) or not 0 <= slot < len(hands[target]):
        raise IllegalAction("There is no such slot.")
    if hands[target][slot] is None:
        raise IllegalAction(empty or "That slot is empty: its card has gone for the rest of the round.")
    return target, slot


def slot_ref(ref: Any) -> bool:
    """Whether `ref` is a pair of slot numbers (a seat and a slot, or a peek's two slots)."""
    return type(ref) in (list, tuple) and len(ref) == 2 and type(ref[0]) is int and type(ref[1]) is int


def own_ref(seat: int, ref: Any) -> Any:
    """One's own slot named by its number alone, as [seat, slot]."""
    return [seat, ref] if type(ref) is int else ref


def own_slot(state: State, seat: int, ref: Any) -> int:
    target, slot = slot_named(state, seat, ref)
    if target != seat:
        raise IllegalAction("Name one of your own slots.")
    return slot


def replaced(items: tuple, at: int, item: Any) -> tuple:
    return (*items[:at], item, *items[at + 1 :])


def placed(hands: tuple, seat: int, slot: int, card: str | None) -> tuple[tuple, str | None]:
    """The hands with `card` in that slot, and the card that was there."""
    hand = hands[seat]
    return with_hand(hands, seat, replaced(hand, slot, card)), hand[slot]


def landed(state: State, card: str) -> dict[str, Any]:
    """What changes when a card lands face up on the pile through a player's action: it leaves the
    board (and everyone's sightings), and the snap window opens."""
    sightings = state["sightings"]
    if any(s[1] == card for s in sightings):
        sightings = tuple(s for s in sightings if s[1] != card)
    return {"pile": (*state["pile"], card), "sightings": sightings, "window": True}


def turn_check(step: str) -> Any:
    """The check of a move that needs only the seat's turn at `step` (and, with a slot, its own card)."""

    def check(state: State, seat: int, action: Action) -> None:
        require_turn(state, seat, step)
        if action["type"] in ("keep", "take"):
            own_slot(state, seat, action.get("slot"))

    return check


# What each action does once listed, and the checks that say why one is refused.
CHECKS = {
    "peek": peek_check,
    "draw": turn_check("start"),
    "keep": turn_check("drawn"),
    "discard": turn_check("drawn"),
    "take": turn_check("start"),
    "cabo": cabo_check,
    "look": look_check,
    "swap": swap_check,
    "skip": skip_check,
    "snap": snap_check,
    "give": give_check,
}
ACTIONS = {
    "peek": peek,
    "memory": switch_memory,
    "draw": draw,
    "keep": keep,
    "discard": discard,
    "take": take,
    "cabo": call_cabo,
    "look": look,
    "swap": swap,
    "skip": skip,
    "snap": snap,
    "give": give,
}

RULES = Cabo()
