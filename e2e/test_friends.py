"""Friends in real browsers: a request answered on an open page, an invitation pushed to a friend's open
home page, and a closed tab read as away; on one process and across three. How soon the invitation
shows is bench/invites.py's figure: a browser test sees it only at the times its assertion looks
(Playwright's `expect` looks again every half second after the first few), and under a whole test
run on two cores."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from e2e.access import check_access
from e2e.table import create_room
from e2e.test_ranked import sign_up
from e2e.test_several_processes import site  # noqa: F401 (three processes on PostgreSQL, nginx in front)


def friends_story(ann: Page, bob: Page, url: str, checked: bool = False) -> None:
    """Ann adds Bob, who accepts on his open page; Ann invites him from her lobby; he sees it on his
    open home page and joins from there; he closes his tab, and Ann's friends page says he is away.
    `checked`: each new page is checked by axe on the way (at a phone's width and a desktop's)."""
    sign_up(ann, url, "ann")
    sign_up(bob, url, "bob")
    bob.goto(url + "/friends")
    ann.goto(url + "/friends")
    ann.get_by_label("Username").fill("bob")
    ann.get_by_role("button", name="Add friend").click()
    expect(ann.locator("#friends-list")).to_contain_text("Waiting for their answer")
    # Pushed to Bob's open page: no reload.
    bob.get_by_role("button", name="Accept ann").click()
    expect(ann.locator("#friends-list")).to_contain_text("Online")
    if checked:
        check_access(ann, "the friends page")

    bob.goto(url + "/")
    create_room(ann, url, "Ann")
    invite = ann.get_by_role("button", name="Invite bob")
    expect(invite).to_be_visible()
    if checked:
        check_access(ann, "a lobby with friends to invite")
    invite.click()
    notice = bob.locator("#site-news")
    expect(notice).to_contain_text("ann invites you to Zero Game")
    if checked:
        check_access(bob, "a home page with an invitation")
    notice.get_by_role("link", name="Join ann's table").click()
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Take a seat").click()
    expect(ann.locator("#lobby")).to_contain_text("Bob")
    # Ann's lobby, told by its own channel: Bob sits here now, no longer one to invite.
    expect(invite).to_have_count(0)

    ann.goto(url + "/friends")
    expect(ann.locator("#friends-list")).to_contain_text("At a table: Zero Game")
    bob.context.close()
    closed = time.monotonic()
    expect(ann.locator("#friends-list")).to_contain_text("Away")
    print(f"away shown {time.monotonic() - closed:.2f} s after the tab closed")


def test_friends_add_invite_and_see_each_other_come_and_go(browser, server):
    ann, bob = browser.new_context().new_page(), browser.new_context().new_page()
    friends_story(ann, bob, server.url, checked=True)


def test_the_same_across_three_processes_on_postgresql(browser, site):  # noqa: F811
    nginx, _, _ = site
    friends_story(browser.new_context().new_page(), browser.new_context().new_page(), nginx.url)
