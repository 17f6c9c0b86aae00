"""Printed reports (WeasyPrint): tournament standings, a game's result sheet, a blank score sheet.

HTML from the templates in ``templates/reports/`` turned into PDF; names in any script print with the
Noto CJK fonts that scripts/setup installs (Debian's fonts-noto-cjk), embedded in the PDF.
"""
from __future__ import annotations

import functools
from decimal import Decimal
from fractions import Fraction
from typing import Callable

from flask import render_template
from babel.numbers import format_decimal
from markupsafe import Markup

from ..services import rulesets
from ..services import errors, folds, progress as progress_service, results, rulings, signoffs, tournaments
from ..cache import kept_in, NUMBER_WORDS
from ..language.i18n import current_language, gettext, language
from ..language import speaking
from ..engine import Money
from ..screens.decisions.seating import seats_by_roll
from ..screens.guide import guide
from ..screens.qr import qr_img
from ..screens.regulations import regulation_words
from ..screens.kind import paper_tables
from ..screens.rulings_log import ruling_lines
from ..screens.table import result_screen
from ..tournament.charts import net_worth_series, net_worth_svg
from ..tournament.regulations import in_force
from ..tournament.roster import active

PAGE_SIZES = ("A4", "Letter")


# --- numbers for the device's locale (Jinja filters: the tournaments blueprint registers them) -------------

def _in_the_devices_language(draw):
    """``draw`` with the screens it asks for said in the device's language (the one the request is answered in, or
    a context's as the web finds it: a command's, a test's), the sheet's own words and theirs alike."""
    @functools.wraps(draw)
    def drawn(*args, **kwargs):
        with speaking(language()):
            return draw(*args, **kwargs)

    return drawn


def number_text(value, decimals: int = 0) -> str:
    """A number with the locale's separators (1,708), a decimal only when it is not whole, and then at most
    ``decimals`` places (never more than one): 1,708 / 83.3."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    places = min(max(int(decimals), 0), 1)
    return _number_in(current_language(), value, places)  # the request's, found once (flask_babel's at each call)


@kept_in(NUMBER_WORDS)
def _number_in(locale: str | None, value, places: int) -> str:
    """:func:`number_text` in ``locale``, kept: a director's page of 64 tables writes some 300 amounts a second,
    most of them the same as the second before."""
    return format_decimal(value, format="#,##0" + ("." + "#" * places if places else ""), locale=locale)


def points_text(value, decimals: int = 1) -> str:
    """Tournament points: 1,708 in English, 1,708点 in Japanese."""
    return gettext("%(points)s", points=number_text(value, decimals))


def cash_text(amount: int, currency: "str | Money" = "$") -> str:
    """An amount of the game's money with the ruleset's currency (its Money, or a symbol written first): $1,500,
    30,000 M."""
    if isinstance(currency, Money):
        return currency.text(number_text(amount))
    return f"{currency}{number_text(amount)}"


FILTERS: dict[str, Callable[..., str]] = {"number_text": number_text, "points_text": points_text, "cash_text": cash_text}


def _pdf(html: str) -> bytes:
    from weasyprint import HTML  # imported here: only the reports need it

    return HTML(string=html).write_pdf()


@_in_the_devices_language
def standings_html_of(tournament_id: int, size: str = "A4") -> str:
    """The standings as printed, before they are printed: the players counted as the director's page counts them
    (those playing on: not those who dropped, nor the alternates waiting, nor those not checked in), those who
    dropped counted apart and marked in the standings, where their results keep their place."""
    row = tournaments.get_tournament(tournament_id)
    progress = progress_service.tournament_progress(tournament_id)
    players = tournaments.entrants(row)
    dropped = sum(1 for p in players if p.status == "dropped")
    return standings_html(row.name, row.ruleset, len(active(players)), rulesets.load_scheme(row.scheme),
                          progress.places, [r.number for r in row.rounds], size, progress.format,
                          results.corrections(tournament_id), progress.champions,
                          tournaments.regulations_in_force(row), dropped)


def standings_pdf(tournament_id: int, size: str = "A4") -> bytes:
    return _pdf(standings_html_of(tournament_id, size))


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet would run as a formula


def _cell(value) -> str:
    """A CSV cell: a text a spreadsheet would read as a formula is written as text (a leading apostrophe)."""
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


@_in_the_devices_language
def standings_csv(tournament_id: int) -> str:
    """The standings as CSV (UTF-8, comma-separated, one header row): place (within the division), player,
    division (empty without divisions), stage reached, board (in a stage ranked board by board), each round's
    points (empty where the player did not play it), total, monopoly wins, placement points, assets, then
    whether another player has the same place (1, as the pages' "2="; the place stays a number a spreadsheet
    sorts by) and the round after which the player dropped (0: before round 1; empty: still in).  Points are
    plain numbers (a dot for decimals), whatever the device's language."""
    import csv
    import io

    row = tournaments.get_tournament(tournament_id)
    progress = progress_service.tournament_progress(tournament_id)
    scheme = rulesets.load_scheme(row.scheme)
    rounds = [r.number for r in row.rounds]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["place", "player", "division", "stage", "board"] + [f"R{n}" for n in rounds]
                    + ["total", "monopoly_wins", "placement_points", "assets", "shared_place", "dropped_after_round"])
    def number(value: Fraction):  # 10, not 10.0; 12.3 to the scheme's decimals
        return int(value) if value.denominator == 1 else round(float(value), scheme.decimals)

    for st in progress.places:
        by_round = {rnd: pts for rnd, pts, _ in st.games}
        writer.writerow([st.rank, _cell(st.player), _cell(st.division), st.stage, st.board or ""]
                        + [number(by_round[n]) if n in by_round else "" for n in rounds]
                        + [number(st.total), st.monopoly_wins, number(st.placement_points), st.total_assets,
                           1 if st.shared else "", "" if st.dropped is None else st.dropped])
    return "\ufeff" + out.getvalue()  # a byte-order mark: spreadsheets then read the names as UTF-8


