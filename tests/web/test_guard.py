"""What the site refuses before any room hears of it: other origins, oversized bodies, malformed or
padded moves; and the headers, links and cookies it answers with."""

from __future__ import annotations

import io
import json
import random
import re
import urllib.parse

import pytest

from tests.web.conftest import act, create_room, join
from zerogames.games import GAMES

HX = {"HX-Request": "true"}


def zero_game(player, registry):
    """Ann (host), Bea and Cal at a started Zero Game."""
    ann, bea, cal = player("Ann"), player("Bea"), player("Cal")
    code = create_room(ann)
    join(bea, code)
    join(cal, code)
    ann.post(f"/r/{code}/start", headers=HX)
    room = registry.get(code)
    return code, (ann, bea, cal), room


def stored_actions(registry, room) -> list[dict]:
    return [action for _, action, _, _ in registry.store.games.actions(room.code, room.game_no)]


# Another origin on the same host (another port) or a sibling subdomain: SameSite cookies let its
# requests carry the player's cookie, so the site must tell them apart itself.
SAME_SITE_ELSEWHERE = [
    {"Origin": "http://localhost:8001"},
    {"Origin": "http://evil.localhost"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:8001"},
    {"Sec-Fetch-Site": "cross-site"},
]


@pytest.mark.parametrize("headers", SAME_SITE_ELSEWHERE)
def test_a_move_posted_from_another_origin_is_refused(player, registry, headers):
    code, clients, room = zero_game(player, registry)
    turn = clients[room.state["turn"]]
    version = room.version
    response = turn.post(
        f"/r/{code}/act",
        data={"action": json.dumps({"type": "bid", "bid": 0}), "version": version},
        headers={**HX, **headers},
    )
    assert response.status_code == 403
    assert "another site" in response.text or "not this site" in response.text
    assert room.version == version and stored_actions(registry, room) == []


def test_a_move_from_the_sites_own_page_is_taken(player, registry):
    code, clients, room = zero_game(player, registry)
    turn = clients[room.state["turn"]]
    for headers in ({"Origin": "http://localhost"}, {"Sec-Fetch-Site": "same-origin"}):
        version = room.version
        response = turn.post(
            f"/r/{code}/act",
            data={"action": json.dumps({"type": "bid", "bid": 0}), "version": version},
            headers={**HX, **headers},
        )
        assert response.status_code == 200 and room.version == version + 1
        turn = clients[room.state["turn"]]


def test_every_change_of_a_room_checks_the_origin(player, registry):
    ann = player("Ann")
    code = create_room(ann)
    elsewhere = {"Origin": "http://localhost:8001"}
    for path in ("/rooms", f"/r/{code}/join", f"/r/{code}/bots", f"/r/{code}/start", f"/r/{code}/leave"):
        assert ann.post(path, data={"game": "zero_game", "name": "Ann"}, headers=elsewhere).status_code == 403
    assert len(registry.get(code).seats) == 1


def test_pages_refuse_frames_and_foreign_scripts(player):
    ann = player("Ann")
    code = create_room(ann)
    for path in ("/", f"/r/{code}"):
        headers = ann.get(path).headers
        policy = headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in policy
        assert "script-src 'self';" in policy and "default-src 'none'" in policy
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"


def test_a_body_over_the_limit_is_refused_unread(player, registry):
    code, clients, room = zero_game(player, registry)
    turn = clients[room.state["turn"]]
    version = room.version
    padded = {"action": json.dumps({"type": "bid", "bid": 0}), "version": version, "pad": "x" * 100_000}
    response = turn.post(f"/r/{code}/act", data=padded, headers=HX)
    assert response.status_code == 413 and "too large" in response.text
    assert room.version == version


def test_a_move_padded_with_fields_its_game_does_not_know_is_refused_and_never_stored(player, registry):
    code, clients, room = zero_game(player, registry)
    turn = clients[room.state["turn"]]
    version = room.version
    response = act(turn, code, json.dumps({"type": "bid", "bid": 0, "junk": "x" * 400}), version)
    assert "does not know: junk" in response.text
    assert room.version == version and stored_actions(registry, room) == []


MALFORMED = [
    json.dumps({"type": ["memory"], "on": False}),  # a list where the type goes
    json.dumps({"type": {"memory": 1}}),
    "[" * 250 + "]" * 250,  # nested deep, within the length
    "[" * 5_000,  # longer than any move (deep enough to exhaust the parser)
    json.dumps({"type": "peek", "slots": [[0], {"a": 1}]}),
    json.dumps({"type": "peek", "slots": 1e400}),
    json.dumps("peek"),
    "{",
]


@pytest.mark.parametrize("action", MALFORMED)
def test_a_malformed_move_is_a_clear_refusal(player, registry, action):
    ann, bea = player("Ann"), player("Bea")
    code = create_room(ann, game="cabo")
    join(bea, code)
    ann.post(f"/r/{code}/start", headers=HX)
    room = registry.get(code)
    version = room.version
    response = act(bea, code, action, version)
    assert response.status_code == 200
    assert "could not be read" in response.text or "not an action of" in response.text
    assert room.version == version


def junk(rng: random.Random, depth: int = 0):
    """A value of any JSON shape."""
    kinds = ["int", "str", "bool", "none", "float", "list", "dict"][: 7 if depth < 3 else 5]
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.choice([0, 1, 2, -1, 3, 51, 10**30])
    if kind == "str":
        return rng.choice(["", "AS", "KH", "7C", "x" * 30, "0", "\u202e"])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "none":
        return None
    if kind == "float":
        return rng.choice([0.5, 1e300, -0.0])
    if kind == "list":
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["type", "card", "slot", "a"]): junk(rng, depth + 1) for _ in range(rng.randrange(3))}


