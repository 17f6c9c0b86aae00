"""Tournaments: creating one, the director's page (every table live, seating, calling time), standings."""
from __future__ import annotations

from dataclasses import dataclass

import ipaddress
from urllib.parse import urlsplit

from flask import Blueprint, current_app, get_template_attribute, redirect, render_template, request, url_for
from markupsafe import Markup
from ...language.i18n import gettext, ngettext

from .. import access, polls
from ... import reports
from ...services import rulesets
from ...services import backups, clocks, errors, games, progress as progress_service, results, roster
from ...services import judges, tournaments
from ..access import flash, director_required, organiser_required, throttled
from ..forms import NewTournamentForm, TableRecordForm, named_choices, regulation_field, typed_regulations, whole
from ...screens.refusals import detail as refusal_detail
from ...screens.decisions import pending_words
from . import director_live
from .cards import display_cards, display_region, kept_standings, standings_region, table_cards
from ...screens.qr import qr_img
from ...screens.regulations import regulation_words
from .games import flash_form_errors, page_size, pdf_response

bp = Blueprint("tournaments", __name__, url_prefix="/tournaments")
for _name, _filter in reports.FILTERS.items():  # numbers in the device's locale: 1,708 / 1,708点, $1,500
    bp.add_app_template_filter(_filter, _name)

# what the new-tournament form keeps as typed after a refusal (never the PIN), and each regulation's field
TYPED = ("name", "scheme", "format", "ruleset", "players", "alternates", "check_in", "round_minutes")
DEFAULT_SCHEME = "jma-placement"  # what a JMA organiser expects, with the JMA ruleset (rulesets.DEFAULT_RULESET)
POLL = "every 1s"  # the director's page asks this often whether any table changed (204 while nothing did)


@bp.errorhandler(errors.BadTournament)
def _cannot(exc):
    """A tournament whose standings cannot be worked out: its pages say why (never a server error)."""
    return render_template("error.html", message=refusal_detail(exc)), 409


def _refused(exc) -> None:
    flash({"kind": "refused", "message": refusal_detail(exc) if hasattr(exc, "detail") else str(exc)})


@bp.post("/<int:tournament_id>/archive")
@director_required
def archive(tournament_id: int):
    archived = request.form.get("archived") == "1"
    try:
        tournaments.set_tournament_archived(tournament_id, archived)
    except errors.GameNotFound as exc:
        _refused(exc)
    else:
        flash({"kind": "done", "message": gettext("tournament archived: it is off the list, and kept whole")
               if archived else gettext("tournament back on the list")})
    return redirect(url_for(".director", tournament_id=tournament_id)), 303


@bp.post("/<int:tournament_id>/delete")
@director_required
def delete(tournament_id: int):
    """Delete a tournament and every game it seated: each game's record file is kept in
    instance/records/deleted/ first."""
    try:
        paths = tournaments.delete_tournament(tournament_id)
    except (errors.GameNotFound, errors.NotDeletable) as exc:
        _refused(exc)
        return redirect(url_for(".director", tournament_id=tournament_id)), 303
    access.drop(access.DIRECTOR, tournament_id)
    flash({"kind": "done", "message": gettext("tournament deleted; the records of its %(n)s games are kept in "
                                              "records/deleted/", n=len(paths))})
    return redirect(url_for(".index")), 303


@bp.get("")
def index():
    return _index_page()


def _index_page(typed=None, status: int = 200):
    """The tournaments list and the new-tournament form; after a refusal, the form as it was typed (all but the
    PIN), so a long list of players is fixed, not typed again."""
    schemes = named_choices(rulesets.available_schemes(), lambda k: rulesets.load_scheme(k).name)
    archived = request.args.get("archived") == "1"
    return render_template(
        "tournaments/index.html", tournaments=tournaments.list_tournaments(archived=archived), archived=archived,
        typed=typed or {},
        schemes=schemes, formats=[rulesets.load_format(f) for f in rulesets.available_formats()],
        least={f: rulesets.least_players(f) for f in rulesets.available_formats()},
        default_format=rulesets.DEFAULT_FORMAT,
        regulations=[(regulation_field(r.option), r) for r in tournaments.REGULATIONS],
        scheme_names=dict(schemes), rulesets=named_choices(rulesets.available(), lambda k: rulesets.load(k).name),
        default_scheme=DEFAULT_SCHEME, default_ruleset=rulesets.DEFAULT_RULESET), status


