"""What the site sends, made light: pages compressed, and static files named by their content.

A static file's URL carries a hash of its bytes (`?v=...`), so a browser may keep it a year without
asking again (a changed file is a new URL); pages and static files are sent compressed (brotli or
gzip, as the browser accepts). Scripts and styles are sent without their comments and spaces (rjsmin,
rcssmin: the files stay as written, nothing is built), made and compressed at their best once per
change of the file rather than per request. The live channel is never touched here: its frames
compress on their own (web/frames.py).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import threading
from collections.abc import Callable
from typing import Any

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, request
from flask_compress import Compress

from zerogames.offload import off_the_loop

A_YEAR = 365 * 24 * 3600
COMPRESSED = ["text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml"]


class PerChange:
    """What is made of each static file (its `make(path)`), made again only when the file changes:
    once, however many requests ask for it while it is being made (the first visitors after a start
    would otherwise each compress the same script at brotli's best)."""

    def __init__(self, folder: str, make: Callable[[str], Any]) -> None:
        self.folder = folder
        self.make = make
        self.known: dict[str, tuple[float, Any]] = {}
        self.making = threading.Lock()  # a greenlet's lock in the gevent worker: its waiters yield

    def of(self, filename: str) -> Any | None:
        path = os.path.join(self.folder, filename)
        try:
            changed = os.stat(path).st_mtime
        except OSError:
            return None
        kept = self.known.get(filename)
        if kept is None or kept[0] != changed:
            with self.making:
                kept = self.known.get(filename)
                if kept is None or kept[0] != changed:  # not made meanwhile by another request
                    kept = changed, self.make(path)
                    self.known[filename] = kept
        return kept[1]


def fingerprint_of(path: str) -> str:
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()[:12]


# How each kind of text file is made lighter before it is compressed (a vendor's .min.js already is).
MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}


def lighter(path: str) -> dict[str, bytes]:
    """A script's or style's bytes minified, by encoding ("br", "gzip", "")."""
    with open(path, encoding="utf-8") as file:
        source = file.read()
    minify = MINIFIERS[os.path.splitext(path)[1]]
    light = (source if path.endswith(".min.js") else minify(source)).encode()
    return {"br": brotli.compress(light, quality=11), "gzip": gzip.compress(light, 9), "": light}


def lighter_off_the_loop(path: str) -> dict[str, bytes]:
    # Brotli at its best takes a tenth of a second for htmx: never on the event loop.
    return off_the_loop(lighter, path)


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "gzip"])
    # Registered below, so that the live channel's handshake answer is left alone.
    app.config["COMPRESS_REGISTER"] = False
    compress = Compress(app)
    fingerprints = PerChange(app.static_folder or "", fingerprint_of)
    prepared = PerChange(app.static_folder or "", lighter_off_the_loop)

    @app.url_defaults
    def fingerprint(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = fingerprints.of(values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def lighten(response: Response) -> Response:
        if request.blueprint == "live":
            return response
        if request.endpoint == "static" and request.args.get("v"):
            response.cache_control.public = True
            response.cache_control.max_age = A_YEAR
            response.cache_control.immutable = True
            response.cache_control.no_cache = None
        if request.endpoint == "static" and response.status_code == 200:
            send_prepared(response, prepared)
        return compress.after_request(response)

    def send_prepared(response: Response, prepared: PerChange) -> None:
        """A script or style, lightened, in the best encoding the browser accepts."""
        filename = (request.view_args or {}).get("filename", "")
        encodings = os.path.splitext(filename)[1] in MINIFIERS and prepared.of(filename)
        if not encodings:
            return
        accepted = request.accept_encodings
        encoding = "br" if accepted["br"] else "gzip" if accepted["gzip"] else ""
        response.direct_passthrough = False
        response.set_data(encodings[encoding])
        response.vary.add("Accept-Encoding")
        if encoding:
            response.headers["Content-Encoding"] = encoding
        if response.headers.get("ETag"):  # one per encoding: a cache never answers one with another
            response.set_etag(f"{response.get_etag()[0]}-{encoding or 'identity'}")
