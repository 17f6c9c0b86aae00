"""The table: the referee's screen, recording entries, the log, corrections, the spectators' display."""
from __future__ import annotations

from flask import Blueprint, g, redirect, render_template, request, url_for

from ... import reports
from ...services import rulesets
from ..forms import UnlockForm, entry_key, whole
from ...language.i18n import gettext, language, ngettext

from ...screens.forms import entry_from_form, following_entry, not_a_table_form
from ...screens.dispute import dispute_screen, DisputeScreen, entry_number, NoSuchEntry
from ...screens.kind import paper_tables
from ...screens.log import LOG_PAGE, log_lines
from ...screens.refusals import clip, detail as refusal_detail
from ...screens.refusals import title as refusal_title
from ...screens.table import (
    entry_address, entry_said, equal_calls, event_lines, outcome_lines, panel_names, recorded, refusal,
    result_screen)
from ...screens.judge import table_call
from ...screens.rulings_log import clause_choices, deciders_now, ruling_lines
from ...screens.rules_page import rules_page
from ...services import clocks, entry_keys, errors, folds, games, rulings, signoffs, stamps, tournaments
from ..access import (
    count_director_guess, deciders_allowed, director_pin_may_be_tried, flash, judge_level, may_referee,
    referee_required, throttled)
from .. import polls
from . import table_live
from .games import page_size, pdf_response, unlock

bp = Blueprint("table", __name__)


@bp.app_template_global("game_title")
def _game_title(row) -> str:
    """A game's title (a tournament's table by its seat): the seat read with the game (:func:`_load`), else
    asked of the database once per page (the page's title and its header both show it)."""
    titles, seats = g.setdefault("game_titles", {}), g.get("seats", {})
    if row.id not in titles:
        seat = seats[row.id] if row.id in seats else games.table_of_game(row.id)
        titles[row.id] = reports.game_title(row.id, row.title, seat)
    return titles[row.id]


def _load(game_id: int) -> folds.LoadedGame:
    """The game's table (:class:`GameNotFound` otherwise: the app's "no game" page), its seat kept for the page's
    title."""
    loaded = folds.load(game_id)
    g.setdefault("seats", {})[game_id] = loaded.seat  # the page's title names it
    return loaded


def entry_url(game_id: int) -> str:
    """The address of the table at an entry, without the entry's number (a log line adds it: one url_for for the
    whole log)."""
    return entry_address(url_for, game_id)


def _refused(game_id: int, exc) -> dict:
    """The flash of a refused entry (:func:`referee.screens.table.refusal`), with the clause's texts from the
    game's ruleset (the refusal's own table when the rules refused it; a refusal of the service loads the game)."""
    state = getattr(exc, "state", None)
    return {**refusal(exc, state.ruleset if state is not None else folds.load(game_id).game.ruleset),
            "game": game_id}


@bp.get("/games/<int:game_id>/unlock")
def unlock_form(game_id: int):
    loaded = _load(game_id)
    return render_template("table/unlock.html", form=UnlockForm(), row=loaded.row,
                           tournament_game=games.tournament_of_game(game_id) is not None)


@bp.post("/games/<int:game_id>/unlock")
@throttled(per_game=True)
def unlock_post(game_id: int):
    form = UnlockForm()
    loaded = _load(game_id)
    tournament = games.tournament_of_game(game_id)
    director = tournament is not None and director_pin_may_be_tried(tournament)
    if form.validate_on_submit() and tournaments.check_table_pin(game_id, form.pin.data, director):
        unlock(game_id)
        return redirect(url_for(".table", game_id=game_id))
    if tournament is not None:
        count_director_guess(tournament)
    flash({"kind": "refused", "message": gettext("wrong PIN: only the referee of this table may record")})
    return render_template("table/unlock.html", form=form, row=loaded.row, tournament_game=tournament is not None), 403


@bp.get("/games/<int:game_id>")
@referee_required
def table(game_id: int):
    if _unchanged(game_id):
        return "", 204
    loaded = _load(game_id)
    upto = request.args.get("at", type=whole)
    if upto is not None and 1 <= upto <= loaded.seq:  # the table after an entry: the dispute view shows it
        return redirect(url_for(".entry", game_id=game_id, n=upto))
    if upto is not None and upto != 0:  # the table at the start stays here, read only
        upto = None
    return _live_or_page(loaded, "table/table.html", upto)