@bp.post("")
@organiser_required
def create():
    form = NewTournamentForm()
    typed = {key: request.form.get(key, "")[:100_000] for key in TYPED}
    regulations = typed_regulations(request.form)
    typed.update({regulation_field(r.option): regulations.get(r.option, "") for r in tournaments.REGULATIONS})
    if not form.validate_on_submit():
        flash_form_errors(form)
        return _index_page(typed, 400)
    try:
        minutes = form.minutes()
    except ValueError:
        flash({"kind": "refused", "message": gettext("round minutes must be whole numbers from 1 to 600, e.g. 70 60 60")})
        return _index_page(typed, 400)
    try:
        tournament_id = tournaments.create_tournament(
            (form.name.data or "").strip() or gettext("Tournament"), form.scheme.data, form.ruleset.data,
            form.players.data.splitlines(), form.pin.data, minutes, tournaments.read_regulations(regulations),
            form.format.data or rulesets.DEFAULT_FORMAT, (form.alternates.data or "").splitlines(),
            form.check_in.data == "1")
    except errors.BadTournament as exc:
        _refused(exc)
        return _index_page(typed, 400)
    access.grant(access.DIRECTOR, tournament_id)
    return redirect(url_for(".director", tournament_id=tournament_id))


@bp.get("/<int:tournament_id>/unlock")
def unlock_form(tournament_id: int):
    row = tournaments.get_tournament(tournament_id)
    return render_template("tournaments/unlock.html", tournament_id=tournament_id, row=row)


@bp.post("/<int:tournament_id>/unlock")
@throttled(cap=access.DIRECTOR)
def unlock_post(tournament_id: int):
    pin = request.form.get("pin", "")
    if tournaments.check_director_pin(tournament_id, pin):
        access.grant(access.DIRECTOR, tournament_id)
        return redirect(url_for(".director", tournament_id=tournament_id))
    flash({"kind": "refused", "message": gettext("wrong PIN")})
    row = tournaments.get_tournament(tournament_id)
    return render_template("tournaments/unlock.html", tournament_id=tournament_id, row=row), 403


@dataclass(frozen=True)
class RoundTables:
    """A round as the director's live region shows it: its tables, those time can be called on, those not started,
    and its time limit (worked out here once, where the template's filters took a third of its drawing)."""

    round: tournaments.RoundSeating
    tables: list[tournaments.TableView]
    callable: list[tournaments.TableView]
    not_started: list[tournaments.TableView]
    limit: int | None  # seconds


def _round_tables(r, tables: list[tournaments.TableView]) -> RoundTables:
    not_started = [t for t in tables if not (t.over or t.altered or t.started)]
    limit = next((t.clock.limit_seconds for t in tables if t.clock.limit_seconds), None)
    return RoundTables(r, tables, [t for t in tables if t.callable], not_started, limit)


