"""Printed reports: names as text in the PDF, with a CJK font embedded."""
import csv
import html
import io
import re
import shutil
import subprocess

import pytest

from referee import create_app, reports
from referee.services import folds, games, progress, tournaments
from referee.app.demo import build_demo

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

for tool in ("pdftotext", "pdffonts"):
    if shutil.which(tool) is None:  # scripts/setup --tests installs poppler-utils
        pytest.fail(f"{tool} is missing: run scripts/setup --tests", pytrace=False)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path_factory.mktemp('r') / 'r.sqlite'}"})
    with app.app_context():
        tid = build_demo(seed=5, max_turns=60)
    return app, tid


def text_and_fonts(tmp_path, data: bytes) -> tuple[str, str]:
    path = tmp_path / "r.pdf"
    path.write_bytes(data)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True).stdout
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, check=True).stdout
    return text.decode("utf-8"), fonts.decode("utf-8")


def test_the_standings_pdf_has_the_players_names_as_text_with_a_cjk_font_embedded(demo, tmp_path):
    app, tid = demo
    with app.test_request_context():
        data = reports.standings_pdf(tid, "A4")
    text, fonts = text_and_fonts(tmp_path, data)
    for name in ("佐藤 葵", "김민수", "Jürgen Groß", "Anneliese Weiß"):
        assert name in text
    cjk = [line for line in fonts.splitlines() if "CJK" in line]
    assert cjk and all(" yes " in line for line in cjk)  # embedded


def test_a_game_result_sheet_lists_every_players_assets_and_has_the_chart(demo, tmp_path):
    app, tid = demo
    with app.test_request_context():
        game_id = tournaments.round_overview(tid, 1)[0].game_id
        table = folds.load(game_id)
        data = reports.game_pdf(game_id, "Letter")
    text, _ = text_and_fonts(tmp_path, data)
    for p in table.game.state.players:
        assert p.name in text
    assert "Net worth over the game" in text and "signature" in text


def test_the_blank_score_sheet_and_the_pdf_routes(demo):
    app, tid = demo
    client = app.test_client()
    r = client.get("/tournaments/scoresheet.pdf?players=5")
    assert r.status_code == 200 and r.data.startswith(b"%PDF")
    r = client.get(f"/tournaments/{tid}/standings.pdf?size=Letter")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    assert client.get("/tournaments/999/standings.pdf").status_code == 404


