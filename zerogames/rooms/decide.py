"""The one entry to deciding a command: which rule of the room layer decides each kind."""

from __future__ import annotations

from typing import Any

from . import commands as c
from . import lobby, play, table_talk
from .facts import Facts

DECIDERS: dict[type, Any] = {
    c.Join: lobby.join,
    c.Leave: lobby.leave,
    c.AddBot: lobby.add_bot,
    c.RemoveBot: lobby.remove_bot,
    c.SetOptions: lobby.set_options,
    c.SetClock: lobby.set_clock,
    c.SetRanked: lobby.set_ranked,
    c.Start: lobby.start,
    c.Rematch: lobby.rematch,
    c.Act: play.act,
    c.TimeOut: play.time_out,
    c.BotMove: play.bot_move,
    c.Back: play.back,
    c.HandToBot: play.hand_to_bot,
    c.MoveSeat: play.move_seat,
    c.HandOver: play.hand_over,
    c.Say: table_talk.say,
    c.SetChat: table_talk.set_chat,
    c.Kick: lobby.kick,
    c.Abandon: play.abandon,
}


def decide(facts: Facts, command: c.Command, context: c.Context) -> c.Verdict:
    """The command decided on the room's facts: a refusal, nothing to do, or the new facts and their
    rows. Pure: it reads the store's players through `context` and writes nothing."""
    return DECIDERS[type(command)](facts, command, context)
