"""The hottest reads (a device's grants on every request, a table poll's one statement, a stamp's counts, a form
key's look-up) go straight through the database driver's cursor (``referee.store.db.read_plain``): the same rows,
each value converted as SQLAlchemy converts it (a grant's times read as datetimes on SQLite too), SQLAlchemy's own
errors where the driver refuses, and the usual way wherever something listens to the statements."""
from datetime import datetime

import pytest
import sqlalchemy
from sqlalchemy import Connection, event, select

from conftest import new_game
from test_table_words import record, roll

from referee.services import entry_keys, folds, grants, stamps
from referee.store.db import db, read_plain
from referee.store.models import GrantRow


def unlocked_game(client) -> int:
    game_id = new_game(client)
    assert client.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    return game_id


def the_usual_way(statement, values: dict) -> list[tuple]:
    return [tuple(row) for row in db.session.connection().execute(statement, values).all()]


def test_the_hot_statements_read_plainly_give_the_rows_sqlalchemy_gives(app, client):
    game_id = unlocked_game(client)
    record(client, game_id, roll("Aki", 1, 3))
    with app.app_context():
        tokens = [row.token_hash for row in db.session.scalars(select(GrantRow))]
        assert tokens
        hashes = {f"hash{k}": h for k, h in enumerate(tokens[:1])}
        cases = [
            (grants._look_up_statement(1), hashes),
            (grants._joined_statement(stamps._poll_statement(), 1), {"game": game_id, **hashes}),
            (stamps._poll_statement(), {"game": game_id}),
            (stamps._stamp_statement(), {"game": game_id}),
            (entry_keys._repeat_statement(), {"game": game_id, "key": "no such key"}),
            (folds._rows_statement(True, False), {"id": game_id}),  # a game's row as values, with its record's end
            (folds._rows_statement(True, True), {"id": game_id}),
            (folds._column_statement("header"), {"id": game_id}),  # JSON, read as SQLAlchemy reads it
        ]
        for statement, values in cases:
            plain = [tuple(row) for row in read_plain(statement, values)]
            assert plain == the_usual_way(statement, values)
        grant = read_plain(grants._look_up_statement(1), hashes)[0]
        assert all(isinstance(grant[k], datetime) for k in (6, 7))  # created, expires: datetimes, as SQLAlchemy reads
        polled = read_plain(stamps._poll_statement(), {"game": game_id})[0]
        assert polled[3] == 1 and isinstance(polled[5], datetime)  # one entry stored; the row's making, a datetime


def test_a_value_not_given_is_refused_naming_it_and_a_fixed_one_is_the_statements_own(app, client):
    game_id = unlocked_game(client)
    record(client, game_id, roll("Aki", 1, 3))
    with app.app_context():
        with pytest.raises(sqlalchemy.exc.InvalidRequestError, match="'game'"):
            read_plain(stamps._poll_statement(), {})
        # the poll's last entry found by a subquery limited to one row (a value of the statement's own)
        assert read_plain(stamps._poll_statement(), {"game": game_id})[0][3] == 1


def test_a_plain_read_does_not_go_through_sqlalchemys_execution(app, client, monkeypatch):
    game_id = unlocked_game(client)
    with app.app_context():
        expected = the_usual_way(stamps._poll_statement(), {"game": game_id})

        def refused(*_args, **_kwargs):
            raise AssertionError("read through Connection.execute")

        monkeypatch.setattr(Connection, "execute", refused)
        assert [tuple(r) for r in read_plain(stamps._poll_statement(), {"game": game_id})] == expected
        assert stamps.poll_version(game_id) is not None


def test_a_statement_listened_to_is_read_the_usual_way_and_heard(app, client):
    game_id = unlocked_game(client)
    heard = []

    def listener(_conn, _cursor, statement, *_args):
        heard.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", listener)
        try:
            assert read_plain(stamps._poll_statement(), {"game": game_id})
        finally:
            event.remove(db.engine, "before_cursor_execute", listener)
    assert len(heard) == 1


def test_a_driver_refusal_is_raised_as_sqlalchemys_error(app):
    missing = sqlalchemy.table("no_such_table", sqlalchemy.column("id"))
    with app.app_context():
        with pytest.raises(sqlalchemy.exc.DBAPIError):
            read_plain(select(missing.c.id).where(missing.c.id == sqlalchemy.bindparam("id")), {"id": 1})
        db.session.rollback()


def test_a_list_expanded_into_the_statement_is_read_the_usual_way(app, client):
    game_id = unlocked_game(client)
    statement = select(GrantRow.id).where(GrantRow.game_id.in_(sqlalchemy.bindparam("games", expanding=True)))
    with app.app_context():
        assert [tuple(r) for r in read_plain(statement, {"games": [game_id]})] == the_usual_way(
            statement, {"games": [game_id]})
