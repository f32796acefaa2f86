"""Zero Down: swap with the pool for five of a colour and five of a number (docs/rules/zero_down.md)."""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from typing import Any, ClassVar

from ..base import (
    ACTION_TYPES,
    Action,
    ActionFields,
    Game,
    SharedAction,
    State,
    checked_options,
    seat_option,
    stacked_decks,
    thaw,
    whole_number,
    winners,
)
from ..cards import deal, shuffle
from ..figures import totals

COLOURS = ("red", "yellow", "green", "blue", "violet", "grey", "black")
NUMBERS = tuple(range(1, 9))
# Codes are the colour word and the number: `red1`, `grey8`. Colour by colour, low to high: a fanned hand.
DECK: tuple[str, ...] = tuple(f"{colour}{number}" for colour in COLOURS for number in NUMBERS)
COLOUR = {card: card[:-1] for card in DECK}
NUMBER = {card: int(card[-1]) for card in DECK}
ORDER = {card: index for index, card in enumerate(DECK)}

HAND_SIZE = 9
SET_SIZE = 5
POOL_SIZES = (5, 7)
TWO_PLAYER_POOL = 9
OPTIONS = {"pool", "dealer", "decks"}

# A fast count of a hand's colours (or numbers): each card adds 1 to its colour's own 4-bit field of a
# tally. A field holds at most 8 (a colour has 8 cards), so adding 3 to every field sets a field's top
# bit exactly when it holds 5 or more, and never carries into the next field.
COLOUR_TALLY = {card: 16 ** COLOURS.index(COLOUR[card]) for card in DECK}
NUMBER_TALLY = {card: 16 ** NUMBERS.index(NUMBER[card]) for card in DECK}
PLUS_THREE = int("3" * len(NUMBERS), 16)
TOP_BITS = int("8" * len(NUMBERS), 16)

# Every swap and the knock, made once: legal actions are handed out from here (see SharedAction).
SWAPS = {give: {take: SharedAction(type="swap", give=give, take=take) for take in DECK} for give in DECK}
KNOCK = SharedAction(type="knock")


