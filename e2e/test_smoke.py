from playwright.sync_api import expect


def test_home_page_offers_the_games(page, server):
    page.goto(server.url)
    expect(page.get_by_role("radio", name="Zero Game 3–7 players")).to_be_checked()
    expect(page.get_by_role("button", name="Create table")).to_be_visible()
