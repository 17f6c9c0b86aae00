"""The table screen as every device at the table is shown it: what it shows (:func:`view_model`), its live region
drawn once a version for every device (:func:`live_html`) and the page around it drawn once (:func:`page`), each
kept per app, with what is a device's own or a moment's put in at each answer."""
from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass

from flask import Flask, current_app, get_flashed_messages, get_template_attribute, render_template, request, session
from flask import url_for
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from ...language import bind, unbind
from ...language.i18n import environ_code, language
from ...screens.judge import table_call
from ...screens.table import live_view, panel_names, table_screen
from ...services import clocks, entry_keys, folds, rulings, signoffs, stamps
from ..access import WORKER_PROCESSES, any_unlock as tablet_unlocked
from ..addresses import parameters
from ..sessions import form_token, raw_form_token
from .drawings import app_cache, mark, put_in


def asked_panels() -> frozenset[str]:
    """The panels the screen asks to have drawn open: ``open=trade,deeds-2`` (the live poll names those open on
    the tablet; a panel's link opens it without scripts), and the ``panels`` cookie (``board|trade``: those the
    referee opened, kept open through the screen's reloads).  Names of no panel are left out by the view model."""
    return panels_asked(request.args.get("open", ""), request.cookies.get("panels"))


def panels_asked(opened: str, kept: str | None) -> frozenset[str]:
    """:func:`asked_panels` from the address's ``open`` and the ``panels`` cookie (None: none)."""
    asked = opened[:200].split(",")
    if kept is not None:
        asked += kept[:200].split("|")
    return frozenset(asked)


def view_model(loaded: folds.LoadedGame, upto: int | None = None, panels: frozenset[str] = frozenset(),
                stamp: stamps.Stamp | None = None, marks: bool = False) -> dict:
    """What the table screen shows (:func:`referee.screens.table.live_view`), with what only the request and the
    service know: the row, the clock, the version a live screen compares, the addresses and the form token.
    ``panels``: the panels asked to be drawn open; ``stamp``: the table's live stamp when the request has read it;
    ``marks``: the form token, the form key and the clock's seconds as marks, for a drawing every device shares
    (:func:`live_html`)."""
    screen = table_screen(loaded.game, upto, live=loaded.altered is None, panels=panels, language=language())
    stamp = stamp or stamps.stamp(loaded)
    view = live_view(
        screen, row=loaded.row, seq=loaded.seq, clock=clocks.clock(loaded.row), version=stamp.version,
        altered=loaded.altered,
        sign_offs=signoffs.sign_offs(loaded) if loaded.game.state.over and upto is None else None,
        judge=_judge(loaded, stamp), csrf=TOKEN_MARK if marks else generate_csrf(), url_for=url_for,
        # the key of this drawing of the screen: a form of it sent twice records once and is told so
        entry_key=KEY_MARK if marks else entry_keys.new_key())
    if marks:
        view["kept"] = {**view["kept"], "elapsed": ELAPSED_MARK}
    return view


def _judge(loaded: folds.LoadedGame, stamp: stamps.Stamp) -> dict:
    """The rulings recorded in the game and, at a tournament's table, its call for a judge (each read only when
    the stamp counted some)."""
    called = rulings.open_call(loaded.row.id) if stamp.call_open else None
    return {"rulings": len(rulings.read(loaded.row.id).items) if stamp.rulings else 0,
            "seated": loaded.seat is not None, "called": table_call(called, clocks.utcnow())}


# The live region of a table's screen is drawn once for every device that shows the table at a version, in a language,
# with the same panels open (the second tablet's poll finds the drawing the first tablet's tap made); what differs
# from one device or one moment to the next is put in at each answer, where the drawing holds these marks
# (:mod:`.drawings`): the form token (the device's session's), the drawing's form key (a new one each answer: a form
# of it sent twice records once, and two devices' forms are never one), the clock's reading (it counts down between
# versions) and the message at the region's top.
TOKEN_MARK, KEY_MARK, CLOCK_MARK = mark("token"), mark("key"), mark("clock")
ELAPSED_MARK, MESSAGE_MARK = mark("elapsed"), mark("message")
KEPT_REGIONS = 256  # drawings kept per app (64 tables' latest, in a few languages and with panels open)


