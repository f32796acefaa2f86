"""Every game is defined once: its engine, its bot, its table, its templates and styles, its rules in
docs/, and nothing else of the site names it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from zerogames.bots import BOTS
from zerogames.games import GAMES, Game
from zerogames.web.tables import TABLES

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_an_engine_a_bot_a_table_templates_and_styles(game_id):
    rules = GAMES[game_id]
    assert isinstance(rules, Game) and rules.id == game_id
    assert callable(BOTS[game_id])
    table = TABLES[game_id]
    for region in table.regions:
        assert (ROOT / "templates" / table.templates / f"{region.name}.html").is_file(), region.name
        if region.lines is not None:
            assert (ROOT / "templates" / table.templates / f"{region.name}-line.html").is_file()
    assert (ROOT / "static" / table.stylesheet).is_file()
    script = ROOT / "static" / "js" / "games" / f"{game_id}.js"
    assert script.is_file() == table.script and (table.script_file is None) != table.script
    assert (ROOT / "docs" / "rules" / f"{game_id}.md").is_file()


def site_files():
    """The site's own code, templates, styles and scripts, less each game's own."""
    per_game = {"games", "tables", "bots"}
    for path in [ROOT / "app.py", *(ROOT / "zerogames").rglob("*.py")]:
        parts = path.relative_to(ROOT / "zerogames").parts if path.name != "app.py" else ()
        if parts[:1] == ("games",) or (len(parts) > 1 and parts[-2] in per_game and path.stem in GAMES):
            continue
        yield path
    for folder, kinds in (("templates", "*.html"), ("static", "*.*")):
        for path in (ROOT / folder).rglob(kinds):
            if "games" not in path.relative_to(ROOT / folder).parts and "vendor" not in path.parts:
                yield path


def test_no_game_is_named_outside_its_own_definition():
    # A game named in code: its id as a string ("zero" the English word is no game).
    named = re.compile(r"[\"'](" + "|".join(GAMES) + r")[\"']")
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in site_files()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if named.search(line)
    ]
    assert found == []
