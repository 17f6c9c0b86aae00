"""A wrong PIN is called a wrong PIN: a tablet already unlocked for another table (or for the director's page) that
gives a wrong PIN hears "wrong PIN", not "this tablet is locked", and keeps the unlock it has."""
import re

from referee import create_app
from referee.services import tournaments

DIRECTOR = "135791"


def test_a_tablet_unlocked_for_another_table_that_gives_a_wrong_pin_hears_wrong_pin(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.db'}"})
    director = app.test_client()
    r = director.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                            "players": "\n".join(f"P{i}" for i in range(8)), "pin": DIRECTOR,
                                            "round_minutes": "70"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    director.post(f"/tournaments/{tid}/rounds", data={"round": "1"})
    with app.app_context():
        first, second = tournaments.round_overview(tid, 1)
    tablet = app.test_client()
    assert tablet.post(f"/games/{first.game_id}/unlock", data={"pin": first.pin}).status_code == 302
    for path in (f"/games/{second.game_id}/unlock", f"/tournaments/{tid}/unlock"):
        r = tablet.post(path, data={"pin": "000000"})
        said = re.sub(r"\s+", " ", r.get_data(as_text=True))
        assert r.status_code == 403 and "wrong PIN" in said and "this tablet is locked" not in said
    # the unlock it had stands
    assert tablet.get(f"/games/{first.game_id}").status_code == 200
