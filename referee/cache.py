"""Values kept per process under the key of everything they are made from, the one least recently used let go
first, safe between threads: the live pages' caches (a tournament's progress, its roster, a finished game's result,
the tables' drawn cards and the standings, a board's places) and the games' folds.  A key that holds all a value is
made from is never the key of a stale value; a value made twice by two threads at once is the same value."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Generic, Hashable, TypeVar

V = TypeVar("V")


class Cache(Generic[V]):
    """At most ``size`` values, by key; ``holds`` says what (and by what), and a cache given it is one of the
    process's kept values, which :func:`empty_all` empties."""

    def __init__(self, size: int, holds: str = "") -> None:
        self.size = size
        self.holds = holds
        if holds:
            KEPT.append(self)
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._values.get(key)
            if found is not None:
                self._values.move_to_end(key)
            return found

    def keep(self, key: Hashable, value: V) -> V:
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def forget(self, key: Hashable) -> None:
        with self._lock:
            self._values.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def made_for(self, holder: object, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value made for the object ``holder`` (standings for a tournament's progress, places for a board's
        squares) under ``key``, else ``make()`` kept with it: the key names the holder by its id, and a kept value is
        given back only while it is held with that very object (a later object may be given a freed one's id)."""
        key = (key, id(holder))
        found: Any = self.get(key)
        if found is not None and found[0] is holder:
            return found[1]
        made: Any = (holder, make())
        self.keep(key, made)
        return made[1]

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept under ``key``, else ``make()`` kept there (made outside the lock: other keys are not held
        up while it is made)."""
        found = self.get(key)
        return found if found is not None else self.keep(key, make())


KEPT: list[Cache] = []  # every named kept value of the process, in the order made


def empty_all() -> None:
    """Empty every kept value (a test's start): what is asked next is made afresh from what it is made of."""
    for cache in KEPT:
        cache.clear()


# The languages' words: read from their files once per process.
CATALOGUES: Cache = Cache(16, "the compiled translations (.mo) of a language, by its code")
LOCALES: Cache = Cache(16, "a language's parsed babel Locale, by its code")
LANGUAGE_WORDS: Cache = Cache(16, "a language with the published documents' words in it (services.rulesets.language), "
                                   "by its code")
