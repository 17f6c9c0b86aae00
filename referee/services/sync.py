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

from ..engine import MalformedEntry, RefereeError, parse_entry
from . import entry_keys, games
from .errors import StaleEntry
from .folds import load

MAX_TAPS = 2000  # taps in one run: more than any table records in a session offline (a whole game is ~600 entries)

__all__ = ["MAX_TAPS", "KeptTap", "Synced", "SyncConflict", "TapRefused", "sync"]


@dataclass(frozen=True)
class KeptTap:
    """A tap made on the tablet: its form's key, the entry it asked for (as JSON values), and the number of the
    entry it followed (how many entries the table had on the tablet's screen)."""

    key: str
    entry: dict[str, Any]
    after: int


@dataclass(frozen=True)
class Synced:
    """What a run did: how many taps were recorded now, how many had been recorded by a run sent before (their
    keys kept), and how many entries the table has."""

    recorded: int
    already: int
    seq: int


class SyncConflict(RefereeError):
    """The table on the server is not the one the tablet's taps followed: nothing was recorded.  ``after``: the
    last entry both have; ``server``: the server's entries after it; ``tablet``: the tablet's taps after it."""

    code = "sync_conflict"
    after: int = 0
    server: list[dict[str, Any]] = []
    tablet: list[dict[str, Any]] = []


def _conflict(after: int, server: list[dict[str, Any]], tablet: list[dict[str, Any]]) -> SyncConflict:
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
    """How many of the run's first taps were recorded by a run sent before (their keys kept with the same entry);
    :class:`entry_keys.KeyReused` for a key kept with another entry."""
    for n, tap in enumerate(taps):
        try:
            entry_keys.repeat(game_id, tap.key, entry_keys.body(tap.after, [parse_entry(tap.entry).to_dict()]))
        except entry_keys.AlreadyRecorded:
            continue
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
    if loaded.seq != after:
        raise _conflict(after, [e.to_dict() for e in loaded.game.entries[after:]],
                        [parse_entry(tap.entry).to_dict() for tap in rest])
    game = loaded.game.copy()  # each tap checked first, so that a refusal names its tap
    for n, tap in enumerate(rest):
        try:
            game.record(parse_entry(tap.entry))
        except RefereeError as refusal:
            raise TapRefused(already + n, refusal) from None
    try:
        games.record_taps(game_id, [tap.entry for tap in rest], [tap.key for tap in rest], after)
    except StaleEntry:
        if not again:
            raise
        return sync(game_id, taps, again=False)
    return Synced(len(rest), already, after + len(rest))