def _dispute(loaded: folds.LoadedGame, n: str) -> DisputeScreen:
    """The table at entry ``n`` (as the address or the form carries it; :class:`NoSuchEntry` when the game has no
    such entry), with when it and the entry before it were recorded."""
    number = entry_number(loaded.game, n)
    return dispute_screen(loaded.game, number, *games.recorded_times(loaded.row.id, number))


def _no_entry(loaded: folds.LoadedGame, exc: NoSuchEntry):
    """The refusal of an entry number the game has none for, with the form to type another."""
    return render_template("table/no_entry.html", row=loaded.row, message=exc.words, total=loaded.seq), 404


def _at_entry(game_id: int, n: str, answer):
    """``answer(table, screen)`` for the table at entry ``n``, or the refusal of a number the game has no entry for."""
    loaded = _load(game_id)
    try:
        screen = _dispute(loaded, n)
    except NoSuchEntry as exc:
        return _no_entry(loaded, exc)
    return answer(loaded, screen)


@bp.get("/games/<int:game_id>/entries/<n>")
def entry(game_id: int, n: str):
    """The dispute view: the table at entry n (read only: what the log shows, anyone may read), with the rulings
    recorded on it and, for the table's referee or the director, the form to record one."""
    def page(loaded: folds.LoadedGame, screen: DisputeScreen):
        kept = rulings.read(game_id)
        on_entry = kept.on(screen.n)
        ruleset = loaded.game.ruleset
        tournament = games.tournament_of_game(game_id) if loaded.seat is not None else None
        call = rulings.open_call(game_id) if loaded.seat is not None else None
        return render_template(
            "table/dispute.html", row=loaded.row, altered=loaded.altered, entry_url=entry_url(game_id),
            **screen.context(),
            log_rulings=ruling_lines(ruleset, on_entry), rulings_altered=kept.altered_at,
            deciders=deciders_now(on_entry, deciders_allowed(game_id)),
            clauses=clause_choices(ruleset), limits=(rulings.MAX_CLAIM, rulings.MAX_RULING),
            call=table_call(call, clocks.utcnow()),
            # the table's referee may call a judge on this entry (a tournament's table with no call open)
            may_call=loaded.seat is not None and call is None and may_referee(game_id),
            judge_tournament=tournament if judge_level(tournament) is not None else None)
    return _at_entry(game_id, n, page)


@bp.post("/games/<int:game_id>/entries/<int:n>/rulings")
def record_ruling(game_id: int, n: int):
    """Record a ruling on entry n: the table's referee as the referee, a judge (the judges' PIN) as a judge, the head
    judge (the head judge's PIN) or the director as a judge or the head judge (a judge's ruling answers the table's
    call for a judge)."""
    _load(game_id)
    decider = request.form.get("decider", "")[:20]
    allowed = deciders_allowed(game_id)
    if decider == "referee" and decider not in allowed:
        flash({"kind": "refused", "message": gettext(
            "a referee's ruling is recorded from the table's tablet, unlocked with its PIN: nothing was recorded")})
    elif decider == "judge" and decider not in allowed:
        flash({"kind": "refused", "message": gettext(
            "a judge's ruling is recorded with the judges' PIN of this tournament (or the head judge's, or the "
            "director's unlock): nothing was recorded")})
    elif decider == "head_judge" and decider not in allowed:
        flash({"kind": "refused", "message": gettext(
            "the head judge's ruling is recorded with the head judge's PIN of this tournament (or the director's "
            "unlock): nothing was recorded")})
    else:
        try:
            made = rulings.record_ruling(game_id, n, request.form.get("claim", ""), request.form.get("ruling", ""),
                                         request.form.get("clause", "")[:200], decider)
        except rulings.RulingRefused as exc:
            flash({"kind": "refused", "message": refusal_detail(exc)})
        else:
            flash({"kind": "done", "message": gettext("Ruling %(n)s recorded on entry %(entry)s", n=made.n,
                                                      entry=made.entry)})
    return redirect(url_for(".entry", game_id=game_id, n=n) + "#rulings-log"), 303


