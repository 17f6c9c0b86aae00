"""A game refereed on a tablet alone, with no server at all (referee/tablet/alone.py), from the offline kit alone: made
from the server's new-game form as the server makes it, refereed by the same engine and screens, its clock run by
the tablet, its record kept and reopened, and its record file (ending on the hash its entries chain to) imported by
the server, which checks that hash: a file changed after the tablet wrote it is refused, naming its line."""
import io
import json
import zipfile
from pathlib import Path

import pytest

from referee.engine import chain
from referee.services import record_file
from referee.tablet import games_html, kit_screens, made_json, new_game, open_game
from referee.tablet.alone import SetupRefused

GOLDEN = Path(__file__).parent / "golden" / "jma-short-game.jsonl"


@pytest.fixture
def kit(client, tmp_path) -> Path:
    """The offline kit as a tablet unpacks it."""
    zipfile.ZipFile(io.BytesIO(client.get("/offline/kit.zip").data)).extractall(tmp_path / "kit")
    return tmp_path / "kit"


@pytest.fixture
def rulesets(kit) -> dict:
    return json.loads((kit / "rulesets.json").read_text(encoding="utf-8"))


def form(**fields) -> list[tuple[str, str]]:
    """The new-game form as the browser sends it (the tablet's page carries the server's fields)."""
    base = {"title": "", "ruleset": "jma-2006", "players": "Aki\nBen\nChie", "seating": "roll", "time_limit": ""}
    pairs = [(k, v) for k, v in {**base, **fields}.items() if not isinstance(v, list)]
    return pairs + [(k, item) for k, v in fields.items() if isinstance(v, list) for item in v]


def golden_taps() -> list[dict]:
    """The golden record's entries, each as the table screen's generic entry form sends it."""
    return [{k: v for k, v in json.loads(line).items() if k != "seq"}
            for line in GOLDEN.read_text(encoding="utf-8").splitlines()[1:]]


def tapped(table, entry: dict, key: str) -> str:
    region, kept = table.tap([("seq", str(table.table.seq)), ("entry", json.dumps(entry)), ("entry_key", key)])
    assert kept, region
    return region


def test_a_game_made_on_the_tablet_alone_has_the_header_the_server_makes_from_the_same_form(app, client, rulesets):
    """The same fields (title, ruleset, players in seat order, order of play, a house rule switched off and a
    variant on) make the same header on the tablet as on the server."""
    fields = {"title": "Family game", "ruleset": "korean-house", "players": "Mina\nJun\n\nSora", "seating": "fixed",
              "time_limit": "90", "house_rules_shown": "1",
              "house_rules": ["korean-house:income_tax", "korean-house:go_landing_bonus",
                              "korean-house:rent_while_in_jail", "korean-house:bankrupt_estate"]}
    made = new_game(rulesets, form(**fields))
    sent = client.post("/games", data={**{k: v for k, v in form(**fields) if k != "house_rules"},
                                       "house_rules": fields["house_rules"], "pin": "123456"})
    assert sent.status_code == 302
    game_id = int(sent.headers["Location"].rsplit("/", 1)[1])
    server = json.loads(client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()[0])
    assert json.loads(made.record) == server
    assert server["options"] and set(server["options"]) == {"income_tax", "free_parking"}  # a variant on, a house rule off
    assert made.limit_minutes == 90


@pytest.mark.parametrize("fields, words", [
    ({"players": "Aki"}, "players"),
    ({"players": "Aki\nAki"}, "Aki"),
    ({"time_limit": "0"}, "1 to 600"),
    ({"time_limit": "ninety"}, "1 to 600"),
    ({"ruleset": "no-such-rules"}, "no ruleset no-such-rules"),
    ({"ruleset": "german-simple", "players": "\n".join(f"P{i}" for i in range(8))}, "bank"),
    ({"title": "T" * 1_000_000}, "Title is longer than 200 characters"),  # the title's own limit, as the server says
    ({"title": "Cup\x00"}, "Title contains a character that cannot be stored or shown (U+0000)"),
])
def test_the_tablet_alone_refuses_a_new_game_the_rules_refuse_naming_why(rulesets, fields, words):
    with pytest.raises(SetupRefused) as refused:
        new_game(rulesets, form(**fields))
    assert words in refused.value.message


def test_a_refused_new_game_is_said_on_the_tablets_page_in_its_language(kit, rulesets):
    said = json.loads(made_json(kit_screens(kit), rulesets, json.dumps(form(time_limit="0")), "ja"))
    assert "refused" in said and "game" not in said
    assert "1" in said["refused"] and "600" in said["refused"] and "分" in said["refused"]


