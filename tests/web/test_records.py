"""Players who are remembered: accounts from guests, history, replays and statistics."""

from __future__ import annotations

import contextlib
import json
import re
from html import unescape

import pytest

from tests.games.playouts import strings_in
from tests.games.stacking import deck_dealing
from tests.web.conftest import (
    create_room,
    join,
    on_both_stores,
    started_with_bots,
    to_the_end,
    uid_of,
    wait_until,
    words,
)
from zerogames.games import GAMES
from zerogames.games.cards import STANDARD_DECK, card_name
from zerogames.rooms import Refused
from zerogames.web import accounts as web_accounts

pytestmark = on_both_stores

PASSWORD = "correct horse"
ZERO_GAME = GAMES["zero_game"]


@pytest.fixture
def app(settings, serve):
    """The test app, with a quick password hash (the real one is timed in the browser tests)."""
    return serve({**settings, "PASSWORD_METHOD": "pbkdf2:sha256:1000"})


def play_against_bots(client, registry, game="zero_game", bots=2) -> str:
    """A game with bots, this client's moves the first legal ones, to its end: the game's id."""
    code = started_with_bots(client, game, bots)
    room = registry.get(code)
    to_the_end(client, room)
    return f"{code}-{room.game_no}"


def sign_up(client, username="ann", password=PASSWORD, again=None):
    return client.post(
        "/signup", data={"username": username, "password": password, "again": again or password}
    )


def sign_in(client, username="ann", password=PASSWORD, address="127.0.0.1"):
    return client.post(
        "/signin", data={"username": username, "password": password}, environ_base={"REMOTE_ADDR": address}
    )


# A name with every character HTML escapes: each page must show it as typed, escaped once.
TRICKY_NAME = 'O\'Neil <i>A</i>&"B"'


def shows_as_typed(html: str) -> None:
    assert TRICKY_NAME not in html  # never unescaped
    assert TRICKY_NAME in unescape(html)
    assert "&amp;lt;" not in html and "&amp;#39;" not in html and "&amp;amp;" not in html  # never twice


def replay_links(html: str) -> list[str]:
    return re.findall(r'href="/replay/([A-Z]+-\d+)"', html)


# Accounts from guests


def test_a_guest_keeps_their_games_when_signing_up_and_finds_them_on_another_browser(player, registry):
    ann = player("Ann")
    first, second = play_against_bots(ann, registry), play_against_bots(ann, registry)
    guest = uid_of(ann)
    assert replay_links(ann.get("/me").text) == [second, first]  # newest first
    response = sign_up(ann)
    assert response.status_code == 302 and response.headers["Location"] == "/me"
    account = uid_of(ann)
    assert account != guest  # the account is a player of its own, holding the guest's games
    page = ann.get("/me").text
    assert '<h1 id="player-heading">ann</h1>' in page and replay_links(page) == [second, first]

    # A second browser, a guest with a game of its own, signs in: its game joins the account.
    phone = player("Annie")
    third = play_against_bots(phone, registry)
    assert sign_in(phone).status_code == 302
    assert uid_of(phone) == account
    fourth = play_against_bots(phone, registry)
    for browser in (ann, phone):
        assert replay_links(browser.get("/me").text) == [fourth, third, second, first]
    # What is public of an account, to anyone.
    stranger = player("Cal")
    public = stranger.get("/p/ANN").text
    assert replay_links(public) == [fourth, third, second, first]
    assert "Sign up</a> to keep them" not in public
    assert stranger.get("/p/nobody").status_code == 404


def test_signing_in_moves_the_browsers_seats_to_the_account(player, registry):
    ann = player("Ann")
    sign_up(ann)
    phone = player("Annie")
    code = create_room(phone)
    assert sign_in(phone).status_code == 302
    room = registry.get(code)
    assert room.seats[0].uid == uid_of(phone) == uid_of(ann) and room.host == uid_of(ann)
    assert registry.rebuild(code).seats[0].uid == uid_of(ann)


def test_a_browser_signed_in_neither_signs_up_nor_signs_in_to_another_account(player, registry):
    ann = player("Ann")
    first = play_against_bots(ann, registry)
    sign_up(ann)
    bea = player("Bea")
    sign_up(bea, "bea")
    refused = sign_in(bea, "ann")
    assert refused.status_code == 401
    assert "You are signed in as bea: sign out to sign in to another account." in unescape(refused.text)
    refused = sign_up(bea, "bee")
    assert "You are signed in as bea: sign out to make another account." in unescape(refused.text)
    # Neither account's games moved, even had a request got past the page.
    with pytest.raises(ValueError):
        registry.store.players.join_guest(uid_of(bea), uid_of(ann))
    assert replay_links(ann.get("/me").text) == [first] and replay_links(bea.get("/me").text) == []