def _live_context(row, version: tournaments.Version, seen: str | None = None) -> dict:
    """What the live region of the director's page shows: every round's tables, and the standings (the players
    list and the seating form around it are drawn with the page, not at each poll); ``region``: the region drawn
    (:func:`director_live.region`: the parts changed since the drawing ``seen`` alone, when it can be)."""
    rounds = [_round_tables(r, tournaments.round_overview(row.id, r.number, pending_words, version))
              for r in tournaments.seating(row.id)]
    ruleset, scheme = rulesets.load(row.ruleset), rulesets.load_scheme(row.scheme)
    progress = progress_service.progress_and_version(row.id, version)[0]
    devices = access.devices(row.id, version.unlocked)
    slips_address = public_base()
    context = {"row": row, "rounds": rounds,
            "cards": table_cards(row, [t for r in rounds for t in r.tables], devices),
            "version": version.token, "poll": POLL,
            "scheme": scheme, "ruleset": ruleset, "currency": ruleset.money,
            "progress": progress, "format": progress.format, "standings": progress.places,
            "standings_html": kept_standings("tournaments/_standings.html", row, progress, scheme=scheme,
                                             currency=ruleset.money),
            "devices": devices, "calls": tournaments.waiting_calls(row.id, version), "now": clocks.utcnow(),
            "backups": backups.status(current_app.config), "disks": backups.low_disks(current_app),
            "slips_address": slips_address,
            "slips_only_here": only_this_computer(slips_address)}
    return context | {"region": director_live.region(context, seen)}


@bp.get("/<int:tournament_id>")
@director_required
def director(tournament_id: int):
    row = tournaments.get_tournament(tournament_id)
    version = tournaments.tournament_version(tournament_id)
    context = _live_context(row, version)
    progress = context["progress"]
    try:  # who goes on to a stage not everyone plays, shown before it is seated
        cuts = {st.id: progress_service.stage_cuts(tournament_id, st.id, progress) for st in progress.next_stages
                if st.entrants != "everyone" and not progress.playing}
    except errors.BadTournament:
        cuts = {}
    judges_url = public_base() + url_for("judges.calls", tournament_id=tournament_id).lstrip("/")
    page = render_template("tournaments/director.html", cuts=cuts, players=roster.tournament_players(row.id),
                           divisions=progress_service.divisions_of(row), judge_pins=judges.pins(tournament_id),
                           judges_url=judges_url, judges_qr=qr_img(judges_url),
                           regulations=regulation_words(context["ruleset"], tournaments.regulations_in_force(row)),
                           **context)
    return page, 200, {"Cache-Control": "no-store"}  # it shows the tables' PINs


@bp.post("/<int:tournament_id>/tables/<int:game_id>/lock")
@director_required
def lock_table(tournament_id: int, game_id: int):
    """Lock every tablet of one table: each needs the table's PIN again (the director's devices stay open)."""
    try:
        number, count = access.lock_table(tournament_id, game_id)
    except errors.GameNotFound as exc:
        _refused(exc)
    else:
        flash({"kind": "done", "message": ngettext(
            "table %(n)s: %(num)s tablet locked; it needs the table's PIN again",
            "table %(n)s: %(num)s tablets locked; each needs the table's PIN again", count, n=number)})
    return redirect(url_for(".director", tournament_id=tournament_id)), 303


@bp.post("/<int:tournament_id>/tables/<int:game_id>/record")
@director_required
def table_record(tournament_id: int, game_id: int):
    """The director records a table's entries from a record file a tablet saved (the table refereed while the
    server could not be reached, or a game refereed on a tablet alone for this table): those after the table's own,
    each checked by the rules (``games.continue_from_file``)."""
    form = TableRecordForm()
    seated = games.table_of_game(game_id) if games.tournament_of_game(game_id) == tournament_id else None
    if not form.validate_on_submit():
        flash_form_errors(form)
    elif seated is None:
        _refused(errors.GameNotFound.of("no game {game} at this tournament's tables", {"game": game_id}))
    else:
        try:
            count = games.continue_from_file(game_id, form.record.data.read().decode("utf-8-sig"))
        except UnicodeDecodeError:
            flash({"kind": "refused", "message": gettext("the record is not UTF-8 text")})
        except errors.RecordError as exc:
            flash({"kind": "refused", "message": exc.where(refusal_detail(exc))})
        except (errors.StaleEntry, errors.MalformedEntry, errors.IllegalEntry, errors.RecordAltered) as exc:
            _refused(exc)
        else:
            flash({"kind": "done", "message": ngettext(
                "table %(n)s: %(num)s entry recorded from the file", "table %(n)s: %(num)s entries recorded from the file",
                count, n=seated[2])})
    return redirect(url_for(".director", tournament_id=tournament_id)), 303


