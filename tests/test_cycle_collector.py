"""The collector of reference cycles while serving (referee/app/collector.py): what survives a full collection is
frozen, so that the next walks only what was made since, and everything is walked again once every few minutes, so
that a cycle frozen while a request still used it is freed all the same."""
from __future__ import annotations

import gc
import os
import subprocess
import sys
import weakref

import pytest

from referee.app.collector import OLDEST, Settling


class Node:
    """One half of a reference cycle, as a request's objects make them (a session and its transaction)."""

    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> tuple[Node, weakref.ref]:
    first, second = Node(), Node()
    first.other, second.other = second, first
    return first, weakref.ref(second)


@pytest.fixture
def thawed():
    """The test process's collector as it was: nothing of it left frozen."""
    gc.collect()
    yield
    gc.unfreeze()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_what_survives_a_full_collection_is_frozen_and_the_younger_collections_freeze_nothing(thawed):
    clock = Clock()
    settling = Settling(every=300, clock=clock)
    kept, _ = _cycle()
    before = gc.get_freeze_count()
    settling("start", {"generation": OLDEST})
    settling("stop", {"generation": 0, "collected": 0, "uncollectable": 0})
    settling("stop", {"generation": 1, "collected": 0, "uncollectable": 0})
    assert gc.get_freeze_count() == before  # a young collection, or a collection's start: nothing set aside
    settling("stop", {"generation": OLDEST, "collected": 0, "uncollectable": 0})
    assert gc.get_freeze_count() > before
    assert not any(o is kept for o in gc.get_objects())  # the next full collection does not walk it
    assert kept.other.other is kept


def test_a_cycle_frozen_while_in_use_is_freed_by_the_first_full_collection_after_the_thaw(thawed):
    clock = Clock()
    settling = Settling(every=300, clock=clock)
    kept, second = _cycle()
    settling("stop", {"generation": OLDEST})  # a full collection ends while a request still holds the cycle
    del kept  # the request ends: its cycle is unreachable, and frozen
    gc.collect()
    assert second() is not None  # not walked: still there
    clock.now += 299
    settling("stop", {"generation": OLDEST})
    gc.collect()
    assert second() is not None  # frozen again with the rest before the five minutes are up
    clock.now += 1
    settling("stop", {"generation": OLDEST})  # five minutes: everything put back for the next full collection
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert second() is None
    clock.now += 1
    settling("stop", {"generation": OLDEST})  # the minutes count again from the thaw
    assert gc.get_freeze_count() > 0


def test_a_serving_process_freezes_after_each_full_collection_with_one_callback_however_often_the_app_is_made(
        tmp_path):
    """In a process of its own (this one freezes nothing): the app made twice, as a server's worker might, adds one
    callback; a full collection then leaves what survived frozen."""
    program = ("import gc; from referee import create_app; from referee.app.collector import Settling\n"
               "create_app(); create_app()\n"
               "made = [[n] for n in range(20000)]\n"
               "before = gc.get_freeze_count(); gc.collect()\n"
               "print(sum(isinstance(c, Settling) for c in gc.callbacks), gc.get_freeze_count() - before,"
               " len(gc.get_objects()))")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite'}", "SECRET_KEY": "served"}
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    callbacks, frozen, walked = map(int, done.stdout.split())
    assert callbacks == 1
    assert frozen >= 20000 and walked < 1000
