"""The rulings log and the call for a judge: a ruling on a disputed entry is appended, never edited, hash-chained
per game (a tampered row is seen by every read and by `referee verify`); an appeal goes up (the table's referee, a
judge, the head judge) and the head judge's ruling is final (tournament practice); the table's referee rules as
the referee, the director as a judge; the rulings travel in the record file (export, import, `referee replay`) and
print on the result sheet; a table calls a judge with one tap (a second tap records nothing new), the call shows on
the director's page with its table, entry and minutes waited until a judge's ruling answers it.  On SQLite and
PostgreSQL."""
import html
import re
import subprocess
import sys
from datetime import timedelta

import pytest
import sqlalchemy

from referee import reports
from referee.store.db import db
from referee.store.models import JudgeCallRow, RulingRow
from referee.services import folds, games, rulings, tournaments

from conftest import finish_seating
from test_tournaments import new_tournament


def text(page) -> str:
    page = page if isinstance(page, str) else page.get_data(as_text=True)
    page = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def seated(app):
    """A tournament seated for round 1 (the director's client), its first table's game played past the seating
    roll, and a client unlocked as that table's referee."""
    director = app.test_client()
    tid = new_tournament(director, players=8)
    with app.app_context():
        view = tournaments.round_overview(tid, 1)[0]
        finish_seating(view.game_id)
    referee = app.test_client()
    r = referee.post(f"/games/{view.game_id}/unlock", data={"pin": view.pin})
    assert r.status_code == 302, r.data
    return tid, view.game_id, director, referee


def rule(client, game_id, n, decider, claim="Ben says he rolled before the hammer", ruling="the roll stands",
         clause="auction_tie"):
    r = client.post(f"/games/{game_id}/entries/{n}/rulings", follow_redirects=True,
                    data={"claim": claim, "ruling": ruling, "clause": clause, "decider": decider})
    assert r.status_code == 200
    return text(r)


def stored(app, game_id):
    with app.app_context():
        return rulings.read(game_id)


def test_a_ruling_is_listed_on_the_entry_the_games_rulings_page_and_the_table_screen(app):
    tid, game_id, director, referee = seated(app)
    page = rule(referee, game_id, 2, "referee")
    assert "Ruling 1 recorded on entry 2" in page
    assert "Claim: Ben says he rolled before the hammer" in page and "Ruling: the roll stands" in page
    assert "the table's referee" in page and "Clause: JMA" in page  # the clause cited with its source
    listed = text(referee.get(f"/games/{game_id}/rulings"))
    assert "Ruling 1" in listed and "Entry 2" in listed and "the roll stands" in listed
    assert "Rulings (1)" in text(referee.get(f"/games/{game_id}"))
    assert "No ruling recorded." in text(referee.get(f"/games/{game_id}/entries/1"))


def test_an_appeal_goes_up_and_the_head_judges_ruling_is_final(app):
    tid, game_id, director, referee = seated(app)
    rule(referee, game_id, 3, "referee")
    again = rule(referee, game_id, 3, "referee", ruling="changed my mind")
    assert "an appeal goes to a higher decider" in again
    assert rule(director, game_id, 3, "judge", ruling="the roll is taken back").count("on appeal") >= 1
    assert "an appeal goes to a higher decider" in rule(director, game_id, 3, "judge", ruling="again")
    page = rule(director, game_id, 3, "head_judge", ruling="the judge's ruling stands")
    assert "Ruling 3 recorded on entry 3" in page and "final" in page
    assert "Tournament practice: the head judge's ruling is final." in page
    refused = rule(director, game_id, 3, "head_judge", ruling="on second thoughts")
    assert "the head judge has ruled on entry 3: tournament practice: the head judge's ruling is final" in refused
    kept = stored(app, game_id)
    assert [(r.decider, r.ruling) for r in kept.items] == [
        ("referee", "the roll stands"), ("judge", "the roll is taken back"), ("head_judge", "the judge's ruling stands")]
    # another entry is ruled on afresh, and a judge may rule first
    assert "Ruling 4 recorded on entry 2" in rule(director, game_id, 2, "judge")


