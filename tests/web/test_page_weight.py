"""What a phone downloads: the JavaScript of every page stays within 25 KB (25,000 bytes) as sent, by a
browser that accepts brotli (htmx and its WebSocket extension are some 17 KB of it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from zerogames.web.tables import TABLES

from .conftest import create_room

ROOT = Path(__file__).resolve().parents[2]
BUDGET = 25_000


def script_bytes(client, html: str) -> dict[str, int]:
    """Each script the page loads, by path, and the bytes it takes to send it."""
    sources = re.findall(r'<script src="/(static/[^"]+)"', html)
    sent = {src: client.get(f"/{src}", headers={"Accept-Encoding": "gzip, deflate, br"}) for src in sources}
    return {src.split("?")[0]: len(answer.data) for src, answer in sent.items()}


@pytest.mark.parametrize("game_id", sorted(TABLES))
def test_a_table_page_sends_at_most_25_kb_of_javascript_compressed(player, game_id):
    ann = player("Ann")
    scripts = script_bytes(ann, ann.get(f"/r/{create_room(ann, game_id)}").text)
    assert "static/js/site.js" in scripts
    assert sum(scripts.values()) <= BUDGET, scripts


def test_the_home_page_sends_at_most_25_kb_of_javascript_compressed(player):
    ann = player("Ann")
    scripts = script_bytes(ann, ann.get("/").text)
    assert sum(scripts.values()) <= BUDGET, scripts
