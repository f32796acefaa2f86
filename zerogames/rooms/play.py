"""Play, decided: a player's move, the clock's and the bots' moves, seats handed to bots and back, and
every way a game ends (one finisher)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from zerogames import bots
from zerogames.games import IllegalAction
from zerogames.records import ended
from zerogames.store import SNAPSHOT_EVERY, GameEnd

from . import ranked, turn_clock
from .commands import (
    Abandon,
    AbandonGame,
    Act,
    AppendAction,
    Back,
    BotMove,
    Context,
    Decision,
    HandOver,
    HandToBot,
    MoveSeat,
    RecordWins,
    Refusal,
    SaveKicked,
    SaveMovedSeat,
    SaveRoom,
    TimeOut,
    Unchanged,
    Verdict,
    Write,
)
from .facts import Facts, deserted

ASKED_AGAIN = "asked again"  # a bot's answer when its table changed while it thought


def act(facts: Facts, command: Act, context: Context) -> Verdict:
    """A seated player's action, chosen on table `version`."""
    own = facts.seat_of(command.uid)
    if own is None:
        return Refusal("You are watching this table: only its players can act.")
    if command.seat is not None and str(command.seat) != str(own):
        return Refusal("You can act only for your own seat.")
    if facts.status != "playing":
        return Refusal("The game is over." if facts.status == "over" else "The game has not started yet.")
    action = command.action
    if isinstance(action, dict) and action.get("type") in facts.rules.host_only and command.uid != facts.host:
        return Refusal("Only the host may change that.")
    if facts.last_sent.get(own) == (str(command.version), action):
        return Unchanged()  # sent twice (a double tap): made once, and the second time is no news
    if str(command.version) != str(facts.version) and not chosen_since_own_move(facts, own, command.version):
        return Refusal("The table changed before your move arrived: here it is now.", stale=True)
    # A player who moves is back, and takes their seat back from a bot playing it for them: part of the
    # move, so a move the rules refuse takes nothing back.
    back = taken_back(facts, own)
    verdict = moved(back, own, action, f"{turn_clock.PLAYER}{command.uid}", context)
    if not isinstance(verdict, Decision):
        return verdict
    after = verdict.facts.but(last_sent={**facts.last_sent, own: (str(command.version), action)})
    saved = (SaveRoom(),) if back.seats != facts.seats else ()
    return Decision(after, saved + verdict.writes)


def chosen_since_own_move(facts: Facts, seat: int, version: Any) -> bool:
    """The move was chosen on an older table, but only other seats moved since (a double click did not)."""
    if not facts.rules.moves_at_once:
        return False
    try:
        version = int(version)
    except (TypeError, ValueError):
        return False
    return facts.acted.get(seat, facts.version) <= version <= facts.version


def moved(facts: Facts, seat: int, action: Any, by: str, context: Context) -> Verdict:
    """The action applied by the rules and logged, the clock counting it; the game's end if it ends."""
    rules, now = facts.rules, context.now
    try:
        state = rules.apply(facts.state, seat, action, now)
    except IllegalAction as refusal:
        return Refusal(refusal.reason)
    number = facts.action_count + 1
    after = facts.but(state=state, action_count=number, acted={**facts.acted, seat: facts.version + 1})
    after = turn_clock.counted(after, seat, by, now)
    end = None
    if rules.result(state) is not None:
        after, end = finished(after, "finished", context)
    snapshot = rules.dump(state) if number % SNAPSHOT_EVERY == 0 else None
    writes: tuple[Write, ...] = (AppendAction(number, seat, action, now, by, snapshot, end),)
    if end is not None and after.outcome is not None and after.outcome.winners:
        writes += (RecordWins(tuple(after.seats[winner].name for winner in after.outcome.winners)),)
    return Decision(after, writes)