@bp.get("/games/<int:game_id>/rulings")
def rulings_log(game_id: int):
    """Every ruling recorded in the game, in order (anyone may read)."""
    loaded = _load(game_id)
    kept = rulings.read(game_id)
    return render_template("table/rulings.html", row=loaded.row, altered=loaded.altered,
                           rulings_altered=kept.altered_at, log_rulings=ruling_lines(loaded.game.ruleset, kept.items),
                           entry_url=entry_url(game_id))


@bp.post("/games/<int:game_id>/call-judge")
@referee_required
def call_judge(game_id: int):
    """The table calls a judge on an entry (``entry``: the latest when the form names none; ``other``: a number
    typed instead) with who calls (``caller``: a player at the table; none: the referee).  One tap; a second while
    the call is open records nothing new.  Back to the screen the call was made from (the table, or the dispute view
    of the entry: ``back`` names it)."""
    form = request.form
    back_to = form.get("back", type=whole)
    back = (url_for(".entry", game_id=game_id, n=back_to) if back_to is not None and back_to >= 0
            else url_for(".table", game_id=game_id))
    typed = (form.get("other", "").strip() or form.get("entry", "")).strip()  # a number typed over the one ticked
    try:
        entry = whole(typed) if typed else None
    except ValueError:
        flash({"kind": "refused", "message": gettext("“%(text)s” is not an entry number: no judge was called",
                                                     text=clip(typed, 20))})
        return redirect(back), 303
    try:
        new = rulings.call_judge(game_id, entry, form.get("caller", "")[:200])
    except rulings.RulingRefused as exc:
        flash({"kind": "refused", "message": refusal_detail(exc)})
    else:
        call = rulings.open_call(game_id)
        flash({"kind": "done", "message": gettext(
            "A judge has been called on entry %(n)s: the judges' screen and the director's page show this table",
            n=call.entry if call else entry) if new else gettext(
            "A judge was already called (on entry %(n)s): the call stays open until a judge rules",
            n=call.entry if call else entry)})
    return redirect(back), 303


@bp.get("/games/<int:game_id>/entries/<n>/sheet.pdf")
def entry_pdf(game_id: int, n: str):
    """The dispute view as a printed sheet."""
    return _at_entry(game_id, n, lambda loaded, screen: pdf_response(
        reports.dispute_pdf(screen, loaded.row, loaded.altered, page_size()), f"game-{game_id}-entry-{screen.n}.pdf"))


@bp.get("/games/<int:game_id>/entries")
def go_to_entry(game_id: int):
    """The "go to entry" form: the table at the entry typed."""
    loaded = _load(game_id)
    try:
        n = entry_number(loaded.game, request.args.get("n", ""))
    except NoSuchEntry as exc:
        return _no_entry(loaded, exc)
    return redirect(url_for(".entry", game_id=game_id, n=n)), 303


@bp.get("/games/<int:game_id>/panels/<name>")
@referee_required
def panel(game_id: int, name: str):
    """One panel's contents, drawn when the referee opens it on the table screen (htmx puts them in place)."""
    loaded = _load(game_id)
    if name not in panel_names(loaded.game.state):
        return render_template("error.html", message=gettext("the table screen has no panel %(name)s",
                                                             name=clip(name, 40))), 404
    view = table_live.view_model(loaded, panels=frozenset([name]))
    return render_template("table/_panel.html", only=name, **view), 200, {"Cache-Control": "no-store"}


def _unchanged(game_id: int) -> bool:
    """A live poll (htmx's, naming the version its screen was drawn at, no entry asked for) of a game whose screens
    are still as drawn: answered from one statement, the game not loaded (:func:`stamps.poll_version`)."""
    seen = request.args.get("v")
    if not (seen and request.headers.get("HX-Request") and "at" not in request.args):
        return False
    read = polls.version_read(request.environ, game_id)  # read for this request already, before Flask's
    return seen == (read if read is not None else stamps.poll_version(game_id))


