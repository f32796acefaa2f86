"""Ranked play in real browsers: two signed-up players play a ranked game and find their new ratings."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from e2e.access import check_access
from e2e.table import create_room, join_room, play_until_over, screenshot
from e2e.test_cabo import cabo_turn

PASSWORD = "correct horse"


def sign_up(page: Page, url: str, username: str) -> None:
    page.goto(url + "/signup")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("navigation", name="Your account")).to_contain_text(username)


def test_two_signed_up_players_play_a_ranked_game_and_see_their_ratings(browser, server, artifacts):
    ann, bea = (browser.new_context(viewport={"width": 390, "height": 844}).new_page() for _ in range(2))
    sign_up(ann, server.url, "ann")
    sign_up(bea, server.url, "bea")
    code = create_room(ann, server.url, "Ann", game="Cabo")
    ann.get_by_role("button", name="Make it ranked").click()
    expect(ann.locator("#lobby")).to_contain_text("Ranked table")
    join_room(bea, server.url, code, "Bea")
    for page in (ann, bea):
        expect(page.locator("#lobby")).to_contain_text("Ranked table")
        expect(page.locator(".lobby-seat .badge.rating")).to_have_text(["rating 1000", "rating 1000"])
    expect(ann.get_by_role("button", name="Add an Easy bot")).to_be_disabled()
    ann.get_by_role("button", name="Start the game").click()
    play_until_over([ann, bea], take_turn=cabo_turn, limit=90)

    # At the table, each name now carries its new rating, the same on both pages.
    seen, own = [], []
    for page in (ann, bea):
        ratings = page.locator("#table .cabo-seat .badge.rating")
        expect(ratings).to_have_count(2)
        for rating in ratings.all():  # on a phone too
            expect(rating).to_be_visible()
        expect(ratings.first).not_to_have_text("rating 1000")
        seen.append(sorted(ratings.all_text_contents()))
        mine = page.locator("#table .cabo-seat.mine .badge.rating")
        own.append(mine.text_content().removeprefix("rating "))
    assert seen[0] == seen[1] == sorted(f"rating {shown}" for shown in own)
    screenshot(ann, artifacts / "ranked-game-over-390x844.png")

    # Each finds it on their own page, with its chart, and on the leaderboard (still provisional).
    for page, rating in zip((ann, bea), own, strict=True):
        page.goto(server.url + "/me")
        card = page.locator(".rating-card")
        expect(card).to_contain_text(f"Cabo {rating} after 1 rated game")
        expect(card.get_by_role("img", name=re.compile("Cabo rating after each rated game"))).to_be_visible()
        card.get_by_role("link", name="leaderboard").click()
        expect(page.get_by_role("heading", name="Cabo leaderboard")).to_be_visible()
        expect(page.locator(".board-mine")).to_contain_text("marked below")
        expect(page.locator("tr.mine")).to_contain_text("provisional")
    check_access(bea, "a leaderboard that names the viewer's rating")
    bea.goto(server.url + "/me")
    check_access(bea, "a player's page with a rating and its chart")
    bea.set_viewport_size({"width": 390, "height": 844})
    screenshot(bea, artifacts / "ranked-player-page-390x844.png")