def finished(facts: Facts, how: str, context: Context) -> tuple[Facts, GameEnd]:
    """Every way a game ends goes through here: its players' lines of history, the lines its rating
    rates, and the room over, its ratings shown as the end leaves them."""
    outcome = facts.rules.outcome(facts.state, abandoned=how == "abandoned")
    end = ended(outcome, facts.seated())
    end.rated = ranked.rated_lines(facts, outcome.sides)
    winners = [facts.seats[seat].name for seat in outcome.winners]
    over = facts.but(status="over", outcome=outcome, series=scored(facts.series, winners))
    return ranked.with_ratings(over, context.store, end.rated), end


def scored(series: tuple[tuple[str, int], ...], winners: list[str]) -> tuple[tuple[str, int], ...]:
    """The table's series with one more game won by each of `winners`: in the order they first won,
    and by name among those who first won the same game (as the store reads it back)."""
    wins = dict(series)
    for name in sorted(winners):
        wins[name] = wins.get(name, 0) + 1
    return tuple(wins.items())


def time_out(facts: Facts, command: TimeOut, context: Context) -> Verdict:
    """Move for every seat whose deadline has passed, unless the table changed since the timer was set:
    then a player's move got there first, and only it counts."""
    if facts.status != "playing" or facts.version != command.version:
        return Unchanged()
    writes: tuple[Write, ...] = ()
    for seat in turn_clock.due(facts, context.deadlines, context.now):
        if facts.status != "playing" or seat not in facts.rules.awaited(facts.state, context.now):
            continue  # an earlier timeout of this turn ended the game, or its round
        action = turn_clock.timeout_move(facts, seat, context.now)
        verdict = moved(facts, seat, action, turn_clock.TIMEOUT, context)
        if isinstance(verdict, Decision):
            facts, writes = verdict.facts, writes + verdict.writes
    return Decision(facts, writes) if writes else Unchanged()


def bot_move(facts: Facts, command: BotMove, context: Context) -> Verdict:
    """A bot's move, if its seat is still its own and the table is as it was when it was asked."""
    seat = command.seat
    if facts.status != "playing" or seat >= len(facts.seats) or facts.seats[seat].bot != command.level:
        return Unchanged()
    if (facts.game_no, facts.version) != command.asked:
        return Unchanged(ASKED_AGAIN)
    if command.action is None:
        return Unchanged()  # it waits, and is asked again after the next change
    return moved(facts, seat, command.action, f"bot:{command.level}", context)


def abandon(facts: Facts, command: Abandon, context: Context) -> Verdict:
    """End a game nobody plays any more where it stands: it stays in its players' history as abandoned
    (with the scores so far), and the room is over (a rematch may follow)."""
    if facts.status != "playing" or (command.if_deserted and not deserted(facts, context.connected)):
        return Unchanged()
    after, end = finished(facts, "abandoned", context)
    return Decision(after, (AbandonGame(end),))


def taken_back(facts: Facts, seat: int) -> Facts:
    """The seat is its player's again: no longer away, and no bot playing it for them."""
    who = facts.seats[seat]
    seats = facts.seats
    if who.bot is not None and who.uid is not None:
        seats = (*seats[:seat], replace(who, bot=None), *seats[seat + 1 :])
    timeouts = {s: n for s, n in facts.timeouts.items() if s != seat}
    if seats == facts.seats and timeouts == facts.timeouts:
        return facts
    return facts.but(seats=seats, timeouts=timeouts)


def back(facts: Facts, command: Back, context: Context) -> Verdict:
    """I'm back (or a rejoin): the seat is no longer away, and is taken back from a bot."""
    seat = facts.seat_of(command.uid)
    if seat is None:
        return Refusal("You are watching this table: only its players can be away.")
    after = taken_back(facts, seat)
    if after is facts:
        return Unchanged()
    return Decision(after, (SaveRoom(),) if after.seats != facts.seats else ())


