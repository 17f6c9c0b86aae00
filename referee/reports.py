"""Printed reports (WeasyPrint): tournament standings, a game's result sheet, a blank score sheet.

HTML from the templates in ``templates/reports/`` turned into PDF; names in any script print with the
Noto CJK fonts that scripts/setup installs (Debian's fonts-noto-cjk), embedded in the PDF.
"""
from __future__ import annotations

from flask import render_template
from markupsafe import Markup

from . import rulesets, service
from .engine.ending import ranking
from .tournament.charts import net_worth_series, net_worth_svg

PAGE_SIZES = ("A4", "Letter")


def _pdf(html: str) -> bytes:
    from weasyprint import HTML  # imported here: only the reports need it

    return HTML(string=html).write_pdf()


def standings_pdf(tournament_id: int, size: str = "A4") -> bytes:
    row = service.get_tournament(tournament_id)
    return render_standings_pdf(row.name, row.ruleset, len(row.players), rulesets.load_scheme(row.scheme),
                                service.tournament_standings(tournament_id), [r.number for r in row.rounds], size)


def render_standings_pdf(name: str, ruleset: str, players: int, scheme, standings, rounds: list[int],
                         size: str = "A4") -> bytes:
    html = render_template("reports/standings.html", name=name, ruleset=ruleset, players=players, size=size,
                           scheme=scheme, standings=standings, rounds=rounds)
    return _pdf(html)


def game_pdf(game_id: int, size: str = "A4") -> bytes:
    table = service.load(game_id)
    state = table.game.state
    names, points = net_worth_series(table.game)
    html = render_template("reports/game.html", row=table.row, state=state, size=size,
                           ranking=ranking(state),
                           chart=Markup(net_worth_svg(names, points)), over=state.over)
    return _pdf(html)


def scoresheet_pdf(players: int = 4, size: str = "A4") -> bytes:
    return _pdf(render_template("reports/scoresheet.html", players=range(1, players + 1), size=size))
