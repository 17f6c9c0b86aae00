"""Games: the list, a new game, importing and exporting records."""
from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request, url_for
from ...language.i18n import gettext

from .. import access
from ...services import errors as errors_service, games
from ..access import flash, organiser_required, referee_required, throttled
from ..forms import ImportForm, NewGameForm, OrganiserForm
from ...language.i18n import same_site_path
from ...screens.refusals import clip, detail as refusal_detail
from ...screens.table import refusal, refusal_clause

bp = Blueprint("games", __name__)
FORM_MESSAGE = 1000  # characters of a form's refusal that are shown (and kept in the session until then)


def unlock(game_id: int) -> None:
    """This device may record in this game (the referee gave its PIN)."""
    access.grant(access.GAME, game_id)


def flash_form_errors(form) -> None:
    """Each field's refusal, flashed: its words as every message repeats a value (:func:`clip`), as a form's own
    messages may quote what was sent (WTForms' "'...' is not a valid choice")."""
    for field, errors in form.errors.items():
        label = form[field].label.text if field in form else field  # the field as the form names it, translated
        text = "; ".join(map(str, errors))
        flash({"kind": "refused", "message": clip(text if text.startswith(str(label)) else f"{label}: {text}",
                                                   FORM_MESSAGE)})


def pdf_response(data: bytes, name: str) -> Response:
    return Response(data, mimetype="application/pdf", headers={"Content-Disposition": f'inline; filename="{name}"'})


def page_size() -> str:
    from ...reports import PAGE_SIZES

    size = request.args.get("size", "A4")
    return size if size in PAGE_SIZES else "A4"


@bp.get("/ping")
def ping():
    """The tablets' heartbeat: the page says plainly when the server cannot be reached."""
    return {"ok": True}


@bp.post("/lock")
def lock():
    """Lock this tablet: every game, tournament and the organiser's creation it had opened needs its PIN or
    password again."""
    access.lock()
    flash({"kind": "done", "message": gettext("this tablet is locked: a PIN is needed to record again")})
    return redirect(url_for(".index")), 303


@bp.get("/organiser")
def organiser_form():
    return render_template("games/organiser.html", form=OrganiserForm(), next=same_site_path(request.args.get("next")))


@bp.post("/organiser")
@throttled(cap=access.ORGANISER)
def organiser_post():
    form = OrganiserForm()
    if form.validate_on_submit() and access.check_organiser(form.password.data):
        access.grant(access.ORGANISER)
        return redirect(same_site_path(request.form.get("next"))), 303
    flash({"kind": "refused", "message": gettext("wrong organiser password")})
    return render_template("games/organiser.html", form=form, next=same_site_path(request.form.get("next"))), 403


@bp.get("/")
def index():
    archived = request.args.get("archived") == "1"
    return render_template("games/index.html", games=games.list_games(archived=archived), form=NewGameForm(),
                           import_form=ImportForm(), archived=archived)


@bp.post("/games")
@organiser_required
def create():
    form = NewGameForm()
    if form.validate_on_submit():
        try:
            game_id = games.create_game(form.title.data or "", form.ruleset.data, form.player_names(),
                                          form.seating.data, form.pin.data, form.time_limit.data,
                                          form.option_overrides())
        except errors_service.BadGameSetup as exc:  # with the rule it comes from, where the rules give one
            flash(refusal(exc, exc.state.ruleset) if exc.state is not None else {"kind": "refused",
                                                                                  "message": refusal_detail(exc)})
        else:
            unlock(game_id)
            return redirect(url_for("table.table", game_id=game_id))
    else:
        flash_form_errors(form)
    return render_template("games/index.html", games=games.list_games(archived=False), form=form,
                           import_form=ImportForm(), archived=False), 400


@bp.post("/games/import")
@organiser_required
def import_record():
    form = ImportForm()
    if form.validate_on_submit():
        try:
            text = form.record.data.read().decode("utf-8-sig")  # a byte-order mark (Notepad's) is not the record
            game_id = games.import_record(text, form.pin.data)
        except UnicodeDecodeError:
            flash({"kind": "refused", "message": "the record is not UTF-8 text"})
        except errors_service.RecordError as exc:
            flash({"kind": "refused", "message": exc.where(refusal_detail(exc)),
                   "clause": refusal_clause(exc, exc.state.ruleset if exc.state is not None else None)})
        except errors_service.BadGameSetup as exc:
            flash({"kind": "refused", "message": refusal_detail(exc), "clause": exc.clause})
        else:
            unlock(game_id)
            return redirect(url_for("table.table", game_id=game_id))
    else:
        flash_form_errors(form)
    return redirect(url_for(".index"))


@bp.post("/games/<int:game_id>/archive")
@referee_required
@organiser_required
def archive(game_id: int):
    """Archive a game (off the list, kept whole) or bring it back: its referee, where creation is open."""
    archived = request.form.get("archived") == "1"
    try:
        games.set_game_archived(game_id, archived)
    except (errors_service.GameNotFound, errors_service.NotDeletable) as exc:
        flash({"kind": "refused", "message": refusal_detail(exc)})
    else:
        flash({"kind": "done", "message": gettext("game archived: it is off the games list, and kept whole")
               if archived else gettext("game back on the games list")})
    return redirect(url_for("table.result", game_id=game_id)), 303


@bp.post("/games/<int:game_id>/delete")
@referee_required
@organiser_required
def delete(game_id: int):
    """Delete a game: its record file is kept in instance/records/deleted/ first."""
    try:
        path = games.delete_game(game_id)
    except (errors_service.GameNotFound, errors_service.NotDeletable) as exc:
        flash({"kind": "refused", "message": refusal_detail(exc)})
        return redirect(url_for("table.result", game_id=game_id)), 303
    flash({"kind": "done", "message": gettext("game %(n)s deleted; its record is kept in %(file)s", n=game_id,
                                              file=f"records/deleted/{path.name}")})
    return redirect(url_for(".index")), 303


@bp.get("/games/<int:game_id>/result.pdf")
def result_pdf(game_id: int):
    from ... import reports

    data = reports.game_pdf(game_id, page_size())
    return pdf_response(data, f"game-{game_id}.pdf")


@bp.get("/games/<int:game_id>/record.jsonl")
def export(game_id: int):
    text = games.export_record(game_id)
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="game-{game_id}.jsonl"'})
