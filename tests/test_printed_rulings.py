"""The paper a dispute leaves behind: the printed dispute sheet of entry N carries every ruling recorded on that
entry (claim, ruling, the clause cited in the sheet's language with its source, who decided, on appeal or final,
and when), and says so when the game's rulings were altered, as the dispute view does; the result sheet lists every
ruling of the game with the entry it was on, in the order recorded.  Read back from the PDFs' text, in English and
in Japanese."""
import subprocess

import pytest
import sqlalchemy

from referee import reports
from referee.store.db import db
from referee.store.models import RulingRow

from test_rulings_log import rule, seated, stored

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

JA = {"Accept-Language": "ja"}


def pdf_words(data: bytes, tmp_path) -> str:
    """The text of a PDF, its spacing and line breaks as single spaces."""
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    printed = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True).stdout
    return " ".join(printed.decode("utf-8").split())


def sheet(client, game_id, n, tmp_path, headers=None) -> str:
    r = client.get(f"/games/{game_id}/entries/{n}/sheet.pdf", headers=headers or {})
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    return pdf_words(r.data, tmp_path)


def disputed(app):
    """A seated tournament table whose entry 2 was ruled on by its referee, appealed to a judge and then to the
    head judge (final), and whose entry 3 has a ruling of its own."""
    tid, game_id, director, referee = seated(app)
    rule(referee, game_id, 2, "referee", claim="Ben says he rolled before the hammer", ruling="the roll stands")
    rule(director, game_id, 2, "judge", claim="Ben appeals: the hammer fell first", ruling="the roll is taken back",
         clause="")
    rule(director, game_id, 2, "head_judge", claim="Aki appeals to the head judge", ruling="the judge's ruling stands",
         clause="auction_tie")
    rule(referee, game_id, 3, "referee", claim="Chie says her die fell off the table", ruling="roll again",
         clause="")
    return tid, game_id, director, referee


@pytest.mark.long  # PDFs laid out: scripts/test runs it, --fast leaves it out
def test_the_dispute_sheet_carries_every_ruling_on_its_entry_with_its_clause_who_decided_and_when(app, tmp_path):
    tid, game_id, director, referee = disputed(app)
    kept = stored(app, game_id).items
    words = sheet(referee, game_id, 2, tmp_path)
    assert "Rulings log: entry 2" in words
    first, second, third = (words.index(f"Ruling {n} ") for n in (1, 2, 3))
    assert first < second < third  # in the order recorded
    assert ("Ruling 1 · the table's referee · " + kept[0].at.strftime("%Y-%m-%d %H:%M") + " UTC "
            "Claim: Ben says he rolled before the hammer Ruling: the roll stands") in words
    assert "Clause: JMA competition rules 2006" in words  # its source in the sheet's language, then its text
    assert "When equal calls are made at the same time" in words
    assert "Ruling 2 · a judge (on appeal) · " in words and "Ruling: the roll is taken back" in words
    assert "Ruling 3 · the head judge (on appeal) final · " in words and "the judge's ruling stands" in words
    assert "Chie says her die fell off the table" not in words  # entry 3's ruling is on entry 3's sheet
    other = sheet(referee, game_id, 3, tmp_path)
    assert "Ruling 4 · the table's referee · " in other and "Claim: Chie says her die fell off the table" in other
    assert "Ben says he rolled" not in other
    assert "No ruling recorded." in sheet(referee, game_id, 1, tmp_path)


@pytest.mark.long  # PDFs laid out: scripts/test runs it, --fast leaves it out
def test_the_dispute_sheet_in_japanese_cites_the_clause_in_japanese_with_its_source(app, tmp_path):
    tid, game_id, director, referee = disputed(app)
    words = sheet(referee, game_id, 2, tmp_path, JA)
    assert "裁定記録:記録 2" in words and "裁定 1 · 卓の審判 · " in words
    assert "裁定 2 · ジャッジ (異議申し立てによる)" in words and "裁定 3 · ヘッドジャッジ (異議申し立てによる) 最終" in words
    assert "申し立て:Ben says he rolled before the hammer" in words and "裁定:the roll stands" in words
    assert "JMA 補足ルール「土地」(競売)" in words and "同時に同額のコールがあった場合は" in words
    for english in ("Rulings log", "the table's referee", "on appeal", "Claim:", "When equal calls"):
        assert english not in words, english


@pytest.mark.long  # PDFs laid out: scripts/test runs it, --fast leaves it out
def test_a_dispute_sheet_says_when_the_games_rulings_were_altered_and_shows_only_those_before(app, tmp_path):
    tid, game_id, director, referee = disputed(app)
    with app.app_context():
        db.session.execute(sqlalchemy.update(RulingRow).where(RulingRow.game_id == game_id, RulingRow.n == 2)
                           .values(ruling="the roll is void"))
        db.session.commit()
    words = sheet(referee, game_id, 2, tmp_path)
    assert "The rulings of this game were altered at ruling 2" in words
    assert "Ruling: the roll stands" in words and "the roll is void" not in words and "Ruling 3" not in words
    ja = sheet(referee, game_id, 2, tmp_path, JA)
    assert "このゲームの裁定は裁定 2 で改ざんされています" in ja and "裁定:the roll stands" in ja
    assert "the roll is void" not in ja


@pytest.mark.long  # PDFs laid out: scripts/test runs it, --fast leaves it out
def test_the_result_sheet_lists_every_ruling_with_its_entry_in_the_order_recorded(app, tmp_path):
    tid, game_id, director, referee = disputed(app)
    with app.test_request_context():
        words = pdf_words(reports.game_pdf(game_id), tmp_path)
    at = [words.index(f"Ruling {n} · Entry {entry} · ") for n, entry in ((1, 2), (2, 2), (3, 2), (4, 3))]
    assert at == sorted(at)
    assert "Ruling 4 · Entry 3 · the table's referee" in words and "Chie says her die fell off the table" in words
    with app.test_request_context(headers=JA):
        ja = pdf_words(reports.game_pdf(game_id), tmp_path)
    at = [ja.index(f"裁定 {n} · 記録 {entry} 件目 · ") for n, entry in ((1, 2), (2, 2), (3, 2), (4, 3))]
    assert at == sorted(at)
    assert "裁定 3 · 記録 2 件目 · ヘッドジャッジ (異議申し立てによる) 最終" in ja
