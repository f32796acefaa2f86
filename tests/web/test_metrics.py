"""What operators see: the figures at /metrics move as a game is played and name no card or player;
who may read them; the health answers; and the one line a failed request leaves in the log."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading

import pytest
from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from tests.web.conftest import act, create_room, started_with_bots, wait_until, with_bots
from zerogames import metrics
from zerogames.games.cards import STANDARD_DECK, card_name, short_name
from zerogames.store.connection import Unavailable

HX = {"HX-Request": "true"}


def figures(client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the scrape, by name and labels."""
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def figure(seen: dict, name: str, **labels: str) -> float:
    return seen.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def operator(player):
    """A client on this machine's loopback address, as Prometheus scraping the process locally is."""
    client = player("Prometheus")
    client.environ_base["REMOTE_ADDR"] = "127.0.0.1"
    return client


def test_the_figures_move_as_a_game_is_played_and_name_no_card_nor_player(player, registry, operator):
    ann = player("Annabel")
    before = figures(operator)
    code = started_with_bots(ann)
    room = registry.get(code)
    moves = refused = 0
    while room.status != "over":
        wait_until(lambda: room.status == "over" or room.rules.legal_actions(room.state, 0))
        if room.status != "playing":
            break
        move = json.dumps(room.rules.legal_actions(room.state, 0)[0])
        if not refused:  # a move from a table the page never showed: refused, nothing changed
            act(ann, code, move, version=room.version + 5)
            refused += 1
        act(ann, code, move)
        moves += 1
    after = figures(operator)

    def moved(name: str, **labels: str) -> float:
        return figure(after, name, **labels) - figure(before, name, **labels)

    assert moved("zerogames_actions_total", game="zero_game", command="Act") == moves
    assert moved("zerogames_actions_total", game="zero_game", command="AddBot") == 2
    assert moved("zerogames_actions_total", game="zero_game", command="BotMove") >= moves
    assert moved("zerogames_refusals_total", game="zero_game", command="Act") == refused
    # Every POST timed: two bots, the start, the moves and the refused one.
    assert moved("zerogames_post_seconds_count", endpoint="table.act") == moves + refused
    assert moved("zerogames_post_seconds_count", endpoint="table.start") == 1
    assert moved("zerogames_post_seconds_sum", endpoint="table.act") > 0
    assert moved("zerogames_bot_decision_seconds_count", game="zero_game", level="easy") >= moves
    assert figure(after, "zerogames_rooms", game="zero_game", status="over") == 1
    assert figure(after, "zerogames_seats", game="zero_game", kind="bot") == 2
    assert figure(after, "zerogames_rooms_restored") == 1
    assert figure(after, "process_open_fds") > 0

    # No label holds a card (in any of its forms), a name or the room's code.
    cards = {form for card in STANDARD_DECK for form in (card, card_name(card), short_name(card))}
    said = {value for _, labels in after for _, value in labels}
    assert not said & (cards | {"Annabel", code})
    text = operator.get("/metrics").text
    assert "Annabel" not in text and code not in text


def test_the_figures_are_read_from_this_machine_only_unless_with_the_token(app, player, operator):
    assert operator.get("/metrics").status_code == 200
    # From elsewhere, or from here on behalf of elsewhere (a proxy on this machine passing it on).
    eve = player("Eve")
    eve.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert eve.get("/metrics").status_code == 403
    assert operator.get("/metrics", headers={"X-Forwarded-For": "192.0.2.1"}).status_code == 403
    app.config["METRICS_TOKEN"] = "s3cret-token"
    scraper = player("Remote")
    scraper.environ_base["REMOTE_ADDR"] = "192.0.2.8"
    assert scraper.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert scraper.get("/metrics", headers={"Authorization": "Bearer s3cret-tøken"}).status_code == 403
    assert scraper.get("/metrics", headers={"Authorization": "Bearer s3cret-token"}).status_code == 200


def test_health_says_alive_and_ready_and_not_ready_without_its_database(player, registry, monkeypatch):
    visitor = player("Nginx")
    assert (visitor.get("/healthz").status_code, visitor.get("/readyz").text) == (200, "ready\n")

    def unreachable(code: str) -> bool:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(registry.store.rooms, "code_taken", unreachable)
    answer = visitor.get("/readyz")
    assert answer.status_code == 503 and "database does not answer" in answer.text
    assert visitor.get("/healthz").status_code == 200
    monkeypatch.undo()
    registry.restored = False
    assert visitor.get("/readyz").status_code == 503