def test_report_command_writes_the_pdf(demo, tmp_path, monkeypatch):
    from referee import cli
    app, tid = demo
    monkeypatch.setattr("referee.create_app", lambda test_config=None: app)
    out = tmp_path / "s.pdf"
    assert cli.main(["report", "standings", "--tournament", str(tid), "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert cli.main(["report", "standings", "--tournament", "999", "--out", str(out)]) == 1


def test_the_game_page_shows_the_ranking_and_the_net_worth_chart(demo):
    app, tid = demo
    with app.app_context():
        game_id = tournaments.round_overview(tid, 1)[0].game_id
    page = app.test_client().get(f"/games/{game_id}/result").get_data(as_text=True)
    assert "Final ranking" in page and "<svg" in page and "<polyline" in page


@pytest.fixture(scope="module")
def asset_points(tmp_path_factory):
    """A tournament scored in assets (totals in the thousands) with a round of finished games."""
    import random

    from referee.app.demo import play_table

    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path_factory.mktemp('a') / 'a.sqlite'}"})
    with app.app_context():
        tid = tournaments.create_tournament("Asset cup", "asset-points", "jma-2006", [f"P{i}" for i in range(8)], "135791")
        progress.seat_round(tid)
        rng = random.Random(4)
        for view in tournaments.round_overview(tid, 1):
            play_table(view.game_id, rng, 30)
        standings = progress.tournament_standings(tid)
    return app, tid, standings


def test_the_standings_pdf_prints_points_and_money_with_separators_not_1708_0(asset_points, tmp_path):
    app, tid, standings = asset_points
    big = [s for s in standings if s.total >= 1000]
    assert big
    with app.test_request_context():
        text, _ = text_and_fonts(tmp_path, reports.standings_pdf(tid, "A4"))
    for s in big:
        assert f"{int(s.total):,}" in text and f"{float(s.total)}" not in text and f"{int(s.total)}" not in text
        assert f"${s.total_assets:,}" in text
    assert ".0 " not in text.replace("\n", " ") + " "


def test_the_standings_pdf_in_japanese(asset_points, tmp_path):
    app, tid, standings = asset_points
    with app.test_request_context(headers={"Cookie": "lang=ja"}):
        text, _ = text_and_fonts(tmp_path, reports.standings_pdf(tid, "A4"))
    for s in standings:
        assert f"{int(s.total):,}点" in text
    for ja in ("順位表", "プレイヤー", "合計", "モノポリー勝ち", "資産", "1回戦", "8人", "日本モノポリー協会",
               "資産ポイント（上限あり・3戦中上位2戦）"):
        assert ja in text, ja
    for english in ("Standings", "player", "total", "assets", "players", "R1"):
        assert english not in text, english


def test_a_tournament_games_result_sheet_in_japanese_names_its_round_and_table(asset_points, tmp_path):
    app, tid, _ = asset_points
    with app.test_request_context(headers={"Cookie": "lang=ja"}):
        game_id = tournaments.round_overview(tid, 1)[0].game_id
        text, _ = text_and_fonts(tmp_path, reports.game_pdf(game_id, "A4"))
    for ja in ("Asset cup 第1回戦 第1卓", "結果表", "現金", "権利書", "署名", "資産の推移", "審判", "手番 →"):
        assert ja in text, ja
    for english in ("round 1", "table 1", "Result sheet", "turns", "cash", "signature"):
        assert english not in text, english


@pytest.mark.parametrize("ruleset_id, start", [("german-simple", "30,000 M"), ("korean-house", "M1,500")])
def test_a_game_result_sheet_prints_money_in_the_rulesets_own_currency(tmp_path, ruleset_id, start):
    import json
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.sqlite'}"})
    header = {"format": "referee-game-record", "version": 1, "ruleset": ruleset_id, "players": ["Aki", "Ben"],
              "seating": "fixed"}
    with app.app_context():
        game_id = games.import_record(json.dumps(header), "123456")
    with app.test_request_context():
        text, _ = text_and_fonts(tmp_path, reports.game_pdf(game_id, "A4"))
    assert start in text and "$" not in text


# --- the sheets count and mark the players as the pages do ------------------------------------------------------

from test_formats import seat_and_play  # noqa: E402
from test_players_between_rounds import change, new_tournament  # noqa: E402
from test_table_decisions import from_position, record  # noqa: E402


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))


@pytest.mark.long  # PDFs of whole tournaments: scripts/test runs it, --fast leaves it out
def test_the_standings_pdf_counts_the_players_the_directors_page_counts_and_marks_those_who_dropped(app, tmp_path):
    """After round 1, P04 and P06 drop and Alt A steps in for P05: 12 play on, as the director's page counts them
    (the 14 entered less 3 dropped, and the alternate who stepped in; Alt B, still waiting, is not counted); the
    sheet says 3 dropped and marks each where their results keep them in the standings."""
    tid, client = new_tournament(app, 14, alternates=["Alt A", "Alt B"])
    seat_and_play(app, tid)
    change(client, tid, 1, "drop", "P04")
    change(client, tid, 1, "drop_for_alternate", "P05")
    change(client, tid, 1, "drop", "P06")
    page = flat(client.get(f"/tournaments/{tid}").get_data(as_text=True))
    counted = re.search(r"· (\d+) players", page).group(1)
    assert counted == "12" and "12 to seat" in page and "3 dropped" in page
    with app.test_request_context():
        text, _ = text_and_fonts(tmp_path, reports.standings_pdf(tid, "A4"))
    text = re.sub(r"\s+", " ", text)
    assert f"{counted} players · 3 dropped" in text and "14 players" not in text
    for name in ("P04", "P05", "P06"):
        assert f"{name} (dropped after round 1)" in text and f"{name} (dropped after round 1)" in page
    assert text.count("dropped after round 1") == 3
    standings = flat(client.get(f"/tournaments/{tid}/standings").get_data(as_text=True))
    assert standings.count("(dropped after round 1)") == 3  # the public standings mark them as the sheet does
    rows = list(csv.reader(io.StringIO(client.get(f"/tournaments/{tid}/standings.csv").get_data(as_text=True))))
    dropped = {r[1]: r[-1] for r in rows[1:]}
    assert {n for n, after in dropped.items() if after} == {"P04", "P05", "P06"} and dropped["P04"] == "1"