def test_a_game_on_the_tablet_alone_is_refereed_kept_and_reopened_and_its_file_imports_with_its_chain(
        app, client, kit, rulesets):
    """JMA competition rules 2006: the golden game played on the tablet alone, every tap checked there; reopened
    from what the tablet keeps (its record and its entries) it is the same table; its file carries the hash its
    entries chain to, and the server's import and ``referee verify`` check it."""
    screens = kit_screens(kit)
    made = new_game(rulesets, form(title="JMA short game"))
    table = open_game(screens, rulesets, {"record": made.record, "entries": []}, "en", clock=lambda: 100.0)
    assert 'id="judge"' not in table.region() and "refereed on this tablet alone" in table.region()
    kept = []
    for n, entry in enumerate(golden_taps()):
        tapped(table, entry, f"key-{n}")
        kept += [k.as_dict() for k in table.kept[len(kept):]]
    again = open_game(screens, rulesets, {"record": made.record, "entries": kept}, "en")
    assert again.table.game.state == table.table.game.state and again.table.seq == len(golden_taps())
    text = again.record_text()
    said = json.loads(text.splitlines()[-1])["chain"]
    header = json.loads(text.splitlines()[0])
    assert said == {"entries": again.table.seq,
                    "head": chain.record_head(header, [chain.entry_text(e.to_dict()) for e in again.table.game.entries])}
    with app.app_context():
        assert record_file.check(text).game.state == table.table.game.state  # referee verify FILE
    sent = client.post("/games/import", data={"record": (io.BytesIO(text.encode()), "game.jsonl"), "pin": "123456"},
                       content_type="multipart/form-data")
    assert sent.status_code == 302 and "/games/" in sent.headers["Location"]
    game_id = int(sent.headers["Location"].rsplit("/", 1)[1])
    server = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()
    assert server[:len(text.splitlines()) - 1] == text.splitlines()[:-1]


@pytest.mark.parametrize("change", ["an entry's amount", "an entry removed", "the chain line's hash"])
def test_a_tablets_record_file_changed_after_it_was_written_is_refused_by_its_chain(app, client, kit, rulesets,
                                                                                    change):
    """A change that the rules alone would let through (a player's name in the header, an entry left out at the
    end, the hash itself) breaks the chain: the import refuses the file, naming the chain line, and makes no game."""
    table = open_game(kit_screens(kit), rulesets, {"record": new_game(rulesets, form()).record, "entries": []}, "en")
    for n, entry in enumerate(golden_taps()[:12]):
        tapped(table, entry, f"key-{n}")
    lines = table.record_text().splitlines()
    if change == "an entry's amount":
        lines[0] = lines[0].replace('"Aki"', '"Akira"')
        lines = [line.replace('"Aki"', '"Akira"') for line in lines]
    elif change == "an entry removed":
        del lines[-2]
    else:
        lines[-1] = lines[-1][:-4] + '0"}}'
    text = "\n".join(lines) + "\n"
    with app.app_context():
        before = client.get("/games").get_data(as_text=True).count("/games/")
        with pytest.raises(record_file.RecordError) as refused:
            record_file.check(text)
    assert refused.value.line == len(lines) and refused.value.code == "bad_chain"
    sent = client.post("/games/import", data={"record": (io.BytesIO(text.encode()), "game.jsonl"), "pin": "123456"},
                       content_type="multipart/form-data", follow_redirects=True)
    page = sent.get_data(as_text=True)
    assert f"line {len(lines)}" in page and "chain" in page
    assert page.count("/games/") - before <= 2  # no game made (the page's own links aside)


def test_the_game_clock_of_a_game_on_the_tablet_alone_runs_on_the_tablets_time_and_is_kept(kit, rulesets):
    """The tablet starts and pauses the clock as the server's clock button does; what it keeps of it (the seconds
    run, whether it runs, when) makes the same clock when the game is opened again later."""
    now = [1000.0]
    made = new_game(rulesets, form(time_limit="60"))
    table = open_game(kit_screens(kit), rulesets, {"record": made.record, "entries": [],
                                                    "limit_minutes": made.limit_minutes}, "en", clock=lambda: now[0])
    assert "Start the clock" in table.region()
    assert "Pause the clock" in table.set_clock("start")
    now[0] += 125
    kept = json.loads(table.clock_json())
    assert kept == {"elapsed": 125.0, "running": True, "at": 1125.0}
    now[0] += 60  # the tablet closed meanwhile: the clock ran on
    again = open_game(kit_screens(kit), rulesets, {"record": made.record, "entries": [], "limit_minutes": 60,
                                                    "clock": kept}, "en", clock=lambda: now[0])
    assert again.game_clock().elapsed_seconds == 185.0 and again.game_clock().limit_seconds == 3600
    again.set_clock("pause")
    now[0] += 600
    assert again.game_clock().elapsed_seconds == 185.0 and not again.game_clock().running
    for n, entry in enumerate(golden_taps()[:6]):
        tapped(again, entry, f"key-{n}")
    again.set_clock("start")
    now[0] += 15
    tapped(again, {"type": "time_called"}, "time")  # time called stops the clock: kept stopped, as it stood
    assert json.loads(again.clock_json()) == {"elapsed": 200.0, "running": False, "at": now[0]}