def live_html(loaded: folds.LoadedGame, message: dict | None, stamp: stamps.Stamp) -> Markup:
    """The table's live region for this answer: its drawing at ``stamp``'s version (made once, kept), with this
    device's form token, a new form key, the clock as it reads now and ``message`` put in."""
    panels = asked_panels()
    clock = clocks.clock(loaded.row)
    key = _region_key(loaded.row.id, loaded.fold, stamp.version, language().code, panels, request.script_root, clock)

    def drawn() -> str:
        view = view_model(loaded, panels=panels, stamp=stamp, marks=True)
        return render_template("table/_live.html", **view, clock_line=Markup(CLOCK_MARK),
                               message_line=Markup(MESSAGE_MARK))

    said = render_template("_message.html", m=message) if message else ""
    kept = app_cache(_REGIONS, KEPT_REGIONS)
    # a call for a judge waiting: its minutes waited run from the call, not with the version's minute (drawn afresh)
    return put_in(drawn() if stamp.call_open else kept.get_or_make(key, drawn), _marks(generate_csrf(), clock, said))


_REGIONS = "referee.table_regions"  # the app's extension: the live regions drawn, by :func:`_region_key`


def _region_key(game_id: int, fold: folds.Fold, version: str, code: str, panels: frozenset[str], script_root: str,
                clock: clocks.Clock) -> tuple:
    """What a table's live region is drawn from but the device's and the moment's values: the game as folded (its
    row's making: a deleted game's number reused is another game; the chain's head and where it was found altered:
    an altered stored entry leaves the count the version reads as it was), the version, the language, the panels
    open, where the app is served and whether its clock runs or is up."""
    return (game_id, fold.created, fold.head, fold.altered, version, code,
            tuple(sorted(panels & panel_names(fold.game.state))), script_root, clock.running, clock.time_up)


def _marks(token: str, clock: clocks.Clock, said: str) -> dict[str, str]:
    """What a region's answer puts in its drawing's marks: the device's form token, a new form key, the clock as it
    reads now and the message at its top (``said``, drawn)."""
    return {TOKEN_MARK: token, KEY_MARK: entry_keys.new_key(),
            CLOCK_MARK: get_template_attribute("table/_macros.html", "clock_text")(clock),
            f"&#34;{ELAPSED_MARK}&#34;": json.dumps(clock.elapsed_seconds),  # a number in data-kept's JSON
            MESSAGE_MARK: said}


def kept_region(app: Flask, environ: dict, game_id: int, stamp: stamps.Stamp, data: Mapping[str, object],
                cookies: Mapping[str, str]) -> str | None:
    """A tablet's changed poll of the table's screen answered before Flask's request (``referee.web.polls``, which
    has read ``stamp`` and found the device holds the table's unlock; ``data``: its session, ``cookies``: its
    cookies): the region's drawing kept at that version, in the device's language with its panels open, with its
    form token, a new form key and the clock put in, as :func:`live_html` answers it.  None where something it needs
    is not at hand, and the views answer: no drawing kept so (the first device to ask draws it), the fold not kept at
    the point the poll read, a call for a judge waiting (drawn afresh), a screen whose network came back (``since``:
    its message), a session with no form token yet."""
    point = stamp.point
    args = parameters(environ)
    root = environ.get("SCRIPT_NAME", "")
    if point is None or stamp.call_open or args is None or "since" in args or not root.isascii():
        return None
    fold = folds.kept_at(game_id, point)
    token = form_token(app, data)
    if fold is None or token is None:
        return None
    code = environ_code(environ, cookies)
    clock = clocks.clock(point)
    panels = panels_asked(args.get("open", [""])[0], cookies.get("panels"))
    drawn = app_cache(_REGIONS, KEPT_REGIONS).get(_region_key(game_id, fold, stamp.version, code, panels,
                                                              root.rstrip("/"), clock))
    if drawn is None:
        return None
    speaking = bind(app.extensions["referee.language_of"](code))  # the clock's words in the device's language
    try:
        return put_in(drawn, _marks(token, clock, ""))
    finally:
        unbind(speaking)


