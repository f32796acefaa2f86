"""A fresh app on its own database per test; each player is a client with its own cookie jar."""

from __future__ import annotations

import itertools
import json
import re
import secrets
import time
from html import unescape

import pytest

from app import create_app
from tests import postgres
from zerogames import runtime
from zerogames.rooms.scheduler import Scheduler
from zerogames.web import identity

# Store and room tests run on both stores, SQLite and PostgreSQL (where the machine has it): a test,
# or a module's `pytestmark`, marked so runs twice if it uses the store.
on_both_stores = pytest.mark.both_stores


def pytest_generate_tests(metafunc) -> None:
    if metafunc.definition.get_closest_marker("both_stores") and "database_url" in metafunc.fixturenames:
        metafunc.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture(scope="session")
def postgres_server():
    yield from a_postgres_server()


def a_postgres_server():
    """A PostgreSQL server started for as long as the fixture that yields from this lasts."""
    if not postgres.available():
        pytest.skip("no PostgreSQL on this machine (`make test` installs it where it can)")
    server = postgres.PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def database_url(request) -> str:
    """The app's ZEROGAMES_DATABASE_URL: none (SQLite) unless the test runs on PostgreSQL too."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return ""
    return request.getfixturevalue("postgres_server").new_database()


@pytest.fixture
def settings(tmp_path, database_url) -> dict:
    """The app's test settings; a test that restarts the app starts another on the same."""
    return {
        "TESTING": True,
        "DATABASE": str(tmp_path / "zerogames.db"),
        "DATABASE_URL": database_url,
        "DEV": True,
        "BOT_DELAY": 0,
    }


@pytest.fixture
def app(settings, serve):
    # Stopped with its test: its store's connection goes with it (a server takes a hundred at most).
    return serve(settings)


@pytest.fixture
def serve():
    """serve(config) -> another app started on that config (the server restarted, a second process on
    the same database), stopped with its test: its timers and bots run no longer than the test."""
    started = []

    def start(config: dict):
        started.append(runtime.start(create_app(config)))
        return started[-1]

    yield start
    for app in reversed(started):
        runtime.stop(app)


@pytest.fixture
def registry(app):
    return app.extensions["zerogames"]


@pytest.fixture
def player(app):
    """player("Ann") -> a test client that has chosen that name, on an address of its own (as players
    on their own devices are: the site's limits count by address)."""
    addresses = itertools.count(2)

    def make(name: str):
        n = next(addresses)
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"127.0.{n // 256}.{n % 256}"
        client.name = name
        return client

    return make


def timers_by_hand(registry, clock=None):
    """The registry's timers (bots, turn clocks) run only when the test says so, with
    `registry.scheduler.run_due()`, on `clock` if one is given: its scheduler's thread is stopped."""
    registry.scheduler.stop()
    if clock is not None:
        registry.clock = clock
    registry.scheduler = Scheduler(registry.clock, thread=False)
    return registry


def as_player(client, uid: str):
    """The client's browser is player `uid`: signed in to it by a session of its own when it is an
    account, else that guest."""
    store = client.application.extensions["zerogames"].store
    with client.session_transaction() as session:
        if store.players.signed_up(uid):
            token = secrets.token_urlsafe(16)
            store.players.start_session(identity.session_digest(token), uid)
            session[identity.SIGNED_IN] = token
        else:
            session[identity.GUEST] = uid
    return client


def uid_of(client) -> str:
    """The browser's player id (a first visit gives a guest theirs)."""
    client.get("/me")
    with client.session_transaction() as session:
        token = session.get(identity.SIGNED_IN)
        guest = session.get(identity.GUEST)
    if token is None:
        return guest
    players = client.application.extensions["zerogames"].store.players
    return players.session_account(identity.session_digest(token)).id


def create_room(client, game="zero_game", **options) -> str:
    response = client.post("/rooms", data={"game": game, "name": client.name, **options})
    assert response.status_code == 302, response.text
    return response.headers["Location"].rsplit("/", 1)[-1]


def join(client, code: str):
    return client.post(f"/r/{code}/join", data={"name": client.name}, headers={"HX-Request": "true"})


def started_at(player, registry, game: str, options: dict, names=("Ann", "Bea", "Cal")):
    """A game of `game` begun by the first of `names`, the others joined in turn, with `options` set
    straight on the room first (the site offers no deck option: a stacked deal is set so, as a test
    may): its code, the players' clients in seat order, and the room."""
    clients = tuple(player(name) for name in names)
    code = create_room(clients[0], game=game)
    for client in clients[1:]:
        join(client, code)
    room = registry.get(code)
    if options:
        registry.set_options(room, room.host, options)
    clients[0].post(f"/r/{code}/start", headers={"HX-Request": "true"})
    assert room.status == "playing"
    return code, clients, room


def version_of(html: str) -> int:
    return int(re.search(r'id="room-version" name="version" value="(\d+)"', html).group(1))


def act(client, code: str, action: str, version: int | None = None, **extra):
    if version is None:
        version = version_of(client.get(f"/r/{code}").text)
    return client.post(
        f"/r/{code}/act", data={"action": action, "version": version, **extra}, headers={"HX-Request": "true"}
    )


def wait_until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def with_bots(client, game="zero_game", bots=2) -> str:
    """A room this client made, its other seats Easy bots, not yet started: its code."""
    code = create_room(client, game)
    for _ in range(bots):
        client.post(f"/r/{code}/bots", data={"level": "easy"}, headers={"HX-Request": "true"})
    return code


def started_with_bots(client, game="zero_game", bots=2) -> str:
    """A game this client started against Easy bots (it waits for the client's moves): its room."""
    code = with_bots(client, game, bots)
    client.post(f"/r/{code}/start", headers={"HX-Request": "true"})
    return code


def to_the_end(client, room) -> None:
    """This client's moves (seat 0) the first legal ones, the bots' their own, until the game is over
    as the pages see it: published (a bot's last move sets the room's facts a moment before)."""
    while room.published.status != "over":
        with room.lock:
            legal, version = room.rules.legal_actions(room.state, 0), room.version
        if legal:
            act(client, room.code, json.dumps(legal[0]), version)
        else:
            wait_until(lambda: room.published.status == "over" or room.rules.legal_actions(room.state, 0))


def page(client, code: str) -> str:
    """The room's part of a page, with entities such as &#39; read as the characters they stand for."""
    html = client.get(f"/r/{code}").text
    return unescape(html[html.index('<div id="room"') : html.index("<footer")])


def region(html: str, name: str) -> str:
    start = html.index(f'<section id="{name}"')
    return html[start : html.index("</section>", start)]


def words(html: str) -> str:
    """What a page says, without its tags and with its white space folded."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def headline(html: str) -> str:
    return words(re.search(r'class="headline[^"]*"[^>]*>(.*?)</h1>', html, re.S).group(1))