class ZeroDown(Game):
    id = "zero_down"
    title = "Zero Down"
    min_players = 2
    max_players = 5
    lowest_wins = True
    action_fields: ClassVar[ActionFields] = {"swap": ("give", "take"), "knock": ()}

    # Set-up

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        options = checked_options(self, players, options, OPTIONS)
        pool_size = the_pool_size(options.get("pool", POOL_SIZES[0]), players)
        dealer = seat_option(options, "dealer", players, random.Random(f"{seed}/dealer").randrange(players))
        state: State = {
            "players": players,
            "seed": seed,
            "decks": stacked_decks(options),
            "pool_size": pool_size,
            # A game has n rounds.
            "rounds": players,
            "round": 0,
            "dealer": dealer,
            "shuffles": 0,
            "scores": (0,) * players,
            "history": (),
            "last_rounds": (),
            "last": None,
            "moves": (),
        }
        return deal_round(state)

    # A turn

    def legal_actions(self, state: State, seat: int | None, now: float = 0.0) -> list[Action]:
        if seat != state["turn"] or seat is None:  # the turn is None once the game is over
            return []
        return moves(state["hands"][seat], state["pool"])

    def legal_move(self, state: State, seat: int, action: Any, now: float) -> Action | None:
        if seat != state["turn"] or type(action) not in ACTION_TYPES:
            return None
        if action == KNOCK:
            return KNOCK
        give, take = action.get("give"), action.get("take")
        # What `moves` lists: any card of the hand for any card of the pool.
        if (
            len(action) == 3
            and action.get("type") == "swap"
            and type(give) is str
            and type(take) is str
            and give in state["hands"][seat]
            and take in state["pool"]
        ):
            return SWAPS[give][take]
        return None

    def perform(self, state: State, seat: int, action: Action, now: float) -> State:
        if action["type"] == "swap":
            after = swap(state, seat, action["give"], action["take"])
        else:
            after = knock(state, seat)
        return remember_move(after, state["round"] + 1)

    def refusal(self, state: State, seat: int, action: Action, now: float) -> str | None:
        if state["phase"] == "over":
            return "The game is over."
        if seat != state["turn"]:
            return "It is not your turn."
        if action["type"] == "swap":
            return swap_refusal(state, seat, action.get("give"), action.get("take"))
        if action["type"] != "knock":
            return "That is not an action of Zero Down."
        return None

    # Scoring

    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != "over":
            return None
        scores = list(state["scores"])
        # Penalty points: the lowest wins, and equal lowest scores all win.
        return {"scores": scores, "winners": winners(scores, min)}

    def figures(self, state: State) -> list[dict[str, Any]]:
        """Rounds played, ZEROs declared (from the deal too) and penalty points taken, by seat."""
        history = state["history"]
        return [
            {
                "rounds": len(history),
                "zeros": sum(1 for summary in history if summary["zero"] == seat),
                "points": sum(summary["points"][seat] for summary in history),
            }
            for seat in range(state["players"])
        ]

    @staticmethod
    def figure_lines(figures: list[dict[str, Any]], durations: list[float]) -> list[tuple[str, str]]:
        summed = totals(figures)
        average = summed["points"] / summed["rounds"] if summed["rounds"] else 0
        return [("ZERO declarations", str(summed["zeros"])), ("Average round score", f"{average:.1f}")]

    # View

    def view(self, state: State, seat: int | None, now: float = 0.0) -> dict[str, Any]:
        hands = state["hands"]
        return {
            "seat": seat,
            "hand": list(hands[seat]) if seat is not None else [],
            "hand_score": scored(hands[seat]) if seat is not None else None,
            "colours": list(COLOURS),
            "players": state["players"],
            "round": state["round"] + 1,
            "rounds": state["rounds"],
            "dealer": state["dealer"],
            "phase": state["phase"],
            "turn": state["turn"],
            "pool": list(state["pool"]),
            "hand_sizes": [len(hand) for hand in hands],
            "knocks": list(state["knocks"]),
            "final_turns": list(state["final_turns"]),
            "scores": list(state["scores"]),
            "history": thaw(state["history"]),
            "last_rounds": [shown_round(ended) for ended in thaw(state["last_rounds"])],
            "last": dict(state["last"]) if state["last"] else None,
            "moves": thaw(state["moves"]),
            "legal": self.legal_actions(state, seat),
            "result": self.result(state),
        }


def moves(hand: tuple[str, ...], pool: tuple[str, ...]) -> list[Action]:
    """Every swap of a hand card for a pool card, and the knock."""
    # Every pool card is a different card from the one put down, so any pair is a swap.
    made = [row[take] for row in map(SWAPS.__getitem__, hand) for take in pool]
    made.append(KNOCK)
    return made


def the_pool_size(pool: Any, players: int) -> int:
    """5 or 7 as the room chose; always 9 with two players."""
    if not whole_number(pool) or pool not in POOL_SIZES:
        raise ValueError("option 'pool' must be 5 or 7")
    return TWO_PLAYER_POOL if players == 2 else pool


def deal_round(state: State) -> State:
    """Shuffle all 56, deal 9 each from the dealer's left, lay the pool; the rest is out of the round."""
    players = state["players"]
    deck = shuffle(DECK, state["seed"], state["shuffles"], state["decks"])
    first = (state["dealer"] + 1) % players
    hands, taken = deal(deck, players, HAND_SIZE, first)
    pool_end = taken + state["pool_size"]
    hands = tuple(fan(hand) for hand in hands)
    state = {
        **state,
        "shuffles": state["shuffles"] + 1,
        "hands": hands,
        "pool": deck[taken:pool_end],
        # Out of the round, unseen: kept only so that every card is accounted for.
        "out": deck[pool_end:],
        "knocks": (),
        "final_turns": (),
        "turn": first,
        "phase": "play",
    }
    # *settled*: a ZERO straight from the deal is declared at once, checking seats from the dealer's left.
    for offset in range(players):
        seat = (first + offset) % players
        if is_zero(hands[seat]):
            return finish_round(state, zero=seat, from_deal=True)
    return state