def test_who_may_rule_the_tables_referee_as_the_referee_the_director_as_a_judge(app):
    tid, game_id, director, referee = seated(app)
    assert "recorded with the judges' PIN of this tournament" in rule(referee, game_id, 2, "judge")
    assert "recorded with the head judge's PIN of this tournament" in rule(referee, game_id, 2, "head_judge")
    assert "recorded from the table's tablet, unlocked with its PIN" in rule(director, game_id, 2, "referee")
    stranger = app.test_client()
    assert "recorded from the table's tablet" in rule(stranger, game_id, 2, "referee")
    assert "recorded with the judges' PIN" in rule(stranger, game_id, 2, "judge")
    assert "a ruling is decided by the table's referee, a judge or the head judge" in rule(referee, game_id, 2, "king")
    assert stored(app, game_id).items == ()
    # the form offers each device only what it may record
    assert 'value="referee"' in referee.get(f"/games/{game_id}/entries/2").get_data(as_text=True)
    assert 'value="judge"' not in referee.get(f"/games/{game_id}/entries/2").get_data(as_text=True)
    assert "Record a ruling on this entry" not in text(stranger.get(f"/games/{game_id}/entries/2"))


@pytest.mark.parametrize("fields, words", [
    ({"claim": ""}, "the claim is empty"),
    ({"ruling": "   "}, "the ruling is empty"),
    ({"claim": "x" * 501}, "the claim is longer than 500 characters"),
    ({"ruling": "a\x00b"}, "contains a character that cannot be stored or shown (U+0000)"),
    ({"clause": "no_such_clause"}, "the clause is not one of this game's ruleset"),
])
def test_a_bad_ruling_is_refused_naming_the_limit_and_nothing_is_recorded(app, fields, words):
    tid, game_id, director, referee = seated(app)
    data = {"claim": "a claim", "ruling": "a ruling", "clause": "", "decider": "referee", **fields}
    r = referee.post(f"/games/{game_id}/entries/2/rulings", data=data, follow_redirects=True)
    assert r.status_code == 200 and words in text(r)
    assert stored(app, game_id).items == ()


def test_a_ruling_on_an_entry_the_game_does_not_have_is_refused(app):
    tid, game_id, director, referee = seated(app)
    with app.app_context():
        total = folds.load(game_id).seq
    r = referee.post(f"/games/{game_id}/entries/{total + 1}/rulings", follow_redirects=True,
                     data={"claim": "c", "ruling": "r", "decider": "referee"})
    assert r.status_code == 404 and f"a ruling is on an entry of the game: from 1 to {total}" in text(r)
    assert stored(app, game_id).items == ()


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
def test_rulings_have_no_edit_path_and_a_tampered_row_is_seen_by_every_read_and_by_verify(app, tmp_path):
    tid, game_id, director, referee = seated(app)
    rule(referee, game_id, 2, "referee")
    rule(director, game_id, 2, "judge", ruling="overturned")
    # no address edits or deletes a ruling
    for method in ("put", "patch", "delete"):
        assert getattr(referee, method)(f"/games/{game_id}/entries/2/rulings").status_code == 405
    with app.app_context():
        db.session.execute(sqlalchemy.update(RulingRow).where(RulingRow.n == 1).values(ruling="the roll is void"))
        db.session.commit()
        kept = rulings.read(game_id)
        assert kept.altered_at == 1 and kept.items == ()
        assert [(row.id, n) for row, n in rulings.verify_all()] == [(game_id, 1)]
    page = text(referee.get(f"/games/{game_id}/rulings"))
    assert "The rulings of this game were altered at ruling 1" in page and "the roll is void" not in page
    assert "the rulings of this game were altered at ruling 1: nothing more is recorded in them" in rule(
        director, game_id, 2, "head_judge")
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    done = subprocess.run([sys.executable, "-m", "referee.cli", "verify", "--database", url], capture_output=True,
                          text=True)
    assert done.returncode == 1
    assert f"game {game_id}" in done.stdout and "its rulings were altered at ruling 1" in done.stdout


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
def test_the_rulings_travel_in_the_record_file_and_an_import_and_a_replay_read_it(app, tmp_path):
    tid, game_id, director, referee = seated(app)
    rule(referee, game_id, 2, "referee", claim="Chie: “the dice were cocked”")
    rule(director, game_id, 2, "head_judge", ruling="roll again", clause="")
    with app.app_context():
        record = games.export_record(game_id)
        lines = record.splitlines()
        assert lines[-2].startswith('{"ruling": {"n": 1, "entry": 2') and '"decider": "head_judge"' in lines[-1]
        copy = games.import_record(record, "246810")
        assert [r.fields() for r in rulings.read(copy).items] == [r.fields() for r in rulings.read(game_id).items]
        assert rulings.read(copy).altered_at is None
        assert games.export_record(copy).splitlines()[1:] == lines[1:]  # the same entries and rulings again
    path = tmp_path / "game.jsonl"
    path.write_text(record, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee.cli", "replay", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("line, words", [
    ('{"ruling": {"entry": 99, "claim": "c", "ruling": "r", "decider": "referee", "at": "2026-12-04T10:00:00"}}',
     "a ruling is on an entry of the game: from 1 to"),
    ('{"ruling": {"entry": 1, "claim": "c", "ruling": "r", "decider": "referee"}}',
     "a ruling line holds entry, claim, ruling, clause, decider and at"),
    ('{"ruling": {"entry": 1, "claim": "c", "ruling": "r", "decider": "referee", "at": "yesterday"}}',
     "a ruling's time is written 2026-12-04T10:30:00 (UTC)"),
])
def test_a_bad_ruling_line_in_an_imported_record_is_refused_naming_its_line(app, line, words):
    tid, game_id, director, referee = seated(app)
    with app.app_context():
        record = games.export_record(game_id) + line + "\n"
        number = len(record.splitlines())
        with pytest.raises(games.RecordError) as refused:
            games.import_record(record, "246810")
        assert refused.value.line == number and words in str(refused.value)