def test_the_redo_form_records_the_voided_entries_again_on_the_tablet(kit, rulesets):
    """JMA competition rules 2006, as the server's redo: the run of entries the latest entry, a void, took back is
    recorded again as new entries, kept like any tap."""
    table = open_game(kit_screens(kit), rulesets, {"record": new_game(rulesets, form()).record, "entries": []}, "en")
    for n, entry in enumerate(golden_taps()[:6]):
        tapped(table, entry, f"key-{n}")
    state = table.table.game.state
    tapped(table, {"type": "void", "count": 2}, "void")
    assert table.table.game.state != state
    region, kept = table.redo([("seq", str(table.table.seq)), ("entry_key", "redo")])
    assert len(kept) == 2 and table.table.game.state == state and [k.key for k in kept] == ["redo", "redo-1"]
    stale, none = table.redo([("seq", "3"), ("entry_key", "again")])
    assert none == [] and "refused" in stale


def test_the_games_kept_on_a_tablet_alone_are_listed_with_their_choices_in_its_language(kit, rulesets):
    made = new_game(rulesets, form(title="Sunday game"))
    kept = [["alone:2", {"record": made.record, "entries": [{}] * 3, "created": 2, "at": 2}],
            ["alone:1", {"record": new_game(rulesets, form()).record, "entries": [], "created": 1, "at": 1}]]
    drawn = games_html(kit_screens(kit), json.dumps(kept), "de")
    assert drawn.index('data-name="alone:2"') < drawn.index('data-name="alone:1"')
    assert "Sunday game" in drawn and "Aki, Ben, Chie" in drawn and "3 " in drawn
    assert drawn.count('data-alone="open"') == 2 and 'data-alone="send"' in drawn and 'data-alone="delete"' in drawn
    assert "Kein Spiel" not in drawn
    assert "Kein" in games_html(kit_screens(kit), "[]", "de") or "kein" in games_html(kit_screens(kit), "[]", "de")


def test_the_page_of_the_games_on_a_tablet_alone_carries_the_servers_new_game_form_and_is_kept(client):
    page = client.get("/offline/table").get_data(as_text=True)
    for field in ('name="title"', 'name="ruleset"', 'name="players"', 'name="seating"', 'name="time_limit"',
                  'name="house_rules"', 'id="alone-send"'):
        assert field in page
    assert 'data-alone="1"' in page and "/offline/table" in page  # its own address among those the tablet keeps
    new_game_form = page.split('<form id="alone-new">')[1].split("</form>")[0]
    assert 'name="pin"' not in new_game_form and 'name="pin"' in page.split('id="alone-send"')[1]  # the sending form's


def test_a_tournament_tables_game_refereed_on_a_tablet_alone_is_recorded_into_that_table(app, kit, rulesets):
    """The venue's server down for a round: a table's referee makes the table's game on a tablet alone (the slip's
    players in seat order) and saves its record; back on the network, the director records the file's entries into
    the table's game, each checked, the chain continued.  A file of another game, or one the table has gone past,
    records nothing and says which line is not this table's."""
    import random

    from referee.engine import legal_actions
    from referee.services import folds, tournaments
    from referee.sim.policy import Policy

    director = app.test_client()
    r = director.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                            "players": "\n".join(f"P{i}" for i in range(8)), "pin": "246810",
                                            "round_minutes": "70"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    assert director.post(f"/tournaments/{tid}/rounds", data={"round": "1"}).status_code == 303
    with app.app_context():
        first, second = tournaments.round_overview(tid, 1)[:2]
        seats = list(folds.load(first.game_id).game.header.players)
    table = open_game(kit_screens(kit), rulesets, {"record": new_game(rulesets, form(
        title="Table 1 on the tablet", players="\n".join(seats))).record, "entries": []}, "en")
    policy = Policy(random.Random(4), "random")
    for n in range(12):
        state = table.table.game.state
        tapped(table, policy.choose(state, legal_actions(state)).to_dict(), f"key-{n}")
    text = table.record_text()

    def sent(game_id: int, body: str) -> str:
        answer = director.post(f"/tournaments/{tid}/tables/{game_id}/record", data={
            "record": (io.BytesIO(body.encode()), "table.jsonl")}, content_type="multipart/form-data",
            follow_redirects=True)
        assert answer.status_code == 200
        return answer.get_data(as_text=True)

    other = sent(second.game_id, text)  # another table's game: its players are not these
    assert "line 1: the file&#39;s game is not this table&#39;s: its players is" in other
    assert f"table {first.number}: 12 entries recorded from the file" in sent(first.game_id, text)
    with app.app_context():
        loaded = folds.load(first.game_id)
        assert [e.to_dict() for e in loaded.game.entries] == [e.to_dict() for e in table.table.game.entries]
        assert loaded.altered is None and folds.verify_all()[1] == [] and folds.load(second.game_id).seq == 0
    assert f"table {first.number}: 0 entries recorded from the file" in sent(first.game_id, text)  # once only
    shorter = "\n".join(text.splitlines()[:6]) + "\n"  # saved earlier: the table has gone past it
    assert "line 6: the file has 5 entries, this table 12" in sent(first.game_id, shorter)
    with app.app_context():
        assert folds.load(first.game_id).seq == 12