def fan(cards: Sequence[str]) -> tuple[str, ...]:
    """A hand in display order: colour by colour, low to high."""
    return tuple(sorted(cards, key=ORDER.__getitem__))


# A turn


def swap_refusal(state: State, seat: int, give: Any, take: Any) -> str | None:
    if not isinstance(give, str) or give not in state["hands"][seat]:
        return "You do not hold that card."
    if take == give:
        return "You cannot take back the card you just put down."
    if not isinstance(take, str) or take not in state["pool"]:
        return "That card is not in the pool."
    return None


def swap(state: State, seat: int, give: str, take: str) -> State:
    """Put a hand card face up into the pool, then take a different pool card into hand."""
    hand, pool = state["hands"][seat], state["pool"]
    kept = list(hand)
    kept.remove(give)
    insort(kept, take, key=ORDER.__getitem__)
    new_hand = tuple(kept)
    # The card put down lies where the card taken was, so the pool keeps its size and its order.
    slot = pool.index(take)
    hands = list(state["hands"])
    hands[seat] = new_hand
    state = {
        **state,
        "hands": tuple(hands),
        "pool": (*pool[:slot], give, *pool[slot + 1 :]),
        "last": {"seat": seat, "type": "swap", "give": give, "take": take},
    }
    # *settled*: ZERO is declared the moment a hand becomes one, and the round ends at once.
    if is_zero(new_hand):
        return finish_round({**state, "last": {**state["last"], "zero": True}}, zero=seat, from_deal=False)
    return end_turn(state, seat)


def knock(state: State, seat: int) -> State:
    """The first knock has no effect; the second starts the final turns; later ones are passes."""
    last = {"seat": seat, "type": "knock"}
    if state["phase"] == "final":
        # *settled*: a knock during the final turns is a pass and is not counted.
        return end_turn({**state, "last": {**last, "knock": "pass"}}, seat)
    knocks = (*state["knocks"], seat)
    if len(knocks) == 1:
        return end_turn({**state, "knocks": knocks, "last": {**last, "knock": "first"}}, seat)
    # By the same player or another: every other player, clockwise from the knocker's left, gets
    # exactly one more turn; the second knocker gets none.
    players = state["players"]
    final_turns = tuple((seat + offset) % players for offset in range(1, players))
    return {
        **state,
        "knocks": knocks,
        "final_turns": final_turns,
        "phase": "final",
        "turn": final_turns[0],
        "last": {**last, "knock": "second"},
    }


def remember_move(state: State, round_number: int) -> State:
    """Keep the last move (every swap and knock is public) among the table's recent moves.

    One move per seat: whatever a player missed since their own last turn, across a round's end too.
    """
    move = {**state["last"], "round": round_number}
    return {**state, "moves": (*state["moves"], move)[-state["players"] :]}


def end_turn(state: State, seat: int) -> State:
    """Play goes clockwise; after the last of the final turns the round ends."""
    if state["phase"] == "final":
        final_turns = state["final_turns"][1:]
        if not final_turns:
            return finish_round({**state, "final_turns": final_turns}, zero=None, from_deal=False)
        return {**state, "final_turns": final_turns, "turn": final_turns[0]}
    return {**state, "turn": (seat + 1) % state["players"]}


# ZERO


def is_zero(hand: Sequence[str]) -> bool:
    """Five of one colour and five of one number in nine cards (so one card is in both groups)."""
    # In nine cards, five of a colour and five of a number must share a card: no need to look for it.
    return holds_five(sum(map(COLOUR_TALLY.__getitem__, hand))) and holds_five(
        sum(map(NUMBER_TALLY.__getitem__, hand))
    )


def holds_five(tally: int) -> bool:
    """Whether any field of a colour or number tally counts 5 or more."""
    return bool((tally + PLUS_THREE) & TOP_BITS)