def test_a_failed_request_leaves_one_line_without_secrets_and_is_counted(
    app, player, registry, operator, monkeypatch, caplog
):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # answered 500, as in production
    ann = player("Annabel")
    code = with_bots(ann)
    before = figures(operator)

    def broken(*args: object) -> None:
        # A card a room code cannot spell (codes are letters alone).
        raise sqlite3.OperationalError("database or disk is full: Annabel holds 7H")

    monkeypatch.setattr(registry.store.games, "start", broken)
    with caplog.at_level(logging.ERROR):
        answer = ann.post(f"/r/{code}/start", data={"password": "hunter2hunter2"}, headers=HX)
    assert answer.status_code == 500
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert (line["route"], line["room"], line["error"]) == ("/r/<code>/start", code, "OperationalError")
    assert any("zerogames/rooms/registry.py" in frame for frame in line["at"])
    cookie = ann.get_cookie("session").value
    for secret in ("Annabel", "7H", card_name("7H"), "hunter2", cookie, "disk is full"):
        assert secret not in lines[0]
    after = figures(operator)
    assert (
        figure(after, "zerogames_database_errors_total", error="OperationalError")
        - figure(before, "zerogames_database_errors_total", error="OperationalError")
        == 1
    )
    assert (
        figure(
            after,
            "zerogames_command_failures_total",
            game="zero_game",
            command="Start",
            error="OperationalError",
        )
        - figure(
            before,
            "zerogames_command_failures_total",
            game="zero_game",
            command="Start",
            error="OperationalError",
        )
        == 1
    )
    assert (
        figure(after, "zerogames_request_errors_total", endpoint="table.start", error="OperationalError") >= 1
    )


def test_a_move_refused_because_the_database_failed_counts_as_a_database_error(
    player, registry, operator, monkeypatch
):
    ann = player("Ann")
    code = with_bots(ann)
    before = figures(operator)

    def cannot_save(*args: object) -> None:  # as the store's connection says a full disk
        full = sqlite3.OperationalError("database or disk is full")
        raise Unavailable(full) from full

    monkeypatch.setattr(registry.store.games, "start", cannot_save)
    assert "cannot be saved" in ann.post(f"/r/{code}/start", headers=HX).text
    after = figures(operator)
    for name, labels in (
        ("zerogames_database_errors_total", {"error": "OperationalError"}),
        ("zerogames_refusals_total", {"game": "zero_game", "command": "Start"}),
    ):
        assert figure(after, name, **labels) - figure(before, name, **labels) == 1


def test_a_move_that_waited_for_another_process_on_the_sqlite_file_is_counted_with_its_wait(
    app, player, registry, operator
):
    """Two processes share the SQLite file (`make run PROCESSES=2`): a Start that finds the other one
    writing waits for it, goes through, and the operator sees the wait and how long it was."""
    ann = player("Ann")
    code = with_bots(ann)
    before = figures(operator)
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None, check_same_thread=False)
    other.execute("begin immediate")
    threading.Timer(0.3, other.execute, ["commit"]).start()
    ann.post(f"/r/{code}/start", headers=HX)
    assert registry.get(code).status == "playing"
    after = figures(operator)

    def moved(name: str) -> float:
        return figure(after, name) - figure(before, name)

    assert moved("zerogames_database_waits_total") == 1
    assert 0.25 <= moved("zerogames_database_wait_seconds_total") < 2
    other.close()


def test_a_page_asking_why_its_channel_was_refused_is_told_and_counts_no_second_refusal(
    app, player, operator
):
    ann, bea = player("Ann"), player("Bea")
    code = create_room(ann)
    channels = app.extensions["zerogames.limits"].channels
    channels.open_now = channels.watchers_cap  # the watchers' share of the process taken

    def refused() -> float:
        return figures(operator)[("zerogames_live_channels_refused_total", ())]

    before = refused()
    handshake = bea.get(f"/r/{code}/live", headers={"Upgrade": "websocket", "Connection": "Upgrade"})
    assert handshake.status_code == 503 and refused() == before + 1
    # The page, told nothing of the refused handshake, asks over HTTP: the same answer, not counted again.
    asked = bea.get(f"/r/{code}/live")
    assert asked.status_code == 503 and int(asked.headers["Retry-After"]) > 0
    assert refused() == before + 1
    assert ann.get(f"/r/{code}/live").status_code == 204  # a seated player would be let in


def test_a_page_whose_database_read_failed_counts_as_a_database_error(
    app, player, registry, operator, monkeypatch
):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # answered 500, as in production
    before = figures(operator)

    def cannot_read(*args: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(registry.store.ratings, "leaderboard_length", cannot_read)
    assert player("Ann").get("/leaderboard/zero_game").status_code == 500
    after = figures(operator)
    # No command ran to count it: the failed request's own count does.
    error = {"error": "OperationalError"}
    assert (
        figure(after, "zerogames_database_errors_total", **error)
        - figure(before, "zerogames_database_errors_total", **error)
        == 1
    )


def test_the_push_histogram_reads_as_prometheus_own_histogram_would():
    """The pushes' histogram, kept without locks, scrapes as prometheus_client's Histogram of the same
    observations: bounds included in their bucket, the largest in +Inf, the many that wait sorted."""
    quick = metrics.QuickHistogram("zerogames_test_seconds", "A test", metrics.LATENCY)
    plain = Histogram("zerogames_test_seconds", "A test", buckets=metrics.LATENCY, registry=None)
    amounts = [0.0, 0.001, 0.0011, 0.05, 5.0, 7.5] + [n / 1000 for n in range(quick.WAITING + 10)]
    for amount in amounts:
        quick.observe(amount)
        plain.observe(amount)
    scraped = []
    for histogram in (quick, plain):
        registry = CollectorRegistry()
        registry.register(histogram)
        scraped.append(generate_latest(registry).decode())
    assert scraped[0] == scraped[1]
    assert f"zerogames_test_seconds_count {float(len(amounts))}" in scraped[0]
