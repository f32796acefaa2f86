"""The server's garbage collections by the clock (zerogames/serving.py): what a young collection leaves
alive is walked again by the next full collection only, and then freed if it is garbage."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from zerogames.serving import FULL_EVERY, collect_at


class Looped:
    """An object in a reference cycle, as a closed socket's objects are: only a collection frees it."""

    def __init__(self) -> None:
        self.itself = self


@pytest.fixture
def collections_by_hand() -> Iterator[None]:
    """Python's own collections off, as in the server's worker."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_a_cycle_that_dies_young_is_freed_by_the_next_young_collection(collections_by_hand: None) -> None:
    freed = weakref.ref(Looped())
    assert freed() is not None
    collect_at(1)
    assert freed() is None


def test_what_a_young_collection_leaves_alive_is_walked_again_by_the_full_one_only(
    collections_by_hand: None,
) -> None:
    looped = Looped()
    freed = weakref.ref(looped)
    collect_at(1)  # alive: it moves on
    del looped
    for tick in range(2, FULL_EVERY):
        collect_at(tick)
    assert freed() is not None, "a collection before the full one walked what a young one left alive"
    collect_at(FULL_EVERY)
    assert freed() is None
