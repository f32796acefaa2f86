"""`python -m zerogames.backup`: a copy taken while moves are being made restores to a site whose rooms
open and play on."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from tests.web.conftest import act, as_player, started_with_bots, uid_of, wait_until
from zerogames import runtime
from zerogames.launch import ROOT

HX = {"HX-Request": "true"}


def play_on(client, room, code: str, moves: int) -> int:
    """The only player's moves (the bots move by themselves), a new game when one is over (which
    moves their seat): how many were made."""
    made = 0
    while made < moves:
        seat = next(seat for seat, who in enumerate(room.seats) if who.uid is not None)
        wait_until(lambda seat=seat: room.status == "over" or room.rules.legal_actions(room.state, seat))
        if room.status == "over":
            client.post(f"/r/{code}/again", headers=HX)
            continue
        answer = act(client, code, json.dumps(room.rules.legal_actions(room.state, seat)[0]))
        assert answer.status_code == 200
        made += 1
    return made


def backup(database: str, dest: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ZEROGAMES_DB": database}
    env.pop("ZEROGAMES_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "zerogames.backup", str(dest)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )


def test_a_backup_taken_while_moves_are_made_restores_to_a_site_that_plays_on(
    player, registry, settings, serve, tmp_path
):
    ann = player("Ann")
    code = started_with_bots(ann)
    room = registry.get(code)
    playing = threading.Event()
    done = threading.Event()

    def keep_playing() -> None:
        while not done.is_set():
            play_on(ann, room, code, 1)
            playing.set()

    mover = threading.Thread(target=keep_playing)
    mover.start()
    try:
        playing.wait(10)
        before = registry.store.db.execute("select count(*) from actions").fetchone()[0]
        made = backup(settings["DATABASE"], tmp_path)
        after = registry.store.db.execute("select count(*) from actions").fetchone()[0]
    finally:
        done.set()
        mover.join()
    assert made.returncode == 0, made.stderr
    assert after > before  # moves were made while it copied
    copy = Path(made.stdout.split()[2].rstrip(":"))
    assert copy.parent == tmp_path and "1 rooms" in made.stdout
    # A copy is never overwritten.
    again = backup(settings["DATABASE"], copy)
    assert again.returncode == 1 and "exists already" in again.stderr

    # Restored as the operators' guide says: the site stopped, the copy put in the database's place.
    restored = tmp_path / "restored" / "zerogames.db"
    restored.parent.mkdir()
    shutil.copy(copy, restored)
    with sqlite3.connect(restored) as check:
        kept = check.execute("select count(*) from actions").fetchone()[0]
        games = check.execute("select game_no, count(*) from actions group by game_no").fetchall()
    assert before <= kept <= after
    site = serve({**settings, "DATABASE": str(restored)})
    back = site.extensions["zerogames"].get(code)
    # The room's game as the copy holds it: every move of it (the copy may have caught a game just begun).
    assert back is not None and back.action_count == dict(games).get(back.facts.game_no, 0)
    assert back.status == "playing" or back.action_count > 0
    client = as_player(site.test_client(), uid_of(ann))
    assert client.get(f"/r/{code}").status_code == 200
    # It plays on: the player's moves, the bots' answers, and a new game after the one in the copy.
    play_on(client, back, code, 40)
    with sqlite3.connect(restored) as check:
        assert check.execute("select count(*) from actions").fetchone()[0] > kept + 40
    runtime.stop(site)