def _live_or_page(loaded: folds.LoadedGame, page: str, upto: int | None = None):
    """A whole screen, or for htmx's poll its live region alone: 204 while the game is as the screen was drawn
    (the poll names the version it saw), so a screen follows entries made elsewhere within a second."""
    if request.headers.get("HX-Request") and upto is None:
        stamp = stamps.stamp(loaded, polls.counts_read(request.environ, loaded.row.id))
        if request.args.get("v") == stamp.version:
            return "", 204
        if page != "table/table.html":
            return render_template("table/_display_live.html",
                                   **table_live.view_model(loaded, panels=table_live.asked_panels(), stamp=stamp)
                                   ), 200, {"Cache-Control": "no-store"}
        return _region(loaded, _meanwhile(loaded), stamp)
    if page == "table/table.html" and upto is None:  # the live region as every device showing the table has it
        return table_live.page(loaded, table_live.live_html(loaded, None, stamps.stamp(loaded)),
                               table_live.said_notices(loaded.row.id))
    return render_template(page, **table_live.view_model(loaded, upto, table_live.asked_panels()))


def _region(loaded: folds.LoadedGame, message: dict | None, stamp: stamps.Stamp | None = None):
    """The table screen's live region (htmx's answer), with a message at its top when there is one."""
    return (table_live.live_html(loaded, message, stamp or stamps.stamp(loaded)), 200, {"Cache-Control": "no-store"})


MEANWHILE_LINES = 10  # the latest entries a returning screen names (the log has them all)


def _meanwhile(loaded: folds.LoadedGame) -> dict | None:
    """What a screen whose network came back is told (its poll names ``since``, the entries it showed, and
    ``keys``, its forms' keys): the entries recorded since, those made on another device and those its own tap
    recorded before its answer was lost; None for an ordinary poll."""
    since = request.args.get("since", type=whole)
    if since is None or since > loaded.seq:
        return None
    mine = entry_keys.entries_of_keys(loaded.row.id, request.args.get("keys", "")[:400].split(","), since)
    lines = log_lines(loaded.game, max(since, loaded.seq - MEANWHILE_LINES), loaded.seq)
    others = loaded.seq - since - len(mine)
    said = [gettext("The network is back.")]
    if others:
        said.append(ngettext("%(num)s entry was made on another device while this tablet was cut off.",
                             "%(num)s entries were made on another device while this tablet was cut off.", others))
    if mine:
        said.append(ngettext("%(num)s entry this screen sent was recorded (once).",
                             "%(num)s entries this screen sent were recorded (once).", len(mine)))
    if loaded.seq == since:
        said.append(gettext("No entry was recorded meanwhile: the table is as this screen showed it."))
    details = [f"{n} · {words}" + (" · " + gettext("sent from this screen") if n in mine else "")
               for n, words, _ in reversed(lines)]
    if loaded.seq - since > len(lines):
        details.append(ngettext("and %(num)s more before them: the log lists them all",
                                "and %(num)s more before them: the log lists them all",
                                loaded.seq - since - len(lines)))
    return {"kind": "done", "message": " ".join(said), "details": details}


@bp.post("/games/<int:game_id>/clock")
@referee_required
def set_clock(game_id: int):
    action = request.form.get("action")
    if action not in ("start", "pause"):
        flash({"kind": "refused", "message": "the clock can be started or paused"})
    else:
        try:
            clocks.set_clock(game_id, action == "start")
        except errors.ClockStopped as exc:
            flash({"kind": "refused", "title": refusal_title(exc.code), "message": refusal_detail(exc)})
    return redirect(url_for(".table", game_id=game_id)), 303


@bp.post("/games/<int:game_id>/redo")
@referee_required
def redo(game_id: int):
    """Record again the run of entries the latest void took back (all of them, or none)."""
    try:
        seq, key = whole(request.form["seq"]), entry_key(request.form)
    except (KeyError, ValueError):
        return _answer(game_id, {"kind": "refused", "message": gettext(
            "this form is not one the table screen makes: nothing was recorded")})
    try:
        applied = games.redo(game_id, seq, key)
    except entry_keys.AlreadyRecorded as exc:
        return _answer(game_id, _recorded_once(game_id, exc))
    except (errors.StaleEntry, errors.NothingToRedo, errors.IllegalEntry, errors.RecordAltered,
            entry_keys.KeyReused) as exc:
        return _answer(game_id, _refused(game_id, exc))
    return _answer(game_id, {"kind": "done", "message": ngettext(
        "%(num)s entry recorded again", "%(num)s entries recorded again", len(applied.outcomes)),
        "details": event_lines(applied.outcomes)})