@_in_the_devices_language
def standings_html(name: str, ruleset: str, players: int, scheme, standings, rounds: list[int],
                   size: str = "A4", format=None, corrections=(), champions=(), regulations=(),
                   dropped: int = 0) -> str:
    """The standings report as HTML (in the device's language, numbers in its locale), before it is printed:
    ``players`` playing on, and ``dropped`` who dropped; ``regulations``: the tournament's in force, (option, value)
    as the tournament rules list them."""
    rs = rulesets.load(ruleset)
    return render_template("reports/standings.html", name=name, ruleset=ruleset, players=players, size=size,
                           ruleset_name=rs.name, currency=rs.money, scheme=scheme, standings=standings,
                           rounds=rounds, format=format, corrections=corrections, champions=champions,
                           regulations=regulation_words(rs, regulations), dropped=dropped)


def game_title(game_id: int, title: str, seat: tuple[str, int, int] | None) -> str:
    """A game's title in the device's language: a tournament's table is named by its tournament, round and
    table (``seat``, as :attr:`folds.LoadedGame.seat` gives it); any other game by the title it was given, else its
    number."""
    if seat is not None:
        return gettext("%(tournament)s: round %(round)s, table %(table)s", tournament=seat[0], round=seat[1],
                       table=seat[2])
    return title or gettext("Game #%(n)s", n=game_id)


def chart_svg(loaded: folds.LoadedGame) -> Markup:
    """The net-worth chart, its axis in the device's language and locale: a finished game's kept series, else
    the record replayed."""
    kept = folds.kept_result(loaded)
    names, points = (kept["names"], kept["points"]) if kept else net_worth_series(loaded.game)
    currency = loaded.game.ruleset.money
    return Markup(net_worth_svg(names, points, money=lambda amount: cash_text(amount, currency),
                                turns=lambda n: gettext("turns → %(n)s", n=number_text(n))))


@_in_the_devices_language
def game_html(game_id: int, size: str = "A4") -> str:
    """A game's result sheet as HTML, before it is printed."""
    loaded = folds.load(game_id)
    state = loaded.game.state
    return render_template("reports/game.html", row=loaded.row, altered=loaded.altered,
                           title=game_title(game_id, loaded.row.title, loaded.seat),
                           state=state, size=size, ranking=result_screen(state).ranking,
                           chart=chart_svg(loaded), over=state.over, kind_tables=paper_tables(loaded.game),
                           regulations=regulation_words(state.ruleset, in_force(loaded.game.header.options))
                           if loaded.seat is not None else None,
                           sign_offs=signoffs.sign_offs(loaded) if state.over else None, **_rulings_context(loaded))


