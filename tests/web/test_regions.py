"""Regions are drawn from what they declare, and a drawing is handed only to viewers it was drawn for.

A live push draws a declared region from its view keys alone, and a region seen alike (or by every
player waiting for another's turn) once for all its viewers, as a spectator sees it. These tests play
random games of every kind and check, at every step and for every seat and a spectator, that what
each viewer is handed is exactly what drawing the region from their whole view and seat gives: by a
page (the process's memo alone) and by a live channel (its own drawings kept from push to push too).
"""

from __future__ import annotations

import gc
import random
import re
import threading
import time
from pathlib import Path

import pytest
from markupsafe import Markup

from tests.web.conftest import timers_by_hand
from zerogames.games import GAMES
from zerogames.rooms.commands import TimeOut
from zerogames.web import history, live, render, tables, talk, viewmodel

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "games"
SPECTATOR = 99


def with_parts(text: str) -> str:
    """A region's template with the site's shared table parts it imports or extends (they read its
    view too)."""
    for part in re.findall(r'\{% (?:from|extends) "(room/_\w+\.html)"', text):
        text += (TEMPLATES.parent / part).read_text()
    return text


@pytest.mark.parametrize("game_id", sorted(tables.TABLES))
def test_each_region_declares_every_view_key_it_reads(game_id):
    regions = tables.TABLES[game_id].regions
    by_seat = [region.name for region in regions if region.lines is not None]
    declared = {region.name: region.drawn_from for region in regions if region.lines is None}
    assert all(keys is not None for keys in declared.values())
    assert all(region.drawn_from is None for region in regions if region.lines is not None)
    assert all(region.drawn_from is not None for region in regions if region.seen_alike)
    for name, keys in declared.items():
        own = (TEMPLATES / game_id / f"{name}.html").read_text()
        text = with_parts(own)
        assert f'<section id="{name}"' in text
        assert own.count("hx-post") == own.count('hx-include="#room-version"'), f"{name} sends no version"
        used = set(re.findall(r"\bview\.(\w+)", text))
        assert used <= set(keys), f"{name} reads {sorted(used - set(keys))} without declaring them"
    for name in by_seat:
        # Drawn seat by seat: from the lines alone, each line from its seat's figures alone.
        line = (TEMPLATES / game_id / f"{name}-line.html").read_text()
        frame = (TEMPLATES / game_id / f"{name}.html").read_text()
        assert f'<section id="{name}"' in frame and "view" not in frame and "view" not in line
        assert f'id="{name}-{{{{ seat.index }}}}"' in line
        # Drawn once for every viewer, a line says whose it is by its badges alone, printed once: they
        # are put in where the line prints them (web/render.py, line_frame).
        assert "seat.you" not in line and line.count("seating.badges(seat)") == 1


def drawn_whole(app, code: str, game_id: str, published, seat: int) -> render.Drawn:
    """Every region drawn the plain way: from the viewer's whole view and their own seat."""
    with app.test_request_context(f"/r/{code}?seat={seat}"):
        who = viewmodel.viewer(code)
        room = viewmodel.room_info(code, game_id, published, who.uid)
        view = GAMES[game_id].view(published.state, room.me, published.at)
        context = {**who.context, "room": room, "view": view, "now": published.at}
        env = app.jinja_env
        drawn = render.Drawn({"room-version": viewmodel.version_input(room)}, {})
        for name in render.region_names(game_id, published.status)[len(render.COMMON) :]:
            if name == render.CLOCK:
                face = viewmodel.clock_face(room, published)
                drawn.regions[name] = render.draw(
                    env, game_id, name, {**who.context, "room": room, "face": face}
                )
                continue
            spec = tables.TABLES[game_id].region[name].lines
            if spec is not None:
                lines = {}
                for seat_info in room.seats:
                    their = {key: view[key][seat_info.index] for key in spec.each}
                    their |= {key: view[key] == seat_info.index for key in spec.at}
                    line = render.draw(env, game_id, f"{name}-line", {"seat": seat_info, "their": their})
                    lines[f"{name}-{seat_info.index}"] = line
                drawn.lines[name] = lines
                context = {**context, "lines": Markup("".join(lines.values()))}
            drawn.regions[name] = render.draw(env, game_id, name, context)
        if published.status == "over":
            drawn.regions["game-record"] = history.game_record(code, published.game_no)
        drawn.regions.update(talk.regions(published, room, who, None, talk.mutes()))
        return drawn


def handed(
    app, code: str, game_id: str, published, seat: int, kept: render.Kept | None = None
) -> render.Drawn:
    with app.test_request_context(f"/r/{code}?seat={seat}"):
        return render.render_regions(code, game_id, published, kept=kept)


