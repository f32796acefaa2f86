"""CPU-heavy work (password hashes, rebuilding a replay) away from the event loop.

In the gevent worker one event loop serves every table of the process: a password hash inline would
hold every table up for a quarter to half a second. In a thread of the gevent hub's pool it holds up
nobody (hashlib lets go of Python while it works, and Python hands its lock to the loop every few
milliseconds otherwise).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from gevent import get_hub, monkey

T = TypeVar("T")


def off_the_loop(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)`, where it cannot stall the event loop: in a thread of the gevent hub's pool when
    gevent has patched the process, else right here (then each request has a thread of its own)."""
    if monkey.is_module_patched("threading"):
        return get_hub().threadpool.apply(work, args)
    return work(*args)