@pytest.mark.long  # PDFs of whole tournaments: scripts/test runs it, --fast leaves it out
def test_a_shared_place_reads_2_equals_on_the_standings_page_the_sheet_and_the_room_display(app, tmp_path):
    """Two tables corrected to the same places and totals: their players are equal after every tie-break and
    share each place, which reads "1=" (not "1" twice) wherever the standings are shown; the CSV keeps the place a
    number and says it is shared."""
    from referee.services import results

    tid, client = new_tournament(app, 8)
    seat_and_play(app, tid)
    with app.app_context():
        for view in tournaments.round_overview(tid, 1):
            order = [p for p, _, _ in view.players]
            results.correct_result(tid, view.game_id, {n: k for k, n in enumerate(order, start=1)},
                                   {n: 5000 - 1000 * k for k, n in enumerate(order, start=1)}, set(), False,
                                   "the score sheets", 0)
    page = flat(client.get(f"/tournaments/{tid}/standings").get_data(as_text=True))
    assert len(re.findall(r" 1= P0\d ", page)) == 2 and len(re.findall(r" 3= P0\d ", page)) == 2
    assert not re.search(r" 1 P0\d ", page)
    display = flat(client.get(f"/tournaments/{tid}/display").get_data(as_text=True))
    assert len(re.findall(r" 1= P0\d ", display)) == 2
    with app.test_request_context():
        text, _ = text_and_fonts(tmp_path, reports.standings_pdf(tid, "A4"))
    assert len(re.findall(r"^1=$", text, re.M)) + len(re.findall(r"\b1= P0\d", text)) == 2, text
    rows = list(csv.reader(io.StringIO(client.get(f"/tournaments/{tid}/standings.csv").get_data(as_text=True))))
    assert [(r[0], r[-2]) for r in rows[1:]] == [("1", "1"), ("1", "1"), ("3", "1"), ("3", "1"),
                                                  ("5", "1"), ("5", "1"), ("7", "1"), ("7", "1")]


def test_the_result_sheet_marks_a_place_a_roll_off_still_decides_as_the_result_page_does(client, tmp_path):
    """JMA 補足ルール「勝負の決め方」: while the roll-off for third place is due, the result page reads "3= (roll-off)"
    for Chie and Dai, and so does the printed result sheet (not "3" twice)."""
    game_id = from_position(client, {"players": {"Aki": {"cash": 2000}, "Chie": {"cash": 1000},
                                                 "Dai": {"cash": 1000}}}, players=("Aki", "Ben", "Chie", "Dai"))
    record(client, game_id, {"type": "time_called"}, {"type": "roll", "player": "Aki", "dice": [4, 6]})
    page = flat(client.get(f"/games/{game_id}/result").get_data(as_text=True))
    assert page.count("3= (roll-off)") == 2
    data = client.get(f"/games/{game_id}/result.pdf").data
    text, _ = text_and_fonts(tmp_path, data)
    assert re.sub(r"\s+", " ", text).count("3= (roll-off)") == 2, text