@pytest.mark.parametrize("game_id", sorted(tables.TABLES))
@pytest.mark.parametrize("few", [True, False], ids=["fewest", "most"])
def test_every_viewer_is_handed_what_their_own_view_draws(app, registry, game_id, few):
    rules = GAMES[game_id]
    players = rules.min_players if few else rules.max_players
    # The clock runs (its timers held back: the test makes the timeouts), so its region is drawn too.
    skipped = [0.0]  # seconds the test's clock has been moved on, to let turn clocks run out
    timers_by_hand(registry, lambda: time.time() + skipped[0])
    room = registry.create(game_id, {"clock": 60}, "tab-0", "P0")
    for seat in range(1, players):
        registry.join(room, f"tab-{seat}", f"P{seat}")
    registry.start(room, "tab-0")
    rng = random.Random(f"{game_id}/{players}")
    viewers = [*range(players), SPECTATOR]
    channels: dict[int, render.Kept] = {seat: {} for seat in viewers}  # each viewer's live channel
    for _ in range(120):
        published = room.published
        for seat in rng.sample(viewers, len(viewers)):  # in any order, whoever draws first
            whole = drawn_whole(app, room.code, game_id, published, seat)
            for given in (
                handed(app, room.code, game_id, published, seat),
                handed(app, room.code, game_id, published, seat, channels[seat]),
            ):
                assert list(given.regions) == list(whole.regions)
                for name, html in whole.regions.items():
                    assert given.regions[name] == html, f"seat {seat}, v{published.version}: {name} differs"
                    # Nothing at this table (its names are P0, P1, ...) writes a "<" of its own: one
                    # escaped is a drawing's markup printed as text, which a page's words hide.
                    assert "&lt;" not in html, f"seat {seat}, v{published.version}: {name} prints markup"
                assert given.lines == whole.lines
        if room.status != "playing":
            break
        now = registry.clock()
        awaited = rules.awaited(room.state, now)
        if awaited and rng.random() < 0.3:
            # Now and then the clock runs out, and seats end up away (the host sees them otherwise).
            skipped[0] += 61
            registry.run(room, TimeOut(room.version))
            continue
        movers = [s for s in range(players) if rules.legal_actions(room.state, s, now)]
        seat = rng.choice(movers)
        action = rng.choice(rules.legal_actions(room.state, seat, now))
        registry.act(room, f"tab-{seat}", room.version, dict(action))


@pytest.mark.parametrize("game_id", sorted(tables.TABLES))
def test_drawing_a_table_leaves_nothing_to_the_garbage_collector(app, registry, game_id):
    """A region drawn leaves no reference cycle behind (a template's macro holding the context it was
    drawn in, say): each would keep that viewer's room and view until a collection found it, and the
    collections of a busy process, walking all of them, would cost every table a tenth of its time."""
    rules = GAMES[game_id]
    room = registry.create(game_id, {"clock": 60}, "tab-0", "P0")
    for seat in range(1, rules.max_players):
        registry.join(room, f"tab-{seat}", f"P{seat}")
    registry.start(room, "tab-0")
    rng = random.Random(game_id)
    channels: dict[int, render.Kept] = {seat: {} for seat in (*range(rules.max_players), SPECTATOR)}
    # What the test process held before (its modules, other tests' leftovers) is left out of every
    # collection: each then walks only what the table made since, not the whole process.
    gc.collect()
    gc.freeze()
    try:
        for _ in range(20):
            published = room.published
            for seat, kept in channels.items():
                with app.test_request_context(f"/r/{room.code}?seat={seat}"):
                    gc.collect()
                    gc.disable()
                    try:
                        render.render_regions(room.code, game_id, published, kept=kept)
                        render.render_regions(room.code, game_id, published)
                        left = gc.collect()
                    finally:
                        gc.enable()
                assert left == 0, f"seat {seat}, v{published.version}: {left} objects in reference cycles"
            movers = [s for s in range(rules.max_players) if rules.legal_actions(room.state, s)]
            seat = rng.choice(movers)
            action = rng.choice(rules.legal_actions(room.state, seat))
            registry.act(room, f"tab-{seat}", room.version, dict(action))
    finally:
        gc.unfreeze()


