"""What a judge reads: the tournament's open calls for a judge (each with its table, the entry in dispute in the
log's words, who called, how long it has waited), the calls answered last, the tables of the latest round, and a
table's own call as its screens show it.  Computed from values the service read: no request, no SQL."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..engine import Game
from ..language import gettext as _
from .log import log_lines
from .rulings_log import decider_words


def caller_words(caller: str) -> str:
    """Who called a judge: the table's referee, or a player at the table."""
    return _("called by %(player)s", player=caller) if caller else _("called by the table's referee")


def waited_minutes(called_at: datetime, now: datetime) -> int:
    return max(0, int((now - called_at).total_seconds() // 60))


def waited_words(called_at: datetime, now: datetime) -> str:
    return _("waiting %(n)s min", n=waited_minutes(called_at, now))


def disputed_words(game: Game, entry: int) -> str:
    """The entry in dispute as the log says it ("" when the game has no such entry any more)."""
    lines = log_lines(game, entry - 1, entry)
    return lines[0][1] if lines else ""


@dataclass(frozen=True, slots=True)
class CallLine:
    """An open call for a judge, as a judge's phone lists it: one tap opens the entry in dispute."""

    game_id: int
    round: int
    table: int
    entry: int
    entry_words: str
    caller: str  # in words
    waited: str  # in words
    minutes: int  # waited, for the order and the colour


def call_lines(calls, now: datetime) -> list[CallLine]:
    """The open calls (``services.judges.CallAt``: a call and its table's game), the longest waiting first, in words."""
    return [CallLine(c.call.game_id, c.call.round, c.call.table, c.call.entry,
                     disputed_words(c.loaded.game, c.call.entry), caller_words(c.call.caller),
                     waited_words(c.call.called_at, now), waited_minutes(c.call.called_at, now)) for c in calls]


@dataclass(frozen=True, slots=True)
class AnsweredLine:
    game_id: int
    table: int
    round: int
    entry: int
    words: str


def answered_lines(answered) -> list[AnsweredLine]:
    """The calls answered last (``services.judges.Answered``), each with the ruling that answered it."""
    out = []
    for a in answered:
        words = (_("answered by ruling %(n)s (%(decider)s) at %(time)s UTC", n=a.ruling, decider=decider_words(a.decider),
                   time=a.answered_at.strftime("%H:%M")) if a.ruling is not None
                 else _("answered at %(time)s UTC", time=a.answered_at.strftime("%H:%M")))
        out.append(AnsweredLine(a.game_id, a.table, a.round, a.entry, words))
    return out


@dataclass(frozen=True, slots=True)
class TableCall:
    """A table's own call for a judge, as its table screen and dispute view show it."""

    entry: int
    caller: str
    waited: str


def table_call(call, now: datetime) -> TableCall | None:
    """The table's open call (``services.rulings.Call``) in words (None: no call is open)."""
    if call is None:
        return None
    return TableCall(call.entry, caller_words(call.caller), waited_words(call.called_at, now))
