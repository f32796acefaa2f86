"""The lobby, decided: seats and options before a game, the clock, starting, and rematches."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from zerogames import bots, clock
from zerogames.fairness import STACKED, Fairness, contribution, fair_deal

from . import ranked, turn_clock
from .commands import (
    AddBot,
    Context,
    Deal,
    Decision,
    Join,
    Kick,
    Leave,
    Refusal,
    Refused,
    Rematch,
    RemoveBot,
    SaveKicked,
    SaveRoom,
    SetClock,
    SetOptions,
    SetRanked,
    Start,
    StartGame,
    Unchanged,
    Verdict,
)
from .facts import Facts, Seat
from .names import bot_name, clean_name
from .play import taken_back


def seats_changed(facts: Facts, context: Context, answer: Any = None, **changes: Any) -> Decision:
    """A change of the lobby's seats or options: the room's row rewritten, its ratings shown anew."""
    after = ranked.with_ratings(facts.but(**changes), context.store)
    return Decision(after, (SaveRoom(),), answer)


def host_in_lobby(facts: Facts, uid: str) -> Refusal | None:
    if uid != facts.host:
        return Refusal("Only the host can change the table.")
    if facts.status != "lobby":
        return Refusal("The game has started: the seats are settled.")
    return None


def join(facts: Facts, command: Join, context: Context) -> Verdict:
    try:
        name = clean_name(command.name)
    except Refused as refused:
        return Refusal(refused.reason)
    if command.uid in facts.kicked:
        return Refusal(SENT_AWAY)
    seat = facts.seat_of(command.uid)
    if seat is not None:
        if facts.status == "playing" and facts.seats[seat].bot is not None:
            # Rejoining takes the seat back from the bot the host let play it.
            return Decision(taken_back(facts, seat), (SaveRoom(),), seat)
        return Unchanged(seat)
    if facts.status != "lobby":
        return Refusal("The game has started without you: you can watch it.")
    rules = facts.rules
    if len(facts.seats) >= rules.max_players:
        return Refusal(f"This table is full: {rules.title} is for at most {rules.max_players}.")
    if why := ranked.why_not_seated(facts, command.uid, context.store):
        return Refusal(why)
    seat = Seat(command.uid, name, contribution=contribution(command.contribution))
    return seats_changed(facts, context, len(facts.seats), seats=(*facts.seats, seat))


def leave(facts: Facts, command: Leave, context: Context) -> Verdict:
    seat = facts.seat_of(command.uid)
    if seat is None or facts.status != "lobby":
        return Refusal("Only a seated player can leave, and only before the game starts.")
    if command.uid == facts.host:
        return Refusal("The host keeps the table: you cannot leave it.")
    return seats_changed(facts, context, seats=without(facts.seats, seat))


def add_bot(facts: Facts, command: AddBot, context: Context) -> Verdict:
    if refusal := host_in_lobby(facts, command.uid):
        return refusal
    if command.level not in bots.LEVELS:
        return Refusal("There is no bot of that level.")
    if why := ranked.why_no_bots(facts):
        return Refusal(why)
    if len(facts.seats) >= facts.rules.max_players:
        return Refusal("The table is full: there is no seat for a bot.")
    name = bot_name([seat.name for seat in facts.seats])
    return seats_changed(facts, context, seats=(*facts.seats, Seat(None, name, command.level)))


def remove_bot(facts: Facts, command: RemoveBot, context: Context) -> Verdict:
    if refusal := host_in_lobby(facts, command.uid):
        return refusal
    seat = command.seat
    if not 0 <= seat < len(facts.seats) or facts.seats[seat].bot is None:
        return Refusal("That seat holds no bot.")
    return seats_changed(facts, context, seats=without(facts.seats, seat))


SENT_AWAY = "The host has asked you to leave this table: you cannot take a seat here again."


def kick(facts: Facts, command: Kick, context: Context) -> Verdict:
    """The host sends a player (their seat goes) or a watcher away from the lobby, for good."""
    if refusal := host_in_lobby(facts, command.uid):
        return refusal
    if command.kicked == facts.host:
        return Refusal("You are the host: you keep the table.")
    if command.kicked in facts.kicked:
        return Unchanged()
    seat = facts.seat_of(command.kicked)
    if seat is None and command.kicked not in context.connected:
        return Refusal("That player is not at this table any more.")
    seats = facts.seats if seat is None else without(facts.seats, seat)
    changed = seats_changed(facts, context, seats=seats, kicked=facts.kicked | {command.kicked})
    return replace(changed, writes=(*changed.writes, SaveKicked(command.kicked)))


def without(seats: tuple[Seat, ...], seat: int) -> tuple[Seat, ...]:
    return seats[:seat] + seats[seat + 1 :]


def set_options(facts: Facts, command: SetOptions, context: Context) -> Verdict:
    if refusal := host_in_lobby(facts, command.uid):
        return refusal
    return seats_changed(facts, context, options=command.options)


def set_clock(facts: Facts, command: SetClock, context: Context) -> Verdict:
    """The host's turn clock (None: the default for the table's seats), in the lobby or during a game:
    a clock set during a game winds the deadlines anew from the last move."""
    if command.uid != facts.host:
        return Refusal("Only the host can change the table.")
    options = clock.game_options(dict(facts.options))
    if command.seconds is not None:
        options[clock.OPTION] = command.seconds
    return seats_changed(facts, context, options=options)


def set_ranked(facts: Facts, command: SetRanked, context: Context) -> Verdict:
    """The host marks the table ranked (or not) before the game, once every seat is a signed-up
    player's."""
    if refusal := host_in_lobby(facts, command.uid):
        return refusal
    if command.ranked and (why := ranked.why_not_ranked(facts, context.store)):
        return Refusal(why)
    return seats_changed(facts, context, ranked=command.ranked)