@bp.get("/games/<int:game_id>/rules")
def rules(game_id: int):
    """The active ruleset's options and clauses, searchable (q=)."""
    loaded = _load(game_id)
    return _rules_page(loaded.game.ruleset, loaded.row)


@bp.get("/rulesets/<ruleset_id>")
def ruleset_rules(ruleset_id: str):
    """A ruleset's options and clauses before any game is played with it (the new-game screen links here)."""
    if ruleset_id not in rulesets.available():
        return render_template("error.html", message=gettext("there is no ruleset %(id)s", id=clip(ruleset_id, 80))), 404
    return _rules_page(rulesets.load(ruleset_id), None)


def _rules_page(ruleset, row):
    """The options and clauses, searchable (q=), each house rule with whether it is played."""
    page = rules_page(ruleset, request.args.get("q", ""), language=language())
    return render_template("table/rules.html", row=row, ruleset=ruleset, clauses=page.clauses, options=page.options,
                           q=page.query, highlight=request.args.get("rule", "")[:100])


@bp.get("/games/<int:game_id>/log")
def log(game_id: int):
    loaded = _load(game_id)
    page = max(1, request.args.get("page", 1, type=whole))
    total = len(loaded.game.entries)
    pages = max(1, -(-total // LOG_PAGE))
    page = min(page, pages)
    stop = total - (page - 1) * LOG_PAGE
    return render_template("table/log.html", row=loaded.row, altered=loaded.altered,
                           lines=log_lines(loaded.game, stop - LOG_PAGE, stop), page=page,
                           pages=pages, entry_url=entry_url(game_id), total=total)


@bp.get("/games/<int:game_id>/result")
def result(game_id: int):
    """The game's ranking (or standing so far) with every player's assets, and net worth over the game."""
    loaded = _load(game_id)
    manage = may_referee(game_id) and games.tournament_of_game(game_id) is None
    return render_template("table/result.html", row=loaded.row, altered=loaded.altered, state=loaded.game.state,
                           manage=manage, state_entries=loaded.fold.stored,
                           sign_offs=signoffs.sign_offs(loaded) if loaded.game.state.over else None,
                           ruleset=loaded.game.ruleset, kind_tables=paper_tables(loaded.game),
                           ranking=result_screen(loaded.game.state).ranking, chart=reports.chart_svg(loaded))


@bp.post("/games/<int:game_id>/sign-off")
@referee_required
def sign_off(game_id: int):
    """A player at the table confirms the final ranking, or refuses it with their reason (on the referee's
    tablet): appended to the game's sign-offs, chained with its record."""
    form = request.form
    try:
        seen_entries, seen_count = whole(form["entries"]), whole(form["count"])
        player, verdict = form["player"][:400], form["verdict"][:20]
    except (KeyError, ValueError):
        flash({"kind": "refused", "message": gettext("this form is not one the table screen makes: nothing was "
                                                     "recorded")})
        return redirect(url_for(".table", game_id=game_id)), 303
    try:
        given = signoffs.sign_off(game_id, player, verdict, form.get("reason", "")[:2000], seen_entries, seen_count,
                                  form.get("ranking", "")[:100])
    except signoffs.SignOffRefused as exc:
        flash({"kind": "refused", "title": refusal_title(exc.code), "message": refusal_detail(exc)})
    else:
        flash({"kind": "done", "message": gettext("%(player)s refuses the final ranking: %(reason)s",
                                                  player=given.player, reason=given.reason) if given.refused
               else gettext("%(player)s confirms the final ranking", player=given.player)})
    return redirect(url_for(".table", game_id=game_id) + "#sign-off"), 303


@bp.get("/games/<int:game_id>/display")
def display(game_id: int):
    if _unchanged(game_id):
        return "", 204
    loaded = _load(game_id)
    return _live_or_page(loaded, "table/display.html")


def _submit(game_id: int, act, done_message) -> object:
    """Read the entry a table form describes, hand it to ``act`` (record or check), flash the outcome and show
    the table again: a plain form's record to the screen made for it now (:func:`table_live.made_after`)."""
    message, after = _attempt(game_id, act, done_message)
    if after is not None:
        g.setdefault("seats", {})[game_id] = after.seat  # the page's title names it
    if after is not None and not request.headers.get("HX-Request"):
        said = table_live.made_after(after, message)
        if said is not None:
            return redirect(url_for(".table", game_id=game_id, said=said)), 303
    return _answer(game_id, message, after)


def _answer(game_id: int, message: dict, after: folds.LoadedGame | None = None):
    """The table after a form: a plain form is sent to it with the message flashed; htmx is answered with the
    table's live region, the message at its top (an entry form sent again is answered the same way), drawn from
    the table as the entries recorded left it (``after``; None: loaded)."""
    if request.headers.get("HX-Request"):
        return _region(after if after is not None else _load(game_id), message)
    flash(message)
    return redirect(url_for(".table", game_id=game_id)), 303


def _recorded_once(game_id: int, exc: entry_keys.AlreadyRecorded) -> dict:
    """The answer to a form sent again with its screen's key (its first answer was lost on the way): the entries
    it recorded when it first came, once, and nothing more."""
    lines = log_lines(_load(game_id).game, exc.seq - 1, exc.seq - 1 + exc.entries)
    return {"kind": "done", "message": gettext(
        "Recorded (once): this tap was sent again after its answer was lost. It was recorded when it first came, as "
        "below, and nothing more now."), "details": [f"{n} · {words}" for n, words, _ in lines]}


def _attempt(game_id: int, act, done_message) -> tuple[dict, folds.LoadedGame | None]:
    """The outcome, as a flash message, of handing the entry the form describes to ``act`` (record or check), and
    the table as entries recorded left it (None: none were).  ``done_message(applied, data)`` puts the accepted entry
    in words.  What the service applied carries the game and the state before: nothing is loaded again to say what
    happened."""
    try:
        data, seq = entry_from_form(request.form)
        then = following_entry(request.form) if act is games.record else None
        key = entry_key(request.form) if act is games.record else None
    except errors.MalformedEntry as exc:  # a number longer than any an entry may carry
        return _refused(game_id, exc), None
    except (KeyError, ValueError, TypeError, RecursionError):
        return not_a_table_form(), None
    try:
        if act is not games.record:
            applied = act(game_id, data, seq)
        elif then is None:
            applied = games.record(game_id, data, seq, key)
        else:
            applied = games.record_run(game_id, [data, then], seq, key)
    except entry_keys.AlreadyRecorded as exc:
        return _recorded_once(game_id, exc), None
    except (errors.StaleEntry, errors.MalformedEntry, errors.IllegalEntry, errors.RecordAltered,
            entry_keys.KeyReused) as exc:
        return _refused(game_id, exc), None
    if act is games.record:  # the form's entry (and the one its button adds: the opening bid after a decline)
        return recorded(applied.game, applied.seq, applied.outcomes), applied.after
    return {"kind": "done", "message": done_message(applied, data), "details": outcome_lines(applied.outcome)}, None


@bp.post("/games/<int:game_id>/check")
@referee_required
def check(game_id: int):
    """Check an entry (a proposed trade) against the rules without recording it.  From htmx, the verdict alone
    is sent, shown inside the form, which keeps what was entered."""
    def allowed(applied, data):  # an entry checked is not in the game's history: its equal calls are judged here
        tie = equal_calls(applied.before, data)
        return gettext("allowed (not recorded yet): %(entry)s", entry=entry_said(data, applied.game.ruleset, tie))

    if not request.headers.get("HX-Request"):
        return _submit(game_id, games.check, allowed)
    return (render_template("_message.html", m=_attempt(game_id, games.check, allowed)[0]), 200,
            {"Cache-Control": "no-store"})


@bp.post("/games/<int:game_id>/record")
@referee_required
def record(game_id: int):
    return _submit(game_id, games.record, None)