LIVE_MARK, FLASHES_MARK = mark("live"), mark("flashes")
KEPT_FRAMES = 256  # the table screen's frames kept per app (64 tables, in a few languages, locked and unlocked)


def page(loaded: folds.LoadedGame, region: Markup, said: str = "", flashes: bool = True) -> Markup:
    """The table screen as a page: its frame (the page's head, its top bar: the game's title, its links and its
    ruleset's name, the lock form of an unlocked tablet, the language menu) drawn once for all it shows and kept
    per app, with this answer's notices (``said``, drawn, then the flashes unless ``flashes`` is false: taken
    already), the lock form's token and its live ``region`` put in: a tablet's record is answered by this page,
    whose frame is the same tap after tap."""
    ruleset = loaded.game.state.ruleset
    code = language().code
    unlocked = tablet_unlocked()
    key = (loaded.row.id, loaded.fold.created, loaded.row.title, loaded.seat, ruleset.name.get(code),
           ruleset.name.get("en"), code, request.script_root, unlocked)

    def drawn() -> str:
        return render_template("table/table.html", row=loaded.row, ruleset=ruleset, live_html=Markup(LIVE_MARK),
                               flashes_line=Markup(FLASHES_MARK), lock_token=Markup(TOKEN_MARK))

    notices = said + (_notices(get_flashed_messages()) if flashes else "")
    return put_in(app_cache("referee.table_frames", KEPT_FRAMES).get_or_make(key, drawn), {
        TOKEN_MARK: generate_csrf(), FLASHES_MARK: notices, LIVE_MARK: region})


def _notices(messages: list) -> str:
    """Notices drawn, one after the other."""
    return "".join(render_template("_message.html", m=m) for m in messages)


# The table screen a plain form's record leads to (a tablet's tap before its standby is ready, a browser without
# scripts: 303, then the screen loaded whole) is made by the record's own request, which has the game in hand, and
# kept under a one-time name the address it sends the tablet on to carries (``?said=``): that screen's request is
# then answered before Flask's (``referee.web.polls``) with the page kept, where it drew the whole page again.  The
# record's notice ("recorded: ...") is kept with it, not in the session's cookie.  Kept for the device whose session
# drew it (its form token is in the page) at the table, oldest first: the table's screen shows every notice kept
# for the device, once (a double tap's first record and the second's refusal, as the flashes showed both), and a
# kept page is answered only while it is the one screen waiting, at the version it was drawn at.
SAID = "referee.table_said"  # the app's extension: by (game, the session's raw form token), the screens waiting
KEPT_SAID = 256  # devices' tables at most (one not asked for meanwhile is let go: the views draw its screen)
WAITING_SAID = 8  # screens waiting for one device at one table at most (the oldest let go, its notice with it)
_SAYING = threading.Lock()  # (one device's two taps at once: neither screen lost)


SAID_SECONDS = 20  # a kept page answered at most this long after it was drawn (its clock's reading is the POST's)


@dataclass(frozen=True)
class Said:
    """A table screen made by a record's request, for the game at ``version``: its one-time ``name``, its page and,
    apart, its notice (shown by the views' screen when the page is not answered as it was kept); what else it was
    drawn for (``drawn_for``: the language, the panels kept open, where the app is served, whether the clock was
    up) and when (``made``, the process's monotonic clock)."""

    name: str
    version: str
    notice: str
    page: str
    drawn_for: tuple = ()
    made: float = 0.0


