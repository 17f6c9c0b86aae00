"""A game refereed on a tablet alone, with no server at all (a club's or a family's game: the app opened once on the
network, then played anywhere): the game is made on the tablet from the new-game form, as the server makes one
(:func:`referee.engine.new_header`, its table checked by the same engine), its record kept on the tablet, and its
table screen drawn and refereed as a table whose server cannot be reached (:class:`.screens.TabletTable`).  Its
record file ends on the hash its entries chain to (:func:`referee.engine.chain.chain_line`): the server's import
and ``referee verify`` check it, so the file is known to be the one the tablet recorded."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from ..engine import (MAX_TITLE, MalformedEntry, NotWhole, RecordError, RulesetError, new_header, text_problem,
                      whole_number)
from ..language import gettext as _, speaking
from ..screens.forms import MAX_MINUTES, names_of, option_overrides
from ..screens.refusals import detail
from .screens import FormPairs, TabletScreens, TabletTable
from .table import KeptTable, ruleset_of, RulesetFiles

GAME = 0  # the number an alone game's screen carries: it is on no server
SEATINGS = ("roll", "fixed")


def alone_facts(limit_minutes: int | None, elapsed: float = 0.0, running: bool = False) -> dict[str, Any]:
    """What a table's screen says beyond its record (:class:`.screens.TableFacts`) for a game on the tablet alone:
    its time limit and its clock as the tablet runs it; no judge, no rulings, no form token (nothing is sent)."""
    return {"game": GAME, "limit_minutes": limit_minutes, "elapsed": elapsed, "running": running,
            "judge": {"rulings": 0, "seated": False}, "csrf": ""}


@dataclass(frozen=True)
class NewGame:
    """A game made on the tablet: its record (the header line) and its time limit in minutes (None: no limit)."""

    record: str
    limit_minutes: int | None

    def as_dict(self) -> dict[str, Any]:
        return {"record": self.record, "limit_minutes": self.limit_minutes}


class SetupRefused(Exception):
    """The new-game form names a game the tablet cannot make; ``message``: why, in the screen's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def new_game(rulesets: RulesetFiles, pairs: Iterable[tuple[str, str]]) -> NewGame:
    """The game the tablet's new-game form names (the server's fields: ``title``, ``ruleset``, ``players`` one per
    line in seat order, ``seating`` roll or fixed, ``time_limit`` in minutes or empty, the house rules ticked), its header checked as the
    server checks a new game's and its table by the engine (a bank that cannot stake every player...); or
    :class:`SetupRefused` saying what is wrong."""
    form = FormPairs(pairs)
    ruleset = form.get("ruleset", "")
    if ruleset not in rulesets:
        raise SetupRefused(_("this tablet has no ruleset %(name)s: open this page once on the network",
                             name=ruleset[:80]))
    seating = form.get("seating", "roll")
    if seating not in SEATINGS:
        raise SetupRefused(not_a_form())
    limit: int | None = None
    typed = form.get("time_limit", "").strip()
    if typed:
        try:
            limit = whole_number("time_limit", typed, 1, MAX_MINUTES)
        except NotWhole:
            raise SetupRefused(_("the time limit is a whole number of minutes, 1 to %(most)s", most=MAX_MINUTES)
                               ) from None
    names, title = names_of(form.get("players", "")), form.get("title", "").strip()
    problem = text_problem(_("Title"), title, MAX_TITLE)  # said as the server's form says it, before a record holds it
    if problem:
        raise SetupRefused(detail(problem))
    try:
        options: dict[str, Any] = {}
        if form.get("house_rules_shown") == "1":  # the switches were on the form: those not ticked are off
            rules = ruleset_of(rulesets, new_header(ruleset, names, seating, title)).house_rules
            options = option_overrides(ruleset, set(form.getlist("house_rules")), rules)
        header = new_header(ruleset, names, seating, title, options)
        record = json.dumps(header.to_dict(), ensure_ascii=False) + "\n"
        KeptTable(rulesets, record)  # its table as the engine sets it up: a finite bank must stake every player
    except (RecordError, RulesetError, MalformedEntry) as exc:
        raise SetupRefused(str(exc).removeprefix("line 1: ")) from None
    return NewGame(record, limit)


def not_a_form() -> str:
    return _("this form is not the tablet's new-game form: no game was made")


@dataclass(frozen=True)
class KeptGame:
    """A game kept on the tablet alone, as its list shows it: the name it is kept under, its title, its players,
    how many entries it has and when the last was recorded (the tablet's time, milliseconds since 1970)."""

    name: str
    title: str
    players: tuple[str, ...]
    entries: int
    at: int

    @classmethod
    def read(cls, name: str, kept: Mapping[str, Any]) -> KeptGame:
        header = json.loads(str(kept["record"]).splitlines()[0])
        title = header.get("meta", {}).get("title", "")
        return cls(name, title if isinstance(title, str) else "", tuple(str(p) for p in header["players"]),
                   len(kept.get("entries", ())), int(kept.get("at", 0)))


def kept_clock(kept: Mapping[str, Any], now: float) -> tuple[float, bool]:
    """What the game clock of a game kept on the tablet has run, and whether it runs: as the tablet last kept it
    (``{"elapsed", "running", "at"}``, ``at`` the tablet's time then), and since then while it runs."""
    clock = kept.get("clock") or {}
    elapsed, running = float(clock.get("elapsed", 0.0)), bool(clock.get("running", False))
    return elapsed + (max(0.0, now - float(clock.get("at", now))) if running else 0.0), running


def open_game(screens: TabletScreens, rulesets: RulesetFiles, kept: Mapping[str, Any], code: str,
              clock: Callable[[], float] = time.time) -> TabletTable:
    """A game kept on the tablet alone, opened: ``kept`` as the tablet keeps it (its record, the entries recorded
    since it was made, its time limit and its clock), every entry recorded again by the engine."""
    elapsed, running = kept_clock(kept, clock())
    table = TabletTable(screens, rulesets, str(kept["record"]), alone_facts(kept.get("limit_minutes"), elapsed,
                                                                            running), code, clock, alone=True)
    table.replay(kept.get("entries", ()))
    return table


def made_json(screens: TabletScreens, rulesets: RulesetFiles, pairs: str, code: str) -> str:
    """The new-game form's fields (``[[name, value], ...]``) made into a game (:func:`new_game`), as the tablet's
    script speaks to its Python: ``{"game": {record, limit_minutes}}``, or ``{"refused": ...}``, the message drawn
    in the screen's words."""
    with speaking(screens.language(code)):
        try:
            made = new_game(rulesets, [(str(k), str(v)) for k, v in json.loads(pairs)])
        except SetupRefused as exc:
            html = screens.env.get_template("_message.html").render(m={"kind": "refused", "message": exc.message})
            return json.dumps({"refused": html}, ensure_ascii=False)
    return json.dumps({"game": made.as_dict()}, ensure_ascii=False)


def games_html(screens: TabletScreens, kept: str, code: str) -> str:
    """The list of the games kept on this tablet alone (``kept``: ``[[name, value], ...]`` as the tablet keeps
    them, newest first), each with its choices: open it, save it as a file, send it to a server, delete it."""
    games = [KeptGame.read(str(name), value) for name, value in json.loads(kept)]
    with speaking(screens.language(code)):
        return screens.env.get_template("tablet/_alone_games.html").render(games=games)