def _rulings_context(loaded: folds.LoadedGame) -> dict:
    """The game's rulings log, in the device's language, for a printed sheet."""
    kept = rulings.read(loaded.row.id)
    return {"log_rulings": ruling_lines(loaded.game.ruleset, kept.items), "rulings_altered": kept.altered_at}


def game_pdf(game_id: int, size: str = "A4") -> bytes:
    return _pdf(game_html(game_id, size))


@_in_the_devices_language
def dispute_html(screen, row, altered=None, size: str = "A4") -> str:
    """The table at an entry (:class:`referee.screens.dispute.DisputeScreen`) as a printed sheet, before it is
    printed: for a dispute's file, signed by the referee and the director.  It carries every ruling recorded on
    that entry as the dispute view lists them (claim, ruling, the clause in the sheet's language with its source,
    who decided, on appeal or final, when), and says so when the game's rulings were altered."""
    kept = rulings.read(row.id)
    return render_template("reports/dispute.html", row=row, altered=altered, size=size, **screen.context(),
                           log_rulings=ruling_lines(screen.ruleset, kept.on(screen.n)),
                           rulings_altered=kept.altered_at)


def dispute_pdf(screen, row, altered=None, size: str = "A4") -> bytes:
    return _pdf(dispute_html(screen, row, altered, size))


@_in_the_devices_language
def scoresheet_html(players: int = 4, size: str = "A4") -> str:
    return render_template("reports/scoresheet.html", players=range(1, players + 1), size=size)


def scoresheet_pdf(players: int = 4, size: str = "A4") -> bytes:
    return _pdf(scoresheet_html(players, size))


@_in_the_devices_language
def table_slips_html(tournament_id: int, number: int, base_url: str, size: str = "A4") -> str:
    """One slip per table of a round, to cut out and lay on the table: the tournament, round and table, the
    players in their seats (the seating roll decides who starts), or where the ruleset seats the players by that
    roll, the players and that the seats are drawn at the table; the time limit, where the table's screen is
    and the table's own referee PIN (the director's PIN opens it too), with a QR code of that address for a phone
    or tablet camera."""
    row = tournaments.get_tournament(tournament_id)
    round_row = next((r for r in row.rounds if r.number == number), None)
    if round_row is None:
        raise errors.GameNotFound.of("tournament {tournament} has no round {round}",
                                      {"tournament": tournament_id, "round": number})
    slips = []
    for t in round_row.tables:
        loaded = folds.load(t.game_id)
        url = f"{base_url.rstrip('/')}/games/{t.game_id}"  # a device not unlocked there is shown its PIN screen
        slips.append({"number": t.number, "players": [p.name for p in loaded.game.state.players], "pin": t.pin,
                      "url": url, "qr": qr_img(url),
                      "minutes": loaded.row.time_limit_minutes, "drawn_seats": seats_by_roll(loaded.game)})
    fmt = rulesets.load_format(row.format)
    stage = fmt.stage(round_row.stage) if round_row.stage and len(fmt.stages) > 1 else None
    return render_template("reports/slips.html", row=row, round=round_row, slips=slips, size=size, stage=stage)


def table_slips_pdf(tournament_id: int, number: int, base_url: str, size: str = "A4") -> bytes:
    return _pdf(table_slips_html(tournament_id, number, base_url, size))


@_in_the_devices_language
def quick_start_html(address: str, size: str = "A4") -> str:
    """The table referee's quick start, one printed page in the device's language: the steps of the table referee's
    guide (:mod:`referee.screens.guide`) as its help page shows them, and ``address``, that page's, with its QR
    code."""
    return render_template("reports/quick_start.html", guide=guide("table-referee"), address=address,
                           qr=qr_img(address), size=size)


def quick_start_pdf(address: str, size: str = "A4") -> bytes:
    return _pdf(quick_start_html(address, size))
