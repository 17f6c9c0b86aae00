"""What every view answers when a game or a tournament is not there, its stored record no longer reads, a form's
token is stale, or the database could not answer (its disk full, busy past its timeout, out of reach): one page
each, in the device's language, instead of a copy in every view."""
from __future__ import annotations

from flask import Flask, current_app, redirect, render_template, request, url_for
from flask_wtf.csrf import CSRFError

from ..access import flash
from ...language.i18n import gettext, same_site_path
from ...screens.refusals import detail
from ...screens.storage import unavailable_words
from ...services import storage
from ...services.errors import GameNotFound, RecordAltered

RETRY_SECONDS = 5  # a database that could not answer: the Retry-After of its answer
NOTICE = "#notice"  # the region of every screen (base.html) where a part of it shows the database's failure

# Each form's screen: the address a form posts to (its endpoint) names the screen it is on, and the values of the
# address that screen's own takes.  A form sent with a stale token is answered with that screen and the reason,
# whether or not the tablet sent a Referer (tests/test_sessions_and_headers.py checks every form is here).
FORM_SCREENS: dict[str, tuple[str, tuple[str, ...]]] = {
    "games.lock": ("games.index", ()),
    "games.organiser_post": ("games.organiser_form", ()),
    "games.create": ("games.index", ()),
    "games.import_record": ("games.index", ()),
    "games.archive": ("table.result", ("game_id",)),
    "games.delete": ("table.result", ("game_id",)),
    "table.unlock_post": ("table.unlock_form", ("game_id",)),
    "table.set_clock": ("table.table", ("game_id",)),
    "table.redo": ("table.table", ("game_id",)),
    "sync.sync_taps": ("table.table", ("game_id",)),  # the tablet's script sends it from the table screen
    "table.sign_off": ("table.table", ("game_id",)),
    "table.check": ("table.table", ("game_id",)),
    "table.record": ("table.table", ("game_id",)),
    "table.call_judge": ("table.table", ("game_id",)),
    "table.record_ruling": ("table.entry", ("game_id", "n")),
    "tournaments.create": ("tournaments.index", ()),
    "tournaments.unlock_post": ("tournaments.unlock_form", ("tournament_id",)),
    "tournaments.archive": ("tournaments.director", ("tournament_id",)),
    "tournaments.delete": ("tournaments.director", ("tournament_id",)),
    "tournaments.seat": ("tournaments.director", ("tournament_id",)),
    "tournaments.players": ("tournaments.director", ("tournament_id",)),
    "tournaments.call_time": ("tournaments.director", ("tournament_id",)),
    "tournaments.lock_table": ("tournaments.director", ("tournament_id",)),
    "tournaments.table_record": ("tournaments.director", ("tournament_id",)),
    "tournaments.lock_all": ("tournaments.director", ("tournament_id",)),
    "tournaments.correct": ("tournaments.correct", ("tournament_id", "game_id")),
    "judges.unlock_post": ("judges.unlock_form", ("tournament_id",)),
    "judges.make_pin": ("tournaments.director", ("tournament_id",)),
}


def not_found(error: GameNotFound):
    """No such game, tournament, round or table: a page saying which (a live region's poll gets no page)."""
    if request.headers.get("HX-Request"):
        return "", 404
    return render_template("error.html", message=detail(error)), 404


def unreadable_record(error: RecordAltered):
    """A game whose stored header no longer reads: a page that says so (its other games are untouched)."""
    return render_template("error.html", message=detail(error)), 409


def form_screen() -> str | None:
    """The screen the form of this request is on: the page of this site the Referer names, else the one the
    form's address names (:data:`FORM_SCREENS`: a tablet may send no Referer); None for an address of no form."""
    back = same_site_path(request.referrer)
    if back != "/":
        return back
    screen = FORM_SCREENS.get(request.endpoint or "")
    if screen is None:
        return None
    endpoint, names = screen
    args = request.view_args or {}
    return url_for(endpoint, **{name: args[name] for name in names})


def stale_form(error: CSRFError):
    """A form whose token this session does not know (the server's key changed, the tablet's session ended, or
    a form made elsewhere): nothing is recorded.  The screen the form is on is shown again with the reason, with
    or without a Referer; htmx's requests (a region of a screen) and an address of no form get a page saying so
    (never a bare 400)."""
    message = gettext("this screen's form had expired or was not made by this app: nothing was recorded; the screen "
                      "is shown again, tap once more")
    screen = form_screen()
    if screen is not None and not request.headers.get("HX-Request"):
        flash({"kind": "refused", "message": message})
        return redirect(screen), 303
    return render_template("error.html", message=message), 400


def database_failed(error: Exception):
    """The database could not answer (``services/storage.py``: its disk full, busy past its timeout, out of reach):
    the request's work rolled back, so nothing was recorded; 503 with Retry-After, saying so, why and what to do in
    the device's language; the stack trace in the server's log.  A form sent gets the whole page, with the way back
    to its screen; a page asked for, the way to ask again; a part of a screen (htmx's poll, a panel, a check) the
    notice its screen shows above itself (``HX-Retarget``: referee.js swaps it in and takes it away at the next
    answer), the screen kept as it was and its poll going on.  An error that is not the store failing (an integrity
    or programming error) is left to propagate, as before."""
    if not storage.is_store_failure(error):
        raise error
    storage.rolled_back()
    current_app.logger.error("the database could not answer %s %s", request.method, request.path, exc_info=error)
    region = bool(request.headers.get("HX-Request"))
    tapped = request.method not in ("GET", "HEAD")
    words = unavailable_words(storage.failure_kind(error), tapped, region)
    headers = {"Retry-After": str(RETRY_SECONDS), "Cache-Control": "no-store"}
    if region:
        headers.update({"HX-Retarget": NOTICE, "HX-Reswap": "outerHTML", "HX-Reselect": NOTICE})
        return render_template("_unavailable.html", words=words, notice=True), 503, headers
    if tapped:
        screen = form_screen()
        back = (screen, gettext("Back to the screen")) if screen is not None else None
    else:
        back = (request.full_path.rstrip("?"), gettext("Try again"))
    return render_template("unavailable.html", words=words, back=back), 503, headers


def init_app(app: Flask) -> None:
    app.register_error_handler(GameNotFound, not_found)
    app.register_error_handler(RecordAltered, unreadable_record)
    app.register_error_handler(CSRFError, stale_form)
    for failure in storage.STORE_ERRORS:
        app.register_error_handler(failure, database_failed)