def test_an_imported_record_whose_appeals_run_backwards_is_refused(app):
    tid, game_id, director, referee = seated(app)
    rule(director, game_id, 2, "head_judge")
    with app.app_context():
        record = games.export_record(game_id)
        late = '{"ruling": {"entry": 2, "claim": "c", "ruling": "r", "decider": "referee", "at": "2026-12-04T10:00:00"}}'
        with pytest.raises(games.RecordError, match="tournament practice: the head judge's ruling is final"):
            games.import_record(record + late + "\n", "246810")


def test_the_result_sheet_prints_the_rulings(app, tmp_path):
    tid, game_id, director, referee = seated(app)
    rule(referee, game_id, 2, "referee", ruling="Dai keeps Baltic Avenue")
    with app.test_request_context():
        data = reports.game_pdf(game_id)
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    printed = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True).stdout
    printed = " ".join(printed.decode("utf-8").split())
    assert "Rulings log" in printed and "Dai keeps Baltic Avenue" in printed and "the table's referee" in printed


def test_a_call_for_a_judge_shows_on_the_directors_page_until_a_judges_ruling_answers_it(app):
    tid, game_id, director, referee = seated(app)
    with app.app_context():
        at = folds.load(game_id).seq
    assert "No table is waiting for a judge." in text(director.get(f"/tournaments/{tid}"))
    before = director.get(f"/tournaments/{tid}/live").get_data(as_text=True)
    version = re.search(r'data-version="([0-9a-f]+)"', before).group(1)
    page = text(referee.post(f"/games/{game_id}/call-judge", follow_redirects=True))
    assert f"A judge has been called on entry {at}: the judges' screen and the director's page show this table" in page
    assert (f"A judge has been called on entry {at} · called by the table's referee · waiting 0 min" in page
            and "Call a judge" not in page)
    live = director.get(f"/tournaments/{tid}/live?v={version}")  # the live region redraws, with the call
    assert live.status_code == 200 and f"at entry {at} · waiting 0 min" in text(live)
    shown = text(director.get(f"/tournaments/{tid}"))
    assert (f"Table 1 · Round 1 · at entry {at} · waiting 0 min · called by the table's referee" in shown
            and "Answer with a ruling" in shown)
    with app.app_context():  # seven minutes later
        call = db.session.scalar(sqlalchemy.select(JudgeCallRow))
        call.called_at = call.called_at - timedelta(minutes=7)
        db.session.commit()
    assert "waiting 7 min" in text(director.get(f"/tournaments/{tid}"))
    # the table's referee rules: the call stays open; a judge's ruling answers it
    rule(referee, game_id, at, "referee")
    assert "waiting 7 min" in text(director.get(f"/tournaments/{tid}"))
    rule(director, game_id, at, "judge", ruling="the judge's ruling")
    shown = text(director.get(f"/tournaments/{tid}"))
    assert "No table is waiting for a judge." in shown and "waiting 7 min" not in shown
    live = text(director.get(f"/tournaments/{tid}/live?v={live_version(live.get_data(as_text=True))}"))
    assert "No table is waiting for a judge." in live and "Answer with a ruling" not in live
    with app.app_context():
        call = db.session.scalar(sqlalchemy.select(JudgeCallRow))
        assert call.open_game_id is None and call.answered_at is not None
        assert call.ruling_id == db.session.scalar(sqlalchemy.select(RulingRow.id).where(RulingRow.n == 2))
    assert "Call a judge" in text(referee.get(f"/games/{game_id}"))  # the table may call again


