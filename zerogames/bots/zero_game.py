"""Zero Game's Easy bot: bid the sure-looking tricks, then try to win exactly that many."""

from __future__ import annotations

import random
from typing import Any

from zerogames.games import GAMES
from zerogames.games.base import State
from zerogames.games.cards import RANK_ORDER, RANKS, STANDARD_DECK, trick_winner
from zerogames.games.zero_game import BIDS, PLAYS

from .search import best_by_deals
from .tricks import higher_unseen, voids_shown


def strength(card: str, trump: str | None) -> float:
    """How likely a card is to take a trick on its own, roughly."""
    if trump and card[1] == trump:
        return 0.5 + RANK_ORDER[card[0]] / 24
    return {"A": 0.8, "K": 0.5, "Q": 0.2}.get(card[0], 0.0)


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any]:
    trump = view["trump"][1] if view["trump"] else None
    if legal[0]["type"] == "bid":
        wanted = round(sum(strength(card, trump) for card in view["hand"]))
        return min(legal, key=lambda action: (abs(action["bid"] - wanted), action["bid"]))
    seat = view["seat"]
    need = (view["bids"][seat] or 0) - view["tricks"][seat]
    cards = [action["card"] for action in legal]
    played = [card for _, card in view["trick"]]
    winners = [card for card in cards if not played or trick_winner([*played, card], trump) == len(played)]
    by_strength = sorted(cards, key=lambda card: (card[1] == trump, RANK_ORDER[card[0]]))
    if need > 0:
        # Win cheaply when a card can win now; else throw the weakest card away.
        choice = min(winners, key=by_strength.index) if winners else by_strength[0]
    else:
        # Enough tricks: duck with the highest card that still loses, else the weakest.
        losers = [card for card in cards if card not in winners]
        choice = max(losers, key=by_strength.index) if losers else by_strength[0]
    return {"type": "play", "card": choice}


# Normal and Hard remember the round's tricks: a view shows only the trick on the table and the one
# just finished, so the cards played before are kept from view to view.


class Memory:
    """The current round's finished tricks, in order, as the seat saw them finish."""

    def __init__(self) -> None:
        self.round: int | None = None
        self.tricks: list[list[tuple[int, str]]] = []
        # False when a trick finished unseen (the bot was seated mid-round): Hard then plays as Normal.
        self.whole = True

    def see(self, view: dict[str, Any]) -> None:
        finished = sum(view["tricks"])
        if view["round"] != self.round:
            self.round, self.tricks = view["round"], []
            self.whole = finished == 0 and not view["trick"]
        if len(self.tricks) < finished:
            last = view["last_trick"]
            if last is not None and len(self.tricks) == finished - 1:
                self.tricks.append([(seat, card) for seat, card in last["cards"]])
            else:
                self.whole = False
                self.tricks.extend([[]] * (finished - len(self.tricks)))

    def played(self, view: dict[str, Any]) -> list[tuple[int, str]]:
        """Every card played this round that the seat saw, in order, the table's trick included."""
        return [*(pair for trick in self.tricks for pair in trick), *((s, c) for s, c in view["trick"])]

    def voids(self, view: dict[str, Any]) -> dict[int, set[str]]:
        """The suits each seat has shown it lacks, this round's tricks and the table's included."""
        return voids_shown([*self.tricks, view["trick"]], view["players"])


def out_of_play(view: dict[str, Any], memory: Memory) -> set[str]:
    """Cards the seat knows no opponent holds: its hand, the trump card, every card played."""
    known = set(view["hand"]) | {card for _, card in memory.played(view)}
    if view["trump"]:
        known.add(view["trump"])
    return known


def promoted(card: str, known: set[str]) -> str:
    """The card as strong as it really is: a king whose ace is out of play is as good as the ace."""
    above = higher_unseen(card, known)
    return RANKS[len(RANKS) - 1 - above] + card[1] if card[0] in "KQJ" and above < 2 else card


def normal(view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random) -> dict:
    """Bid what a few deals of the unseen cards, played out as Easy plays, say is best; then play as
    Easy does, but lead the card likeliest to win, counting the cards already out."""
    if legal[0]["type"] == "bid":
        return hard(view, legal, memory, rng, NORMAL_DEALS)
    trump = view["trump"][1] if view["trump"] else None
    need = view["bids"][view["seat"]] - view["tricks"][view["seat"]]
    if view["trick"] or need <= 0:
        return choose(view, legal, "easy", rng)
    known = out_of_play(view, memory)
    return max(legal, key=lambda action: strength(promoted(action["card"], known), trump))


# Hard: deals of the unseen cards that agree with the round so far (voids included), each rebuilt with
# the real engine from a stacked deck and the round's bids and plays, then played out by every seat.

DEFAULT_BUDGET = 24
# Normal weighs its bid on this many deals.
NORMAL_DEALS = 6
# In a play-out the other seats play greedily, but now and then at random: the table may hold anyone
# from a careful player to a random one, and a search sure of its opponents is easily fooled.
WILD = 0.3
RULES = GAMES["zero_game"]