def start(facts: Facts, command: Start, context: Context) -> Verdict:
    """Deal the game: the room's row and the new game's record are written together."""
    if command.uid != facts.host:
        return Refusal("Only the host can start the game.")
    if facts.status == "playing":
        return Refusal("The game has already started.")
    return dealt(facts, command, context)


def the_deal(facts: Facts, command: Deal, options: dict[str, Any]) -> tuple[int, Fairness, str | None]:
    """The game's seed, how it was made, and the secret it was made from (zerogames.fairness): from the
    room's committed secret and every seat's contribution (the one who deals sends their own), unless
    the deal was chosen (a seed named, or stacked decks in the options), which the table then says."""
    if command.seed is not None:
        if command.dealt is None:
            return command.seed, Fairness(STACKED), None
        return command.seed, command.dealt.fairness, command.dealt.secret
    assert command.draw is not None and facts.secret is not None  # the registry draws; rooms have one
    mine, dealer = contribution(command.contribution), facts.seat_of(command.uid)
    # Each player's own as they took their seat, the dealer's as they pressed; the server's for the rest.
    offered = [
        mine if seat == dealer and mine is not None else who.contribution
        for seat, who in enumerate(facts.seats)
    ]
    fairness, seed = fair_deal(facts.secret, offered, command.draw.contributions[: len(offered)])
    return seed, (Fairness(STACKED) if options.get("decks") else fairness), facts.secret


def dealt(facts: Facts, command: Deal, context: Context) -> Verdict:
    rules, players = facts.rules, len(facts.seats)
    if not rules.min_players <= players <= rules.max_players:
        return Refusal(
            f"{rules.title} needs {rules.min_players} to {rules.max_players} players; "
            f"the table has {players}. Invite friends or add bots."
        )
    options = clock.game_options(dict(facts.options))
    seed, fairness, secret = the_deal(facts, command, options)
    try:
        state = rules.new_game(players, seed, options)
    except ValueError as bad:
        return Refusal(f"Those options do not work: {bad}.")
    after = facts.but(
        game_no=facts.game_no + 1,
        seed=seed,
        state=state,
        status="playing",
        outcome=None,
        action_count=0,
        acted=dict.fromkeys(range(players), facts.version + 1),
        last_sent={},
        # A contribution makes one deal: the next game's secret is drawn once this one's are known.
        seats=tuple(replace(seat, contribution=None) for seat in facts.seats),
        fairness=fairness,
        # The next game's secret, committed to from now on; a chosen deal leaves the room's as it was.
        secret=facts.secret if command.draw is None or secret is None else command.draw.next_secret,
    )
    after = turn_clock.started(after, context.now)
    # Ratings as they are now: other rooms' games may have moved them since the seats were taken.
    after = ranked.with_ratings(after, context.store)
    start = StartGame(players, options, rules.dump(state), context.now, fairness.to_json(), secret)
    return Decision(after, (SaveRoom(), start))


def rematch(facts: Facts, command: Rematch, context: Context) -> Verdict:
    """Play again: the same people, a new game, and another first seat: the rules' own (Trump Card's
    next Chooser), or else every seat moves up one, the first going last."""
    if facts.status != "over":
        return Refusal("The game is not over yet.")
    if facts.seat_of(command.uid) is None:
        return Refusal("Only a player at the table can start the next game.")
    options = facts.rules.rematch_options(facts.state, dict(facts.options))
    seats = facts.seats if options != facts.options else rotated(facts.seats)
    return dealt(facts.but(options=options, seats=seats), command, context)


def rotated(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    return seats[1:] + seats[:1]
