"""Fair deals, pure (zerogames.fairness): the commitment, the seed's recipe, and the check of a game's
published data that tools/check_deal.py runs."""

from __future__ import annotations

import copy
import hashlib
import hmac
import random

from zerogames import fairness
from zerogames.games import GAMES

SECRET = "ab" * 32
CONTRIBUTIONS = ["0123456789abcdef" * 2, "fedcba9876543210" * 2, "00112233445566778899aabbccddeeff"]


def test_the_commitment_is_sha256_of_the_secret_and_the_seed_the_documented_hmac():
    assert fairness.commitment(SECRET) == hashlib.sha256(SECRET.encode()).hexdigest()
    message = "\n".join(["zerogames-fair-v1", *CONTRIBUTIONS]).encode()
    digest = hmac.new(SECRET.encode(), message, hashlib.sha256).digest()
    assert fairness.derived_seed(SECRET, CONTRIBUTIONS) == int.from_bytes(digest[:8], "big") >> 1


def test_each_contribution_and_the_secret_change_the_deal():
    rules = GAMES["zero_game"]

    def hands(secret, contributions):
        return rules.new_game(3, fairness.derived_seed(secret, contributions), {})["hands"]

    dealt = hands(SECRET, CONTRIBUTIONS)
    for seat in range(3):
        changed = list(CONTRIBUTIONS)
        changed[seat] = ("1" if changed[seat][0] != "1" else "2") + changed[seat][1:]  # one digit
        assert hands(SECRET, changed) != dealt, seat
    assert hands("cd" * 32, CONTRIBUTIONS) != dealt
    # The order of the seats counts too: a contribution is its seat's.
    assert hands(SECRET, CONTRIBUTIONS[::-1]) != dealt


def test_a_browsers_contribution_is_hex_or_none():
    assert fairness.contribution(" ABCDEF0123456789 ") == "abcdef0123456789"
    for bad in (None, "", "abc", "z" * 32, "a" * 200):
        assert fairness.contribution(bad) is None


def test_a_seat_without_a_contribution_gets_the_servers():
    record, _ = fairness.fair_deal(SECRET, [CONTRIBUTIONS[0], None], ["11" * 16, "22" * 16])
    assert record.contributions == (("player", CONTRIBUTIONS[0]), ("server", "22" * 16))
    assert record.commitment == fairness.commitment(SECRET)


def played(game="zero_game", players=3, moves=400):
    """A game's published data: random legal moves from the fair seed, as a finished game has."""
    rules = GAMES[game]
    record, seed = fairness.fair_deal(SECRET, CONTRIBUTIONS[:players], CONTRIBUTIONS[:players])
    state, rng, actions = rules.new_game(players, seed, {}), random.Random(1), []
    for n in range(moves):
        movers = [seat for seat in range(players) if rules.legal_actions(state, seat, float(n))]
        if rules.result(state) is not None or not movers:
            break
        seat = rng.choice(movers)
        action = rng.choice(rules.legal_actions(state, seat, float(n)))
        state = rules.apply(state, seat, action, float(n))
        actions.append((seat, action, float(n)))
    return fairness.published(
        "ABCD-1", fairness.Played(game, players, seed, {}, 0.0, actions), record, SECRET
    )


def test_the_check_passes_published_data_and_marks_every_deal():
    data = played()
    checked = fairness.check(data)
    assert checked.fair, checked.failed
    assert checked.rounds == len(data["deals"]) > 1


def changed(data: dict, change) -> dict:
    data = copy.deepcopy(data)
    change(data)
    return data


def one_card_changed(data: dict) -> None:
    hand = data["deals"][-1]["hands"][1]
    hand[0] = next(c for c in data["deals"][-1]["hands"][0] if c not in hand)


def test_the_check_rejects_each_kind_of_change():
    data = played()
    last = len(data["deals"])
    for change, why in (
        (one_card_changed, f"Deals [{last}] are not"),
        (
            lambda d: d["deals"].pop(),
            f"{last - 1} deals are recorded, but the game played again deals {last}",
        ),
        (lambda d: d["contributions"][2].update(value="9" * 32), "seed is not"),
        (lambda d: d["contributions"].reverse(), "seed is not"),
        (lambda d: d.update(seed=d["seed"] + 1), "seed is not"),
        (lambda d: d.update(secret="cd" * 32), "does not hash"),
        (lambda d: d.update(commitment="cd" * 32), "does not hash"),
        (lambda d: d["actions"].pop(0), "cannot be played again"),
        (lambda d: d.update(players=4), "cannot be played again"),
    ):
        checked = fairness.check(changed(data, change))
        assert not checked.fair and why in " ".join(checked.failed), (why, checked.failed)


def test_a_stacked_deal_claims_nothing():
    data = {**played(moves=0), "scheme": fairness.STACKED}
    checked = fairness.check(data)
    assert not checked.fair and "stacked" in checked.failed[0]
