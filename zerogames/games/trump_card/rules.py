"""Trump Card: two teams bank one pile from the Senior seat; only 52-0 wins (docs/rules/trump_card.md)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from ..base import (
    Action,
    ActionFields,
    Game,
    SharedAction,
    Side,
    State,
    checked_options,
    one_of,
    seat_option,
    stacked_decks,
    thaw,
)
from ..cards import (
    STANDARD_DECK,
    SUIT_NAMES,
    SUITS,
    deal,
    following_suit,
    follows_suit,
    shuffle,
    sort_hand,
    trick_winner,
)
from ..figures import minutes, totals

OPTIONS = {"chooser", "decks"}
PLAYERS = 4
ROUNDS = 13
FIRST_DEAL = 5
SECOND_DEAL = 8
# A team is its index: 0 holds seats 0 and 2 (A and C), 1 holds seats 1 and 3 (B and D).
TEAMS = ((0, 2), (1, 3))
FIRST_BANKING_ROUND = 3
NO_BANK_YET = "Rounds 1 and 2 never bank"
LAST_ACE_RESTRICTED_ROUND = 10
HISTORY_KEYS = ("round", "senior", "winner", "card", "banked", "bank")
ACE_REASON = "You won the last round with an Ace, so you may not lead an Ace in this round."
# Every action there can be, made once: legal_actions hands these out rather than building new ones.
TRUMP_BY_SUIT = {suit: SharedAction(type="trump", suit=suit) for suit in SUITS}
TRUMPS = list(TRUMP_BY_SUIT.values())
NAMEABLE = tuple(SUITS)  # the suits one by one (SUITS is one string)
PLAYS = {card: SharedAction(type="play", card=card) for card in STANDARD_DECK}


def team_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    """Partners sit across the table."""
    return (seat + 2) % PLAYERS


def bank_rule(number: int) -> str:
    """Whether round `number` can bank, in the rules' words."""
    if number < FIRST_BANKING_ROUND:
        return f"{NO_BANK_YET}: the pile only grows."
    return (
        f"From round {FIRST_BANKING_ROUND} on, if the Senior wins the round, their team banks the whole pile."
    )


def next_chooser(state: State) -> int:
    """The next match's Trump Chooser: the seat after this match's."""
    return (state["chooser"] + 1) % PLAYERS


