"""Zero Game: trick-taking with bids and the dealer's hook rule (docs/rules/zero_game.md)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from ..base import (
    Action,
    ActionFields,
    Game,
    SharedAction,
    State,
    checked_options,
    one_of,
    seat_option,
    stacked_decks,
    thaw,
    whole_number,
    winners,
)
from ..cards import STANDARD_DECK, SUIT_NAMES, deal, following_suit, shuffle, sort_hand, trick_winner
from ..figures import share, totals

OPTIONS = {"schedule", "dealer", "decks"}
# Every action there can be, made once: legal_actions hands these out rather than building new ones.
BIDS = [SharedAction({"type": "bid", "bid": bid}) for bid in range(len(STANDARD_DECK) + 1)]
PLAYS = {card: SharedAction({"type": "play", "card": card}) for card in STANDARD_DECK}


class ZeroGame(Game):
    id = "zero_game"
    title = "Zero Game"
    min_players = 3
    max_players = 7
    action_fields: ClassVar[ActionFields] = {"bid": ("bid",), "play": ("card",)}

    # Set-up

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        options = checked_options(self, players, options, OPTIONS)
        schedule = the_schedule(options.get("schedule"), players)
        dealer = seat_option(options, "dealer", players, random.Random(f"{seed}/dealer").randrange(players))
        state: State = {
            "players": players,
            "seed": seed,
            "decks": stacked_decks(options),
            "schedule": schedule,
            "round": 0,
            "dealer": dealer,
            "shuffles": 0,
            "scores": (0,) * players,
            "history": (),
            "last_trick": None,
            "last_round": None,
            "last": None,
        }
        return deal_round(state)

    # A turn

    def legal_actions(self, state: State, seat: int | None, now: float = 0.0) -> list[Action]:
        if seat != state["turn"] or seat is None:  # the turn is None once the game is over
            return []
        if state["phase"] == "bid":
            return [BIDS[bid] for bid in allowed_bids(state, seat)]
        return list(map(PLAYS.__getitem__, playable_cards(state, seat)))

    def legal_move(self, state: State, seat: int, action: Any, now: float) -> Action | None:
        if seat != state["turn"]:
            return None
        if state["phase"] == "bid":
            return one_of(action, "bid", "bid", allowed_bids(state, seat), BIDS)
        return one_of(action, "play", "card", playable_cards(state, seat), PLAYS)

    def perform(self, state: State, seat: int, action: Action, now: float) -> State:
        if action["type"] == "bid":
            return bid(state, seat, action["bid"])
        return play(state, seat, action["card"])

    def refusal(self, state: State, seat: int, action: Action, now: float) -> str | None:
        if state["phase"] == "over":
            return "The game is over."
        if seat != state["turn"]:
            return "It is not your turn."
        if action["type"] == "bid":
            return bid_refusal(state, seat, action.get("bid"))
        if action["type"] == "play":
            return play_refusal(state, seat, action.get("card"))
        return "That is not an action of Zero Game."

    # Scoring

    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != "over":
            return None
        scores = list(state["scores"])
        return {"scores": scores, "winners": winners(scores)}

    def figures(self, state: State) -> list[dict[str, Any]]:
        """Rounds played and bids made exactly, by seat."""
        history = state["history"]
        return [
            {
                "rounds": len(history),
                "bids_made": sum(1 for past in history if past["bids"][seat] == past["tricks"][seat]),
            }
            for seat in range(state["players"])
        ]

    @staticmethod
    def figure_lines(figures: list[dict[str, Any]], durations: list[float]) -> list[tuple[str, str]]:
        summed = totals(figures)
        return [("Bids made exactly", share(summed["bids_made"], summed["rounds"]))]

    # View

    def view(self, state: State, seat: int | None, now: float = 0.0) -> dict[str, Any]:
        hands = state["hands"]
        return {
            "seat": seat,
            "hand": list(hands[seat]) if seat is not None else [],
            "players": state["players"],
            "round": state["round"] + 1,
            "rounds": len(state["schedule"]),
            "cards_dealt": state["schedule"][state["round"]],
            "dealer": state["dealer"],
            "phase": state["phase"],
            "turn": state["turn"] if state["phase"] != "over" else None,
            "trump": trump_card(state),
            "hand_sizes": [len(hand) for hand in hands],
            "bids": list(state["bids"]),
            "tricks": list(state["tricks"]),
            "trick": [list(pair) for pair in state["trick"]],
            "last_trick": thaw(state["last_trick"]) if state["last_trick"] else None,
            "last_round": thaw(state["last_round"]) if state["last_round"] else None,
            "hook": hook_amount(state),
            "scores": list(state["scores"]),
            "history": thaw(state["history"]),
            "last": dict(state["last"]) if state["last"] else None,
            "legal": self.legal_actions(state, seat),
            "result": self.result(state),
        }


def the_schedule(schedule: Any, players: int) -> tuple[int, ...]:
    """Cards per round: n, n-1, ..., 1 unless the room chose its own."""
    if schedule is None:
        return tuple(range(players, 0, -1))
    most = len(STANDARD_DECK) // players
    if (
        not isinstance(schedule, list | tuple)
        or not schedule
        or not all(whole_number(cards) and 1 <= cards <= most for cards in schedule)
    ):
        raise ValueError(f"option 'schedule' must list cards per round, each from 1 to {most}")
    return tuple(schedule)


def deal_round(state: State) -> State:
    """Shuffle, deal from the dealer's left, turn up the trump card, open the bidding."""
    players, dealer = state["players"], state["dealer"]
    cards = state["schedule"][state["round"]]
    deck = shuffle(STANDARD_DECK, state["seed"], state["shuffles"], state["decks"])
    first = (dealer + 1) % players
    hands, taken = deal(deck, players, cards, first)
    return {
        **state,
        "shuffles": state["shuffles"] + 1,
        "hands": tuple(sort_hand(hand) for hand in hands),
        # The undealt rest, its top card turned up as the trump card.
        "stock": deck[taken:],
        "played": (),
        "bids": (None,) * players,
        "tricks": (0,) * players,
        "trick": (),
        "leader": first,
        "turn": first,
        "phase": "bid",
    }