# Scoring and end


def hand_score(hand: Sequence[str]) -> dict[str, Any]:
    """The hand's points and how they were worked out.

    Every card of a colour held 5 or more times and every card of a number held 5 or more times is set
    aside; each distinct number among the cards left scores its face value once.
    """
    colours = [COLOUR[card] for card in hand]
    numbers = [NUMBER[card] for card in hand]
    colour_sets = tuple(colour for colour in COLOURS if colours.count(colour) >= SET_SIZE)
    number_sets = tuple(number for number in NUMBERS if numbers.count(number) >= SET_SIZE)
    set_aside = tuple(card for card in hand if COLOUR[card] in colour_sets or NUMBER[card] in number_sets)
    counted = tuple(sorted({NUMBER[card] for card in hand if card not in set_aside}))
    return {
        "colour_sets": colour_sets,
        "number_sets": number_sets,
        "set_aside": set_aside,
        "counted": counted,
        "points": sum(counted),
    }


def held(hand: Sequence[str]) -> dict[str, Any]:
    """How many cards of each colour and each number the hand holds (those held, in deck order), and
    how many make a set: what a table shows beside a hand's score."""
    colours = [COLOUR[card] for card in hand]
    numbers = [NUMBER[card] for card in hand]
    return {
        "colours": [[colour, colours.count(colour)] for colour in COLOURS if colour in colours],
        "numbers": [[number, numbers.count(number)] for number in NUMBERS if number in numbers],
        "set_size": SET_SIZE,
    }


def scored(hand: Sequence[str]) -> dict[str, Any]:
    """The hand's score as a view gives it: how it was worked out, and what the hand holds."""
    return {**thaw(hand_score(hand)), **held(hand)}


def shown_round(ended: dict[str, Any]) -> dict[str, Any]:
    """A finished round's face-up hands, each hand's scoring with what it holds (see `held`)."""
    scoring = [{**score, **held(hand)} for score, hand in zip(ended["scoring"], ended["hands"], strict=True)]
    return {**ended, "scoring": scoring}


def hand_points(hand: Sequence[str]) -> int:
    """What the hand would score if the round ended now."""
    # The bots weigh hands by the thousand: most hold no five-set, and then nothing is set aside.
    if holds_five(sum(map(COLOUR_TALLY.__getitem__, hand))) or holds_five(
        sum(map(NUMBER_TALLY.__getitem__, hand))
    ):
        return hand_score(hand)["points"]
    return sum({NUMBER[card] for card in hand})


def finish_round(state: State, zero: int | None, from_deal: bool) -> State:
    """Score every hand face up (a ZERO declarer scores 0), then deal the next round or end the game."""
    scoring = []
    for seat, hand in enumerate(state["hands"]):
        score = hand_score(hand)
        if seat == zero:
            score = {**score, "points": 0}
        scoring.append({**score, "zero": seat == zero})
    points = tuple(score["points"] for score in scoring)
    scores = tuple(s + p for s, p in zip(state["scores"], points, strict=True))
    summary = {
        "round": state["round"] + 1,
        "dealer": state["dealer"],
        "zero": zero,
        "from_deal": from_deal,
        "points": points,
        "scores": scores,
    }
    # Every hand face up with its scoring, kept until the next round ends; a round ended from the deal
    # joins the one whose ending dealt it, so that the table shows both.
    face_up = {**summary, "hands": state["hands"], "scoring": tuple(scoring)}
    last_rounds = (*state["last_rounds"], face_up) if from_deal else (face_up,)
    state = {
        **state,
        "scores": scores,
        "history": (*state["history"], summary),
        "last_rounds": last_rounds,
    }
    # A round ended by a ZERO straight from the deal still counts as one of the n rounds.
    if state["round"] + 1 == state["rounds"]:
        return {**state, "phase": "over", "turn": None, "final_turns": ()}
    return deal_round(
        {**state, "round": state["round"] + 1, "dealer": (state["dealer"] + 1) % state["players"]}
    )


RULES = ZeroDown()