def test_signing_out_makes_the_browser_a_new_guest(player, registry):
    ann = player("Ann")
    play_against_bots(ann, registry)
    sign_up(ann)
    account = uid_of(ann)
    page = ann.post("/signout", follow_redirects=True).text
    assert "Signed out" in page and uid_of(ann) != account
    assert replay_links(ann.get("/me").text) == []


# Passwords


@pytest.mark.parametrize(
    ("username", "password", "again", "reason"),
    [
        ("an", PASSWORD, PASSWORD, "A username is 3 to 20 letters"),
        ("ann smith", PASSWORD, PASSWORD, "A username is 3 to 20 letters"),
        ("ann", "short", "short", "That password is too short: use at least 8 characters."),
        ("ann", PASSWORD, PASSWORD + "!", "The two passwords do not match"),
    ],
)
def test_a_sign_up_refused_says_why_and_makes_nothing(player, registry, username, password, again, reason):
    ann = player("Ann")
    response = sign_up(ann, username, password, again)
    assert response.status_code == 400 and reason in unescape(response.text)
    assert registry.store.players.account(username) is None
    assert 'value="' + username + '"' in unescape(response.text)  # what was typed stays, but passwords
    assert PASSWORD not in response.text


def test_a_username_taken_is_refused_in_any_case_and_the_first_account_is_untouched(player, registry):
    sign_up(player("Ann"))
    first = registry.store.players.account("ann")
    other = player("Other Ann")
    response = sign_up(other, "ANN", "another password")
    assert response.status_code == 400 and "The username ANN is taken: pick another." in unescape(
        response.text
    )
    assert registry.store.players.account("ann") == first
    assert registry.store.players.player(uid_of(other)) is None


def test_a_wrong_password_is_answered_slowly_and_changes_nothing(player, registry, monkeypatch):
    sign_up(player("Ann"))
    waits = []
    monkeypatch.setattr(web_accounts.time, "sleep", waits.append)
    bea = player("Bea")
    guest = uid_of(bea)
    response = sign_in(bea, "ann", "wrong password")
    assert response.status_code == 401
    assert "That username and password do not match an account." in unescape(response.text)
    assert waits == [web_accounts.WRONG_ANSWER_DELAY] and uid_of(bea) == guest
    # An unknown name is refused in the same words, as slowly.
    assert "do not match an account" in unescape(sign_in(bea, "nobody", "whatever").text)
    assert len(waits) == 2


# History and statistics


def test_the_players_page_shows_each_game_and_the_statistics(player, registry):
    ann = player("Ann")
    game = play_against_bots(ann, registry)
    code = game.split("-")[0]
    room = registry.get(code)
    result = room.rules.result(room.state)
    figures = room.rules.figures(room.state)[0]
    page = unescape(ann.get("/me").text)
    row = words(page[page.index("<tbody>") : page.index("</tbody>")])
    scores = result["scores"]
    # Equal scores share a place, and the next place skips as many.
    place = ["1st", "2nd", "3rd"][sum(score > scores[0] for score in scores)]
    assert row.endswith(f"Zero Game Ann , Ada (bot) , Bix (bot) {place} {scores[0]} Watch")
    stats = words(page[page.index('id="stat-zero_game"') : page.index("</article>")])
    won = int(0 in result["winners"])
    assert f"Games 1 Wins {won} Win rate {won * 100}%" in stats
    assert f"Average score {result['scores'][0]:.1f}" in stats
    assert f"Bids made exactly {figures['bids_made']} of {figures['rounds']}" in stats


def test_the_history_is_paged_newest_first(player, registry, monkeypatch):
    from zerogames.web import players

    monkeypatch.setattr(players, "PAGE_SIZE", 2)
    ann = player("Ann")
    games = [play_against_bots(ann, registry) for _ in range(3)]
    first = ann.get("/me").text
    assert replay_links(first) == games[:0:-1] and 'rel="next"' in first and 'rel="prev"' not in first
    second = ann.get("/me?page=2").text
    assert replay_links(second) == games[:1] and 'rel="prev"' in second and 'rel="next"' not in second


