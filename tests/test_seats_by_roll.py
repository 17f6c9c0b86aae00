"""JMA 補足ルール「基本的な駒の進め方」: the seating roll decides the order of play and the players re-seat in it (the first
chooses a seat, the others sit from there in playing order).  The table screen says who moves where on the first
turn's screen, and the tournament's table slip says the seats are drawn at the table; under the official rules
(highest roll starts, play goes on in seating order) nobody moves and neither says so."""
from referee import create_app, reports
from referee.engine import Game, Header, parse_entry
from referee.screens.table import table_screen
from referee.services import rulesets, tournaments


def rolled(ruleset, *rolls, players=("Aki", "Ben", "Chie")):
    game = Game(ruleset, Header(ruleset.id, players, seating="roll"))
    for who, dice in rolls:
        game.record(parse_entry({"type": "seat_roll", "player": who, "dice": dice}))
    return game


def seat_notes(game, lang="en"):
    return [w for w in table_screen(game, language=rulesets.language(lang)).roll_notes if w.rule == "seating_order"]


def test_after_the_seating_roll_the_first_turns_screen_lists_the_seats_in_the_order_the_roll_decided(jma):
    game = rolled(jma, ("Aki", [1, 2]), ("Ben", [2, 2]), ("Chie", [6, 5]))
    assert [p.name for p in game.state.players] == ["Chie", "Ben", "Aki"]
    (note,) = seat_notes(game)
    assert note.text.startswith("Seats by the seating roll: 1. Chie, 2. Ben, 3. Aki — move to these seats: Chie "
                                "chooses a seat")
    assert note.source.endswith("(JMA 補足ルール「基本的な駒の進め方」)")
    # once the first player has rolled, the note is gone
    game.record(parse_entry({"type": "roll", "player": "Chie", "dice": [1, 2]}))
    assert seat_notes(game) == []


def test_no_seats_note_before_the_seating_roll_is_over_nor_where_the_players_keep_their_seats(jma, classic):
    assert seat_notes(rolled(jma, ("Aki", [1, 2]), ("Ben", [2, 2]))) == []
    # the official rules: the highest roll starts, play goes on in seating order; nobody moves
    game = rolled(classic, ("Aki", [1, 2]), ("Ben", [2, 2]), ("Chie", [6, 5]))
    assert game.state.turn == 1 and seat_notes(game) == []
    # a game seated as written (no seating roll)
    fixed = Game(jma, Header(jma.id, ("Aki", "Ben", "Chie"), seating="fixed"))
    assert seat_notes(fixed) == []


def test_the_seats_note_speaks_the_devices_language(jma):
    game = rolled(jma, ("Aki", [1, 2]), ("Ben", [2, 2]), ("Chie", [6, 5]))
    (note,) = seat_notes(game, "ja")
    assert "Chie" in note.text and "Seats" not in note.text and "席" in note.text


def test_the_table_slip_says_the_seats_are_drawn_at_the_table_where_the_ruleset_seats_by_the_roll(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.db'}"})
    director = app.test_client()
    made = {}
    for ruleset in ("jma-2006", "classic"):
        r = director.post("/tournaments", data={"name": ruleset, "scheme": "jma-placement", "ruleset": ruleset,
                                                "players": "\n".join(f"P{i}" for i in range(4)), "pin": "135791",
                                                "round_minutes": "70"})
        made[ruleset] = int(r.headers["Location"].rsplit("/", 1)[1])
        assert director.post(f"/tournaments/{made[ruleset]}/rounds", data={"round": "1"}).status_code == 303
    with app.test_request_context():
        jma_slip = reports.table_slips_html(made["jma-2006"], 1, "http://venue.local/")
        classic_slip = reports.table_slips_html(made["classic"], 1, "http://venue.local/")
        assert tournaments.round_overview(made["jma-2006"], 1)
    assert "the seats are drawn at the table" in jma_slip and "Players in their seats" not in jma_slip
    assert "the seats are drawn at the table" not in classic_slip and "Players in their seats" in classic_slip