class TrumpCard(Game):
    id = "trump_card"
    title = "Trump Card"
    min_players = PLAYERS
    max_players = PLAYERS
    rating_rule = (
        "Trump Card is rated as two teams of two: a KHOTI team finishes first, and a draw ranks the two"
        " teams equal; a match abandoned before its end ranks them by the cards each had banked."
    )
    action_fields: ClassVar[ActionFields] = {"trump": ("suit",), "play": ("card",)}

    def rematch_options(self, state: State, options: dict[str, Any]) -> dict[str, Any]:
        return {**options, "chooser": next_chooser(state)}

    # Set-up

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        options = checked_options(self, players, options, OPTIONS)
        # Settled: the first match's Chooser is drawn from the seed; a rematch passes `chooser`.
        drawn = random.Random(f"{seed}/chooser").randrange(players)
        chooser = seat_option(options, "chooser", players, drawn)
        state: State = {
            "players": players,
            "seed": seed,
            "decks": stacked_decks(options),
            "chooser": chooser,
            "shuffles": 0,
            "trump": None,
            "misdeals": (),
            "round": 1,
            # The Trump Chooser starts as the Senior.
            "senior": chooser,
            "restricted": None,
            "trick": (),
            "pile": (),
            "banked": ((), ()),
            "history": (),
            "last_round": None,
            "last": None,
        }
        return deal_first_five(state)

    # A turn

    def legal_actions(self, state: State, seat: int | None, now: float = 0.0) -> list[Action]:
        if seat != state["turn"] or seat is None:  # the turn is None once the game is over
            return []
        if state["phase"] == "trump":
            return list(TRUMPS)
        return list(map(PLAYS.__getitem__, playable_cards(state, seat)))

    def legal_move(self, state: State, seat: int, action: Any, now: float) -> Action | None:
        if seat != state["turn"]:
            return None
        if state["phase"] == "trump":
            return one_of(action, "trump", "suit", NAMEABLE, TRUMP_BY_SUIT)
        # The card alone is checked, not the list of playable cards made again: `apply` comes just
        # after that list was made for the table, and making it twice cost 3% more an action.
        found = one_of(action, "play", "card", state["hands"][seat], PLAYS)
        return found if found is not None and may_play(state, seat, found["card"]) else None

    def perform(self, state: State, seat: int, action: Action, now: float) -> State:
        if action["type"] == "trump":
            return name_trump(state, seat, action["suit"])
        return play(state, seat, action["card"])

    def refusal(self, state: State, seat: int, action: Action, now: float) -> str | None:
        if state["phase"] == "over":
            return "The match is over."
        if seat != state["turn"]:
            return "It is not your turn."
        if action["type"] == "trump":
            if state["phase"] != "trump":
                return "The trump suit has already been named."
            return "Name a suit: clubs, diamonds, hearts or spades."
        if action["type"] == "play":
            return play_refusal(state, seat, action.get("card"))
        return "That is not an action of Trump Card."

    # Result

    def scores(self, state: State) -> list[int]:
        """Each seat's figure is its team's banked cards."""
        banked = [len(cards) for cards in state["banked"]]
        return [banked[team_of(seat)] for seat in range(PLAYERS)]

    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != "over":
            return None
        banked = [len(cards) for cards in state["banked"]]
        # KHOTI: one team banked all 52. Anything else (both banked, cards stranded) is a draw.
        khoti = next((team for team, count in enumerate(banked) if count == len(STANDARD_DECK)), None)
        return {
            "scores": self.scores(state),
            "winners": list(TEAMS[khoti]) if khoti is not None else [],
            "outcome": "khoti" if khoti is not None else "draw",
            "team": khoti,
            "banked": banked,
            "pile": len(state["pile"]),
            "pile_cards": list(state["pile"]),
        }

    def rating_sides(self, state: State) -> list[Side]:
        """The two teams, by the cards each banked so far (at a finished match without KHOTI, a draw,
        `outcome` stands them equal)."""
        return [Side(seats, len(state["banked"][team])) for team, seats in enumerate(TEAMS)]

    def figures(self, state: State) -> list[dict[str, Any]]:
        """By seat: the trump it named as Chooser (else None), its collections (rounds it won as Senior
        and banked) and the cards they banked, and whether its team won by KHOTI."""
        result = self.result(state)
        khoti = result["winners"] if result else []
        history = [dict(zip(HISTORY_KEYS, entry, strict=True)) for entry in state["history"]]
        figures = []
        for seat in range(PLAYERS):
            # A round banks nothing (0) unless its winner's team banked the pile.
            banked = [past["bank"] for past in history if past["winner"] == seat and past["bank"]]
            figures.append(
                {
                    "trump": state["trump"] if seat == state["chooser"] else None,
                    "collections": len(banked),
                    "collected": sum(banked),
                    "khoti": seat in khoti,
                }
            )
        return figures

    @staticmethod
    def figure_lines(figures: list[dict[str, Any]], durations: list[float]) -> list[tuple[str, str]]:
        summed = totals(figures)
        trumps = Counter(each["trump"] for each in figures if each["trump"])
        average = summed["collected"] / summed["collections"] if summed["collections"] else 0
        return [
            ("Average collection", f"{average:.1f} cards" if summed["collections"] else "none yet"),
            (
                "Favourite trump suit",
                SUIT_NAMES[trumps.most_common(1)[0][0]].title() if trumps else "never chose",
            ),
            ("Average match", minutes(sum(durations) / len(durations))),
            ("KHOTI", str(summed["khoti"])),
        ]

    # View

    def view(self, state: State, seat: int | None, now: float = 0.0) -> dict[str, Any]:
        hands = state["hands"]
        restricted = seat is not None and state["restricted"] == seat
        return {
            "seat": seat,
            "hand": list(hands[seat]) if seat is not None else [],
            "players": PLAYERS,
            "teams": [list(team) for team in TEAMS],
            "team": team_of(seat) if seat is not None else None,
            "partner": partner_of(seat) if seat is not None else None,
            "seat_teams": [team_of(other) for other in range(PLAYERS)],
            "next_chooser": next_chooser(state),
            "bank_rule": bank_rule(state["round"]),
            "phase": state["phase"],
            "turn": state["turn"],
            "chooser": state["chooser"],
            "trump": state["trump"],
            "hand_sizes": [len(hand) for hand in hands],
            "round": state["round"],
            "rounds": ROUNDS,
            "senior": state["senior"],
            "trick": [list(pair) for pair in state["trick"]],
            "pile": list(state["pile"]),
            "pile_size": len(state["pile"]),
            "banked": [len(cards) for cards in state["banked"]],
            "ace_restricted": restricted,
            "ace_reason": ACE_REASON if restricted else None,
            "restricted_seat": state["restricted"],
            "misdeals": len(state["misdeals"]),
            "notices": [misdeal_notice(misdeal, state["trump"]) for misdeal in state["misdeals"]],
            "last_round": thaw(state["last_round"]) if state["last_round"] else None,
            "history": [dict(zip(HISTORY_KEYS, entry, strict=True)) for entry in state["history"]],
            "last": dict(state["last"]) if state["last"] else None,
            "scores": self.scores(state),
            "legal": self.legal_actions(state, seat),
            "result": self.result(state),
        }


