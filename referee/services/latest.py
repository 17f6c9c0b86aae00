"""A live page's version worked out once for every device that asks, not once per device.

A tournament's room display, its public standings and its director's page are followed by every device in the
room that shows them (the players' phones follow the standings), each asking every second whether the page
changed.  Working out the answer takes the same reads for each of them (the tournament's tables and their last
entries, or where the tournament stands: 8 to 20 ms at 64 tables on a slow laptop), so two hundred phones would
keep a core busy with the same question.  Here the answer, once worked out, is given to every device that asks
while it is still the answer:

- while no commit has been made by this process since the unit of work that read it began (every entry, clock,
  correction, sign-off, call, ruling or PIN recorded through this app is a commit: the next device that asks after
  it gets the answer worked out again, so a device served by this process never misses a change it made);
- and for at most ``LATEST_SECONDS``: what this process does not see (a commit of another worker or host on the
  same database, a grant that runs out, the minute a waiting call's wait shows) is seen within that time.

A page drawn at a version that another device finds changed is drawn as always; nothing but the question "did it
change" is shared."""
from __future__ import annotations

import time
from typing import Callable, Hashable, TypeVar

from ..cache import LIVE_VERSIONS
from ..store.db import commits, commits_before_reading
from .folds import database_key

V = TypeVar("V")
LATEST_SECONDS = 0.5  # at most this old, what another process changed not seen: within a poll's second


def clock() -> float:
    return time.monotonic()


def latest(page: str, key: Hashable, read: Callable[[], V]) -> V:
    """``read()`` for the live page ``page`` of ``key`` (a tournament's id), or the value it gave when last read for
    any device, if no commit was made by this process since that read began and it is under ``LATEST_SECONDS``
    old."""
    where = (page, database_key(), key)
    now = clock()
    found = LIVE_VERSIONS.get(where)
    if found is not None and found[0] == commits() and now - found[1] < LATEST_SECONDS:
        return found[2]
    before = commits()
    value = read()
    # kept with the count before the read began: the unit of work's, or this one if the read sent no statement
    LIVE_VERSIONS.keep(where, (min(before, commits_before_reading()), now, value))
    return value