@bp.post("/<int:tournament_id>/lock")
@director_required
def lock_all(tournament_id: int):
    """Lock every tablet of the tournament, every table's and the director's other devices; this one stays open."""
    count = access.lock_tournament(tournament_id)
    flash({"kind": "done", "message": ngettext(
        "%(num)s tablet locked; each needs its PIN again (this device stays open)",
        "%(num)s tablets locked; each needs its PIN again (this device stays open)", count)})
    return redirect(url_for(".director", tournament_id=tournament_id)), 303


@bp.get("/<int:tournament_id>/live")
@director_required
def live(tournament_id: int):
    """The director page's live region: 204 (nothing to swap) while the tables are as the page saw them."""
    version = polls.tournament_version_read(request.environ, tournament_id) or tournaments.live_version(tournament_id)
    if request.args.get("v") == version.token:
        return "", 204
    row = tournaments.get_tournament(tournament_id)
    drawn = request.args.get("d") if request.headers.get("HX-Request") else None  # the drawing the page shows
    context = _live_context(row, version, drawn)
    shown = context["region"]
    if shown.changes:  # the parts changed since the drawing the poll named, each swapped in place
        return shown.body, 200, {"Cache-Control": "no-store", "HX-Reswap": "none",
                                 director_live.VERSION_HEADER: version.token,
                                 director_live.DRAWING_HEADER: shown.drawing}
    return render_template("tournaments/_live.html", **context), 200, {"Cache-Control": "no-store"}


def _display_context(row, version: tournaments.Version, progress: progress_service.Progress) -> dict:
    """What the room's display shows: every table of the round (its players, no PINs) and the places (``progress``:
    where the tournament stands; the round's clock is put in at each answer: :func:`round_clock`); nothing a
    spectator may not see."""
    seated = tournaments.seating(row.id)
    last = seated[-1] if seated else None
    # no decision is shown: none put in words
    tables = tournaments.round_overview(row.id, last.number, version=version) if last else []
    ruleset = rulesets.load(row.ruleset)
    places = kept_standings("tournaments/_places.html", row, progress, scheme=rulesets.load_scheme(row.scheme))
    return {"row": row, "round": last, "tables": tables, "cards": display_cards(row, tables), "places_html": places,
            "progress": progress, "format": progress.format, "standings": progress.places, "version": version.token,
            "poll": POLL, "scheme": rulesets.load_scheme(row.scheme), "currency": ruleset.money}


def round_clock(tables: list[tournaments.TableView]) -> clocks.Clock | None:
    """The room's big clock: of the round's tables that have started, are not over and have a time limit, the clock
    with the least time left (None: none)."""
    timed = [(left, t.clock) for t in tables if t.started and not t.over
             and (left := t.clock.remaining_seconds) is not None]
    return min(timed, key=lambda timed_clock: timed_clock[0])[1] if timed else None


def _display_region(tournament_id: int, version: tournaments.Version) -> Markup:
    """The room display's live region, drawn once a version for every display (:func:`cards.display_region`)."""
    # the tournament's row held for the answer: the session keeps a row only while something refers to it, and each
    # reading of it let go was read again (where the tournament stands reads it too; on PostgreSQL a round trip)
    row = tournaments.get_tournament(tournament_id)
    # kept under the places' version too: the places are drawn from where the tournament stands, which follows the
    # roster, and the tables' version does not
    progress, places = progress_service.progress_and_version(tournament_id, version)

    def draw(big_clock: Markup) -> tuple[str, list]:
        context = _display_context(row, version, progress)
        return render_template("tournaments/_display_live.html", **context, big_clock=big_clock), context["tables"]

    clock = get_template_attribute("tournaments/_big_clock.html", "big_clock")
    return display_region(draw, tournament_id, f"{version.token}:{places}",
                          lambda tables: clock(round_clock(tables), tables))


