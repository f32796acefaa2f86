"""How gunicorn serves the site: `gunicorn -c python:zerogames.serving 'app:create_app()'`.

`make run`, the browser tests and the live benchmark all serve through these settings, so what is
tested and measured is what runs. A `--bind` on the command line overrides the address.
"""

from __future__ import annotations

import gc
import os
from typing import Any

# One gevent worker: a room must live in one process (README: several behind a proxy), and every
# open table holds a socket, so the worker takes far more connections than gunicorn's 1,000.
worker_class = "gevent"
workers = 1
worker_connections = 5000
control_socket_disable = True
bind = f"127.0.0.1:{os.environ.get('PORT', '8000')}"


def post_worker_init(worker: Any) -> None:
    """Keep the garbage collector from stalling the tables.

    A full collection walks every object the process keeps (a thousand open sockets are some 150,000
    of them) and every table waits while it runs, a quarter of a second here. What the worker made at
    start-up (code, templates, restored rooms) is left out of collections for good. And a young
    collection runs every 50,000 objects made rather than every 700: the objects of an action in
    flight (its request, its drawings) are then freed before one runs, instead of being promoted to
    the old generation, whose growth is what sets off a full collection.
    """
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
