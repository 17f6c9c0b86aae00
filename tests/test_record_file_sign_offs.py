"""The record file carries everything recorded of a game: after the entries and the rulings, the players'
sign-offs (``{"signoff": ...}`` lines, each with the record's head it was given on and its own hash); an import
reads them back and chains them again in the new game, refusing a line changed by hand (its hash does not follow)
or one no player could have given (naming the line); `referee verify` names a game whose stored sign-offs were
altered, and a record file whose sign-off lines were (exit 1).  A finished game's copy in the records folder
follows every ruling and sign-off added after its end: it always equals the export, written whole (a temporary
file renamed over it), readable by its owner only.  On SQLite and PostgreSQL."""
import json
import stat
import subprocess
import sys

import pytest
import sqlalchemy

from referee.engine import chain
from referee.store.db import db
from referee.services import folds, games, signoffs

from test_rulings_log import rule
from test_sign_off import finished_game, sign


def signed_game(app, client) -> int:
    """A finished game (Aki, Ben, Chie) with a ruling on its first entry, Aki's confirmation and Ben's refusal."""
    game_id = finished_game(app, client)
    assert "Ruling 1 recorded on entry 1" in rule(client, game_id, 1, "referee", clause="")
    sign(client, game_id, "Aki", app=app)
    sign(client, game_id, "Ben", "refuses", "rent on Oriental was paid twice", app=app)
    return game_id


def verify(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.cli", "verify", *map(str, args)], capture_output=True,
                          text=True)


def sign_off_lines(record: str) -> list[dict]:
    return [json.loads(line)["signoff"] for line in record.splitlines() if line.startswith('{"signoff"')]


