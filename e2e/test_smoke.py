from playwright.sync_api import expect


def test_home_page_lists_the_games(page, server):
    page.goto(server.url)
    expect(page.get_by_role("heading", name="Zero Game")).to_be_visible()