def only_this_computer(address: str) -> bool:
    """Whether ``address`` is one only the computer serving the app reaches (localhost, 127.0.0.1, ::1): the slips'
    QR codes would open nothing on a tablet."""
    host = urlsplit(address).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def public_base() -> str:
    """The address the tablets and phones use: PUBLIC_URL in instance/config.py, else the one this request came to
    (the director's device, or the room display's, reached the app as the tablets do)."""
    return (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/") + "/"


@bp.get("/<int:tournament_id>/display")
def display(tournament_id: int):
    """The room's display for a projector: open to everyone in the room (it shows no PIN), following the tables
    within a second as the director's page does."""
    version = polls.tournament_version_read(request.environ, tournament_id) or tournaments.live_version(tournament_id)
    if request.headers.get("HX-Request") and request.args.get("v") == version.token:
        return "", 204
    region = _display_region(tournament_id, version)
    if request.headers.get("HX-Request"):
        return region, 200, {"Cache-Control": "no-store"}
    row = tournaments.get_tournament(tournament_id)
    standings_url = public_base() + url_for(".standings", tournament_id=tournament_id).lstrip("/")
    return render_template("tournaments/display.html", row=row, standings_url=standings_url,
                           standings_qr=qr_img(standings_url), display_region=region)


@bp.post("/<int:tournament_id>/rounds")
@director_required
def seat(tournament_id: int):
    expected = request.form.get("round", type=whole)
    if expected is None:
        flash({"kind": "refused", "message": gettext("the form names no round to seat: nothing was seated")})
    else:
        try:
            number = progress_service.seat_round(tournament_id, expected, request.form.get("stage") or None)
        except errors.BadTournament as exc:
            _refused(exc)
        else:
            flash({"kind": "done", "message": gettext("round %(n)s seated: each table has its own PIN (on the "
                                                      "table's card and its slip)", n=number)})
    return redirect(url_for(".director", tournament_id=tournament_id)), 303


@bp.post("/<int:tournament_id>/players")
@director_required
def players(tournament_id: int):
    """A change to the players between rounds: check-in, a drop, an alternate stepping in, a late entry."""
    expected = request.form.get("seated", type=whole)
    action = request.form.get("action", "")
    try:
        if expected is None:
            raise errors.BadTournament.of("the form names no round: nothing was changed", {})
        if action in ("late_entry", "alternate"):
            done = roster.add_player(tournament_id, request.form.get("name", ""), action == "alternate", expected,
                                      request.form.get("division", ""), request.form.get("replaces", ""))
        else:
            done = roster.change_player(tournament_id, request.form.get("name", ""), action, expected)
    except errors.BadTournament as exc:
        _refused(exc)
    else:
        flash({"kind": "done", "message": refusal_detail(done)})
    return redirect(url_for(".director", tournament_id=tournament_id, players=1) + "#players"), 303


@bp.route("/<int:tournament_id>/tables/<int:game_id>/correct", methods=["GET", "POST"])
@director_required
def correct(tournament_id: int, game_id: int):
    """The director's correction of a finished table's result, with its reason (every one kept and shown), or the
    withdrawal of a mistaken one (a form naming it in ``withdraw``)."""
    row = tournaments.get_tournament(tournament_id)
    result = results.table_result(tournament_id, game_id)
    history, kept = results.table_corrections(tournament_id, game_id)
    if request.method == "POST" and result is not None:
        names = [p["name"] for p in result["ranking"]]
        seen = request.form.get("seen", type=whole, default=-1)
        try:
            if "withdraw" in request.form:
                done = results.withdraw_correction(tournament_id, game_id,
                                                   request.form.get("withdraw", type=whole, default=-1),
                                                   request.form.get("reason", ""), seen)
            else:
                places = {n: _whole(request.form.get(f"place-{i}")) for i, n in enumerate(names)}
                assets = {n: _whole(request.form.get(f"assets-{i}")) for i, n in enumerate(names)}
                bankrupt = {n for i, n in enumerate(names) if request.form.get(f"bankrupt-{i}") == "1"}
                done = results.correct_result(tournament_id, game_id, places, assets, bankrupt,
                                              request.form.get("monopoly") == "1", request.form.get("reason", ""),
                                              seen)
        except errors.BadTournament as exc:
            _refused(exc)
            return redirect(url_for(".correct", tournament_id=tournament_id, game_id=game_id)), 303
        flash({"kind": "done", "message": refusal_detail(done)})
        return redirect(url_for(".director", tournament_id=tournament_id)), 303
    currency = rulesets.load(row.ruleset).money
    where = games.table_of_game(game_id)
    return render_template("tournaments/correct.html", row=row, game_id=game_id, result=result, history=history,
                           kept=kept, currency=currency, where=where[1:] if where else None), 200, {
                               "Cache-Control": "no-store"}


def _whole(text) -> int | None:
    """A whole number typed in a form (digits and separators), else None (the service says what is wrong)."""
    try:
        return whole((text or "").replace(",", "").replace(" ", ""))
    except ValueError:
        return None


@bp.post("/<int:tournament_id>/rounds/<int:number>/time")
@director_required
def call_time(tournament_id: int, number: int):
    try:
        called = tournaments.call_time_on_round(tournament_id, number)
    except errors.GameNotFound as exc:
        _refused(exc)
    else:
        flash({"kind": "done", "message": gettext("time called on 1 table") if called == 1
               else gettext("time called on %(n)s tables", n=called)})
    return redirect(url_for(".director", tournament_id=tournament_id)), 303


@bp.get("/<int:tournament_id>/rounds/<int:number>/slips.pdf")
@director_required
def slips_pdf(tournament_id: int, number: int):
    """The round's table slips (each table's players and its own PIN): for the director only."""
    data = reports.table_slips_pdf(tournament_id, number, public_base(), page_size())
    response = pdf_response(data, f"slips-{tournament_id}-round-{number}.pdf")
    response.headers["Cache-Control"] = "no-store"  # it holds the tables' PINs
    return response


@bp.get("/<int:tournament_id>/standings.pdf")
def standings_pdf(tournament_id: int):
    data = reports.standings_pdf(tournament_id, page_size())
    return pdf_response(data, f"standings-{tournament_id}.pdf")


@bp.get("/<int:tournament_id>/standings.csv")
def standings_csv(tournament_id: int):
    data = reports.standings_csv(tournament_id)
    return data, 200, {"Content-Type": "text/csv; charset=utf-8",
                       "Content-Disposition": f'attachment; filename="standings-{tournament_id}.csv"'}


@bp.get("/scoresheet.pdf")
def scoresheet_pdf():
    players = max(2, min(8, request.args.get("players", 4, type=whole)))
    return pdf_response(reports.scoresheet_pdf(players, page_size()), f"scoresheet-{players}.pdf")


@bp.get("/<int:tournament_id>/standings")
def standings(tournament_id: int):
    """The standings, open to everyone; live: htmx asks every second with the version the page was drawn at (204
    while nothing changed) and swaps in the places, the champions and the corrections."""
    progress, version = progress_service.live_progress_and_version(tournament_id)  # it changes with the places
    live = bool(request.headers.get("HX-Request"))
    if live and request.args.get("v") == version:
        return "", 204
    me = request.args.get("me", "")[:200]

    def draw(**marks) -> str:
        row = tournaments.get_tournament(tournament_id)
        return render_template("tournaments/_standings_live.html", row=row, scheme=rulesets.load_scheme(row.scheme),
                               currency=rulesets.load(row.ruleset).money, standings=progress.places,
                               progress=progress, format=progress.format, corrections=results.corrections(row.id),
                               version=version, poll=POLL, **marks)

    region = standings_region(draw, tournament_id, version, me)
    if live:
        return region, 200, {"Cache-Control": "no-store"}
    row = tournaments.get_tournament(tournament_id)
    return render_template("tournaments/standings.html", row=row, scheme=rulesets.load_scheme(row.scheme),
                           format=progress.format, standings=progress.places, me=me, standings_region=region)
