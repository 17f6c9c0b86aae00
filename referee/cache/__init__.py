"""Every value the process keeps, in one place: each a named :class:`Cache` below, saying what it holds and by what
key, the one least recently used let go first, safe between threads, and all emptied at once by :func:`empty_all`
(a test's start, or a test that checks nothing stale is served).  A key that holds all a value is made from is never
the key of a stale value; a value made twice by two threads at once is the same value.

Kept elsewhere, on purpose:

- A language's word tables (the screens' ``per_language`` tables) are kept with the language value itself
  (:meth:`referee.language.Language.table`), made once for it; emptying :data:`LANGUAGE_WORDS` lets the values go.
- The web's drawn cards and standings (``views/cards.py``) are the app's own (``app.extensions``): each app its own.
- The engine keeps nothing of a game or a ruleset: what it works out of a ruleset is part of the Ruleset value.  It
  keeps one table, ``engine/rules.py``'s plans of ``legal_actions`` (which producers answer the entry types asked for
  at a decision type), keyed by the decision's type and the entry types a caller asks for: both are code, no data
  of a ruleset, a game or a request, so it cannot hold a stale value, and it is held to 1,024 plans.  It cannot be
  part of a Ruleset value (the same plan serves every ruleset), and the engine imports nothing above it, this
  module included.  The simulator's players' table of kinds asked at once (``policy.py``) is of the same kind."""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
import functools
from typing import Any, Callable, Generic, Hashable, ParamSpec, TypeVar

