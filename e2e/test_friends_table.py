"""A table of friends, with no bot and no clock, never stalls on a friend who left."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from e2e.access import check_access
from e2e.table import create_room, join_room, my_turn, screenshot, whose_turn


def test_the_host_gets_a_friends_table_moving_when_the_player_to_move_leaves(browser, server, artifacts):
    ann, bea, cal = (browser.new_context().new_page() for _ in range(3))
    code = create_room(ann, server.url, "Ann")
    join_room(bea, server.url, code, "Bea")
    join_room(cal, server.url, code, "Cal")
    ann.get_by_role("button", name="Start the game").click()
    pages = {"Ann": ann, "Bea": bea, "Cal": cal}
    mover = whose_turn(list(pages.values()))
    if mover is ann:  # the host must not be the one who leaves: let Ann move first
        ann.locator("#hand button").first.click()
        mover = whose_turn([bea, cal])
    name = next(who for who, page in pages.items() if page is mover)
    mover.context.close()
    began = time.monotonic()
    hand = ann.get_by_role("button", name=f"Let a bot play for {name}")
    expect(hand).to_be_visible(timeout=5_000)
    check_access(ann, "a host offered a bot for a friend who left")
    ann.set_viewport_size({"width": 390, "height": 844})
    screenshot(ann, artifacts / "friends-table-host-hands-a-seat-390x844.png")
    ann.set_viewport_size({"width": 1280, "height": 800})
    ann.get_by_label(f"Bot for {name}").select_option("normal")
    screenshot(ann, artifacts / "friends-table-host-hands-a-seat-1280x800.png")
    hand.click()
    # The bot plays the seat, and the table moves on: someone else's turn comes.
    others = [page for who, page in pages.items() if who != name]
    deadline = began + 10
    while not any(my_turn(page) for page in others):
        assert time.monotonic() < deadline, "the table did not move again within 10 s"
        time.sleep(0.05)
    expect(ann.locator("#clock")).to_contain_text(f"{name} is away: a bot plays for them")
