"""What a phone downloads: pages compressed, and static files named by their content and kept a year."""

from __future__ import annotations

import gzip
import hashlib
import re
import threading
import time
from pathlib import Path

import brotli

from zerogames.web import assets

from .conftest import create_room

ROOT = Path(__file__).resolve().parents[2]


def test_a_page_is_sent_gzipped_to_a_browser_that_accepts_it_and_plain_to_one_that_does_not(player):
    ann = player("Ann")
    plain = ann.get("/r/" + create_room(ann, "zero_game"))
    assert "Content-Encoding" not in plain.headers
    code = plain.request.path.rsplit("/", 1)[-1]
    packed = ann.get(f"/r/{code}", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert len(packed.data) < len(plain.data) / 2
    assert gzip.decompress(packed.data).decode().count('id="room"') == 1


def test_every_static_file_of_a_page_is_named_by_its_content_and_kept_a_year(player):
    html = player("Ann").get("/").text
    links = re.findall(r'"/static/([^"?]+)\?v=([0-9a-f]+)"', html)
    assert {path for path, _ in links} >= {"css/site.css", "js/site.js", "favicon.svg"}
    assert len(links) == html.count('"/static/')  # none unnamed
    for path, version in links:
        assert version == hashlib.sha256((ROOT / "static" / path).read_bytes()).hexdigest()[:12]
    response = player("Bea").get(f"/static/{links[0][0]}?v={links[0][1]}")
    assert response.status_code == 200
    assert response.cache_control.max_age == 365 * 24 * 3600 and response.cache_control.immutable


def test_scripts_and_styles_are_sent_without_their_comments_in_the_best_encoding_accepted(player):
    ann = player("Ann")
    source = (ROOT / "static" / "js" / "site.js").read_text()
    plain = ann.get("/static/js/site.js", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    assert "// The live channel" in source and "// The live channel" not in plain.text
    assert len(plain.data) < len(source) * 0.8 and "htmx:wsOpen" in plain.text
    for encoding, unpack in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        packed = ann.get("/static/js/site.js", headers={"Accept-Encoding": f"{encoding}, identity"})
        assert packed.headers["Content-Encoding"] == encoding and "Accept-Encoding" in packed.headers["Vary"]
        assert unpack(packed.data) == plain.data
    style = ann.get("/static/css/site.css", headers={"Accept-Encoding": "identity"}).text
    assert "/*" not in style and "#notice:empty" in style


def test_a_script_is_made_light_once_however_many_ask_for_it_while_it_is_made(tmp_path):
    (tmp_path / "site.js").write_text("// The site's script.\nvar live = true;\n")
    made: list[str] = []

    def make(path: str) -> str:
        made.append(path)
        time.sleep(0.05)  # brotli at its best, on a thinking thread
        return path

    prepared = assets.PerChange(str(tmp_path), make)
    asking = [threading.Thread(target=prepared.of, args=("site.js",)) for _ in range(4)]
    for request in asking:
        request.start()
    for request in asking:
        request.join()
    assert len(made) == 1
