"""Rejoin links: good for one move of the seat, within their time, and never again."""

from __future__ import annotations

from tests.web.conftest import create_room, join, on_both_stores

pytestmark = on_both_stores


def rejoin_link(client, code: str) -> str:
    html = client.get(f"/r/{code}").text
    link = html.split('class="rejoin-link" readonly value="', 1)[1].split('"', 1)[0]
    return link.replace("http://localhost", "")


def holder(room, seat: int) -> str:
    return room.seats[seat].uid


def test_a_used_link_stays_used_even_when_the_seat_comes_back(player, registry):
    ann, dee, eve = player("Ann"), player("Dee"), player("Eve")
    code = create_room(ann)
    room = registry.get(code)
    first = rejoin_link(ann, code)
    dee.post(first)  # A's link: the seat goes to D
    d_uid = holder(room, 0)
    back = rejoin_link(dee, code)
    ann.post(back)  # D's link: back to A
    a_uid = holder(room, 0)
    assert a_uid != d_uid
    refused = eve.post(first, follow_redirects=True)  # A's used link, once more
    assert "used or is out of date" in refused.text
    assert holder(room, 0) == a_uid


def test_a_link_made_before_the_seat_moved_is_dead(player, registry):
    ann, dee, eve = player("Ann"), player("Dee"), player("Eve")
    code = create_room(ann)
    room = registry.get(code)
    spare, used = rejoin_link(ann, code), rejoin_link(ann, code)
    dee.post(used)
    ann.post(rejoin_link(dee, code))
    a_uid = holder(room, 0)
    assert "used or is out of date" in eve.post(spare, follow_redirects=True).text
    assert holder(room, 0) == a_uid


def test_opening_a_link_moves_nothing_until_the_seat_is_taken(player, registry):
    ann, dee = player("Ann"), player("Dee")
    code = create_room(ann)
    join(player("Bea"), code)
    room = registry.get(code)
    host = holder(room, 0)
    link = rejoin_link(ann, code)
    page = dee.get(link)  # what a link preview fetches
    assert "Take the seat here" in page.text and "Ann" in page.text
    assert holder(room, 0) == host
    dee.post(link)
    assert holder(room, 0) != host and room.host == holder(room, 0)


def test_an_expired_link_is_refused(tmp_path, serve):
    app = serve({"TESTING": True, "DATABASE": str(tmp_path / "db"), "REJOIN_TTL": -1})
    ann, dee = app.test_client(), app.test_client()
    ann.name = "Ann"
    code = create_room(ann)
    room = app.extensions["zerogames"].get(code)
    host = holder(room, 0)
    assert "has expired" in dee.post(rejoin_link(ann, code), follow_redirects=True).text
    assert holder(room, 0) == host
