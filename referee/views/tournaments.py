"""Tournaments: creating one, the director's page (every table live, seating, calling time), standings."""
from __future__ import annotations

from functools import wraps

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext

from .. import reports, rulesets, service
from ..words import pending_words
from .games import page_size, pdf_response, unlock

bp = Blueprint("tournaments", __name__, url_prefix="/tournaments")


def director_required(view):
    @wraps(view)
    def wrapped(tournament_id: int, *args, **kwargs):
        if tournament_id not in session.get("director_tournaments", []):
            return redirect(url_for("tournaments.unlock_form", tournament_id=tournament_id))
        return view(tournament_id, *args, **kwargs)
    return wrapped


def _refused(exc) -> None:
    flash({"kind": "refused", "message": exc.message if hasattr(exc, "message") else str(exc)})


@bp.get("")
def index():
    return render_template("tournaments/index.html", tournaments=service.list_tournaments(),
                           schemes=rulesets.available_schemes(), rulesets=rulesets.available())


@bp.post("")
def create():
    form = request.form
    try:
        minutes = [int(m) for m in form.get("round_minutes", "").replace(",", " ").split()]
        regulations = {}
        if form.get("dealt_deeds") == "1":
            regulations["dealt_deeds"] = 2
        if form.get("no_trades_before_go") == "1":
            regulations["trades_before_first_go"] = False
        tournament_id = service.create_tournament(
            form.get("name", "").strip() or gettext("Tournament"), form.get("scheme", ""), form.get("ruleset", ""),
            form.get("players", "").splitlines(), form.get("pin", ""), minutes, regulations)
    except ValueError:
        flash({"kind": "refused", "message": gettext("round minutes must be whole numbers, e.g. 70 60 60")})
    except service.BadTournament as exc:
        _refused(exc)
    else:
        session["director_tournaments"] = sorted(set(session.get("director_tournaments", [])) | {tournament_id})
        return redirect(url_for(".director", tournament_id=tournament_id))
    return redirect(url_for(".index"))


@bp.get("/<int:tournament_id>/unlock")
def unlock_form(tournament_id: int):
    return render_template("tournaments/unlock.html", tournament_id=tournament_id)


@bp.post("/<int:tournament_id>/unlock")
def unlock_post(tournament_id: int):
    pin = request.form.get("pin", "")
    if service.check_director_pin(tournament_id, pin):
        session["director_tournaments"] = sorted(set(session.get("director_tournaments", [])) | {tournament_id})
        session["director_pin_ok"] = True
        return redirect(url_for(".director", tournament_id=tournament_id))
    flash({"kind": "refused", "message": gettext("wrong PIN")})
    return render_template("tournaments/unlock.html", tournament_id=tournament_id), 403


@bp.get("/<int:tournament_id>")
@director_required
def director(tournament_id: int):
    try:
        row = service.get_tournament(tournament_id)
    except service.GameNotFound:
        return render_template("error.html", message=f"no tournament {tournament_id}"), 404
    rounds = [(r, service.round_overview(tournament_id, r.number, pending_words)) for r in row.rounds]
    for _, tables in rounds:  # the director may open any table of the tournament
        for t in tables:
            unlock(t.game_id)
    return render_template("tournaments/director.html", row=row, rounds=rounds,
                           scheme=rulesets.load_scheme(row.scheme),
                           standings=service.tournament_standings(tournament_id))


@bp.post("/<int:tournament_id>/rounds")
@director_required
def seat(tournament_id: int):
    pin = request.form.get("pin", "")
    if not service.check_director_pin(tournament_id, pin):
        flash({"kind": "refused", "message": gettext("the director PIN is needed to seat a round (it becomes the "
                                                     "tables' referee PIN)")})
    else:
        try:
            number = service.seat_round(tournament_id, pin, final=request.form.get("final") == "1")
        except service.BadTournament as exc:
            _refused(exc)
        else:
            flash({"kind": "done", "message": gettext("round %(n)s seated", n=number)})
    return redirect(url_for(".director", tournament_id=tournament_id)), 303


@bp.post("/<int:tournament_id>/rounds/<int:number>/time")
@director_required
def call_time(tournament_id: int, number: int):
    try:
        called = service.call_time_on_round(tournament_id, number)
    except service.GameNotFound as exc:
        _refused(exc)
    else:
        flash({"kind": "done", "message": gettext("time called on %(n)s tables", n=called)})
    return redirect(url_for(".director", tournament_id=tournament_id)), 303


@bp.get("/<int:tournament_id>/standings.pdf")
def standings_pdf(tournament_id: int):
    try:
        data = reports.standings_pdf(tournament_id, page_size())
    except service.GameNotFound:
        return render_template("error.html", message=f"no tournament {tournament_id}"), 404
    return pdf_response(data, f"standings-{tournament_id}.pdf")


@bp.get("/scoresheet.pdf")
def scoresheet_pdf():
    players = max(2, min(8, request.args.get("players", 4, type=int)))
    return pdf_response(reports.scoresheet_pdf(players, page_size()), f"scoresheet-{players}.pdf")


@bp.get("/<int:tournament_id>/standings")
def standings(tournament_id: int):
    try:
        row = service.get_tournament(tournament_id)
    except service.GameNotFound:
        return render_template("error.html", message=f"no tournament {tournament_id}"), 404
    scheme = rulesets.load_scheme(row.scheme)
    return render_template("tournaments/standings.html", row=row, scheme=scheme,
                           standings=service.tournament_standings(tournament_id),
                           rounds=[r.number for r in row.rounds])
