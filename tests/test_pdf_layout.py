"""The printed sheets at both paper sizes, in English, Japanese, Korean and German: nothing overlaps, no text runs
out of its box or off the page (tests/pdf_layout.py reads back WeasyPrint's layout).  The sheets of a tournament's
day, with long names in every script: a finished table's result sheet (its rulings, sign-offs, a correction, the
regulations), a dispute sheet with rulings on appeal, the standings, the round's table slips, the table referee's
quick start and the score sheet."""
from __future__ import annotations

import random

import pytest

from referee import create_app, reports
from referee.app.demo import play_table
from referee.screens.dispute import dispute_screen
from referee.services import folds, games, progress, results, rulings, signoffs, tournaments

from pdf_layout import pdf_layout_problems

LANGUAGES = ("en", "ja", "ko", "de")
PLAYERS = ["Anneliese Weiß-Schönberger", "Jürgen Großkopf-Müller", "佐藤 葵子", "鈴木 蓮太郎", "김민수", "이서연",
           "Chloé Dubois-Lefèvre", "Maximilian Oberhauser"]


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    """The app, and the sheets' makers: each a function of the paper size giving the sheet's HTML."""
    folder = tmp_path_factory.mktemp("pdf-layout")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 't.sqlite'}"})
    with app.app_context():
        tid = tournaments.create_tournament("Internationales Pokalturnier / 国際カップ / 국제 컵 2026", "jma-placement",
                                            "jma-2006", PLAYERS, "135791", [70],
                                            {"penalty_dice_off_table": 50, "dealt_deeds": 2})
        progress.seat_round(tid)
        views = tournaments.round_overview(tid, 1)
        rng = random.Random(5)
        for view in views:
            play_table(view.game_id, rng, 60)
        game_id = views[0].game_id
        rulings.record_ruling(game_id, 3, "Anneliese Weiß-Schönberger: the dice left the table before they settled",
                              "the roll stands: both dice were on the table when they stopped", "dice", "referee")
        rulings.record_ruling(game_id, 3, "appeal: Jürgen Großkopf-Müller says the die touched the box",
                              "the roll stands", "dice", "judge")
        table = folds.load(game_id)
        names = [p.name for p in table.game.state.players]
        signoffs.sign_off(game_id, names[0], "confirms", "", table.seq, 0)
        signoffs.sign_off(game_id, names[1], "refuses", "Die Endabrechnung zählt meine Hypotheken doppelt.",
                          table.seq, 1)
        result = results.table_result(tid, views[1].game_id)
        ranking = result["ranking"]
        turned = list(reversed(ranking))  # the table's ranking turned over, each place keeping its total
        results.correct_result(tid, views[1].game_id, {p["name"]: k + 1 for k, p in enumerate(turned)},
                               {p["name"]: ranking[k]["total"] for k, p in enumerate(turned)}, set(), False,
                               "Der Tisch hat die Hotels nicht gezählt", len(tournaments.get_tournament(tid).rounds[0]
                                                                             .tables[1].corrections))
        times = games.recorded_times(game_id, 3)
    makers = {
        "result sheet": lambda size: reports.game_html(game_id, size),
        "corrected result sheet": lambda size: reports.game_html(views[1].game_id, size),
        "dispute sheet": lambda size: reports.dispute_html(dispute_screen(folds.load(game_id).game, 3, *times),
                                                           folds.load(game_id).row, None, size),
        "standings": lambda size: reports.standings_html_of(tid, size),
        "table slips": lambda size: reports.table_slips_html(tid, 1, "http://192.168.100.200:5000/", size),
        "quick start": lambda size: reports.quick_start_html("http://192.168.100.200:5000/help/table-referee", size),
        "score sheet": lambda size: reports.scoresheet_html(8, size),
    }
    return app, makers


@pytest.mark.long  # whole games played on a tournament's tables, and every sheet laid out eight times
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", ("A4", "Letter"))
def test_every_printed_sheet_lays_out_without_overlap_or_text_out_of_its_box(sheets, lang, size):
    app, makers = sheets
    found = []
    for name, make in makers.items():
        with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}), app.app_context():
            html = make(size)
        found += [f"{name}: {p}" for p in pdf_layout_problems(html)]
    assert not found, f"{size} {lang}: " + "\n".join(found[:40])


def test_the_check_finds_text_forced_out_of_its_cell_and_over_other_text():
    html = ("<table style='width:60px; table-layout:fixed'><tr><td style='border:1px solid'>Donaudampfschifffahrtsgesellschaft</td>"
            "</tr></table><p style='margin-top:-30px'>über der Tabelle</p>")
    problems = pdf_layout_problems(html)
    assert any("runs out of its box <td>" in p for p in problems), problems
    assert any("overlap" in p and "über der Tabelle" in p for p in problems), problems