def rewritten(record: str, which: int, /, **changes) -> str:
    """The record with its sign-off line ``which`` (from 1) changed, the other lines as they are."""
    lines = record.splitlines()
    at = [i for i, line in enumerate(lines) if line.startswith('{"signoff"')][which - 1]
    lines[at] = json.dumps({"signoff": {**json.loads(lines[at])["signoff"], **changes}}, ensure_ascii=False)
    return "\n".join(lines) + "\n"


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
def test_the_sign_offs_travel_in_the_record_file_after_the_rulings_and_an_import_chains_them_again(app, tmp_path):
    client = app.test_client()
    game_id = signed_game(app, client)
    with app.app_context():
        record = games.export_record(game_id)
        lines = record.splitlines()
        assert lines[-3].startswith('{"ruling": {"n": 1, "entry": 1')
        stored = db.session.execute(sqlalchemy.text(
            "SELECT n, player, verdict, reason, entries, head, hash FROM sign_offs WHERE game_id = :g ORDER BY n"),
            {"g": game_id}).all()
        assert [(s["n"], s["player"], s["verdict"], s["reason"], s["entries"], s["head"], s["hash"])
                for s in sign_off_lines(record)] == [tuple(row) for row in stored]
        assert set(sign_off_lines(record)[0]) == {"n", "player", "verdict", "reason", "at", "entries", "head", "hash"}
        copy = games.import_record(record, "246810")
        again = signoffs.sign_offs(folds.load(copy))
        assert again.altered is None and again.over
        assert [(s.player, s.verdict, s.reason, s.current) for s in again.rows] == [
            ("Aki", "confirms", "", True), ("Ben", "refuses", "rent on Oriental was paid twice", True)]
        assert again.waiting == ["Chie"]  # Chie signs the imported game as she would have the first
        assert games.export_record(copy).splitlines()[1:] == lines[1:]  # the same entries, rulings and sign-offs
    path = tmp_path / "game.jsonl"
    path.write_text(record, encoding="utf-8")
    replayed = subprocess.run([sys.executable, "-m", "referee.cli", "replay", str(path)], capture_output=True,
                              text=True)
    assert replayed.returncode == 0, replayed.stderr
    done = verify(path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 ruling(s), 2 sign-off(s): as written" in done.stdout


def test_a_sign_off_for_an_earlier_result_travels_too_and_stays_for_an_earlier_result_in_the_import(app):
    client = app.test_client()
    game_id = finished_game(app, client)
    sign(client, game_id, "Aki", app=app)
    with app.app_context():
        games.record(game_id, {"type": "void", "count": 1}, folds.load(game_id).seq)  # the ending taken back
        games.redo(game_id, folds.load(game_id).seq)  # and played again: a new result
    sign(client, game_id, "Aki", app=app)
    with app.app_context():
        record = games.export_record(game_id)
        assert [s["player"] for s in sign_off_lines(record)] == ["Aki", "Aki"]
        copy = games.import_record(record, "246810")
        again = signoffs.sign_offs(folds.load(copy))
        assert again.altered is None and [(s.player, s.current) for s in again.rows] == [("Aki", False), ("Aki", True)]
        assert games.export_record(copy).splitlines()[1:] == record.splitlines()[1:]


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
def test_a_sign_off_line_changed_by_hand_is_refused_by_the_import_and_by_verify_naming_its_line(app, tmp_path):
    client = app.test_client()
    game_id = signed_game(app, client)
    with app.app_context():
        record = games.export_record(game_id)
        forged = rewritten(record, 2, verdict="confirms", reason="")
        number = len(forged.splitlines())  # Ben's line is the last
        with pytest.raises(games.RecordError) as refused:
            games.import_record(forged, "246810")
        assert refused.value.line == number
        assert "sign-off 2 (Ben) is not the one signed: its hash does not follow" in str(refused.value)
        before = db.session.scalar(sqlalchemy.select(sqlalchemy.func.count()).select_from(sqlalchemy.table("games")))
    path = tmp_path / "forged.jsonl"
    path.write_text(forged, encoding="utf-8")
    done = verify(path)
    assert done.returncode == 1
    assert f"{path}: line {number}: sign-off 2 (Ben) is not the one signed" in done.stdout
    with app.app_context():  # the refused import left no game behind
        assert db.session.scalar(sqlalchemy.select(sqlalchemy.func.count()).select_from(
            sqlalchemy.table("games"))) == before


def rehashed(record: str, header: dict, **changes) -> str:
    """The record with its one sign-off line changed and its hash made again (a forger who knows the chain)."""
    first = {**sign_off_lines(record)[0], **changes}
    fields = {k: first[k] for k in ("head", "entries", "player", "verdict", "reason", "at")}
    first["hash"] = chain.sign_off_link(chain.genesis(header), 1, fields)
    return rewritten(record, 1, **first)


@pytest.mark.parametrize("change, words", [
    ({"player": "Zed"}, "Zed is not a player at this table"),
    ({"verdict": "maybe"}, "a player confirms the final ranking or refuses it"),
    ({"verdict": "refuses", "reason": ""}, "a refusal needs the player's reason"),
    ({"head": "0" * 64}, "sign-off 1 names a record this file's entries never had"),
    ({"entries": 2, "head": "earlier"}, "sign-off 1 was given after entry 2, before the game was over"),
    ({"at": "yesterday"}, "a sign-off line holds the player, the verdict, the reason, the time"),
    ({"player": "Z" * 5000}, "a sign-off line holds the player, the verdict, the reason, the time"),
    ({"entries": True}, "a sign-off line holds the player, the verdict, the reason, the time"),
    ({"n": 2}, "sign-offs are numbered in order: this one is 1"),
])
def test_a_sign_off_line_no_player_could_have_given_is_refused_naming_its_line(app, change, words):
    client = app.test_client()
    game_id = finished_game(app, client)
    sign(client, game_id, "Aki", app=app)
    with app.app_context():
        record = games.export_record(game_id)
        header = folds.stored_header(game_id)
        if change.get("head") == "earlier":  # a head the record had, after entry 2: the game was still on
            change = {**change, "head": db.session.scalar(sqlalchemy.text(
                "SELECT hash FROM entries WHERE game_id = :g AND seq = 2"), {"g": game_id})}
        forged = rehashed(record, header, **change)
        with pytest.raises(games.RecordError) as refused:
            games.import_record(forged, "246810")
        assert refused.value.line == len(forged.splitlines()) and words in str(refused.value)


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
def test_verify_names_the_game_and_the_sign_off_altered_in_the_database(app):
    client = app.test_client()
    game_id = signed_game(app, client)
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    sound = verify("--database", url)
    assert sound.returncode == 0, sound.stdout
    with app.app_context():
        db.session.execute(sqlalchemy.text("UPDATE sign_offs SET reason = 'all fine' WHERE game_id = :g AND n = 2"),
                           {"g": game_id})
        db.session.commit()
        assert [(row.id, n, player) for row, n, player in signoffs.verify_all()] == [(game_id, 2, "Ben")]
    done = verify("--database", url)
    assert done.returncode == 1
    assert f'game {game_id} "Table 1": its sign-offs were altered at sign-off 2 (Ben)' in done.stdout
    assert "1 with altered sign-offs" in done.stdout
    with app.app_context():  # the export carries the sign-offs as written, the altered one left out
        assert [s["player"] for s in sign_off_lines(games.export_record(game_id))] == ["Aki"]


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
def test_the_records_folder_copy_of_a_finished_game_follows_its_later_rulings_and_sign_offs(app, tmp_path):
    folder = tmp_path / "records"
    app.config["RECORDS_DIR"] = str(folder)
    client = app.test_client()
    game_id = finished_game(app, client)
    copy = folder / f"game-{game_id}.jsonl"
    with app.app_context():
        assert copy.read_text(encoding="utf-8") == games.export_record(game_id)  # written when the game ended
    assert '"ruling"' not in copy.read_text(encoding="utf-8")
    rule(client, game_id, 1, "referee", ruling="the roll stands", clause="")
    assert '"ruling": "the roll stands"' in copy.read_text(encoding="utf-8")
    sign(client, game_id, "Chie", "refuses", "my mortgage was not counted", app=app)
    with app.app_context():
        assert copy.read_text(encoding="utf-8") == games.export_record(game_id)
    assert sign_off_lines(copy.read_text(encoding="utf-8"))[0]["reason"] == "my mortgage was not counted"
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert [p.name for p in folder.iterdir()] == [copy.name]  # no temporary file left beside it
    done = verify(copy)
    assert done.returncode == 0, done.stdout
    assert "1 ruling(s), 1 sign-off(s): as written" in done.stdout
