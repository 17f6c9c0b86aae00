"""The judges of a tournament: their unlock (the judges' PIN, the head judge's PIN), their screen (the open calls for
a judge, live; one tap opens the entry in dispute with the ruling form), and the director's making of their PINs."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from .. import access
from ..access import flash, director_required, throttled
from ...language.i18n import gettext
from ...screens.judge import answered_lines, call_lines
from ...services import clocks, judges, tournaments
from .tournaments import POLL

bp = Blueprint("judges", __name__, url_prefix="/tournaments")


@bp.get("/<int:tournament_id>/judge/unlock")
def unlock_form(tournament_id: int):
    row = tournaments.get_tournament(tournament_id)
    return render_template("judges/unlock.html", row=row)


@bp.post("/<int:tournament_id>/judge/unlock")
@throttled(cap=access.JUDGE)
def unlock_post(tournament_id: int):
    row = tournaments.get_tournament(tournament_id)
    role = judges.role_of_pin(tournament_id, request.form.get("pin", "")[:100])
    if role is not None:
        access.grant(role, tournament_id)
        return redirect(url_for(".calls", tournament_id=tournament_id))
    flash({"kind": "refused", "message": gettext("wrong PIN: the judges' PIN (or the head judge's) opens this "
                                                 "screen; the director makes them on the director's page")})
    return render_template("judges/unlock.html", row=row), 403


def _context(row, version: str) -> dict:
    """What the judge's screen shows: the open calls, the calls answered last, the latest round's tables."""
    return {"row": row, "version": version, "poll": POLL,
            "calls": call_lines(judges.calls_waiting(row.id), clocks.utcnow()),
            "answered": answered_lines(judges.answered(row.id)), "tables": judges.latest_tables(row.id),
            "level": access.judge_level(row.id)}


@bp.get("/<int:tournament_id>/judge")
def calls(tournament_id: int):
    """The judge's screen, for a phone: the tournament's open calls for a judge, live (204 while nothing a judge
    reads changed)."""
    row = tournaments.get_tournament(tournament_id)
    if access.judge_level(tournament_id) is None:
        if request.headers.get("HX-Request"):
            return "", 403, {"HX-Redirect": url_for(".unlock_form", tournament_id=tournament_id)}
        return redirect(url_for(".unlock_form", tournament_id=tournament_id))
    version = judges.version(tournament_id)
    if request.headers.get("HX-Request"):
        if request.args.get("v") == version:
            return "", 204
        return render_template("judges/_calls_live.html", **_context(row, version)), 200, {
            "Cache-Control": "no-store"}
    return render_template("judges/calls.html", **_context(row, version)), 200, {"Cache-Control": "no-store"}


@bp.post("/<int:tournament_id>/judges/pin")
@director_required
def make_pin(tournament_id: int):
    """The director makes a new judges' PIN or head judge's PIN (the devices the old one opened are locked)."""
    role = request.form.get("role", "")
    if role not in judges.LEVELS:
        flash({"kind": "refused", "message": gettext("the form names no judge's PIN to make: nothing was changed")})
    else:
        pin = judges.make_pin(tournament_id, role)
        flash({"kind": "done", "message": (
            gettext("New judges' PIN: %(pin)s. The devices the old one unlocked are locked.", pin=pin)
            if role == judges.JUDGE else
            gettext("New head judge's PIN: %(pin)s. The devices the old one unlocked are locked.", pin=pin))})
    return redirect(url_for("tournaments.director", tournament_id=tournament_id) + "#judges"), 303

