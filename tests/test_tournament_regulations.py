"""A tournament's own regulations (大会規定) set on the new-tournament form for every table: JMA 補足ルール「総則」,
"大会規定により設けられたルールは本書記載のルールより優先します", and 「審判」, which lets the referee impose penalties but
names no amount: a JMA tournament sets its fines' amounts, and the deeds dealt, trades before GO and equal turns,
as regulations; every seated table's game takes them; the director's page and the printed sheets name them with the
clause that puts them first; bad input is refused naming the limit, nothing is created and the form keeps what was
typed."""
import html
import re
import subprocess

import pytest

from referee.engine import RulesetError
from referee.services import folds, rulesets, tournaments
from referee.tournament import formats, regulations
from referee.tournament.messages import BadTournament

from test_table_words import record
from test_tournaments import app, finish_seating  # noqa: F401  (the app's fixture)

JMA_CLAUSE = "JMA competition rules 2006, supplementary rules “General provisions”"
ORIGINAL = "大会規定により設けられたルールは本書記載のルールより優先します"


def words(response) -> str:
    """What a person reads on the page: no tags, styles or scripts; entities and spaces as read."""
    page = re.sub(r"<(style|script)\b.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def pdf_text(response, tmp_path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(response.data)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True).stdout
    return re.sub(r"\s+", " ", text.decode("utf-8"))


def form(**fields) -> dict:
    data = {"name": "Regulated cup", "scheme": "jma-placement", "ruleset": "jma-2006", "format": "open",
            "players": "Aki\nBen\nChie\nDai", "pin": "135791"}
    return {**data, **{k.replace("__", "-"): v for k, v in fields.items()}}


def created(client, **fields) -> int:
    r = client.post("/tournaments", data=form(**fields))
    assert r.status_code == 302, words(r)
    return int(r.headers["Location"].rsplit("/", 1)[1])


def seated_table(app, client, tid) -> int:
    """Round 1 seated, the seating roll-off played at its table: the game, waiting for the first roll."""
    client.post(f"/tournaments/{tid}/rounds", data={"round": "1"})
    with app.app_context():
        game_id = tournaments.round_overview(tid, 1)[0].game_id
        finish_seating(game_id)
    return game_id


def test_a_jma_tournaments_fine_set_on_the_form_is_imposed_and_paid_at_its_tables(app):
    """総則: the tournament's regulations come before the book's rules; 審判: the referee imposes the penalty the
    regulations set ($50 for dice leaving the table, where JMA names none)."""
    client = app.test_client()
    tid = created(client, regulation__penalty_dice_off_table="50", regulation__dealt_deeds="")
    game_id = seated_table(app, client, tid)
    with app.app_context():
        table = folds.load(game_id)
        assert table.game.header.options == {"penalty_dice_off_table": 50}  # the seated game's header carries it
        assert table.game.ruleset.options.penalty_dice_off_table == 50
        assert table.game.ruleset.options.penalty_out_of_turn_move == 0  # JMA's own: none
        first = table.game.state.players[table.game.state.pending.player].name
    panel = words(client.get(f"/games/{game_id}/panels/fines"))  # the director's grant opens every table
    assert f"{first}: the dice left the table, fine $50" in panel and f"Yes: {first} pays $50" in panel
    assert "a move out of turn" not in panel
    r = record(client, game_id, {"type": "penalty", "player": first, "choice": "dice_off_table"})
    assert f"{first} is fined $50: the dice left the table" in words(r)
    with app.app_context():
        state = folds.load(game_id).game.state
        assert {p.name: p.cash for p in state.players}[first] == 1450


def test_a_classic_tournament_sets_a_fine_to_none_with_0(app):
    """0 is no fine: a tournament playing the classic rules ($50 for each breach) drops the one for dice leaving the
    table; an empty field keeps the ruleset's own."""
    client = app.test_client()
    tid = created(client, ruleset="classic", regulation__penalty_dice_off_table="0",
                  regulation__penalty_out_of_turn_move="")
    game_id = seated_table(app, client, tid)
    with app.app_context():
        assert folds.load(game_id).game.header.options == {"penalty_dice_off_table": 0}
    panel = words(client.get(f"/games/{game_id}/panels/fines"))
    assert "a move out of turn, fine $50" in panel and "the dice left the table" not in panel
    assert "Fine for dice leaving the table: no fine" in words(client.get(f"/tournaments/{tid}"))


def test_the_director_page_and_the_printed_sheets_name_the_regulations_with_the_jma_clause(app, tmp_path):
    client = app.test_client()
    tid = created(client, regulation__penalty_dice_off_table="50", regulation__penalty_out_of_turn_move="100",
                  regulation__dealt_deeds="1", regulation__trades_before_first_go="1")
    in_force = ("Deeds dealt to each player at the start: 2; Trades before anyone has passed GO: no; "
                "Fine for a move out of turn: $100; Fine for dice leaving the table: $50")
    page = words(client.get(f"/tournaments/{tid}"))
    assert f"Tournament regulations: {in_force}" in page
    assert f"They come before the ruleset's rules: {JMA_CLAUSE}" in page and ORIGINAL in page
    ja = words(client.get(f"/tournaments/{tid}", headers={"Accept-Language": "ja"}))
    assert "大会規定：" in ja and "物品税" not in ja and "$100" in ja and "JMA 補足ルール「総則」" in ja
    game_id = seated_table(app, client, tid)
    sheet = pdf_text(client.get(f"/games/{game_id}/result.pdf"), tmp_path)
    assert f"Tournament regulations: {in_force}" in sheet and JMA_CLAUSE in sheet
    standings = pdf_text(client.get(f"/tournaments/{tid}/standings.pdf"), tmp_path)
    assert f"Tournament regulations: {in_force}" in standings


def test_a_game_of_its_own_has_no_tournament_regulations_on_its_sheet(app, tmp_path):
    """The options of a game started on its own (a house rule switched off, an imported header) are no
    tournament's regulations: its result sheet names none."""
    client = app.test_client()
    r = client.post("/games", data={"title": "Home", "ruleset": "jma-2006", "players": "Aki\nBen", "seating": "fixed",
                                    "pin": "654321"})
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    assert "Tournament regulations" not in pdf_text(client.get(f"/games/{game_id}/result.pdf"), tmp_path)


def test_a_tournament_without_regulations_says_every_table_plays_the_ruleset_as_written(app):
    client = app.test_client()
    tid = created(client)
    page = words(client.get(f"/tournaments/{tid}"))
    assert "Tournament regulations: none (every table plays the ruleset as written)" in page
    assert "They come before" not in page


@pytest.mark.parametrize("fields, says", [
    ({"regulation__penalty_dice_off_table": "-5"},
     "Fine for dice leaving the table must be a whole amount from $0 (no fine) to $1,500 (a player's starting "
     "cash), got -5"),
    ({"regulation__penalty_dice_off_table": "1" + "0" * 30},
     "Fine for dice leaving the table must be a whole amount from $0 (no fine) to $1,500 (a player's starting "
     "cash), got 1" + "0" * 30),
    ({"regulation__penalty_out_of_turn_move": "fifty"},
     "Fine for a move out of turn must be a whole amount from $0 (no fine) to $1,500 (a player's starting cash), "
     "got fifty"),
    ({"regulation__penalty_play_in_another_turn": "1501"},
     "Fine for playing in another player's turn must be a whole amount from $0 (no fine) to $1,500"),
    ({"regulation__doubles_to_jail": "2"},
     "doubles_to_jail is not a rule a tournament's regulations set (they set: Deeds dealt to each player at the "
     "start, Trades before anyone has passed GO, After time is called, Fine for playing in another player's turn, "
     "Fine for a move out of turn, Fine for dice leaving the table, The bank's money)"),
    ({"regulation__dealt_deeds": "7"},
     "Deeds dealt to each player at the start: a tournament's regulations set it to 2 (a box ticked or not), got 7"),
    ({"regulation__after_time_called": "at_once"},
     "After time is called: a tournament's regulations set it to play on until everyone has had as many turns (a "
     "box ticked or not), got at_once"),
    ({"regulation__bank_money": "500000"},
     "The bank's money: set only where the ruleset's bank has a limit (this ruleset's bank never runs out), got "
     "500000"),
    ({"ruleset": "german-simple", "regulation__penalty_dice_off_table": "40000"},
     "Fine for dice leaving the table must be a whole amount from 0 M (no fine) to 30,000 M (a player's starting "
     "cash), got 40000"),
])
def test_a_bad_regulation_is_refused_naming_the_limit_nothing_is_created_and_the_form_keeps_what_was_typed(
        app, fields, says):
    client = app.test_client()
    r = client.post("/tournaments", data=form(**fields))
    assert r.status_code == 400
    assert says in words(r)
    with app.app_context():
        assert tournaments.list_tournaments() == []
    page = r.get_data(as_text=True)
    assert "Aki\nBen\nChie\nDai</textarea>" in page  # the players as typed
    for key, value in fields.items():
        name = key.replace("__", "-")
        regulation = regulations.BY_OPTION.get(name.removeprefix("regulation-"))
        if regulation is not None and regulation.kind != regulations.SWITCH:  # a box is ticked or not
            assert f'name="{name}" inputmode="numeric"' in page and f'value="{html.escape(value)}"' in page


def test_a_refusal_keeps_the_ticked_regulations_and_the_fines_typed(app):
    client = app.test_client()
    r = client.post("/tournaments", data=form(players="Aki", regulation__dealt_deeds="1",
                                              regulation__penalty_dice_off_table="50"))
    assert r.status_code == 400 and "a tournament needs at least 2 players" in words(r)
    page = r.get_data(as_text=True)
    assert 'name="regulation-dealt_deeds" value="1" checked' in page
    assert 'name="regulation-trades_before_first_go" value="1">' in page  # not ticked, as it was sent
    assert 'name="regulation-penalty_dice_off_table" inputmode="numeric" size="8" maxlength="20" value="50"' in page


def test_a_refusal_of_a_regulation_is_said_in_japanese(app):
    r = app.test_client().post("/tournaments", data=form(regulation__penalty_dice_off_table="-1"),
                               headers={"Accept-Language": "ja"})
    said = words(r)
    assert r.status_code == 400 and "罰金" in said and "$1,500" in said and "-1" in said
    assert "must be a whole amount" not in said


def test_the_german_variants_tournament_sets_a_larger_bank_but_a_jma_one_cannot(app):
    """004, 2: the German variant's bank holds 200,000 M; its note lets a tournament set more in its regulations.
    The JMA bank never runs out: no tournament sets its money."""
    with app.app_context():
        tid = tournaments.create_tournament("Cup", "jma-placement", "german-simple", ["A", "B"], "135791",
                                            options={"bank_money": 400000})
        assert tournaments.regulations_in_force(tournaments.get_tournament(tid)) == (("bank_money", 400000),)
        with pytest.raises(BadTournament) as err:
            tournaments.create_tournament("Cup", "jma-placement", "jma-2006", ["A", "B"], "135791",
                                          options={"bank_money": 400000})
        assert "set only where the ruleset's bank has a limit" in err.value.message


def test_the_one_list_of_regulations_is_what_the_form_offers(app):
    """The form shows a field for each regulation a tournament sets (regulations.REGULATIONS), and no other."""
    page = app.test_client().get("/tournaments").get_data(as_text=True)
    fields = re.findall(r'name="regulation-([a-z_]+)"', page)
    assert fields == [r.option for r in regulations.REGULATIONS]


def test_a_switch_regulation_takes_only_its_own_value_and_a_fine_only_a_whole_amount():
    jma = rulesets.load("jma-2006")
    assert regulations.check(jma, {"dealt_deeds": 2, "penalty_dice_off_table": 0}) == {
        "dealt_deeds": 2, "penalty_dice_off_table": 0}
    for bad in ({"trades_before_first_go": 0}, {"dealt_deeds": True}, {"penalty_dice_off_table": True},
                {"penalty_dice_off_table": 50.0}, {"bank_money": 1}):
        with pytest.raises(BadTournament):
            regulations.check(jma, bad)
    assert regulations.read({"dealt_deeds": "1", "penalty_dice_off_table": " 50 ", "trades_before_first_go": "",
                             "penalty_out_of_turn_move": "５０"}) == {
        "dealt_deeds": 2, "penalty_dice_off_table": 50, "penalty_out_of_turn_move": "５０"}


def test_a_format_names_only_options_a_tournament_sets():
    data = {"format": {"id": "x", "name": {"en": "X"}, "source": "s", "options": {"doubles_to_jail": 2}},
            "stages": [{"id": "r", "name": {"en": "R"}, "entrants": "everyone", "seating": "draw"}]}
    with pytest.raises(RulesetError, match="'doubles_to_jail' is not an option a tournament's regulations set"):
        formats.parse_format(data)
