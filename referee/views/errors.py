"""What every view answers when a game or a tournament is not there, or its stored record no longer reads: one
page each, in the device's language, instead of a copy in every view."""
from __future__ import annotations

from flask import Flask, render_template, request

from ..screens.refusals import detail
from ..services.errors import GameNotFound, RecordAltered


def not_found(error: GameNotFound):
    """No such game, tournament, round or table: a page saying which (a live region's poll gets no page)."""
    if request.headers.get("HX-Request"):
        return "", 404
    return render_template("error.html", message=detail(error)), 404


def unreadable_record(error: RecordAltered):
    """A game whose stored header no longer reads: a page that says so (its other games are untouched)."""
    return render_template("error.html", message=detail(error)), 409


def init_app(app: Flask) -> None:
    app.register_error_handler(GameNotFound, not_found)
    app.register_error_handler(RecordAltered, unreadable_record)
