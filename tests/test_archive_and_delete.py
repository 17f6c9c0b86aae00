"""Archiving and deleting (issue 12): a game's referee (where creation is open) archives or deletes a game, the
director a tournament with every game it seated; nothing recorded is lost, because each game's record file is
written to instance/records/deleted/ first, and every finished game's record to instance/records/."""
from pathlib import Path

import pytest
import sqlalchemy
from werkzeug.security import generate_password_hash

from referee import create_app
from referee.services import folds, games, tournaments
from referee.store.db import db

from test_roles import DIRECTOR, seated_tournament

GOLDEN = Path(__file__).parent / "golden"
PIN = "123456"


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.sqlite'}",
                       "RECORDS_DIR": str(tmp_path / "records")})


def counts(app) -> dict:
    with app.app_context():
        return {t: db.session.execute(sqlalchemy.text(f"SELECT count(*) FROM {t}")).scalar()
                for t in ("games", "entries", "tournaments", "rounds", "tables")}


def imported(app, client, name: str) -> int:
    with app.app_context():
        game_id = games.import_record((GOLDEN / name).read_text(encoding="utf-8"), PIN)
    client.post(f"/games/{game_id}/unlock", data={"pin": PIN})
    return game_id


def test_a_finished_games_record_is_written_to_the_records_folder(app, tmp_path):
    client = app.test_client()
    finished = imported(app, client, "jma-timed-rolloff.jsonl")
    going = imported(app, client, "jma-short-game.jsonl")
    path = tmp_path / "records" / f"game-{finished}.jsonl"
    assert path.read_text(encoding="utf-8") == client.get(f"/games/{finished}/record.jsonl").get_data(as_text=True)
    assert not (tmp_path / "records" / f"game-{going}.jsonl").exists()


def test_an_archived_game_leaves_the_list_keeps_its_pages_and_comes_back(app):
    client = app.test_client()
    game_id = imported(app, client, "jma-short-game.jsonl")
    result = client.get(f"/games/{game_id}/result").get_data(as_text=True)
    assert 'id="manage"' in result and "Delete this game and its 45 entries?" in result
    assert client.post(f"/games/{game_id}/archive", data={"archived": "1"}).status_code == 303
    assert f"/games/{game_id}/display" not in client.get("/").get_data(as_text=True)
    assert f"/games/{game_id}/display" in client.get("/?archived=1").get_data(as_text=True)
    assert client.get(f"/games/{game_id}").status_code == 200
    client.post(f"/games/{game_id}/archive", data={"archived": "0"})
    assert f"/games/{game_id}/display" in client.get("/").get_data(as_text=True)


def test_deleting_a_game_keeps_its_record_file_first_and_removes_it_whole(app, tmp_path):
    client = app.test_client()
    game_id = imported(app, client, "jma-short-game.jsonl")
    export = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True)
    r = client.post(f"/games/{game_id}/delete", follow_redirects=True)
    assert f"game {game_id} deleted; its record is kept in records/deleted/game-{game_id}-" in r.get_data(as_text=True)
    kept = list((tmp_path / "records" / "deleted").glob(f"game-{game_id}-*.jsonl"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == export
    assert counts(app)["games"] == 0 and counts(app)["entries"] == 0
    assert client.get(f"/games/{game_id}").status_code in (302, 404)


def test_only_the_games_referee_deletes_it_and_only_where_creation_is_open(app):
    client = app.test_client()
    game_id = imported(app, client, "jma-short-game.jsonl")
    stranger = app.test_client()
    assert stranger.post(f"/games/{game_id}/delete").headers["Location"] == f"/games/{game_id}/unlock"
    assert 'id="manage"' not in stranger.get(f"/games/{game_id}/result").get_data(as_text=True)
    app.config["ORGANISER_PASSWORD_HASH"] = generate_password_hash("open sesame")
    assert client.post(f"/games/{game_id}/delete").headers["Location"].startswith("/organiser")
    assert client.post(f"/games/{game_id}/archive", data={"archived": "1"}).headers["Location"].startswith(
        "/organiser")
    assert counts(app)["games"] == 1
    with app.app_context():
        assert not folds.load(game_id).row.archived


def test_a_tournaments_table_is_not_deleted_alone(app):
    director = app.test_client()
    tid, _ = seated_tournament(app)
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    with app.app_context():
        game_id = tournaments.round_overview(tid, 1)[0].game_id
    r = director.post(f"/games/{game_id}/delete", follow_redirects=True)
    assert "a tournament&#39;s table is archived or deleted with its tournament" in r.get_data(as_text=True)
    assert counts(app)["games"] == 2


def test_the_director_archives_and_deletes_a_tournament_with_every_game_it_seated(app, tmp_path):
    director = app.test_client()
    tid, _ = seated_tournament(app)
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    other = imported(app, director, "jma-short-game.jsonl")
    page = director.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "Delete this tournament, its rounds and the 2 games they seated?" in page
    director.post(f"/tournaments/{tid}/archive", data={"archived": "1"})
    assert f"/tournaments/{tid}/standings" not in director.get("/tournaments").get_data(as_text=True)
    assert f"/tournaments/{tid}/standings" in director.get("/tournaments?archived=1").get_data(as_text=True)
    assert app.test_client().post(f"/tournaments/{tid}/delete").headers["Location"] == f"/tournaments/{tid}/unlock"
    r = director.post(f"/tournaments/{tid}/delete", follow_redirects=True)
    assert "tournament deleted; the records of its 2 games are kept in records/deleted/" in r.get_data(as_text=True)
    assert len(list((tmp_path / "records" / "deleted").glob(f"tournament-{tid}-game-*.jsonl"))) == 2
    assert counts(app) == {"games": 1, "entries": 45, "tournaments": 0, "rounds": 0, "tables": 0}
    with app.app_context():
        assert folds.load(other).seq == 45


def test_a_tournament_is_deleted_whole_or_not_at_all(app, monkeypatch):
    director = app.test_client()
    tid, _ = seated_tournament(app)
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    before = counts(app)
    real = db.session.delete
    calls = []

    def failing_delete(obj):
        calls.append(obj)
        if len(calls) == 3:  # the tournament, one game, then the disk fails
            raise OSError("disk full")
        return real(obj)

    monkeypatch.setattr(db.session, "delete", failing_delete)
    with app.app_context(), pytest.raises(OSError):
        tournaments.delete_tournament(tid)
    monkeypatch.undo()
    assert counts(app) == before
