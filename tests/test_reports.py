"""Printed reports: names as text in the PDF, with a CJK font embedded."""
import shutil
import subprocess

import pytest

from referee import create_app, reports
from referee.services import folds, games, progress, tournaments
from referee.demo import build_demo

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

    from referee.demo import play_table

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