def trump_card(state: State) -> str | None:
    """The turned-up card; with every card dealt there is none, and the round has no trump."""
    return state["stock"][0] if state["stock"] else None


# Bidding


def hook_amount(state: State) -> int | None:
    """The one bid the dealer may not make (the hook rule), or None when nothing is forbidden."""
    if state["phase"] != "bid" or state["turn"] != state["dealer"]:
        return None
    cards = state["schedule"][state["round"]]
    forbidden = cards - sum(b for b in state["bids"] if b is not None)
    return forbidden if 0 <= forbidden <= cards else None


def allowed_bids(state: State, seat: int) -> list[int]:
    """Every bid from 0 to the cards held, but the dealer's hook."""
    bids = list(range(len(state["hands"][seat]) + 1))
    hook = hook_amount(state)
    if hook is not None:
        del bids[hook]
    return bids


def bid_refusal(state: State, seat: int, amount: Any) -> str | None:
    if state["phase"] != "bid":
        return "Bidding is over: play a card."
    cards = len(state["hands"][seat])
    if not whole_number(amount) or not 0 <= amount <= cards:
        return f"A bid is a whole number from 0 to {cards}."
    if amount == hook_amount(state):
        return (
            f"As dealer you may not bid {amount}: the bids would add up to {cards}, "
            "the cards dealt (the hook rule)."
        )
    return None


def bid(state: State, seat: int, amount: int) -> State:
    bids = state["bids"][:seat] + (amount,) + state["bids"][seat + 1 :]
    players = state["players"]
    last = {"seat": seat, "type": "bid", "bid": amount}
    if seat == state["dealer"]:
        # The dealer bids last; then the player left of the dealer leads.
        return {**state, "bids": bids, "phase": "play", "turn": state["leader"], "last": last}
    return {**state, "bids": bids, "turn": (seat + 1) % players, "last": last}


# Play


def playable_cards(state: State, seat: int) -> Sequence[str]:
    trick = state["trick"]
    return following_suit(state["hands"][seat], trick[0][1][1] if trick else None)


def play_refusal(state: State, seat: int, card: Any) -> str | None:
    if state["phase"] != "play":
        return "Bidding is not over yet: make your bid."
    if not isinstance(card, str) or card not in state["hands"][seat]:
        return "You do not hold that card."
    trick = state["trick"]
    if not trick:
        return None
    led = trick[0][1][1]
    return f"You must follow suit: you hold {SUIT_NAMES[led]}, the suit led."


def play(state: State, seat: int, card: str) -> State:
    hand = state["hands"][seat]
    trick = state["trick"]
    hands = list(state["hands"])
    at = hand.index(card)
    hands[seat] = hand[:at] + hand[at + 1 :]
    trick += ((seat, card),)
    players = state["players"]
    changed: State = {
        **state,
        "hands": tuple(hands),
        "trick": trick,
        "turn": (seat + 1) % players,
        "last": {"seat": seat, "type": "play", "card": card},
    }
    if len(trick) == 1:
        # The finished trick stays on view until the next card is played: this one.
        changed["last_trick"] = None
    if len(trick) == players:
        return finish_trick(changed)
    return changed


def finish_trick(state: State) -> State:
    """The highest trump, else the highest card of the suit led, takes the trick and leads next."""
    trick = state["trick"]
    cards = tuple(card for _, card in trick)
    trump = trump_card(state)
    winner = trick[trick_winner(cards, trump[1] if trump else None)][0]
    tricks = list(state["tricks"])
    tricks[winner] += 1
    state = {
        **state,
        "tricks": tuple(tricks),
        "trick": (),
        "played": state["played"] + cards,
        "last_trick": {"cards": trick, "winner": winner},
        "leader": winner,
        "turn": winner,
        "last": {**state["last"], "won": winner},
    }
    if not state["hands"][winner]:
        return finish_round(state)
    return state


# Scoring and end


def round_points(bid_made: int, tricks: int) -> int:
    """Exactly the bid: 10 + bid. Anything else: nothing."""
    return 10 + bid_made if tricks == bid_made else 0


def finish_round(state: State) -> State:
    points = tuple(round_points(b, t) for b, t in zip(state["bids"], state["tricks"], strict=True))
    summary = {
        "round": state["round"] + 1,
        "dealer": state["dealer"],
        "cards": state["schedule"][state["round"]],
        "trump": trump_card(state),
        "bids": state["bids"],
        "tricks": state["tricks"],
        "points": points,
    }
    state = {
        **state,
        "scores": tuple(s + p for s, p in zip(state["scores"], points, strict=True)),
        "history": state["history"] + (summary,),
        "last_round": summary,
    }
    if state["round"] + 1 == len(state["schedule"]):
        return {**state, "phase": "over", "turn": None}
    return deal_round(
        {**state, "round": state["round"] + 1, "dealer": (state["dealer"] + 1) % state["players"]}
    )


RULES = ZeroGame()