HX = {"HX-Request": "true"}


def live_version(page: str) -> str:
    return re.search(r'data-version="([0-9a-f]+)"', page).group(1)


def test_another_tablet_at_the_table_is_sent_a_judge_call_and_its_answer_at_its_next_poll(app):
    tid, game_id, director, referee = seated(app)
    other = app.test_client()  # a second tablet at the same table
    with app.app_context():
        pin = tournaments.round_overview(tid, 1)[0].pin
    assert other.post(f"/games/{game_id}/unlock", data={"pin": pin}).status_code == 302
    version = live_version(other.get(f"/games/{game_id}").get_data(as_text=True))
    assert other.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204
    referee.post(f"/games/{game_id}/call-judge")
    live = other.get(f"/games/{game_id}?v={version}", headers=HX)
    shown = text(live)
    assert live.status_code == 200 and "A judge has been called on entry 13 · called by the table's referee · waiting 0 min" in shown
    assert "Call a judge" not in shown and "Rulings (0)" in shown
    version = live_version(live.get_data(as_text=True))
    assert other.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204
    with app.app_context():
        at = folds.load(game_id).seq
    rule(director, game_id, at, "judge", ruling="the judge's ruling")  # answers the call
    live = other.get(f"/games/{game_id}?v={version}", headers=HX)
    shown = text(live)
    assert live.status_code == 200 and "A judge has been called" not in shown
    assert "Call a judge" in shown and "Rulings (1)" in shown
    version = live_version(live.get_data(as_text=True))
    rule(director, game_id, at, "head_judge", ruling="the head judge's ruling")  # a ruling with no call open
    live = other.get(f"/games/{game_id}?v={version}", headers=HX)
    assert live.status_code == 200 and "Rulings (2)" in text(live)


def test_a_double_tap_on_call_a_judge_records_one_call(app):
    tid, game_id, director, referee = seated(app)
    first = text(referee.post(f"/games/{game_id}/call-judge", follow_redirects=True))
    second = text(referee.post(f"/games/{game_id}/call-judge", follow_redirects=True))
    assert "A judge has been called on entry 13: the judges' screen and the director's page show this table" in first
    assert "A judge was already called (on entry 13): the call stays open until a judge rules" in second
    with app.app_context():
        assert db.session.scalar(sqlalchemy.select(sqlalchemy.func.count(JudgeCallRow.id))) == 1
        assert len(rulings.open_calls(tid)) == 1
        # two devices at the same moment: the database keeps one open call per table
        db.session.add(JudgeCallRow(game_id=game_id, open_game_id=game_id, entry=1,
                                    called_at=rulings.utcnow()))
        with pytest.raises(sqlalchemy.exc.IntegrityError):
            db.session.commit()
        db.session.rollback()


def test_only_the_tables_referee_calls_a_judge_and_a_game_outside_a_tournament_has_none(app):
    tid, game_id, director, referee = seated(app)
    stranger = app.test_client()
    r = stranger.post(f"/games/{game_id}/call-judge")
    assert r.status_code == 302 and "/unlock" in r.headers["Location"]
    home = app.test_client()
    r = home.post("/games", data={"title": "Home", "ruleset": "jma-2006", "players": "Aki\nBen", "seating": "fixed",
                                  "pin": "123456"})
    home_id = int(r.headers["Location"].rsplit("/", 1)[1])
    page = text(home.get(f"/games/{home_id}"))
    assert "Call a judge" not in page and "Rulings (0)" in page
    assert "this game has no director" in text(home.post(f"/games/{home_id}/call-judge", follow_redirects=True))


def test_a_home_games_referee_rules_and_the_game_deleted_keeps_its_rulings_in_the_file_it_leaves(app, tmp_path):
    app.config["RECORDS_DIR"] = str(tmp_path / "records")
    home = app.test_client()
    r = home.post("/games", data={"title": "Home", "ruleset": "jma-2006", "players": "Aki\nBen", "seating": "fixed",
                                  "pin": "123456"})
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    home.post(f"/games/{game_id}/record", data={"seq": 0, "entry": '{"type": "roll", "player": "Aki", "dice": [1, 2]}'})
    assert "Ruling 1 recorded on entry 1" in rule(home, game_id, 1, "referee", clause="")
    with app.app_context():
        path = games.delete_game(game_id)
        assert db.session.scalar(sqlalchemy.select(sqlalchemy.func.count(RulingRow.id))) == 0
    assert '"ruling": "the roll stands"' in path.read_text(encoding="utf-8")