def test_an_abandoned_game_is_in_the_history_without_a_replay(player, registry):
    ann = player("Ann")
    code = started_with_bots(ann)
    room = registry.get(code)
    assert ann.get(f"/replay/{code}-1").status_code == 403
    registry.abandon(room)
    assert room.status == "over"
    page = unescape(ann.get("/me").text)
    assert "abandoned" in words(page[page.index("<tbody>") : page.index("</tbody>")])
    assert replay_links(page) == []
    refused = ann.get(f"/replay/{code}-1")
    assert refused.status_code == 403 and "abandoned before its end" in unescape(refused.text)
    # Abandoned games count in no statistics (they have no result).
    assert "No finished game yet." in page


# Replays


def cards_named(html: str) -> set[str]:
    return set(
        re.findall(
            r'aria-label="((?:Ace|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King) of \w+)"',
            html,
        )
    )


def section(html: str, ident: str) -> str:
    start = html.index(f'id="{ident}"')
    return html[start : html.index("</section>", start)]


def test_a_replay_shows_each_seat_exactly_its_view_at_each_step_and_all_open_every_hand(player, registry):
    clients = [player(name) for name in ("Ann", "Bea", "Cal")]
    code = create_room(clients[0])
    for client in clients[1:]:
        join(client, code)
    room = registry.get(code)
    hands = [["AS", "KS", "QS"], ["AH", "KH", "QH"], ["AD", "KD", "QD"]]
    registry.set_options(
        room, uid_of(clients[0]), {"dealer": 2, "decks": [deck_dealing(hands, 0, STANDARD_DECK)]}
    )
    clients[0].post(f"/r/{code}/start", headers={"HX-Request": "true"})
    seen = []  # each seat's view at every version of the game, as the live table drew it
    while True:
        with room.lock:
            seen.append([ZERO_GAME.view(room.state, seat, room.published.at) for seat in range(3)])
            if room.status == "over":
                break
            seat = room.state["turn"]
            action, version = ZERO_GAME.legal_actions(room.state, seat)[-1], room.version
        clients[seat].post(
            f"/r/{code}/act",
            data={"action": json.dumps(action), "version": version},
            headers={"HX-Request": "true"},
        )
    game = f"{code}-1"
    replay = clients[0].application.extensions["zerogames.replays"].kept
    stranger = player("Dee")  # never sat at the table: any seat's view of a finished game is theirs to see
    stranger.get(f"/replay/{game}")
    (kept,) = replay.values()
    for n, views in enumerate(seen):
        for seat, view in enumerate(views):
            page = unescape(stranger.get(f"/replay/{game}?step={n}&view={seat}").text)
            assert f"Step {n} of {len(seen) - 1}" in page
            # The seat's cards, and no one else's, in its hand; nothing the seat could not see anywhere.
            assert cards_named(section(page, "hand")) == {card_name(card) for card in view["hand"]}
            public = ZERO_GAME.view(kept.steps[n].state, None, kept.steps[n].now)
            seen_by_all = {card_name(card) for card in strings_in(public) if card in STANDARD_DECK}
            assert cards_named(page) <= seen_by_all | {card_name(card) for card in view["hand"]}
        assert [{**kept.view(n, seat), "legal": view["legal"]} for seat, view in enumerate(views)] == views
        opened = unescape(stranger.get(f"/replay/{game}?step={n}&view=open").text)
        assert cards_named(section(opened, "hands-heading")) == {
            card_name(card) for view in views for card in view["hand"]
        }
    # Every step in words, as the table said them; and the jump to each round.
    last = unescape(stranger.get(f"/replay/{game}?step={len(seen) - 1}").text)
    assert "Ann bid" in last and "played the Ace of spades" in words(last)
    starts = {}
    for n, views in enumerate(seen):
        starts.setdefault(views[0]["round"], n)
    jumps = section(last, "replay-heading")
    assert re.findall(
        r'href="/replay/' + game + r'\?step=(\d+)&view=open" (?:aria-current="step")?>(\d+)</a>', jumps
    ) == [(str(n), str(number)) for number, n in starts.items()]


def test_a_replay_of_a_game_in_progress_is_refused(player, registry):
    ann = player("Ann")
    code = started_with_bots(ann)
    for who in (ann, player("Bea")):
        response = who.get(f"/replay/{code}-1?view=0")
        assert response.status_code == 403
        assert "This game is still being played: its replay and its data open once it is over." in unescape(
            response.text
        )
    assert ann.get(f"/replay/{code}-9").status_code == 404
    assert ann.get("/replay/nonsense").status_code == 404