def fuzzed_move(rng: random.Random, rules, legal: list[dict]) -> dict:
    """A legal move bent one way or another: a field's value replaced, a field added, a type changed."""
    move = dict(rng.choice(legal)) if legal else {"type": rng.choice(list(rules.action_fields))}
    bend = rng.randrange(4)
    if bend == 0 and len(move) > 1:
        move[rng.choice([key for key in move if key != "type"])] = junk(rng)
    elif bend == 1:
        move[rng.choice(["extra", "card", "slot", "seat", "bid", "total"])] = junk(rng)
    elif bend == 2:
        move["type"] = junk(rng) if rng.random() < 0.5 else rng.choice(list(rules.action_fields))
    return move


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_fuzzed_moves_never_fail_the_server_and_store_only_known_fields(player, registry, game_id):
    rules = GAMES[game_id]
    clients = [player(name) for name in ("Ann", "Bea", "Cal", "Dee")[: max(rules.min_players, 3)]]
    clients = clients[: rules.max_players]
    code = create_room(clients[0], game=game_id)
    for client in clients[1:]:
        join(client, code)
    clients[0].post(f"/r/{code}/start", headers=HX)
    room = registry.get(code)
    rng = random.Random(f"fuzz {game_id}")
    for _ in range(60):
        if room.status != "playing":
            break
        seat = rng.randrange(len(clients))
        move = fuzzed_move(rng, rules, rules.legal_actions(room.state, seat))
        response = act(clients[seat], code, json.dumps(move), room.version)
        assert response.status_code == 200, (move, response.status_code)
    for action in stored_actions(registry, room):
        assert set(action) <= {"type", *rules.action_fields[action["type"]]}
    rebuilt = registry.rebuild(code)
    assert rules.dump(rebuilt.state) == rules.dump(room.state)


def test_every_legal_move_holds_only_what_its_game_declares():
    """The declarations the site checks moves against cover what the engines themselves offer."""
    for rules in GAMES.values():
        rng = random.Random(rules.id)
        for players in range(rules.min_players, rules.max_players + 1):
            state = rules.new_game(players, seed=players)
            for _ in range(100):
                if rules.result(state) is not None:
                    break
                legal = [(seat, move) for seat in range(players) for move in rules.legal_actions(state, seat)]
                if not legal:
                    break
                for _, move in legal:
                    assert rules.check_action(json.loads(json.dumps(move))) == move
                seat, move = rng.choice(legal)
                state = rules.apply(state, seat, move)


@pytest.fixture
def proxied_app(tmp_path, serve):
    """proxied_app(**config) -> an app behind a proxy at 127.0.0.1 (the README's nginx)."""
    return lambda **config: serve(
        {"TESTING": True, "DATABASE": str(tmp_path / "proxied.db"), "PROXIES": "127.0.0.1", **config}
    )


def test_behind_the_proxy_each_client_counts_by_its_own_address(proxied_app):
    app = proxied_app()
    proxy = app.test_client()
    for client in range(12):
        forwarded = {"X-Forwarded-For": f"198.51.100.{client}"}
        created = proxy.post("/rooms", data={"game": "zero_game", "name": "Ann"}, headers=forwarded)
        assert created.status_code == 302
        proxy.delete_cookie("session")
    # Not from the proxy: what a client writes in X-Forwarded-For is no address of its own.
    direct = app.test_client()
    direct.environ_base["REMOTE_ADDR"] = "203.0.113.9"
    answers = []
    for client in range(12):
        forged = {"X-Forwarded-For": f"10.0.0.{client}"}
        answer = direct.post("/rooms", data={"game": "zero_game", "name": "Bo"}, headers=forged)
        answers.append(answer.status_code)
        direct.delete_cookie("session")
    assert answers == [302] * 10 + [429] * 2


def test_the_cookie_is_secure_when_the_site_is_reached_over_https(proxied_app):
    app = proxied_app()
    over_https = app.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in over_https.headers["Set-Cookie"]
    spoofed = app.test_client()
    spoofed.environ_base["REMOTE_ADDR"] = "203.0.113.9"
    assert "Secure" not in spoofed.get("/", headers={"X-Forwarded-Proto": "https"}).headers["Set-Cookie"]