V = TypeVar("V")
P = ParamSpec("P")


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

    def __len__(self) -> int:
        return len(self._values)

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

    def made_for(self, holder: object, key: Hashable, make: Callable[[], Any], weakly: bool = False) -> Any:
        """The value made for the object ``holder`` (standings for a tournament's progress, places for a board's
        squares) under ``key``, else ``make()`` kept with it: the key names the holder by its id, and a kept value is
        given back only while it is held with that very object (a later object may be given a freed one's id).
        ``weakly``: the holder is not kept alive by its value (a table's card and the table's value kept by another
        cache: once that one lets the value go, the card is asked for no more)."""
        key = (key, id(holder))
        found: Any = self.get(key)
        if found is not None and (found[0]() if weakly else found[0]) is holder:
            return found[1]
        made: Any = (weakref.ref(holder) if weakly else holder, make())
        self.keep(key, made)
        return made[1]

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept under ``key``, else ``make()`` kept there (made outside the lock: other keys are not held
        up while it is made)."""
        found = self.get(key)
        return found if found is not None else self.keep(key, make())


KEPT: list[Cache] = []  # every named kept value of the process, in the order made


def kept_in(cache: Cache) -> Callable[[Callable[P, V]], Callable[P, V]]:
    """A function whose values are kept in ``cache`` by the function and its arguments (all hashable)."""
    def keeping(make: Callable[P, V]) -> Callable[P, V]:
        @functools.wraps(make)
        def kept(*args: P.args, **kwargs: P.kwargs) -> V:
            key = (make, args, tuple(sorted(kwargs.items())))
            found = cache.get(key)
            return found if found is not None else cache.keep(key, make(*args, **kwargs))

        return kept

    return keeping


def empty_all() -> None:
    """Empty every kept value (a test's start): what is asked next is made afresh from what it is made of."""
    for cache in KEPT:
        cache.clear()


# The languages' words: read from their files once per process.
CATALOGUES: Cache = Cache(16, "the compiled translations (.mo) of a language, by its code")
LOCALES: Cache = Cache(16, "a language's parsed babel Locale, by its code")
LANGUAGE_WORDS: Cache = Cache(16, "a language with the published documents' words in it (services.rulesets.language), "
                                   "by its code")

# The rulesets' folder, read once per process.
RULESETS: Cache = Cache(64, "a ruleset read from rulesets/ID.toml with its board and decks, by its id")
RULESET_NOTES: Cache = Cache(256, "a ruleset's notes translated into a language (rulesets/notes/ID.LANG.toml), "
                                  "by (ruleset id, language)")
SOURCE_NAMES: Cache = Cache(1, "the rulesets' sources' phrases in other languages (rulesets/notes/sources.toml)")
SCORING_SCHEMES: Cache = Cache(64, "a scoring scheme read from rulesets/scoring/ID.toml, by its id")
FORMATS: Cache = Cache(64, "a tournament format read from rulesets/formats/ID.toml, by its id")

# What the services' queries are built of.
STATEMENTS: Cache = Cache(128, "an SQL statement with bound parameters, built once, by the function building it "
                                  "(and the count of its parameters, where it takes a list)")
PLAIN_STATEMENTS: Cache = Cache(256, "a kept SQL statement as its database's driver takes it (its SQL, its values' "
                                     "and columns' conversions), by the statement and the kind of database")

# The live pages' values, each under everything it is made from.
FOLDS: Cache = Cache(512, "a game's fold (its engine Game, as far as its record is stored), by (database, game id)")
LIVE_VERSIONS: Cache = Cache(256, "a live page's version as last read for any device, with the commits counted "
                                   "when its read began and the time, by (page, database, tournament)")
TOURNAMENT_PROGRESS: Cache = Cache(64, "where a tournament stands and its token, by all it is worked out from")
SEATINGS: Cache = Cache(16, "a tournament's rounds, tables and corrections as values (services.standing seating), by "
                            "the rows read")
ROSTERS: Cache = Cache(16, "a tournament's entrants, by (database, tournament, its roster's stamp: written anew with "
                           "every change of its players' rows)")
DEVICES: Cache = Cache(16, "the devices unlocked in a tournament (services.grants Devices), by (database, tournament, "
                           "its live grants as a whole: grants.live_count)")
# (a live page asks for each game at its record's last point alone: a national final's eight rounds of 128 tables are
# 1,024 ends, and the round in play's 128 tables on the director's page and the room display, in two languages, 512
# values; kept by the point, the older ones are never asked for again, and every full collection walked them)
RECORD_ENDS: Cache = Cache(4096, "what a live page needs of a game's fold but its game (services.folds RecordEnd), by "
                                  "(database, game id, its stored rows' count, last hash, when made)")
TABLE_VIEWS: Cache = Cache(1024, "a tournament table's value as the live pages show it, but for its clock, by all it is "
                                  "made from (services.table_views)")
ROUND_VIEWS: Cache = Cache(64, "a round's tables' values while none of its clocks runs, by all they are made from, "
                               "with the roster they were made with (services.tournaments round_overview)")
ROUND_ENDS: Cache = Cache(64, "a round's games' ends (services.folds RecordEnd), by (database, each game's stored record's "
                              "point as a version read it)")
GAME_RESULTS: Cache = Cache(1024, "a finished game's result, by (database, table, the record's length and head, "
                                  "its alteration)")
BOARD_PLACES: Cache = Cache(16, "a board's cells as a screen lays them out, by (the board's squares, language)")
NUMBER_WORDS: Cache = Cache(4096, "an amount as a printed sheet writes it, by (language, value, decimals)")
LOG_ROWS: Cache = Cache(16384, "a log's row as the log_row macro draws it, by (the macro, the address its words link "
                               "to, its number, words, whether it stands, whether it is the entry shown)")
CARD_FIELDS: Cache = Cache(16, "the fields of a table's value its card is drawn from, by the value's type")

# The devices' session cookies (web/sessions.py): each device sends the same one with every request.
COOKIE_SIGNERS: Cache = Cache(8, "the session cookie's signing serializer, by (the session interface's kind, the app's "
                                 "secret keys)")
CHECKED_COOKIES: Cache = Cache(2048, "when a session cookie was signed, its signature found good, by (the app's "
                                     "secret keys, the cookie's value)")

# The tablet's offline kit (web/offline.py), made once per process from the code and rulesets it carries.
OFFLINE_KITS: Cache = Cache(1, "the offline kit's zip and its digest, by the digest of every file it is made from")
