"""Fair deals through the site: the commitment every seat sees before the deal, the browser's own
randomness in the seed, the secret kept from every page, push and log until the end, then revealed,
checked on the replay, and checkable without the site by tools/check_deal.py."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from tests.web.conftest import on_both_stores, page, to_the_end, uid_of, with_bots, words
from zerogames import fairness
from zerogames.web import render, viewmodel

pytestmark = on_both_stores

CHECKER = Path(__file__).resolve().parents[2] / "tools" / "check_deal.py"
MINE = "c0ffee" * 8


def every_push(app, room, uid: str) -> str:
    """Everything the room's recent changes draw for this viewer: a superset of what its live channel
    pushes (each push is the regions that changed)."""
    with app.test_request_context():
        who = viewmodel.Viewer(uid, {}, None, f"/r/{room.code}/act")
        return "".join(
            "".join(render.render_regions(room.code, room.game_id, published, who).regions.values())
            for published in room.recent.values()
        )


def check_file(tmp_path, data) -> subprocess.CompletedProcess:
    path = tmp_path / "game-fair.json"
    path.write_text(json.dumps(data))
    return subprocess.run([sys.executable, str(CHECKER), str(path)], capture_output=True, text=True)


def test_a_fair_deal_from_commitment_to_the_checked_replay(
    app, player, registry, tmp_path, caplog, monkeypatch
):
    caplog.set_level(logging.DEBUG)
    ann, wes = player("Ann"), player("Wes")
    code = with_bots(ann)
    room = registry.get(code)
    secret = room.facts.secret
    promised = fairness.commitment(secret)
    # Before the deal, every seat (and anyone watching) is shown the commitment, never the secret.
    assert f"Next deal's commitment: {promised}" in words(ann.get(f"/r/{code}").text)
    assert promised in wes.get(f"/r/{code}").text

    ann.post(f"/r/{code}/start", data={"contribution": MINE}, headers={"HX-Request": "true"})
    assert room.status == "playing"
    dealt = room.facts.fairness
    assert dealt.commitment == promised
    assert dealt.contributions[0] == ("player", MINE)
    assert [by for by, _ in dealt.contributions[1:]] == ["server", "server"]
    assert room.seed == fairness.derived_seed(secret, [value for _, value in dealt.contributions])
    assert f"This deal's commitment: {promised}" in words(ann.get(f"/r/{code}").text)

    # The secrets (this game's and the next's) and the seed they make: in no page, push or log.
    hidden = (secret, room.facts.secret, str(room.seed))
    shown = "".join(
        [page(ann, code), ann.get(f"/r/{code}").text, wes.get(f"/r/{code}").text]
        + [every_push(app, room, uid) for uid in (uid_of(ann), uid_of(wes))]
    )
    refused = ann.get(f"/replay/{code}-1/fair.json")
    assert refused.status_code == 403 and "still being played" in unescape(refused.text)
    to_the_end(ann, room)
    assert not [h for h in hidden if h in shown + caplog.text]

    # Over: the replay reveals the secret and checks every deal.
    replay = words(ann.get(f"/replay/{code}-1").text)
    assert "Fair deal: checked" in replay and secret in replay
    assert f"The revealed secret hashes to the commitment {promised}." in replay
    # Its download is the data the replay checked: the game is not played again for it.
    monkeypatch.setattr(fairness.Played, "deals", lambda _: pytest.fail("the deals were made again"))
    data = ann.get(f"/replay/{code}-1/fair.json").get_json()
    monkeypatch.undo()
    assert data["secret"] == secret and data["seed"] == room.seed
    assert f"all {len(data['deals'])} deals are the ones recorded" in replay

    # Anyone can check the download without the site; one card changed, and it refuses.
    ok = check_file(tmp_path, data)
    assert ok.returncode == 0 and "fair deal" in ok.stdout, ok.stdout + ok.stderr
    hands = data["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    changed = check_file(tmp_path, data)
    assert changed.returncode == 1 and "Deals [1] are not the ones the seed makes" in changed.stdout


def test_every_player_adds_their_randomness_as_they_take_their_seat_and_for_one_deal_only(player, registry):
    ann, bea = player("Ann"), player("Bea")
    code = with_bots(ann)
    hers = "be" * 20
    bea.post(f"/r/{code}/join", data={"name": "Bea", "contribution": hers}, headers={"HX-Request": "true"})
    room = registry.get(code)
    ann.post(f"/r/{code}/start", data={"contribution": MINE}, headers={"HX-Request": "true"})
    contributions = room.facts.fairness.contributions
    assert contributions[0] == ("player", MINE) and contributions[3] == ("player", hers)
    assert [by for by, _ in contributions[1:3]] == ["server", "server"]
    # Known once this game is over, hers would let the next secret be drawn to suit her: it is dropped.
    assert all(seat.contribution is None for seat in room.seats)
    registry.abandon(room)
    bea.post(f"/r/{code}/again", headers={"HX-Request": "true"})
    assert [by for by, _ in room.facts.fairness.contributions] == ["server"] * 4


def test_the_committed_secret_and_a_seats_randomness_outlive_a_restart(player, registry, settings, serve):
    ann, bea = player("Ann"), player("Bea")
    code = with_bots(ann)
    bea.post(f"/r/{code}/join", data={"name": "Bea", "contribution": MINE}, headers={"HX-Request": "true"})
    promised = fairness.commitment(registry.get(code).facts.secret)
    restarted = serve(settings).extensions["zerogames"]
    room = restarted.get(code)
    assert fairness.commitment(room.facts.secret) == promised and room.seats[3].contribution == MINE
    restarted.start(room, room.host)
    assert room.facts.fairness.commitment == promised
    assert room.facts.fairness.contributions[3] == ("player", MINE)
    # The game's record came back too: how it was dealt is on the table after another restart.
    again = serve(settings).extensions["zerogames"].get(code)
    assert again.facts.fairness == room.facts.fairness


def test_the_next_game_commits_to_a_new_secret_and_takes_the_rematchers_randomness(player, registry):
    ann = player("Ann")
    code = with_bots(ann)
    room = registry.get(code)
    ann.post(f"/r/{code}/start", headers={"HX-Request": "true"})
    first = room.facts.fairness
    registry.abandon(room)
    # An abandoned game is over too: its data, secret and all, is published.
    data = ann.get(f"/replay/{code}-1/fair.json").get_json()
    assert fairness.check(data).fair and data["commitment"] == first.commitment
    # Without a contribution sent, the server drew every seat's.
    assert [c["by"] for c in data["contributions"]] == ["server"] * 3
    upcoming = fairness.commitment(room.facts.secret)
    assert upcoming != first.commitment and upcoming in ann.get(f"/r/{code}").text
    ann.post(f"/r/{code}/again", data={"contribution": MINE}, headers={"HX-Request": "true"})
    assert room.facts.fairness.commitment == upcoming
    # The rematch moved every seat up one: Ann's is the last now.
    assert room.facts.fairness.contributions[room.seat_of(room.host)] == ("player", MINE)


def test_a_chosen_deal_says_it_is_stacked(player, registry):
    ann = player("Ann")
    code = with_bots(ann)
    room = registry.get(code)
    ann.post(f"/r/{code}/start", data={"seed": "7"}, headers={"HX-Request": "true"})  # development mode
    assert "Stacked deck: this deal was chosen" in words(ann.get(f"/r/{code}").text)
    registry.abandon(room)
    data = ann.get(f"/replay/{code}-1/fair.json").get_json()
    assert data["scheme"] == fairness.STACKED and data["secret"] is None
    assert "stacked" in fairness.check(data).failed[0]
