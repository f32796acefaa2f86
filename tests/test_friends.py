"""The rules of friends and blocks (zerogames.friends): what each answer makes of a pair, and every
refusal."""

from __future__ import annotations

import pytest

from zerogames import friends
from zerogames.friends import FriendRefused, Outcome, Relation, Standing

NONE, ASKED, ASKED_ME, FRIENDS = Standing.NONE, Standing.ASKED, Standing.ASKED_ME, Standing.FRIENDS


def refused(rule, relation: Relation) -> str:
    with pytest.raises(FriendRefused) as refusal:
        rule(relation)
    return refusal.value.reason


def test_a_request_goes_out_and_is_accepted_or_declined():
    assert friends.ask(Relation("bob")) == Outcome(ASKED, False)
    assert friends.answer(Relation("ann", ASKED_ME), accept=True) == Outcome(FRIENDS, False)
    assert friends.answer(Relation("ann", ASKED_ME), accept=False) == Outcome(NONE, False)


def test_asking_back_accepts_and_only_the_one_asked_answers():
    assert friends.ask(Relation("ann", ASKED_ME)) == Outcome(FRIENDS, False)
    for standing in (NONE, ASKED, FRIENDS):
        assert "no request waiting" in refused(lambda r: friends.answer(r, True), Relation("bob", standing))


def test_each_side_sees_the_others_standing_mirrored():
    assert {friends.MIRROR[friends.MIRROR[s]] for s in Standing} == set(Standing)
    assert friends.MIRROR[ASKED] is ASKED_ME and friends.MIRROR[FRIENDS] is FRIENDS


def test_asking_twice_a_friend_or_oneself_is_refused():
    assert "already" in refused(friends.ask, Relation("bob", ASKED))
    assert "your friend already" in refused(friends.ask, Relation("bob", FRIENDS))
    assert "That is you" in refused(friends.ask, Relation("ann", myself=True))
    assert "That is you" in refused(friends.block, Relation("ann", myself=True))


def test_a_friend_or_ones_own_request_is_removed_and_nothing_else():
    assert friends.remove(Relation("bob", FRIENDS)) == Outcome(NONE, False)
    assert friends.remove(Relation("bob", ASKED)) == Outcome(NONE, False)
    for standing in (NONE, ASKED_ME):
        assert "not on your friends list" in refused(friends.remove, Relation("bob", standing))


def test_a_block_ends_everything_and_the_blocked_is_never_told():
    for standing in Standing:
        assert friends.block(Relation("bob", standing)) == Outcome(NONE, True)
    assert "blocked bob already" in refused(friends.block, Relation("bob", i_block=True))
    # The blocker is reminded; the blocked reads a refusal that says nothing of a block.
    assert "unblock them first" in refused(friends.ask, Relation("bob", i_block=True))
    told = refused(friends.ask, Relation("ann", blocks_me=True))
    assert told == "ann is not taking friend requests." and "block" not in told


def test_an_unblock_lifts_the_block_only():
    assert friends.unblock(Relation("bob", i_block=True)) == Outcome(NONE, False)
    assert "have not blocked" in refused(friends.unblock, Relation("bob"))


def test_only_a_friend_unblocked_either_way_is_invited():
    friends.invite(Relation("bob", FRIENDS))
    for relation in (
        Relation("bob"),
        Relation("bob", ASKED),
        Relation("bob", ASKED_ME),
        Relation("bob", FRIENDS, i_block=True),
        Relation("bob", FRIENDS, blocks_me=True),
    ):
        assert "Only your friends" in refused(friends.invite, relation)
