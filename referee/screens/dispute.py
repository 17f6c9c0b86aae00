"""The dispute view: the table at entry N, as a director settling a dispute reads it.  Entry N in words with what it
brought about and the rulings it carried out (each with its clause), what the table was waiting for before it and
after it, the players' holdings and the bank after it (each player's cash before and after), the log up to it, when
it was recorded, and the entries on either side.  Computed from the game and N (and the times the service read):
no request, no SQL."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..engine import clip, Game, GameState, LARGEST, NotWhole, Outcome, whole_number
from ..language import gettext as _
from .decisions import pending_words
from .holdings import bank_stock_words, holdings, Holdings, player_status, pot
from .log import entry_words, log_lines, log_page, tie_words
from .notes import outcome_notes
from .table import event_lines
from .words import money, Why

class NoSuchEntry(Exception):
    """An entry number the game has no entry for (or no number at all): ``words`` say which numbers it has."""

    def __init__(self, words: str) -> None:
        super().__init__(words)
        self.words = words


@dataclass(frozen=True, slots=True)
class PlayerAt:
    """A player at entry N: name, cash before and after the entry (in the game's money), by how much it changed,
    status, square, holdings."""

    name: str
    cash_before: str
    cash_after: str
    change: int  # the cash after less the cash before: a gain, or (below 0) a fall
    status: str
    square: int
    holdings: Holdings

    @property
    def changed(self) -> bool:
        return self.change != 0

    @property
    def trend(self) -> str:
        """How the page marks the cash: "gain" (it rose), "loss" (it fell: never in the colour of a gain), or ""."""
        return "gain" if self.change > 0 else "loss" if self.change < 0 else ""


@dataclass(frozen=True, slots=True)
class DisputeScreen:
    """The table at entry ``n`` of ``total``."""

    game: Game
    n: int
    total: int
    before: GameState  # the table as entry n found it
    after: GameState  # the table entry n left
    entry: str  # entry n as the referee recorded it, in words
    events: list[str]  # what it brought about
    rulings: list[Why]  # the rulings it carried out, each with its clause
    in_effect: bool  # False: a later void took it back
    voided_by: int | None  # the void that took it back
    takes_back: tuple[int, ...]  # a void: the entries it took back
    waiting_before: str  # what the table was waiting for when entry n was recorded
    waiting_after: str  # what it waited for after
    players: list[PlayerAt]
    pot: int | None  # the Free Parking pot after the entry (None: the ruleset keeps none)
    bank_stock: str
    log: list[tuple[int, str, bool]]  # entries 1 to n, as the log says them
    times: list[str]  # when the entry was recorded, in words, and what of the game clock can be known
    previous: int | None
    following: int | None
    log_page: int  # the page of the whole log that shows entry n

    @property
    def ruleset(self):
        return self.game.ruleset

    def context(self) -> dict[str, Any]:
        """The screen's parts by name, for a template (the state it shows as ``state``, as the table's parts read)."""
        out = {name: getattr(self, name) for name in self.__slots__}
        out["ruleset"], out["state"] = self.game.ruleset, self.after
        return out


def range_words(total: int) -> str:
    """The entry numbers a game has."""
    if total == 0:
        return _("This game has no entries yet.")
    return _("This game's entries are numbered 1 to %(total)s.", total=total)


def entry_number(game: Game, text: str) -> int:
    """The entry number an address or the "go to entry" form carries: a whole number of the game's entries, read
    with its length bounded first (a forged number of 10,000 digits is never converted); :class:`NoSuchEntry`
    otherwise, saying which numbers there are."""
    total = len(game.entries)
    try:
        n = whole_number("entry", text, -LARGEST, LARGEST)
    except NotWhole:
        raise NoSuchEntry(_("“%(text)s” is not an entry number. %(range)s", text=clip(text.strip(), 20),
                            range=range_words(total))) from None
    if not 1 <= n <= total:
        raise NoSuchEntry(_("There is no entry %(n)s. %(range)s", n=n, range=range_words(total)))
    return n


def _around(game: Game, n: int) -> tuple[GameState, Outcome]:
    """The state entry ``n`` was recorded on and its outcome, folded again from the start (a fold of its own: the
    game's states are left as they are)."""
    fold = Game(game.ruleset, game.header, in_place=True)
    for entry in game.entries[:n - 1]:
        fold.record(entry)
    before = fold.state.copy()  # the next entry changes the fold's state in place
    return before, fold.record(game.entries[n - 1])


def _duration(seconds: float) -> str:
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def time_words(n: int, recorded: datetime | None, previous: datetime | None) -> list[str]:
    """When entry ``n`` was recorded (UTC, as the rows keep it) and how long after the entry before it; and what
    of the game clock cannot be known (its starts and pauses are not kept with the entries)."""
    if recorded is None:
        lines = [_("When this entry was recorded is not known.")]
    else:
        lines = [_("Recorded at %(time)s UTC.", time=recorded.strftime("%Y-%m-%d %H:%M:%S"))]
        if previous is not None and recorded >= previous:
            lines.append(_("%(duration)s after entry %(n)s was recorded.",
                           duration=_duration((recorded - previous).total_seconds()), n=n - 1))
    lines.append(_("The game clock's reading at this entry is not kept: its starts and pauses are not part of the "
                   "record. The time shown is when the entry was stored on this server (for a game brought in from "
                   "a record file, when the file was brought in)."))
    return lines


def dispute_screen(game: Game, n: int, recorded: datetime | None = None,
                   previous: datetime | None = None) -> DisputeScreen:
    """The table at entry ``n`` (from 1) of ``game``; ``recorded`` and ``previous``, when entry ``n`` and the one
    before it were stored.  :class:`NoSuchEntry` for a number the game has no entry for."""
    total = len(game.entries)
    if not 1 <= n <= total:
        raise NoSuchEntry(_("There is no entry %(n)s. %(range)s", n=n, range=range_words(total)))
    history = game.with_history().history
    assert history is not None  # with_history keeps one
    index = n - 1
    before, outcome = _around(game, n)
    after = outcome.state
    tie = history.ties[index]
    rulings = ([tie_words(game.ruleset, tie)] if tie is not None else []) + outcome_notes(after, outcome.events)
    voided_by = next((v + 1 for v, taken in game.voided.items() if index in taken), None)
    entry = game.entries[index]
    return DisputeScreen(
        game=game, n=n, total=total, before=before, after=after,
        entry=entry_words(entry, game.ruleset, None, history.facts[index]),
        events=event_lines([outcome]), rulings=rulings,
        in_effect=voided_by is None, voided_by=voided_by,
        takes_back=tuple(i + 1 for i in game.voided.get(index, ())),
        waiting_before=pending_words(before), waiting_after=pending_words(after),
        players=[PlayerAt(p.name, money(after, before.players[i].cash), money(after, p.cash),
                          p.cash - before.players[i].cash, player_status(after, i), p.position,
                          holdings(after, i))
                 for i, p in enumerate(after.players)],
        pot=pot(after), bank_stock=bank_stock_words(after),
        log=log_lines(game, 0, n), times=time_words(n, recorded, previous),
        previous=n - 1 if n > 1 else None, following=n + 1 if n < total else None,
        log_page=log_page(total, n))
