"""On the narrowest phones, in every look, the home page and the host's lobby fit the screen: nothing
to scroll sideways to, Start the game in reach (as the site is served, not in development mode)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.conftest import Server

FITS = "document.documentElement.scrollWidth <= innerWidth"


@pytest.fixture
def site(tmp_path):
    served = Server(tmp_path / "zerogames.db", {"ZEROGAMES_DEV": "0"})
    served.start()
    yield served
    served.stop()


def larger_text(page: Page, url: str) -> None:
    page.goto(url + "/settings")
    page.get_by_label("Larger text").check()
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("html")).to_have_class(re.compile("large-text"))


@pytest.mark.parametrize("large", [False, True], ids=["default-look", "larger-text"])
def test_home_and_the_hosts_lobby_fit_a_phone_of_360_and_390_px(browser, site, large):
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    if large:
        larger_text(page, site.url)
    page.goto(site.url + "/")
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 800})
        assert page.evaluate(FITS), ("home", width)
        # The How-to-play links sit side by side (five games on two rows at most), not one a line.
        rows = page.locator(".rules-links a").evaluate_all("els => new Set(els.map(e => e.offsetTop)).size")
        assert rows <= 2, ("rules links", width, rows)
        assert "," not in page.locator(".rules-links").inner_text()
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/r/[A-Z]{4}"))
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 800})
        assert page.evaluate(FITS), ("lobby", width)
    page.get_by_role("button", name="Add an Easy bot").click()
    page.get_by_role("button", name="Add an Easy bot").click()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#status .headline")).to_contain_text("Your turn")
    context.close()
