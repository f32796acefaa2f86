"""Accessibility checked in a real browser: axe-core (bundled by axe-playwright-python, no network) finds
no serious or critical violation, at a phone's and a desktop's width, in the default look and with
every setting on."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

AXE = Axe()
EVERY_SETTING = "four_colour=1,reduced_motion=1,large_text=1,sounds=0"
WIDTHS = ((390, 844), (1280, 800))
SERIOUS = ("serious", "critical")


def violations(page: Page) -> list[str]:
    # Axe measures colours as they are drawn: a card caught mid-glide, or the fading copy of a trick
    # sliding to its winner, reads as too faint. Every finite animation lands first (an endless one,
    # such as your turn's glow, stays on) and the fading copies are gone.
    page.evaluate(
        """() => Promise.all(document.getAnimations()
            .filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
            .map(a => a.finished.catch(() => null)))"""
    )
    expect(page.locator(".ghost")).to_have_count(0)
    found = AXE.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']}; at {[node['target'] for node in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in SERIOUS
    ]


def sideways(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


def check_widths(page: Page, what: str) -> list[str]:
    look = page.evaluate("document.documentElement.className") or "default look"
    found = []
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        found += [f"{what}, {look}, {width} px: {problem}" for problem in violations(page)]
        if sideways(page):
            found.append(f"{what}, {look}, {width} px: the page scrolls sideways")
    return found


def check_access(page: Page, what: str) -> None:
    """The page as it is shown, then reloaded in the other look (every setting on, or the default):
    one extra page load for both looks at both widths. The browser keeps the second look."""
    found = check_widths(page, what)
    settings = [cookie for cookie in page.context.cookies() if cookie["name"] == "settings"]
    if settings:
        page.context.clear_cookies(name="settings")
    else:
        page.context.add_cookies([{"name": "settings", "value": EVERY_SETTING, "url": page.url}])
    page.reload()
    if page.locator("#live-status").count():
        expect(page.locator("#live-status")).to_have_text("Live")
    found += check_widths(page, what)
    assert not found, "\n".join(found)
