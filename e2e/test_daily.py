"""The daily deal in real browsers: two players, each in a context of their own, play the same deal
against Hard bots; each sees the other's result only once they have played it, and the share text
holds no card."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from e2e.table import play_until_over

A_CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b|[♠♥♦♣]|\b(Ace|King|Queen|Jack|Ten) of\b")


def play_the_daily(page: Page, url: str, name: str) -> None:
    page.goto(url + "/daily/zero_game")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Play today's Zero Game").click()
    page.wait_for_url(re.compile(r"/r/[A-Z]{4}"))
    play_until_over([page], limit=240.0)


def results(page: Page) -> str:
    return page.locator(".daily").inner_text()


def test_two_players_play_the_same_daily_deal_and_see_each_other_only_after_playing(browser, server):
    ann, bea = (browser.new_context().new_page() for _ in range(2))
    play_the_daily(ann, server.url, "Ann")
    ann.goto(server.url + "/daily/zero_game")
    expect(ann.locator(".daily-results")).to_contain_text("Ann (you)")
    share = ann.locator("#daily-share").inner_text()
    assert share.startswith("zerogames daily Zero Game") and share.endswith("/daily/zero_game"), share
    assert not A_CARD.search(share), share

    bea.goto(server.url + "/daily/zero_game")
    expect(bea.locator(".daily")).to_contain_text("Everyone's results show here once you have played it.")
    assert "Ann" not in results(bea)

    play_the_daily(bea, server.url, "Bea")
    bea.goto(server.url + "/daily/zero_game")
    expect(bea.locator(".daily-results")).to_contain_text("Bea (you)")
    expect(bea.locator(".daily-results")).to_contain_text("Ann")
    # Bea's game was dealt the same cards as Ann's: her replay of Ann's game opens now.
    bea.get_by_role("link", name="Watch Ann's game").click()
    expect(bea.locator("#replay-heading")).to_contain_text("Replay: Zero Game")