def made_after(loaded: folds.LoadedGame, message: dict) -> str | None:
    """The table screen a plain form's record leads to, made now for this device at the game's version, its
    ``message`` among the notices, kept (:data:`SAID`): its one-time name, for the address the tablet is sent on to.
    None, the message then flashed as any other: where the device's session holds no form token to keep it by, or
    the app runs in several worker processes (the screen's request may reach another, which keeps nothing of it)."""
    generate_csrf()  # the session's form token, made if it has none yet: what the screen is kept by
    token = _session_token(session)
    if not token or current_app.extensions.get(WORKER_PROCESSES, 1) > 1:
        return None
    notice = _notices([*get_flashed_messages(), message])  # (any flashed before: with it, whoever draws it)
    stamp = stamps.stamp(loaded)
    clock = clocks.clock(loaded.row)
    drawn = page(loaded, live_html(loaded, None, stamp), notice, flashes=False)
    name = secrets.token_urlsafe(12)
    kept = app_cache(SAID, KEPT_SAID)
    drawn_for = _drawn_for(language().code, request.cookies.get("panels"), request.script_root, clock.time_up)
    with _SAYING:
        waiting: tuple[Said, ...] = kept.get((loaded.row.id, token)) or ()
        older = tuple(Said(said.name, said.version, said.notice, "") for said in waiting)  # their notices alone: a
        # page is answered only while it is the one waiting
        kept.keep((loaded.row.id, token), (*older, Said(name, stamp.version, notice, str(drawn), drawn_for,
                                                         time.monotonic()))[-WAITING_SAID:])
    return name


def _drawn_for(code: str, panels: str | None, root: str, time_up: bool) -> tuple:
    """What a kept page was drawn for besides the game's version, which its request must ask for alike."""
    return code, panels, root.rstrip("/"), time_up


def _session_token(data: Mapping[str, object]) -> str:
    """The raw form token (CSRF) a device's session holds, which the pages drawn for it sign ("" for none)."""
    return raw_form_token(current_app, data) or ""


def said_notices(game_id: int) -> str:
    """The notices of the screens records made for this device at this game and not yet shown, oldest first, once
    (the views draw the screen: the game moved on meanwhile, two taps' screens waited, a kept page was let go)."""
    token = _session_token(session)
    if not token:
        return ""
    kept = app_cache(SAID, KEPT_SAID)
    with _SAYING:
        waiting: tuple[Said, ...] = kept.get((game_id, token)) or ()
        if waiting:
            kept.forget((game_id, token))
    return "".join(said.notice for said in waiting)


def kept_page(environ: dict, game_id: int, name: str, stamp: stamps.Stamp, data: Mapping[str, object],
              cookies: Mapping[str, str]) -> str | None:
    """The table screen a record's request made and kept under ``name`` (``referee.web.polls``: the device's session
    ``data`` holds the table's unlock; ``cookies``: its cookies), answered once, while it is the one screen waiting
    for the device at the table, the game is still at the version it was drawn at (``stamp``, read now), this
    request asks for it as it was drawn (the language, the panels, where the app is served, the clock up or not) and
    it was drawn within :data:`SAID_SECONDS`; None: the views draw it."""
    token = _session_token(data)
    point = stamp.point
    if not token or stamp.call_open or point is None:
        return None
    asked = _drawn_for(environ_code(environ, cookies), cookies.get("panels"), environ.get("SCRIPT_NAME", ""),
                       clocks.clock(point).time_up)
    kept = app_cache(SAID, KEPT_SAID)
    with _SAYING:
        waiting: tuple[Said, ...] = kept.get((game_id, token)) or ()
        if len(waiting) != 1 or waiting[0].version != stamp.version or waiting[0].drawn_for != asked:
            return None
        if time.monotonic() - waiting[0].made > SAID_SECONDS or not secrets.compare_digest(
                waiting[0].name.encode(), name.encode("utf-8", "surrogateescape")):
            return None
        kept.forget((game_id, token))
    return waiting[0].page
