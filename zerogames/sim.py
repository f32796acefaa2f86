"""Bot against bot: play many games of one game and print how each bot level fared.

    python -m zerogames.sim GAME --seats hard,easy,easy,easy,easy --games N --seed S [--json]
                            [--options JSON] [--budget DEALS] [--jobs N]

Deals are duplicated: game i is deal S + i // players, played with the lineup turned i % players seats,
so every deal is played with each level in every seat and the luck of the cards cancels out.
Per level (each seat of a level counts as one game of it): games, win rate with its 95% interval,
mean final score, the game's own figure with its 95% interval, and decision times (wall clock: p50,
p99 and the longest; and p99 in the thinking thread's CPU time, which other work on a shared machine
does not inflate). A progress bar runs on stderr. `--jobs` plays deals in several processes at once:
the same games, so the same figures (but the times).

Zero Game also seats two outside references, OpenSpiel's information-set MCTS on its `oh_hell` game,
which is a Zero Game round to the letter; they need the `reference` extra (`pip install -e
'.[reference]'`). `ismcts` searches 1,000 simulations a move (its own test settings), and knows more
than a seat may: OpenSpiel's `oh_hell` draws the hidden hands for its search from the cards really
dealt to the other seats, shuffled among them, never from the rest of the deck, so it knows which of
the cards its seat cannot see are in play (five seats of five cards: 20 of 46). `fair-ismcts` knows
what its seat has seen and no more: at each decision it draws 10 deals from every card its seat cannot
see, consistently with what the seat has seen (Hard's own dealing: the suits a seat lacks, the cards
played, the hand sizes), replays the round so far on each and searches each with 100 simulations
(1,000 in all), playing the move its searches visited most in all. OpenSpiel's search walks its
moves in the order of a hash table seeded anew in each process, and breaks ties by that order: a
reference's games are the same within one process but not from one run (or job) to the next. With two
levels in the lineup, a last line gives the paired difference of their mean scores, deal by deal, with
its interval.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from zerogames.bots import MODULES, SIM_LEVELS, Bot
from zerogames.games import GAMES, Game
from zerogames.games.cards import RANKS

# Seconds of play each action stands for, so that Cabo's sightings do run out as at a table.
SECONDS_PER_ACTION = 1.0
# The outside reference's seat, and its simulations a move.
REFERENCE = "ismcts"
REFERENCE_SIMULATIONS = 1000
# The fair reference's seat: as many simulations a move in all, in searches of as many each on deals of
# its own drawing (about 18 ms of CPU a decision, 0.4 of them drawing and replaying the deals). Five
# players, five-card rounds, 1,000 each (seed 0): among four random players it made 71.8% of its bids
# (ismcts 81.9%, Hard 73.1%); Hard's points a round less its were +0.30 (95% interval +0.01 to +0.58)
# with Hard among four of it, and +0.27 (+0.00 to +0.53) with it among four Hards.
FAIR_REFERENCE = "fair-ismcts"
FAIR_SEARCHES = 10
FAIR_SIMULATIONS = REFERENCE_SIMULATIONS // FAIR_SEARCHES
REFERENCES = (REFERENCE, FAIR_REFERENCE)
# The one game the reference seat plays: the one whose bots name OpenSpiel's game of the same rules.
ROUND_GAME = next(game for game, module in MODULES.items() if hasattr(module, "OPENSPIEL_GAME"))
# A game that has not ended after this many actions is a bug, not a long game.
MOST_ACTIONS = 100_000
Z95 = 1.959964


@dataclass
class Tally:
    """What one level did over the run; a level in several seats counts each seat's game."""

    games: int = 0
    wins: int = 0
    score: float = 0.0
    # The game's own figure as a numerator and denominator summed by deal (see `figure` in the bot
    # modules): the deal, not the game, is what the interval below counts as one draw.
    figure: dict[int, list[float]] = field(default_factory=dict)
    # The level's final scores summed by deal, with their count: deal by deal, two levels are paired.
    scores: dict[int, list[float]] = field(default_factory=dict)
    # Counts a game's figures add up (Cabo's calls and calls won).
    counted: dict[str, int] = field(default_factory=dict)
    decisions_ms: list[float] = field(default_factory=list)
    # The same decisions in the thinking thread's CPU time: what a shared machine's other work leaves out.
    decisions_cpu_ms: list[float] = field(default_factory=list)

    def count_figure(self, deal: int, numerator: float, denominator: float) -> None:
        summed = self.figure.setdefault(deal, [0.0, 0.0])
        summed[0] += numerator
        summed[1] += denominator

    def count_score(self, deal: int, total: float, games: int) -> None:
        summed = self.scores.setdefault(deal, [0.0, 0])
        summed[0] += total
        summed[1] += games

    def add(self, other: Tally) -> None:
        """Another part of the run's tally (a deal's games are tallied whole, in one part)."""
        self.games += other.games
        self.wins += other.wins
        self.score += other.score
        for deal, (numerator, denominator) in other.figure.items():
            self.count_figure(deal, numerator, denominator)
        for deal, (total, games) in other.scores.items():
            self.count_score(deal, total, games)
        for name, count in other.counted.items():
            self.counted[name] = self.counted.get(name, 0) + count
        self.decisions_ms += other.decisions_ms
        self.decisions_cpu_ms += other.decisions_cpu_ms


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% interval of a win rate (Wilson's score interval: sound near 0 and 1 too)."""
    if not games:
        return (0.0, 0.0)
    rate = wins / games
    spread = Z95 * math.sqrt(rate * (1 - rate) / games + Z95**2 / (4 * games**2))
    middle = rate + Z95**2 / (2 * games)
    scale = 1 + Z95**2 / games
    return (max(0.0, (middle - spread) / scale), min(1.0, (middle + spread) / scale))


def ratio_interval(pairs: list[list[float]]) -> tuple[float, float]:
    """The 95% interval of a ratio of sums, sum(y) / sum(x), from its (y, x) draws: the ratio
    estimator's standard error, sqrt(sum((y - r x)^2) / (n (n - 1))) / mean(x). The draws are deals:
    the games of one deal (its lineup turned through every seat) share its cards, and a level's seats
    in one game its luck (Trump Card's partners bank together), so only deals are independent. With
    fewer than two deals there is no spread to measure: the interval is unknown (nan)."""
    draws = len(pairs)
    mean_x = sum(x for _, x in pairs) / draws if draws else 0.0
    if draws < 2 or not mean_x:
        return (math.nan, math.nan)
    ratio = sum(y for y, _ in pairs) / (mean_x * draws)
    spread = sum((y - ratio * x) ** 2 for y, x in pairs) / (draws * (draws - 1))
    error = math.sqrt(spread) / mean_x
    return (ratio - Z95 * error, ratio + Z95 * error)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (0 when there is nothing to rank)."""
    if not values:
        return 0.0
    ranked = sorted(values)
    return ranked[max(0, math.ceil(share * len(ranked)) - 1)]


def lineup_for(levels: list[str], game: int) -> list[str]:
    """Game i's seats: the lineup turned i seats, so that every level sits in every seat."""
    turn = game % len(levels)
    return levels[-turn:] + levels[:-turn] if turn else list(levels)


class OpenSpielSeat:
    """A seat played by OpenSpiel's ISMCTS, on an `oh_hell` round kept beside the engine's: the round's
    deal as it was dealt and every move since. The search reads its own player's information state
    from it and draws the hidden hands again itself, but from the cards really dealt (see above)."""

    def __init__(self, seat: int, seed: int) -> None:
        import pyspiel  # the `reference` extra: the site never needs it

        self.seat = seat
        self.pyspiel = pyspiel
        policy = pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT
        self.bot = ismcts_bot(pyspiel, seed, REFERENCE_SIMULATIONS, policy)
        self.shuffles = -1
        self.round: Any = None
        self.last: Any = None

    def follow(self, state: dict[str, Any]) -> None:
        """Keep the reference round in step with the engine's: a new deal starts a new round, every move
        since is made in it too (each move is a new `last` in the engine's state)."""
        if state["shuffles"] != self.shuffles:
            self.shuffles, self.last = state["shuffles"], state["last"]
            self.round = self.dealt(state)
        if state["last"] is not self.last and state["phase"] != "over":
            self.last = state["last"]
            move = state["last"]
            self.round.apply_action(52 + move["bid"] if move["type"] == "bid" else spiel_card(move["card"]))

    def dealt(self, state: dict[str, Any]) -> Any:
        """A fresh `oh_hell` round with the engine's deal: its dealer, each hand, the trump card."""
        return spiel_round(self.pyspiel, state["dealer"], state["hands"], state["stock"][0])

    def choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        if self.round.current_player() != self.seat:
            raise AssertionError("the reference round is out of step with the engine's")
        wanted = move_of(self.bot.step(self.round))
        return legal[legal.index(wanted)]


def ismcts_bot(pyspiel: Any, seed: int, simulations: int, final_policy: Any) -> Any:
    """OpenSpiel's ISMCTS with its own test settings (random rollouts, UCT constant 5, no limit on
    the world samples kept), `simulations` a move, choosing by `final_policy`."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.ISMCTSBot(seed, evaluator, 5.0, simulations, -1, final_policy, False, False)


class FairSeat:
    """A seat played by OpenSpiel's ISMCTS that knows what its seat may know, and no more. At each
    decision it draws the round's deal again `FAIR_SEARCHES` times, from every card the seat cannot see
    and consistently with what it has seen (Hard's own dealing: the suits a seat lacks, the cards
    played, the hand sizes), sets up an `oh_hell` round on each deal replaying the round's bids and plays
    so far, searches each with `FAIR_SIMULATIONS` simulations and plays the move the searches visited
    most in all. Each search draws the hidden hands again itself, from its deal's cards: these were
    drawn fairly. Like a bot it sees the seat's views and remembers the round's tricks (Zero Game's
    `Memory`); the engine's state it never reads."""

    def __init__(self, seat: int, seed: int) -> None:
        import pyspiel  # the `reference` extra: the site never needs it

        self.seat = seat
        self.pyspiel = pyspiel
        self.module = MODULES[ROUND_GAME]
        self.memory = self.module.Memory()
        self.bot = ismcts_bot(
            pyspiel, seed, FAIR_SIMULATIONS, pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT
        )

    def see(self, view: dict[str, Any]) -> None:
        self.memory.see(view)

    def deals(self, view: dict[str, Any], rng: random.Random) -> list[Any]:
        """The `oh_hell` rounds to search: `FAIR_SEARCHES` deals drawn from what the seat has seen, each
        replayed to now (fewer when a deal will not fit the suits the seats have shown they lack)."""
        if not self.memory.whole:
            raise AssertionError("the fair reference seat sat down mid-round")
        deal = self.module.dealing_whole(view, self.memory)
        played = self.memory.played(view)
        first = (view["dealer"] + 1) % view["players"]
        bidders = [(first + offset) % view["players"] for offset in range(view["players"])]
        rounds = []
        for _ in range(FAIR_SEARCHES):
            hands = deal(rng)
            if hands is None:
                continue
            round_ = spiel_round(self.pyspiel, view["dealer"], hands, view["trump"])
            for bidder in bidders:
                if view["bids"][bidder] is None:
                    break
                round_.apply_action(52 + view["bids"][bidder])
            for who, card in played:
                if round_.current_player() != who:
                    raise AssertionError("a drawn round is out of step with the seat's view")
                round_.apply_action(spiel_card(card))
            if round_.current_player() != self.seat:
                raise AssertionError("a drawn round is out of step with the seat's view")
            rounds.append(round_)
        return rounds

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The move most visited over the searches of the drawn deals (ties broken at random); Normal's
        when no deal fitted."""
        if len(legal) == 1:
            return legal[0]
        visits: dict[int, float] = {}
        for round_ in self.deals(view, rng):
            # Each search's visits a move, as a share of its root's: every search runs as many.
            for action, share in self.bot.get_policy(round_):
                visits[action] = visits.get(action, 0.0) + share
        if not visits:
            return self.module.normal(view, legal, self.memory, rng)
        most = max(visits.values())
        wanted = move_of(rng.choice(sorted(action for action, count in visits.items() if count == most)))
        return legal[legal.index(wanted)]


# OpenSpiel numbers a card rank * 4 + suit, its suits in the order clubs, diamonds, spades, hearts.
SPIEL_SUITS = "CDSH"


def spiel_card(card: str) -> int:
    return RANKS.index(card[0]) * 4 + SPIEL_SUITS.index(card[1])


def card_of(action: int) -> str:
    return RANKS[action // 4] + SPIEL_SUITS[action % 4]


def move_of(action: int) -> dict[str, Any]:
    """The engine's move for an `oh_hell` action: bids are 52 and up, cards below."""
    return {"type": "bid", "bid": action - 52} if action >= 52 else {"type": "play", "card": card_of(action)}


def spiel_round(pyspiel: Any, dealer: int, hands: list[list[str]], trump: str) -> Any:
    """A fresh `oh_hell` round of a deal: its dealer, each seat's hand as dealt, the trump card."""
    players, cards = len(hands), len(hands[0])
    rules = {"players": players, "num_tricks_fixed": cards}
    game = pyspiel.load_game(MODULES[ROUND_GAME].OPENSPIEL_GAME, rules)
    round_ = game.new_initial_state()
    round_.apply_action(round_.chance_outcomes()[0][0])  # the number of tricks, fixed
    round_.apply_action(dealer)
    # OpenSpiel deals card i to player i mod players.
    for index in range(cards):
        for seat in range(players):
            round_.apply_action(spiel_card(hands[seat][index]))
    round_.apply_action(spiel_card(trump))
    return round_


def seat_for(rules: Game, level: str, seat: int, seed: int, budget: int | None) -> Any:
    """A seat's player: one of the references (seeded by game and seat), or a bot of the level."""
    if level == REFERENCE:
        return OpenSpielSeat(seat, seed)
    if level == FAIR_REFERENCE:
        return FairSeat(seat, seed)
    return Bot(rules.id, level, budget)


def play_game(
    rules: Game, lineup: list[str], seed: int, options: dict[str, Any], budget: int | None, tallies: dict
) -> dict[str, Any]:
    """One game bot against bot; each seat's decisions are timed into its level's tally."""
    players = len(lineup)
    bots: list[Any] = [
        seat_for(rules, level, seat, seed * players + seat, budget) for seat, level in enumerate(lineup)
    ]
    references = [bot for bot in bots if isinstance(bot, OpenSpielSeat)]
    rngs = [random.Random(f"{seed}/{seat}/{level}") for seat, level in enumerate(lineup)]
    order = random.Random(f"{seed}/order")
    state = rules.new_game(players, seed, options)
    now = 0.0
    for _ in range(MOST_ACTIONS):
        if rules.result(state) is not None:
            return state
        for reference in references:
            reference.follow(state)
        remembering = [seat for seat, bot in enumerate(bots) if getattr(bot, "memory", None) is not None]
        views = {seat: rules.view(state, seat, now) for seat in remembering}
        for seat, view in views.items():
            bots[seat].see(view)
        asked = [(seat, rules.legal_actions(state, seat, now)) for seat in range(players)]
        acting = [(seat, legal) for seat, legal in asked if legal]
        # Seats that may act at once (Zero's plays, Cabo's snaps) are asked in a random order; a bot may
        # wait (None), but the one whose turn it is always acts.
        order.shuffle(acting)
        for seat, legal in acting:
            view = views.get(seat) or rules.view(state, seat, now)
            start, cpu = time.perf_counter(), time.thread_time()
            bot = bots[seat]
            action = (
                bot.choose(legal) if isinstance(bot, OpenSpielSeat) else bot.choose(view, legal, rngs[seat])
            )
            tally = tallies[lineup[seat]]
            tally.decisions_ms.append((time.perf_counter() - start) * 1000)
            tally.decisions_cpu_ms.append((time.thread_time() - cpu) * 1000)
            if action is not None:
                if action not in legal:
                    raise AssertionError(f"{lineup[seat]} bot chose an illegal action: {action}")
                state = rules.apply(state, seat, action, now)
                break
        else:
            raise AssertionError("every seat waited: the game cannot go on")
        now += SECONDS_PER_ACTION
    raise AssertionError(f"no end after {MOST_ACTIONS} actions")


def count_game(
    rules: Game, lineup: list[str], deal: int, state: dict[str, Any], tallies: dict[str, Tally]
) -> None:
    """Each seat's game into its level's tally: the game's own figure (by deal) and counts come from
    its bot module (`figure`, `COUNTED` among the engine's `figures`)."""
    result = rules.result(state)
    bot = MODULES[rules.id]
    figures = rules.figures(state)
    for seat, level in enumerate(lineup):
        tally = tallies[level]
        tally.games += 1
        tally.wins += seat in result["winners"]
        tally.score += result["scores"][seat]
        tally.count_score(deal, result["scores"][seat], 1)
        tally.count_figure(deal, *bot.figure(rules, state, seat))
        for name in bot.COUNTED:
            tally.counted[name] = tally.counted.get(name, 0) + figures[seat][name]


def simulate(
    game_id: str,
    levels: list[str],
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    budget: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
) -> list[dict[str, Any]]:
    """Play `games` games and return one summary per level, in the order the levels first appear.
    With several jobs, processes play a deal's games each in turn: the same games, the same figures."""
    deals = [(first, min(first + len(levels), games)) for first in range(0, games, len(levels))]
    play = partial(play_games, game_id, levels, seed, options or {}, budget)
    tallies = {level: Tally() for level in levels}
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        for (_, last), played in zip(deals, (pool.map if pool else map)(play, deals), strict=True):
            for level, tally in played.items():
                tallies[level].add(tally)
            if progress:
                progress(last, games)
    rows = [summary(game_id, level, tally) for level, tally in tallies.items()]
    if len(rows) == 2:
        one, other = tallies.values()
        rows[0]["paired"] = paired_difference(one, other)
    return rows


def paired_difference(one: Tally, other: Tally) -> dict[str, Any]:
    """How much one level's mean score beats the other's, deal by deal (each deal played with both
    levels in every seat, so its luck cancels), with the 95% interval of the mean difference."""
    differences = [
        one.scores[deal][0] / one.scores[deal][1] - other.scores[deal][0] / other.scores[deal][1]
        for deal in one.scores
        if deal in other.scores
    ]
    deals = len(differences)
    mean = sum(differences) / deals if deals else 0.0
    if deals < 2:
        return {"difference": mean, "ci95": [math.nan, math.nan], "deals": deals}
    error = math.sqrt(sum((d - mean) ** 2 for d in differences) / (deals - 1) / deals)
    return {"difference": mean, "ci95": [mean - Z95 * error, mean + Z95 * error], "deals": deals}


def play_games(
    game_id: str,
    levels: list[str],
    seed: int,
    options: dict[str, Any],
    budget: int | None,
    games: tuple[int, int],
) -> dict[str, Tally]:
    """Games first to last (not included) of a run, tallied by level."""
    rules = GAMES[game_id]
    tallies = {level: Tally() for level in levels}
    for game in range(*games):
        lineup = lineup_for(levels, game)
        deal = seed + game // len(levels)
        state = play_game(rules, lineup, deal, options, budget, tallies)
        count_game(rules, lineup, deal, state, tallies)
    return tallies


def summary(game_id: str, level: str, tally: Tally) -> dict[str, Any]:
    by_deal = list(tally.figure.values())
    numerator, denominator = sum(y for y, _ in by_deal), sum(x for _, x in by_deal)
    figure = numerator / denominator if denominator else 0.0
    low, high = wilson(tally.wins, tally.games)
    row = {
        "level": level,
        "games": tally.games,
        "win_rate": tally.wins / tally.games if tally.games else 0.0,
        "win_rate_ci95": [low, high],
        "mean_score": tally.score / tally.games if tally.games else 0.0,
        "figure": figure,
        "figure_ci95": list(ratio_interval(by_deal)),
        "decision_ms_p50": percentile(tally.decisions_ms, 0.50),
        "decision_ms_p99": percentile(tally.decisions_ms, 0.99),
        "decision_ms_max": max(tally.decisions_ms, default=0.0),
        "decision_cpu_ms_p99": percentile(tally.decisions_cpu_ms, 0.99),
    }
    return {**row, **tally.counted}


def table(game_id: str, rows: list[dict[str, Any]]) -> str:
    bot = MODULES[game_id]
    name = bot.FIGURE
    head = f"{'level':<11} {'games':>6} {'win rate':>9} {'95% interval':>15} {'mean score':>11} {name:>18}"
    head += f" {'95% interval':>15}"
    head += f" {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'cpu p99':>8}"
    for counted in bot.COUNTED:
        head += f" {counted:>10}"
    lines = [head]
    for row in rows:
        low, high = row["win_rate_ci95"]
        figure_low, figure_high = row["figure_ci95"]
        line = (
            f"{row['level']:<11} {row['games']:>6} {row['win_rate']:>9.1%} {f'{low:.1%}-{high:.1%}':>15}"
            f" {row['mean_score']:>11.2f} {row['figure']:>18.2f} {f'{figure_low:.2f}-{figure_high:.2f}':>15}"
            f" {row['decision_ms_p50']:>8.2f}"
            f" {row['decision_ms_p99']:>8.2f} {row['decision_ms_max']:>8.1f}"
            f" {row['decision_cpu_ms_p99']:>8.2f}"
        )
        for counted in bot.COUNTED:
            line += f" {row[counted]:>10}"
        lines.append(line)
    if "paired" in rows[0]:
        paired = rows[0]["paired"]
        low, high = paired["ci95"]
        lines.append(
            f"paired by deal: {rows[0]['level']} - {rows[1]['level']} mean score {paired['difference']:+.2f}"
            f" (95% interval {low:+.2f} to {high:+.2f}, {paired['deals']} deals)"
        )
    return "\n".join(lines)


def progress_bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m zerogames.sim", description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    levels = ", ".join((*SIM_LEVELS, *REFERENCES))
    parser.add_argument("--seats", required=True, help=f"one level a seat, comma-separated: {levels}")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="one JSON object per level instead of a table")
    parser.add_argument("--options", type=json.loads, default={}, help="the game's options as JSON")
    parser.add_argument(
        "--budget", type=int, help="Hard's deals (Zero Game: iterations) a decision (default: the game's own)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes playing at once (the same games)")
    args = parser.parse_args(argv)
    rules = GAMES[args.game]
    args.levels = args.seats.split(",")
    known = (*SIM_LEVELS, *REFERENCES) if hasattr(MODULES[args.game], "OPENSPIEL_GAME") else SIM_LEVELS
    unknown = [level for level in args.levels if level not in known]
    if unknown:
        parser.error(f"unknown level(s) {', '.join(unknown)}: choose from {', '.join(known)}")
    if not rules.min_players <= len(args.levels) <= rules.max_players:
        seats = f"{rules.min_players} to {rules.max_players}"
        parser.error(f"{rules.title} seats {seats} players, not {len(args.levels)}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if not isinstance(args.options, dict):
        parser.error("--options must be a JSON object")
    return args


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    try:
        rows = simulate(
            args.game, args.levels, args.games, args.seed, args.options, args.budget, progress_bar, args.jobs
        )
    except ValueError as error:  # a bad game option
        sys.exit(f"error: {error}")
    if args.json:
        for row in rows:
            print(json.dumps(row))
    else:
        print(table(args.game, rows))


if __name__ == "__main__":
    main()
