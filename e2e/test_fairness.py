"""Fair deals in a real browser: the page adds its own randomness (crypto.getRandomValues) to the form
that takes a seat and to the one that starts the game (docs/fairness.md)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from e2e.table import add_bots, create_room, join_room

DRAWN = re.compile(r"[0-9a-f]{64}")


def test_taking_a_seat_and_starting_send_the_browsers_randomness(browser, server):
    host, guest = (browser.new_context().new_page() for _ in range(2))
    code = create_room(host, server.url, "Ann")
    with guest.expect_request(re.compile(r"/join$")) as joined:
        join_room(guest, server.url, code, "Bea")
    add_bots(host, 1)
    with host.expect_request(re.compile(r"/start$")) as started:
        host.get_by_role("button", name="Start the game").click()
    sent = [parse_qs(request.value.post_data)["contribution"][0] for request in (joined, started)]
    assert all(DRAWN.fullmatch(value) for value in sent) and sent[0] != sent[1], sent