def hard(
    view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random, budget: int | None
) -> dict[str, Any]:
    if len(legal) == 1:
        return legal[0]
    fallback = choose(view, legal, "easy", rng)
    if not memory.whole:
        return fallback
    seat = view["seat"]

    def outcome(state: State, action: dict[str, Any]) -> float:
        return RULES.scores(play_out(RULES.apply(state, seat, action), seat, rng))[seat]

    chosen = best_by_deals(legal, lambda: sample_round(view, memory, rng), outcome, budget or DEFAULT_BUDGET)
    return chosen or fallback


def sample_round(view: dict[str, Any], memory: Memory, rng: random.Random) -> State | None:
    """The round as it may be: unseen cards dealt to the other seats (none of a suit a seat lacks), the
    round replayed to now with the engine. A one-round game, so its score is this round's points."""
    seat, players, dealt = view["seat"], view["players"], view["cards_dealt"]
    played = memory.played(view)
    hands = deal_unseen(view, memory, rng)
    if hands is None:
        return None
    for who, card in played:
        hands[who].append(card)
    first = (view["dealer"] + 1) % players
    deck: list[str] = [""] * (players * dealt)
    for offset in range(players):
        for index, card in enumerate(hands[(first + offset) % players]):
            deck[offset + players * index] = card
    hands[seat] = []
    in_hands = set(deck)
    rest = [card for card in STANDARD_DECK if card not in in_hands]
    if view["trump"]:
        rest.remove(view["trump"])
        rest.insert(0, view["trump"])
    options = {"schedule": [dealt], "dealer": view["dealer"], "decks": [deck + rest]}
    state = RULES.new_game(players, 0, options)
    for offset in range(players):
        bidder = (first + offset) % players
        if view["bids"][bidder] is None:
            break
        state = RULES.apply(state, bidder, BIDS[view["bids"][bidder]])
    for who, card in played:
        state = RULES.apply(state, who, PLAYS[card])
    return state


def deal_unseen(view: dict[str, Any], memory: Memory, rng: random.Random) -> list[list[str]] | None:
    """The other seats' hands drawn from the unseen cards, each avoiding the suits it has shown it lacks
    (the most constrained seat first; a few tries, then None)."""
    seat = view["seat"]
    known = out_of_play(view, memory)
    unseen = [card for card in STANDARD_DECK if card not in known]
    voids = memory.voids(view)
    others = sorted((s for s in range(view["players"]) if s != seat), key=lambda s: -len(voids[s]))
    for _ in range(8):
        rng.shuffle(unseen)
        left = list(unseen)
        hands: list[list[str]] = [[] for _ in range(view["players"])]
        hands[seat] = list(view["hand"])
        for other in others:
            fits = [card for card in left if card[1] not in voids[other]][: view["hand_sizes"][other]]
            if len(fits) < view["hand_sizes"][other]:
                break
            hands[other] = fits
            taken = set(fits)
            left = [card for card in left if card not in taken]
        else:
            return hands
    return None


def play_out(state: State, me: int, rng: random.Random) -> State:
    """Every seat bids and plays to the round's end as Easy would, the others now and then at random,
    and this seat sure of what it can win: in a sampled deal every hand is known."""
    while state["phase"] != "over":
        seat = state["turn"]
        legal = RULES.legal_actions(state, seat)
        if seat != me and rng.random() < WILD:
            action = legal[int(rng.random() * len(legal))]
        elif seat == me and state["phase"] == "play":
            action = clear_sighted(state, seat, legal) or choose(bare_view(state, seat), legal, "easy", rng)
        else:
            action = choose(bare_view(state, seat), legal, "easy", rng)
        state = RULES.apply(state, seat, action)
    return state


def clear_sighted(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """In a deal where every hand is known: while a trick is wanted, the cheapest card that wins it
    whatever the later players hold; else the highest card that loses it now. None when there is none."""
    trump = state["stock"][0][1] if state["stock"] else None
    played = [card for _, card in state["trick"]]
    later = [(seat + k) % state["players"] for k in range(1, state["players"] - len(played))]
    by_strength = sorted(
        legal, key=lambda action: (action["card"][1] == trump, RANK_ORDER[action["card"][0]])
    )
    winning = [
        action for action in by_strength if trick_winner([*played, action["card"]], trump) == len(played)
    ]
    if state["bids"][seat] > state["tricks"][seat]:
        return next(
            (action for action in winning if not beaten([*played, action["card"]], later, state)), None
        )
    losing = [action for action in by_strength if action not in winning]
    return losing[-1] if losing else None


def beaten(cards: list[str], later: list[int], state: State) -> bool:
    """Whether one of the later players holds a card that would take the trick from the last card."""
    trump = state["stock"][0][1] if state["stock"] else None
    for other in later:
        hand = state["hands"][other]
        for reply in [card for card in hand if card[1] == cards[0][1]] or hand:
            if trick_winner([*cards, reply], trump) == len(cards):
                return True
    return False


def bare_view(state: State, seat: int) -> dict[str, Any]:
    """What Easy reads of a view, straight from a play-out's state (far cheaper than the full view)."""
    return {
        "seat": seat,
        "hand": state["hands"][seat],
        "trump": state["stock"][0] if state["stock"] else None,
        "bids": state["bids"],
        "tricks": state["tricks"],
        "trick": state["trick"],
    }


# The simulator's figure: percent of rounds in which the seat made its bid exactly.
FIGURE = "bids made %"
COUNTED: tuple[str, ...] = ()


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    made = rules.figures(state)[seat]
    return 100.0 * made["bids_made"], made["rounds"]
