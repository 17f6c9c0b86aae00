"""The collector of reference cycles while the app serves: what survives a full collection set aside, so that the next
full collection walks only what was made since; everything walked again once every :data:`THAW_SECONDS`.

Python's collector finds reference cycles no longer reachable.  A full collection (of its oldest generation) walks
every object the process keeps, and holds every request of the process while it does.  A live tournament keeps
many: each table's game as far as its record goes (its fold: every entry, its facts and events), the tables' values
and cards of the live pages.  At 128 tables, 40 seconds into a round, a full collection walked some 90,000 objects
and took 35-80 ms (benchmarks/load.py, 2-core machine); 120 seconds of entries in, 230,000 objects and 285-305 ms
(benchmarks/director.py); it ran every 5-15 seconds, and the games only grow as the round goes on.

Such objects are kept until a newer one takes their place, and are let go by their reference count alone, which the
collector does not hold up.  So each full collection ends with what survived it frozen (``gc.freeze``: set aside
from every later collection, still freed when nothing refers to it): the next walks only what was made since.

The cost: a request in flight when a full collection ends has its objects frozen with the rest.  Those that form a
cycle (the database session's objects, the request's) are not freed when the request ends; at 128 tables some 1,600
objects a full collection, 300 a second.  So every :data:`THAW_SECONDS` the frozen objects are put back
(``gc.unfreeze``), and the next full collection walks everything once and frees them (at 128 tables, 40 seconds into
a round, 190,000 objects in 140 ms; five minutes in, 348 ms, once).  Measured in benchmarks/NOTES.md ("A full
collection walks only what was made since")."""
from __future__ import annotations

import gc
import time
from collections.abc import Callable

THAW_SECONDS = 300.0  # how often a full collection walks everything: five minutes of cycles frozen while in use
# (at 128 tables some 90,000 objects) against one longer hold of the requests (348 ms at 128 tables)
OLDEST = 2  # the collector's oldest generation: a collection of it is a full one


class Settling:
    """The callback the collector calls before and after each collection (``gc.callbacks``): after a full one, what
    survived it is frozen, or, once every ``every`` seconds (``clock``: monotonic seconds), everything frozen is put
    back to be walked by the next."""

    def __init__(self, every: float = THAW_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.thawed_at = clock()

    def __call__(self, phase: str, info: dict) -> None:
        if phase != "stop" or info.get("generation") != OLDEST:
            return
        now = self.clock()
        if now - self.thawed_at >= self.every:
            self.thawed_at = now
            gc.unfreeze()  # the next full collection walks everything, and frees cycles frozen while in use
        else:
            gc.freeze()


def settle() -> Settling:
    """What the process has made so far (the libraries' and the app's code, its routes, its compiled rules: some
    130,000 objects, 60-75 ms to walk) frozen now, and each full collection from now on followed by
    :class:`Settling` (once per process)."""
    gc.collect()
    gc.freeze()
    found = next((c for c in gc.callbacks if isinstance(c, Settling)), None)
    if found is None:
        found = Settling()
        gc.callbacks.append(found)
    return found