# The deal


def deal_first_five(state: State) -> State:
    """Shuffle and deal five each from the Chooser; the rest waits, face down, for the trump."""
    deck = shuffle(STANDARD_DECK, state["seed"], state["shuffles"], state["decks"])
    hands, taken = deal(deck, PLAYERS, FIRST_DEAL, state["chooser"])
    return {
        **state,
        "shuffles": state["shuffles"] + 1,
        "hands": tuple(sort_hand(hand) for hand in hands),
        "deck": deck[taken:],
        "phase": "trump",
        "turn": state["chooser"],
    }


def deal_the_rest(hands: tuple[tuple[str, ...], ...], deck: tuple[str, ...], chooser: int) -> tuple:
    """The second pass: eight more each, one at a time from the Chooser, from the same deck."""
    more, _ = deal(deck, PLAYERS, SECOND_DEAL, chooser)
    return tuple(sort_hand(hand + extra) for hand, extra in zip(hands, more, strict=True))


def without_trump(hands: tuple[tuple[str, ...], ...], trump: str) -> tuple[int, ...]:
    return tuple(seat for seat, hand in enumerate(hands) if all(card[1] != trump for card in hand))


def name_trump(state: State, seat: int, suit: str) -> State:
    chooser, shuffles = state["chooser"], state["shuffles"]
    hands = deal_the_rest(state["hands"], state["deck"], chooser)
    misdeals: list[dict[str, Any]] = []
    # Misdeal: re-deal (5 then 8, fresh shuffle, same trump) until every player holds a trump.
    while empty := without_trump(hands, suit):
        misdeals.append({"number": len(misdeals) + 1, "seats": empty})
        deck = shuffle(STANDARD_DECK, state["seed"], shuffles, state["decks"])
        shuffles += 1
        first, taken = deal(deck, PLAYERS, FIRST_DEAL, chooser)
        hands = deal_the_rest(first, deck[taken:], chooser)
    return {
        **state,
        "trump": suit,
        "shuffles": shuffles,
        "hands": hands,
        "deck": (),
        "misdeals": tuple(misdeals),
        "phase": "play",
        "turn": state["senior"],
        "last": {"seat": seat, "type": "trump", "suit": suit, "misdeals": len(misdeals)},
    }


