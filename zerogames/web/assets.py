"""What the site sends, made light: pages compressed, and static files named by their content.

A static file's URL carries a hash of its bytes (`?v=...`), so a browser may keep it a year without
asking again (a changed file is a new URL); pages and static files are sent compressed (brotli or
gzip, as the browser accepts). The live channel is never touched here: its frames compress on their
own (web/live.py).
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from flask import Flask, Response, request
from flask_compress import Compress

A_YEAR = 365 * 24 * 3600
COMPRESSED = ["text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml"]


class Fingerprints:
    """Each static file's content hash, read once per change of the file."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.known: dict[str, tuple[float, str]] = {}

    def of(self, filename: str) -> str | None:
        path = os.path.join(self.folder, filename)
        try:
            changed = os.stat(path).st_mtime
        except OSError:
            return None
        kept = self.known.get(filename)
        if kept is None or kept[0] != changed:
            with open(path, "rb") as file:
                kept = changed, hashlib.sha256(file.read()).hexdigest()[:12]
            self.known[filename] = kept
        return kept[1]


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "gzip"])
    # Registered below, so that the live channel's handshake answer is left alone.
    app.config["COMPRESS_REGISTER"] = False
    compress = Compress(app)
    fingerprints = Fingerprints(app.static_folder or "")

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
        return compress.after_request(response)
