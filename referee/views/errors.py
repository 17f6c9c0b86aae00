"""What every view answers when a game or a tournament is not there, its stored record no longer reads, or a form's
token is stale: one page each, in the device's language, instead of a copy in every view."""
from __future__ import annotations

from flask import Flask, flash, redirect, render_template, request, url_for
from flask_wtf.csrf import CSRFError

from ..i18n import gettext, same_site_path
from ..screens.refusals import detail
from ..services.errors import GameNotFound, RecordAltered

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


def init_app(app: Flask) -> None:
    app.register_error_handler(GameNotFound, not_found)
    app.register_error_handler(RecordAltered, unreadable_record)
    app.register_error_handler(CSRFError, stale_form)