def test_links_are_made_on_the_configured_site_url_whatever_the_host_header(proxied_app):
    app = proxied_app(SITE_URL="https://cards.example.org")
    ann = app.test_client()
    created = ann.post(
        "/rooms",
        data={"game": "zero_game", "name": "Ann"},
        headers={"Origin": "https://cards.example.org"},
        base_url="https://localhost",
    )
    code = created.headers["Location"].rsplit("/", 1)[-1]
    forged = app.test_client().get(f"/r/{code}", headers={"Host": "evil.example"}).text
    assert f"https://cards.example.org/r/{code}" in forged and "evil.example" not in forged
    own = ann.get(f"/r/{code}", base_url="https://localhost").text
    assert f"https://cards.example.org/r/{code}/rejoin/" in own
    assert "Secure" in created.headers["Set-Cookie"]


def test_a_name_loses_control_and_direction_characters(player, registry):
    ann = player("Ann")
    ann.post("/rooms", data={"game": "zero_game", "name": "\u202eAnn\u200b\x07 Lee"})
    code = next(iter(registry.rooms))
    assert registry.get(code).seats[0].name == "Ann Lee"


def test_a_player_cannot_take_a_bots_name(player, registry):
    ann, bea = player("Ann"), player("Bea")
    refused = ann.post("/rooms", data={"game": "zero_game", "name": "Ada (bot)"}, follow_redirects=True)
    assert "kept for the bots" in refused.text and not registry.rooms
    code = create_room(bea)
    answer = player("Cy").post(f"/r/{code}/join", data={"name": "Eve \uff08BOT\uff09"}, headers=HX)
    assert "kept for the bots" in answer.text and len(registry.get(code).seats) == 1


def test_no_bot_takes_the_name_of_a_player_at_the_table(player, registry):
    # "Ada won the trick" must name one seat: no "Ada (bot)" beside a player named Ada, however cased
    # or accented.
    ada, eve = player("ADA"), player("Évé")
    code = create_room(ada)
    join(eve, code)
    for _ in range(4):
        assert ada.post(f"/r/{code}/bots", data={"level": "easy"}, headers=HX).status_code == 200
    table = ada.get(f"/r/{code}").text
    names = [seat.name for seat in registry.get(code).seats]
    assert names == ["ADA", "Évé", "Bix (bot)", "Cog (bot)", "Dot (bot)", "Fizz (bot)"]
    assert "Ada (bot)" not in table and "Eve (bot)" not in table


JUNK = ["", "0", "-1", "9" * 30, "x" * 300, "\u202e", "\x00", "[[[", '{"type": 1}', "1e400", "ZZZZ"]


def test_every_route_answers_junk_without_a_server_error(app, player):
    """Every route of the site, any method, junk in its path, query and form: an answer, never a 500."""
    ann = player("Ann")
    code = create_room(ann)
    rng = random.Random("routes")
    for rule in app.url_map.iter_rules():
        ann = player("Ann")  # a client of its own for each route: none runs out of lookups
        for _ in range(6):
            path = rule.rule
            for name in rule.arguments:
                value = urllib.parse.quote(rng.choice([*JUNK, code]), safe="")
                path = re.sub(rf"<int:{name}>", "1", path)
                path = re.sub(rf"<(\w+:)?{name}>", value, path)
            query = urllib.parse.urlencode({rng.choice(["code", "page", "step", "seat"]): rng.choice(JUNK)})
            form = {rng.choice(["name", "game", "action", "version", "seat", "level"]): rng.choice(JUNK)}
            method = rng.choice(["GET", "POST", "PUT", "DELETE", "HEAD"])
            answer = ann.open(f"{path}?{query}", method=method, data=form)
            assert answer.status_code < 500, (method, path, query, form)


@pytest.mark.parametrize("size", [16 * 1024 + 1, 1_000_000])
def test_a_chunked_body_over_the_limit_is_refused_not_cut(player, size):
    body = b"username=bob&password=" + b"x" * size
    answer = player("Bob").post(
        "/signin",
        input_stream=io.BytesIO(body),
        headers={"Transfer-Encoding": "chunked", "Content-Type": "application/x-www-form-urlencoded"},
        environ_overrides={"wsgi.input_terminated": True},  # as the WSGI server says of a chunked body
    )
    assert answer.status_code == 413 and "too large" in answer.text


def test_a_chunked_body_within_the_limit_is_read_whole(player):
    body = b"game=zero_game&name=" + b"A" * 12 + b"&pad=" + b"x" * 12_000
    answer = player("Ann").post(
        "/rooms",
        input_stream=io.BytesIO(body),
        headers={"Transfer-Encoding": "chunked", "Content-Type": "application/x-www-form-urlencoded"},
        environ_overrides={"wsgi.input_terminated": True},  # as the WSGI server says of a chunked body
    )
    assert answer.status_code == 302 and "/r/" in answer.headers["Location"]