def misdeal_notice(misdeal: dict[str, Any], trump: str) -> dict[str, Any]:
    """How a misdeal is announced to the table (the seats that held no trump, and what happened)."""
    players = "A player" if len(misdeal["seats"]) == 1 else f"{len(misdeal['seats'])} players"
    return {
        "number": misdeal["number"],
        "seats": list(misdeal["seats"]),
        "text": f"Misdeal {misdeal['number']}: {players} held no {SUIT_NAMES[trump]}, "
        "so the cards were reshuffled and dealt again.",
    }


# A round


def playable_cards(state: State, seat: int) -> Sequence[str]:
    trick = state["trick"]
    if trick:
        return following_suit(state["hands"][seat], trick[0][1][1])
    hand = state["hands"][seat]
    if state["restricted"] == seat:
        # Ace restriction; such a player always holds a card that is not an Ace (rules, A round).
        return tuple(card for card in hand if card[0] != "A")
    return hand


def may_play(state: State, seat: int, card: str) -> bool:
    """Whether `card`, held by `seat`, is one of its `playable_cards`."""
    trick = state["trick"]
    if trick:
        return follows_suit(state["hands"][seat], trick[0][1][1], card)
    return state["restricted"] != seat or card[0] != "A"


def play_refusal(state: State, seat: int, card: Any) -> str | None:
    if state["phase"] != "play":
        return "The trump suit has not been named yet."
    if not isinstance(card, str) or card not in state["hands"][seat]:
        return "You do not hold that card."
    trick = state["trick"]
    if trick:
        return f"You must follow suit: you hold {SUIT_NAMES[trick[0][1][1]]}, the suit led."
    return ACE_REASON


def play(state: State, seat: int, card: str) -> State:
    hand = state["hands"][seat]
    trick = state["trick"]
    hands = list(state["hands"])
    at = hand.index(card)
    hands[seat] = hand[:at] + hand[at + 1 :]
    trick += ((seat, card),)
    changed: State = {
        **state,
        "hands": tuple(hands),
        "trick": trick,
        "turn": (seat + 1) % PLAYERS,
        # The restriction covers the lead only; once the card is led it is spent.
        "restricted": None,
        "last": {"seat": seat, "type": "play", "card": card},
    }
    if len(trick) == PLAYERS:
        return finish_round(changed)
    return changed


def finish_round(state: State) -> State:
    """The winner becomes Senior; the cards go on the pile; a Senior who held the seat banks it."""
    trick, senior, number = state["trick"], state["senior"], state["round"]
    cards = tuple(card for _, card in trick)
    at = trick_winner(cards, state["trump"])
    winner, winning_card = trick[at]
    pile = state["pile"] + cards
    banked = state["banked"]
    if number < FIRST_BANKING_ROUND:
        team, why = None, f"{NO_BANK_YET}: the pile grows."
    elif winner != senior:
        team, why = None, "The Senior lost the round: the pile stays."
    else:
        team, why = team_of(winner), "The Senior won the round: their team banks the whole pile."
        banked = tuple(held + pile if t == team else held for t, held in enumerate(banked))
    summary = {
        "round": number,
        "senior": senior,
        "cards": trick,
        "winner": winner,
        "card": winning_card,
        "banked": team,
        "bank": len(pile) if team is not None else 0,
        "why": why,
    }
    state = {
        **state,
        "trick": (),
        "pile": () if team is not None else pile,
        "banked": banked,
        "senior": winner,
        # The match's record, round by round, without the cards (they are on the pile or banked).
        "history": state["history"] + ((number, senior, winner, winning_card, team, summary["bank"]),),
        "last_round": summary,
        "last": {**state["last"], "won": winner, "banked": team},
    }
    if number == ROUNDS:
        return {**state, "phase": "over", "turn": None}
    # Ace restriction: a player who won with an Ace may not lead one next round (never from round 11).
    ace = winning_card[0] == "A" and number + 1 <= LAST_ACE_RESTRICTED_ROUND
    return {**state, "round": number + 1, "turn": winner, "restricted": winner if ace else None}


RULES = TrumpCard()