def test_game_over_shows_the_score_chart_and_the_replay(player, registry):
    ann = player("Ann")
    game = play_against_bots(ann, registry)
    code = game.split("-")[0]
    page = unescape(ann.get(f"/r/{code}").text)
    record = section(page, "game-record")
    assert f'href="/replay/{game}"' in record and "Watch replay" in record
    room = registry.get(code)
    rounds = len(room.state["history"])
    # One row per round, each seat's score at its end, the last the final scores.
    rows = re.findall(r'<tr><th scope="row">(\d+)</th>(.*?)</tr>', record)
    assert [int(number) for number, _ in rows] == list(range(1, rounds + 1))
    assert re.findall(r">(-?\d+)</td>", rows[-1][1]) == [str(s) for s in room.rules.scores(room.state)]
    assert record.count("<polyline") == 3


def enabled_controls(html: str) -> list[str]:
    """The page's controls that would post a move."""
    controls = re.findall(r'<(?:button|input)[^>]*name="action[^>]*>', html)
    return [control for control in controls if " disabled" not in control]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_ends_with_its_chart_and_a_replay_drawn_at_every_point_of_view(player, registry, game_id):
    """A player and Easy bots to the end; then the table's end, the replay's first, middle and last
    steps from a seat and all open, and the player's page, as every game's own templates draw them."""
    rules = GAMES[game_id]
    ann = player(TRICKY_NAME)
    uid = uid_of(ann)
    room = registry.create(game_id, {}, uid, TRICKY_NAME)
    for _ in range(rules.min_players - 1):
        registry.add_bot(room, uid, "easy")
    registry.start(room, uid)
    while room.status == "playing":
        with room.lock:
            legal, version = room.rules.legal_actions(room.state, 0, registry.clock()), room.version
        if legal:
            # A bot may move first (a snap taken, a stale table): then look again.
            with contextlib.suppress(Refused):
                registry.act(room, uid, version, dict(legal[0]))
        else:
            wait_until(lambda before=version: room.status != "playing" or room.version != before)
    game = f"{room.code}-{room.game_no}"
    assert "Watch replay" in ann.get(f"/r/{room.code}").text
    last = len(registry.store.games.actions(room.code, room.game_no))
    charted = []
    for step in (0, last // 2, last):
        for view in ("0", "1", "open"):
            html = ann.get(f"/replay/{game}?step={step}&view={view}").text
            page = unescape(html)
            assert f"Step {step} of {last}" in page, (step, view)
            # A replay has no move to make: no control of the table posts anything.
            assert enabled_controls(html) == [], (step, view)
            shows_as_typed(html)
            if step == 0:
                assert f"No {rules.round_key} has ended yet." in section(page, "chart-heading"), view
        charted.append(html.count("<polyline"))
    # The chart grows with the steps: nothing at the deal, every seat's line by the end.
    assert charted[0] == 0 and charted[-1] == rules.min_players, charted
    # Every step of the opening from each seat too (a card just drawn, a power to use: Cabo's third).
    for step in range(1, min(last, 8)):
        for view in map(str, range(rules.min_players)):
            html = ann.get(f"/replay/{game}?step={step}&view={view}").text
            assert enabled_controls(html) == [], (step, view)
    shows_as_typed(ann.get(f"/r/{room.code}").text)
    me = ann.get("/me").text
    shows_as_typed(me)
    assert replay_links(me) == [game]


def test_viewers_asking_for_one_replay_at_once_share_one_rebuild(player, registry, monkeypatch):
    import threading
    import time

    from zerogames.web import history

    game = play_against_bots(player("Ann"), registry)
    record = registry.store.history.record(*game.split("-")[:1], 1)
    built = []

    class Counted(history.Replay):
        def __init__(self, record):
            built.append(record)
            time.sleep(0.05)  # a long game's rebuild: long enough for every asker to arrive meanwhile
            super().__init__(record)

    monkeypatch.setattr(history, "Replay", Counted)
    replays = history.Replays()
    asked = [threading.Thread(target=replays.get, args=(record,)) for _ in range(6)]
    for thread in asked:
        thread.start()
    for thread in asked:
        thread.join()
    assert len(built) == 1 and replays.kept_one(record.code, 1) is not None