def hand_to_bot(facts: Facts, command: HandToBot, context: Context) -> Verdict:
    """The host lets a bot of the level they pick play a player's seat, until the player comes back for
    it: a seat marked away, or one whose player has no page of the table open (a friend who left must
    not stall everyone until the clock gives up on them). Or, `remove`, for good: the player is sent
    away from the table (rooms.lobby.kick), and the bot plays their seat to the end."""
    seat = command.seat
    if command.uid != facts.host:
        return Refusal("Only the host can hand a seat to a bot.")
    if facts.status != "playing":
        return Refusal("The game is not being played.")
    if not 0 <= seat < len(facts.seats) or facts.seats[seat].uid is None:
        return Refusal("That seat holds no player.")
    if command.level not in bots.LEVELS:
        return Refusal("There is no bot of that level.")
    who = facts.seats[seat]
    if command.remove:
        return removed(facts, seat, command.level)
    if who.bot is not None:
        return Refusal(f"A bot plays for {who.name} already.")
    if seat not in facts.away() and who.uid in context.connected:
        return Refusal(f"{who.name} is here: they play their own seat.")
    seats = (*facts.seats[:seat], replace(who, bot=command.level), *facts.seats[seat + 1 :])
    return Decision(facts.but(seats=seats), (SaveRoom(),))


def removed(facts: Facts, seat: int, level: str) -> Verdict:
    """The seat a bot's for good, its player sent away (they may not take it, nor another, back)."""
    who = facts.seats[seat]
    if facts.ranked:
        return Refusal("A ranked seat stays with its player: hand it to a bot while they are away instead.")
    if who.uid == facts.host:
        return Refusal("You are the host: you keep your seat.")
    assert who.uid is not None  # a player's seat (hand_to_bot)
    seats = (*facts.seats[:seat], replace(who, uid=None, bot=level), *facts.seats[seat + 1 :])
    timeouts = {s: n for s, n in facts.timeouts.items() if s != seat}
    after = facts.but(seats=seats, timeouts=timeouts, kicked=facts.kicked | {who.uid})
    return Decision(after, (SaveRoom(), SaveKicked(who.uid)))


def move_seat(facts: Facts, command: MoveSeat, context: Context) -> Verdict:
    """A rejoin link: the seat goes to the identity that opened it (another device), if the seat is
    still the link's and has moved as many times as when the link was made (then never again)."""
    seat = command.seat
    if (
        not 0 <= seat < len(facts.seats)
        or facts.seats[seat].uid != command.old_uid
        or context.store.rooms.seat_moves(context.code, seat) != command.moves
    ):
        return Refusal("This rejoin link has been used or is out of date.")
    if facts.ranked and command.new_uid != command.old_uid:
        # A ranked seat is its account's, and rated as the account's: the player signs in on the other
        # device instead, and the seat is there.
        return Refusal("A ranked seat stays with its account: sign in to it on this device to play it here.")
    if facts.seat_of(command.new_uid) not in (None, seat):
        return Refusal("This browser already holds another seat at this table.")
    return Decision(given(facts, seat, command.new_uid), (SaveMovedSeat(seat),))


def hand_over(facts: Facts, command: HandOver, context: Context) -> Verdict:
    """A guest signed in to an account: the guest's seat (and hosting) becomes the account's, unless the
    account holds a seat here already."""
    seat = facts.seat_of(command.old_uid)
    if seat is None or facts.seat_of(command.new_uid) is not None:
        return Unchanged()
    return Decision(given(facts, seat, command.new_uid), (SaveMovedSeat(seat),))


def given(facts: Facts, seat: int, uid: str) -> Facts:
    """The seat (and the hosting, if it was the host's) to another identity; the write counts the seat's
    moves, so every rejoin link made before is dead."""
    who = facts.seats[seat]
    host = uid if facts.host == who.uid else facts.host
    seats = (*facts.seats[:seat], replace(who, uid=uid), *facts.seats[seat + 1 :])
    return facts.but(seats=seats, host=host)
