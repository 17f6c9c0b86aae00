"""The taps a table's tablet kept while the server could not be reached, recorded on the server: in order, exactly
once each, checked by the engine as each tap would have been, in one commit (the hash chain continued), or not at
all.

A tablet sends its kept taps in the order it took them, each with its form's key and the number of the entry it
followed (the table it showed).  The taps whose keys the server already keeps are the start of a run sent before
whose answer was lost: they are counted, not recorded again.  The others must follow the table as the server has
it: when the server has entries the tablet did not know of (another tablet recorded at the same table meanwhile,
the director voided an entry or called time), the run is refused with both records from the first difference
(:class:`SyncConflict`), and nothing is lost on either side: the tablet keeps its run for the referee to choose."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import MalformedEntry, RefereeError, parse_entry, run_key
from . import entry_keys, games, rulings
from .tournaments import DIRECTOR_TIME_CALL
from .errors import StaleEntry
from .folds import load

CHOICES = ("server", "tablet")  # after a conflict: whose record goes on
MAX_TAPS = 2000  # taps in one run: more than any table records in a session offline (a whole game is ~600 entries)

__all__ = ["CHOICES", "MAX_TAPS", "KeptRun", "KeptTap", "Synced", "SyncConflict", "TapRefused", "choose", "sync"]


@dataclass(frozen=True)
class KeptTap:
    """A tap made on the tablet: its form's key, the entry it asked for (as JSON values), and the number of the
    entry it followed (how many entries the table had on the tablet's screen)."""

    key: str
    entry: dict[str, Any]
    after: int
    at: int | None = None  # when it was made, by the tablet's clock (seconds since 1970, UTC)


@dataclass(frozen=True)
class KeptRun:
    """What a tablet sends: its kept taps in order, and, once it was shown a conflict, the referee's ``choice``
    (one of :data:`CHOICES`) with the number of entries the server had when it was shown (``seen``: a choice made
    on a table that has moved on since is shown the conflict again)."""

    taps: list[KeptTap]
    choice: str | None = None
    seen: int | None = None


@dataclass(frozen=True)
class Synced:
    """What a run did: how many taps were recorded now, how many had been recorded by a run sent before (their
    keys kept), and how many entries the table has."""

    recorded: int
    already: int
    seq: int
    time_called: bool = False  # the director's time call, made meanwhile, recorded again after the taps


class SyncConflict(RefereeError):
    """The table on the server is not the one the tablet's taps followed: nothing was recorded.  ``after``: the
    last entry both have; ``server``: the server's entries after it; ``tablet``: the tablet's taps after it."""

    code = "sync_conflict"
    after: int = 0
    server: list[dict[str, Any]] = []
    tablet: list[dict[str, Any]] = []


def _conflict(after: int, server: list[dict[str, Any]], tablet: list[dict[str, Any]]) -> SyncConflict:
    if len(server) == 1:
        conflict = SyncConflict.of("this table has an entry on the server that this tablet did not know of, after "
                                   "entry {after}: nothing this tablet kept was recorded; the referee chooses which "
                                   "record goes on", {"after": after})
    else:
        conflict = SyncConflict.of("this table has {n} entries on the server that this tablet did not know of, after "
                                   "entry {after}: nothing this tablet kept was recorded; the referee chooses which "
                                   "record goes on", {"n": len(server), "after": after})
    conflict.after, conflict.server, conflict.tablet = after, server, tablet
    return conflict


class TapRefused(RefereeError):
    """A tap of the run is refused by the rules on the table as the server has it: nothing was recorded.  ``tap``:
    its place in the run (from 0); ``refusal``: the engine's refusal."""

    def __init__(self, tap: int, refusal: RefereeError) -> None:
        super().__init__(refusal.message, code=refusal.code, clause=refusal.clause, rule=refusal.rule,
                         pattern=refusal.pattern, params=refusal.params, state=refusal.state)
        self.tap = tap


def _already(game_id: int, taps: list[KeptTap]) -> int:
    """How many of the run's first taps were recorded by a run sent before (their keys kept with the same entry),
    or by their own form when it reached the server (a tap the tablet took because its answer was slow: a form of
    two entries, the decline and its opening bid, recorded whole under the first tap's key, the second tap keyed
    :func:`run_key`); :class:`entry_keys.KeyReused` for a key kept with another entry."""
    n = 0
    while n < len(taps):
        tap = taps[n]
        try:
            entry_keys.repeat(game_id, tap.key, entry_keys.body(tap.after, [parse_entry(tap.entry).to_dict()]))
        except entry_keys.AlreadyRecorded:
            n += 1
            continue
        except entry_keys.KeyReused:
            pair = taps[n + 1] if n + 1 < len(taps) else None
            if pair is None or pair.key != run_key(tap.key, 1):
                raise
            try:
                entry_keys.repeat(game_id, tap.key, entry_keys.body(
                    tap.after, [parse_entry(each.entry).to_dict() for each in (tap, pair)]))
            except entry_keys.AlreadyRecorded:
                n += 2
                continue
            raise
        return n
    return len(taps)


def sync(game_id: int, taps: list[KeptTap], again: bool = True) -> Synced:
    """Record the taps a tablet kept (in the order it took them), or raise and record none: :class:`SyncConflict`,
    :class:`TapRefused`, :class:`MalformedEntry` (a run out of order, a key twice, a run longer than ``MAX_TAPS``,
    taps after an entry the server never had), :class:`KeyReused`, :class:`StaleEntry` (another tablet recorded at
    the very moment, twice over).  A run whose taps another request recorded at the same moment (the same run sent
    twice at once) is looked at ``again``, once: it is told they were recorded."""
    if len(taps) > MAX_TAPS:
        raise MalformedEntry.of("a run of {n} taps: a tablet sends at most {most} at once", {"n": len(taps),
                                                                                              "most": MAX_TAPS})
    if any(b.after != a.after + 1 for a, b in zip(taps, taps[1:])):
        raise MalformedEntry.of("the taps are not in the order they were taken: each follows the one before it")
    if len({tap.key for tap in taps}) != len(taps):
        raise MalformedEntry.of("a form's key comes twice in the run: each tap has its own")
    already = _already(game_id, taps)
    rest = taps[already:]
    if entry_keys.kept_keys(game_id, [tap.key for tap in rest]):
        raise MalformedEntry.of("a tap of the run was recorded before the taps ahead of it: the run is not one "
                                "tablet's, in the order it took them")
    loaded = load(game_id)
    if not rest:
        return Synced(0, already, loaded.seq)
    after = rest[0].after
    if after > loaded.seq:
        raise MalformedEntry.of("these taps follow entry {after}, but the table has {seq} entries on the server: "
                                "they are not of this table's record", {"after": after, "seq": loaded.seq})
    meanwhile = loaded.game.entries[after:]
    count = loaded.game.void_back_to(after) if meanwhile else 0
    director = bool(meanwhile) and count is not None and all(
        e.to_dict() == DIRECTOR_TIME_CALL for e in meanwhile)
    if meanwhile and not director:
        raise _conflict(after, [e.to_dict() for e in meanwhile], [parse_entry(tap.entry).to_dict() for tap in rest])
    # The director's time call made while the tablet was cut off applies from when the table learns of it, as its
    # referee would apply it (JMA: the turn then in progress ends the game): taken back by a void, and recorded
    # again after the taps.
    before = [{"type": "void", "count": count}] if director and count else []
    run = before + [tap.entry for tap in rest]
    game = loaded.game.copy()  # each tap checked first, so that a refusal names its tap
    for n, data in enumerate(run):
        try:
            game.record(parse_entry(data))
        except RefereeError as refusal:
            raise TapRefused(already + n - len(before), refusal) from None
    if director and not game.state.over and not game.state.time_called:
        run.append(dict(DIRECTOR_TIME_CALL))
    keys = [entry_keys.new_key() for _ in before] + [tap.key for tap in rest]
    keys += [entry_keys.new_key() for _ in run[len(keys):]]
    # the tablet's times for its taps (the void with the first one's), the director's call applied now; each
    # tap's key kept with the entry it followed on the tablet (the run sent again is known by its keys)
    first = rest[0].at if rest else None
    times = [first if n < len(before) else rest[n - len(before)].at if n < len(before) + len(rest) else None
             for n in range(len(run))]
    afters = [rest[n - len(before)].after if len(before) <= n < len(before) + len(rest) else loaded.seq + n
              for n in range(len(run))]
    try:
        games.record_taps(game_id, run, keys, loaded.seq, times, afters)
    except StaleEntry:
        if not again:
            raise
        return sync(game_id, taps, again=False)
    return Synced(len(rest), already, loaded.seq + len(run), time_called=director)


def choose(game_id: int, taps: list[KeptTap], conflict: SyncConflict, choice: str, claim: str,
           ruling: str) -> Synced:
    """The referee's choice on a conflict (``conflict``: as the server has it now, the one the referee was shown),
    recorded in the game's rulings as the table's referee's ruling (``claim`` and ``ruling``, in words):

    - ``"server"``: the server's record goes on; the tablet's taps are discarded (the ruling, on the first entry
      the tablet did not know of, says them in words);
    - ``"tablet"``: the tablet's record goes on, through the usual void and redo: one void takes back the server's
      entries after the last one both had, and the taps are recorded after it, with the ruling on the void, in
      one commit (the hash chain continued).  Refused (:class:`MalformedEntry`) when the server's entries took
      back some the tablet had (no void of the latest entries brings the table back), :class:`TapRefused` when the
      rules refuse a tap there, :class:`StaleEntry` when another entry came meanwhile."""
    seen = conflict.after + len(conflict.server)
    if choice == "server":
        made = rulings.read(game_id).items
        if not (made and (made[-1].entry, made[-1].claim, made[-1].ruling) == (conflict.after + 1, claim, ruling)):
            rulings.record_ruling(game_id, conflict.after + 1, claim, ruling, "", "referee")  # (sent again: once)
        return Synced(0, 0, seen)
    rest = taps[len(taps) - len(conflict.tablet):]
    loaded = load(game_id)
    count = loaded.game.void_back_to(conflict.after)
    if count is None:
        raise MalformedEntry.of("the server's entries took back entries this tablet had: only the server's record "
                                "can go on")
    run = ([{"type": "void", "count": count}] if count else []) + [tap.entry for tap in rest]
    keys = ([entry_keys.new_key()] if count else []) + [tap.key for tap in rest]
    game = loaded.game.copy()  # each tap checked first, so that a refusal names its tap
    for n, data in enumerate(run):
        try:
            game.record(parse_entry(data))
        except RefereeError as refusal:
            raise TapRefused(len(taps) - len(rest) + n - (1 if count else 0), refusal) from None
    void = len(run) - len(rest)  # the void with the first tap's time; each tap's key with the entry it followed
    games.record_taps(game_id, run, keys, seen, [rest[max(0, n - void)].at if rest else None for n in range(len(run))],
                      [seen + n if n < void else rest[n - void].after for n in range(len(run))],
                      also=lambda made: rulings.add_ruling(game_id, made.ruleset.clauses, len(made.entries),
                                                           seen + 1, claim, ruling, "", "referee"))
    return Synced(len(rest), 0, seen + len(run))