def test_a_push_drawn_by_another_channel_goes_out_once_with_what_changed_after_it(app, registry):
    """The first of a room's channels to wake for a change draws every channel's push, and each
    channel's own handler sends it. One whose handler was busy meanwhile (its socket slow to take what
    it is sent) keeps the one push drawn for it, not one per change: it then sends, in one message,
    that push and then what changed after it, as a channel that sent the first push in its turn would
    send it and then the next."""
    room = registry.create("zero_game", {}, "tab-0", "P0")
    for seat in (1, 2):
        registry.join(room, f"tab-{seat}", f"P{seat}")
    registry.start(room, "tab-0")
    rng = random.Random(1)

    def move() -> None:
        seat = room.state["turn"]
        action = rng.choice(GAMES["zero_game"].legal_actions(room.state, seat))
        registry.act(room, f"tab-{seat}", room.version, dict(action))

    with app.test_request_context(f"/r/{room.code}?seat=1"):
        who = viewmodel.viewer(room.code)
        busy, prompt = live.Pusher(room.code, room.game_id, who), live.Pusher(room.code, room.game_id, who)
        registry.subscribe(room, live.Channel(who.uid, threading.Event(), busy))
        busy.seed(room.published)
        prompt.seed(room.published)
        move()
        live.draw_every_push(room, room.published, busy.site)
        first = prompt.message(room.published)
        for _ in range(3):
            move()
            live.draw_every_push(room, room.published, busy.site)
        after = prompt.message(room.published)
        assert first and after
        assert busy.message(room.published) == first + after
        assert busy.message(room.published) == "", "a push drawn ahead was sent twice"


def with_channels(app, registry, players: int) -> tuple:
    """A Zero Game table of `players` started, each seat with a live channel open on it: the room and
    the channels' pushers, by seat."""
    room = registry.create("zero_game", {}, "tab-0", "P0")
    for seat in range(1, players):
        registry.join(room, f"tab-{seat}", f"P{seat}")
    registry.start(room, "tab-0")
    pushers = []
    for seat in range(players):
        with app.test_request_context(f"/r/{room.code}?seat={seat}"):
            who = viewmodel.viewer(room.code)
            pushers.append(live.Pusher(room.code, room.game_id, who))
            registry.subscribe(room, live.Channel(who.uid, threading.Event(), pushers[-1]))
    return room, pushers


def test_a_push_that_fails_to_draw_for_one_channel_leaves_the_others_theirs(app, registry, monkeypatch):
    """The channel that draws every push of a change goes on when one of them fails: the viewer whose
    push could not be drawn is left to draw it in its own channel (failing there, as it would have),
    and the others, the drawing channel's own first, are pushed their tables."""
    room, pushers = with_channels(app, registry, 3)
    drawn = render.render_regions

    def failing_for_seat_1(code, game_id, published, who, *rest):
        if who is pushers[1].who:
            raise RuntimeError("a drawing that fails")
        return drawn(code, game_id, published, who, *rest)

    seat = room.state["turn"]
    with app.test_request_context(f"/r/{room.code}"):
        for pusher in pushers:
            pusher.seed(room.published)
        monkeypatch.setattr(render, "render_regions", failing_for_seat_1)
        registry.act(room, f"tab-{seat}", room.version, GAMES["zero_game"].legal_actions(room.state, seat)[0])
        live.draw_every_push(room, room.published, pushers[0].site)
        assert pushers[0].message(room.published) and pushers[2].message(room.published)
        with pytest.raises(RuntimeError):
            pushers[1].message(room.published)


def test_a_seat_line_that_changed_is_drawn_once_for_every_viewer_its_own_player_too(
    app, registry, monkeypatch
):
    """A region drawn seat by seat draws each line that changed once per change, for every viewer:
    its own player's line (with "you" among its badges) is that drawing with their badges put in,
    not a second drawing of it (at a busy table, two lines change at every move)."""
    rules = GAMES["zero_game"]
    room, pushers = with_channels(app, registry, 5)
    drawn: list[str] = []
    draw = app.jinja_env.draw
    monkeypatch.setattr(app.jinja_env, "draw", lambda name, facts: drawn.append(name) or draw(name, facts))
    rng = random.Random(5)
    with app.test_request_context(f"/r/{room.code}"):
        for pusher in pushers:
            pusher.seed(room.published)
        shown = render.render_regions(room.code, "zero_game", room.published).lines["seats"]
        for _ in range(30):
            seat = room.state["turn"]
            action = rng.choice(rules.legal_actions(room.state, seat))
            registry.act(room, f"tab-{seat}", room.version, dict(action))
            drawn.clear()
            live.draw_every_push(room, room.published, pushers[0].site)
            lines = render.render_regions(room.code, "zero_game", room.published).lines["seats"]
            changed = [key for key, line in lines.items() if shown[key] != line]
            assert changed, "a move changes the seats' lines"
            assert drawn.count("games/zero_game/seats-line.html") <= len(changed)
            assert all(f'id="{key}"' in pushers[int(key[-1])].message(room.published) for key in changed)
            shown = lines
