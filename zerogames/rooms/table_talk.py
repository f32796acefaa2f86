"""Table talk, decided: what a seated player says (zerogames.talk), and the host's chat switch.

Talk changes what is said around the table, never the table: its decisions leave the version as it
was (Decision.table), so a move chosen before a reaction arrived is still a move on the table as it is.
"""

from __future__ import annotations

from zerogames import talk

from .commands import Context, Decision, Refusal, SaveRoom, SaveSaid, Say, SetChat, Unchanged, Verdict
from .facts import Facts


def say(facts: Facts, command: Say, context: Context) -> Verdict:
    seat = facts.seat_of(command.uid)
    if seat is None:
        return Refusal("You are watching this table: its players talk, and you can read along.")
    if talk.too_soon(facts.last_said.get(command.uid), context.now):
        return Refusal("One message every half second: wait a moment.")
    try:
        text = talk.message(command.kind, command.text, talk.chat_on(facts.options, facts.ranked))
    except ValueError as refused:
        return Refusal(str(refused))
    n = facts.talk[-1].n + 1 if facts.talk else 1
    said = talk.Said(n, command.uid, facts.seats[seat].name, command.kind, text, context.now)
    after = facts.but(
        talk=talk.kept(facts.talk, said), last_said={**facts.last_said, command.uid: context.now}
    )
    return Decision(after, (SaveSaid(said),), table=False)


def set_chat(facts: Facts, command: SetChat, context: Context) -> Verdict:
    if command.uid != facts.host:
        return Refusal("Only the host can switch chat on or off.")
    if talk.chat_on(facts.options, facts.ranked) == command.on:
        return Unchanged()
    options = {**facts.options, talk.CHAT: command.on}
    return Decision(facts.but(options=options), (SaveRoom(),), table=False)
