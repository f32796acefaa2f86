from playwright.sync_api import expect

from e2e.table import add_bots, create_room


def test_home_page_offers_the_games(page, server):
    page.goto(server.url)
    expect(page.get_by_role("radio", name="Zero Game 3–7 players")).to_be_checked()
    expect(page.get_by_role("button", name="Create table")).to_be_visible()


def test_the_site_runs_within_its_content_security_policy(page, server):
    """Every script, style and the live channel of a table are the site's own: the browser blocks nothing."""
    blocked = []
    page.on("console", lambda message: "Content Security" in message.text and blocked.append(message.text))
    create_room(page, server.url, "Ann", game="Zero Down")
    add_bots(page, 1)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#hand")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('.group-label')).getPropertyValue('--row')")
    assert blocked == []


def test_the_home_page_shows_the_options_of_the_game_picked_only(page, server):
    page.goto(server.url)
    expect(page.get_by_label("Cabo: Seen cards")).to_be_hidden()
    expect(page.get_by_label("Zero Down: Pool size (with two players, always 9)")).to_be_hidden()
    page.get_by_role("group", name="Game").get_by_text("Cabo", exact=True).click()
    expect(page.get_by_label("Cabo: Seen cards")).to_be_visible()
    expect(page.get_by_label("Zero Down: Pool size (with two players, always 9)")).to_be_hidden()
