"""Every game is defined once, in its own package of zerogames.games (its engine, its bot, its
table), with its templates and styles and its rules in docs/; nothing else of the site names it, and
nothing in zerogames.games reads a clock, the disk or a request."""

from __future__ import annotations

import ast
import pkgutil
import re
from pathlib import Path

import pytest

import zerogames.games
from zerogames.games import DEFINITIONS, GAMES, Game

ROOT = Path(__file__).resolve().parents[1]
GAMES_FOLDER = ROOT / "zerogames" / "games"
# What code under zerogames/games may import besides its own package: the standard library's pure
# parts (no time, no files, no threads, no network).
PURE = {
    "__future__", "abc", "bisect", "collections", "dataclasses", "functools", "importlib", "itertools",
    "math", "random", "types", "typing",
}  # fmt: skip
# What a bot module offers the site (docs/games.md).
BOT_OFFERS = ("choose", "Memory", "normal", "hard", "values", "VALUES_IN", "TIME_LIMIT")


def test_every_package_of_the_games_is_a_registered_game_of_that_id():
    packages = [module.name for module in pkgutil.iter_modules(zerogames.games.__path__) if module.ispkg]
    assert sorted(packages) == sorted(DEFINITIONS)
    for game_id, definition in DEFINITIONS.items():
        assert definition.rules.id == definition.table.game_id == game_id
        assert definition.bot.__name__ == f"zerogames.games.{game_id}.bot"
        assert GAMES[game_id] is definition.rules


def imported(path: Path) -> set[str]:
    """The top-level names of what a module imports from outside its own package (zerogames.games)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.add(node.module)
    return {name for name in names if not name.startswith("zerogames.games")}


GAME_MODULES = sorted(GAMES_FOLDER.rglob("*.py"))


@pytest.mark.parametrize("path", GAME_MODULES, ids=lambda path: str(path.relative_to(GAMES_FOLDER)))
def test_the_games_read_no_clock_no_disk_and_no_request(path):
    assert {name.split(".")[0] for name in imported(path)} <= PURE


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_an_engine_a_bot_a_table_templates_and_styles(game_id):
    definition = DEFINITIONS[game_id]
    assert isinstance(definition.rules, Game)
    assert all(hasattr(definition.bot, name) for name in BOT_OFFERS)
    table = definition.table
    for region in table.regions:
        assert (ROOT / "templates" / table.templates / f"{region.name}.html").is_file(), region.name
        if region.lines is not None:
            assert (ROOT / "templates" / table.templates / f"{region.name}-line.html").is_file()
    assert (ROOT / "static" / table.stylesheet).is_file()
    script = ROOT / "static" / "js" / "games" / f"{game_id}.js"
    assert script.is_file() == table.script and (table.script_file is None) != table.script
    assert (ROOT / "docs" / "rules" / f"{game_id}.md").is_file()


def site_files():
    """The site's own code, templates, styles and scripts, less the games' own."""
    for path in [ROOT / "app.py", *(ROOT / "zerogames").rglob("*.py")]:
        if GAMES_FOLDER not in path.parents:
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
