"""The table screen drawn on the tablet (referee/tablet/screens.py) from the offline kit alone: the server's own
screens, templates, words and URL rules, so that a tablet that cannot reach the server shows what the server would
have shown.  Pinned by drawing the same table both ways: the live region the server answers a poll with, and the
one the tablet draws from the record it kept and the facts the server's last region carried; a form tapped on it,
recorded or refused, answered as the server answers it.  The two differ only where they must: each drawing's own
form key, and the version a live screen polls with."""
import io
import json
import random
import re
import zipfile
from pathlib import Path

import pytest

from conftest import new_game, post
from referee.engine import legal_actions, StaleEntry
from referee.services import folds
from referee.sim.policy import Policy
from referee.tablet import Addresses, kit_screens, TabletTable

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

LANGUAGES = ("en", "ja", "ko", "de")


@pytest.fixture
def kit(client, tmp_path) -> Path:
    """The offline kit as a tablet unpacks it."""
    zipfile.ZipFile(io.BytesIO(client.get("/offline/kit.zip").data)).extractall(tmp_path / "kit")
    return tmp_path / "kit"


def played(app, client, entries: int, seed: int = 3) -> tuple[int, int]:
    """A new game with at least ``entries`` entries recorded through the table's form (the simulator's referee
    choosing), then more until the table waits for a roll (its dice pad on the screen): the game, its entries."""
    game_id = new_game(client)
    policy = Policy(random.Random(seed), "random")
    n = 0
    while True:
        with app.app_context():
            state = folds.load(game_id).game.state
        actions = legal_actions(state)
        if n >= entries and any(a.type == "roll" for a in actions):
            return game_id, n
        answer = post(client, game_id, n, policy.choose(state, actions).to_dict())
        assert answer.status_code == 200
        n += 1


def server_region(client, game_id: int, language: str) -> str:
    """The live region the server answers a tablet's poll with (its version named as stale)."""
    answer = client.get(f"/games/{game_id}?v=stale", headers={"HX-Request": "true", "Accept-Language": language})
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def kept_facts(region: str) -> dict:
    found = re.search(r'data-kept="([^"]*)"', region)
    assert found, "the live region carries no facts for the tablet"
    return json.loads(found.group(1).replace("&#34;", '"').replace("&quot;", '"').replace("&amp;", "&"))


def tablet_for(client, kit: Path, game_id: int, region: str, language: str) -> TabletTable:
    record = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True)
    rulesets = json.loads((kit / "rulesets.json").read_text(encoding="utf-8"))
    return TabletTable(kit_screens(kit), rulesets, record, kept_facts(region), language, clock=lambda: 1000.0)


def same_but_keys(region: str) -> str:
    """A region with what differs between two drawings of it set aside: each drawing's form key, the version it
    polls with (the server's stamp; the tablet's "kept-N"), the form token (signed with its time by the server at
    each drawing; the tablet's is the one its last screen from the server carried), and the tablet's banner (the
    entries it keeps)."""
    region = re.sub(r'\n<div class="flash kept".*?</div>\n', "", region, flags=re.S)  # the tablet's own banner
    region = re.sub(r'name="entry_key" value="[^"]*"', 'name="entry_key" value="KEY"', region)
    region = re.sub(r'name="csrf_token" value="[^"]*"', 'name="csrf_token" value="TOKEN"', region)
    region = re.sub(r"&#34;csrf&#34;: &#34;[^&]*&#34;", "&#34;csrf&#34;: TOKEN", region)
    region = re.sub(r"([?&]v=)[^\"&]*", r"\1V", region)
    return re.sub(r'data-version="[^"]*"', 'data-version="V"', region)


def test_the_tablet_draws_the_table_screen_the_server_draws_in_every_language(app, client, kit):
    game_id, _ = played(app, client, 24)
    for language in LANGUAGES:
        region = server_region(client, game_id, language)
        tablet = tablet_for(client, kit, game_id, region, language)
        assert same_but_keys(tablet.region()) == same_but_keys(region), language


def test_a_form_tapped_on_the_tablet_records_its_entry_and_answers_as_the_server_answers_it(app, client, kit):
    """The dice pad's form of the screen, tapped on the tablet and sent to the server: the same entry recorded, the
    same message (the log's words, what the roll brought about), the same table after it."""
    game_id, n = played(app, client, 6)
    region = server_region(client, game_id, "ja")
    tablet = tablet_for(client, kit, game_id, region, "ja")
    form = dice_form(region, "4,2")
    drawn, kept = tablet.tap(form)
    answer = client.post(f"/games/{game_id}/record", data=pairs_data(form),
                         headers={"HX-Request": "true", "Accept-Language": "ja"})
    assert answer.status_code == 200
    assert same_but_keys(drawn) == same_but_keys(answer.get_data(as_text=True))
    stored = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()[-1]
    assert [k.entry for k in kept] == [{k: v for k, v in json.loads(stored).items() if k != "seq"}]
    assert kept[0].after == n and kept[0].key == dict(form)["entry_key"]
    assert kept[0].at == 1000 and kept[0].as_dict()["at"] == 1000  # the tablet's clock when it was tapped


def test_a_tablet_opening_a_table_from_facts_it_kept_runs_the_clock_on_from_when_it_saw_them(app, client, kit):
    """The facts the server's last screen said, kept by the tablet with the time it saw them (``seen``): the game
    clock the tablet draws has run on since then, not since the table was opened (a page reopened is as old as its
    kept copy); facts without ``seen``, or with one that is not a time (the device's storage altered), run from the
    opening; a ``seen`` ahead of the tablet's clock counts from now."""
    game_id, _ = played(app, client, 6)
    record = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True)
    rulesets = json.loads((kit / "rulesets.json").read_text(encoding="utf-8"))
    facts = {"game": game_id, "limit_minutes": 60, "elapsed": 100.0, "running": True, "csrf": "t",
             "judge": {"rulings": 0, "seated": False, "called": None}}
    for seen, run in ((910.0, 190.0), (None, 100.0), (1200.0, 100.0), ("yesterday", 100.0), ("nan", 100.0)):
        kept = facts if seen is None else {**facts, "seen": seen}
        tablet = TabletTable(kit_screens(kit), rulesets, record, kept, "en", clock=lambda: 1000.0)
        assert tablet.game_clock().elapsed_seconds == run, seen
    paused = TabletTable(kit_screens(kit), rulesets, record, {**facts, "running": False, "seen": 500.0}, "en",
                         clock=lambda: 1000.0)
    assert paused.game_clock().elapsed_seconds == 100.0  # a clock stopped has not run


def test_a_refused_tap_on_the_tablet_names_the_clause_as_the_server_does_and_records_nothing(app, client, kit):
    game_id, n = played(app, client, 6)
    region = server_region(client, game_id, "de")
    tablet = tablet_for(client, kit, game_id, region, "de")
    form = [(k, v) for k, v in dice_form(region, "4,2")]
    stale = [(k, str(n - 1) if k == "seq" else v) for k, v in form]  # a screen drawn before the latest entry
    wrong = [(k, json.dumps({"type": "roll", "player": "Nobody"}) if k == "entry" else v) for k, v in form]
    for tapped in (stale, wrong):
        drawn, kept = tablet.tap(tapped)
        answer = client.post(f"/games/{game_id}/record", data=pairs_data(tapped),
                             headers={"HX-Request": "true", "Accept-Language": "de"})
        assert kept == [] and tablet.table.seq == n
        assert 'class="flash refused"' in drawn
        assert same_but_keys(drawn) == same_but_keys(answer.get_data(as_text=True))


def test_a_form_that_is_not_the_table_screens_is_refused_on_the_tablet_as_on_the_server(app, client, kit):
    game_id, n = played(app, client, 3)
    region = server_region(client, game_id, "en")
    tablet = tablet_for(client, kit, game_id, region, "en")
    drawn, kept = tablet.tap([("seq", str(n)), ("entry", "[1, 2]")])
    assert kept == [] and "this form is not one the table screen makes: nothing was recorded" in drawn


def test_entries_kept_on_the_tablet_are_recorded_again_when_it_reopens(app, client, kit):
    """A tablet reloaded while the server cannot be reached: the record it kept, then the entries it recorded
    since, in order, give the same table; an entry that does not follow is refused and nothing more is recorded."""
    game_id, n = played(app, client, 6)
    region = server_region(client, game_id, "en")
    first = tablet_for(client, kit, game_id, region, "en")
    _, kept = first.tap(dice_form(region, "1,2"))
    again = tablet_for(client, kit, game_id, region, "en")
    assert again.replay([k.as_dict() for k in kept]) == n + 1
    assert same_but_keys(again.region()) == same_but_keys(first.region())
    assert "1 entry kept on this tablet, not yet on the server." in again.region()
    refused = first.not_kept()  # the device would not keep a tap (the script reopened the table without it)
    assert "This tablet could not keep the entry (its storage is full or refused): nothing was recorded." in refused
    with app.app_context():  # the record as the tablet has it, saved as a file: the server's import replays it
        from referee.services import games

        imported = folds.load(games.import_record(again.record_text(), "135791"))
        assert [e.to_dict() for e in imported.game.entries] == [e.to_dict() for e in again.table.game.entries]
    with pytest.raises(StaleEntry, match=f"after entry {n}, but it is now at entry {n + 1}"):
        again.replay([k.as_dict() for k in kept])


def test_the_tablets_addresses_are_the_servers(app, kit):
    """Every address the table's region makes, made on the tablet from the kit's URL rules as Flask makes it, under
    the site's root and with a query string."""
    from flask import url_for

    rules = json.loads((kit / "addresses.json").read_text(encoding="utf-8"))
    assert "table.record" in rules and "table.panel" in rules
    values = {"game_id": 7, "n": "12", "name": "deeds-2", "ruleset_id": "jma-2006"}
    for root in ("", "/venue"):
        tablet = Addresses(rules, root)
        with app.test_request_context("/", base_url=f"http://tablet.local{root}"):
            for endpoint, rule in rules.items():
                args = {k: v for k, v in values.items() if f"{k}>" in rule}
                assert tablet(endpoint, **args, rule="go") == url_for(endpoint, **args, rule="go"), endpoint


def dice_form(region: str, dice: str) -> list[tuple[str, str]]:
    """The dice pad's form in a region, as the browser sends it when the button ``dice`` is tapped."""
    form = re.search(r'<form method="post" action="[^"]*">(.*?)<div class="dicepad"', region, re.S)
    assert form, "no dice pad on the screen"
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value=(?:"([^"]*)"|\'([^\']*)\')>', form.group(1))
    pairs = [(name, (double or single).replace("&#34;", '"').replace("&quot;", '"').replace("&amp;", "&"))
             for name, double, single in fields]
    return pairs + [("dice", dice)]


def pairs_data(pairs: list[tuple[str, str]]) -> dict:
    from werkzeug.datastructures import MultiDict

    return MultiDict(pairs)


def test_a_conflict_is_drawn_on_the_tablet_with_both_records_in_the_logs_words_and_the_two_choices(app, client, kit):
    """The server refused the kept run (another device recorded meanwhile): the tablet draws both records from the
    first difference, each entry in the log's words (the server's folded on the record both had), and the two
    choices, in the device's language."""
    game_id, n = played(app, client, 6)
    region = server_region(client, game_id, "ja")
    tablet = tablet_for(client, kit, game_id, region, "ja")
    tablet.tap(dice_form(region, "1,2"))
    answer = {"conflict": {"after": n, "server": [{"type": "roll", "player": tablet.table.game.state.players[
        tablet.table.game.state.current].name, "dice": [6, 5]}], "tablet": [k.entry for k in tablet.kept]},
        "message": "refused"}
    drawn = tablet.conflict(answer)
    assert "この卓の記録が2つあります" in drawn and f'data-seen="{n + 1}"' in drawn
    assert f"サーバー：記録{n}件目の後に1件" in drawn and f"この端末：記録{n}件目の後に1件" in drawn
    assert "6+5" in drawn and "1+2" in drawn  # each side's roll in the log's words
    assert 'data-choice="server"' in drawn and 'data-choice="tablet"' in drawn


def test_a_panel_opened_on_the_tablet_is_drawn_as_the_server_draws_it(app, client, kit):
    """Every panel of the table screen (each kind's, the board, the void menu, each player's deeds), opened while
    the server cannot be reached: its contents drawn by the tablet as the server's table.panel draws them; a name of
    no panel is said so."""
    from referee.screens.table import panel_names

    game_id, _ = played(app, client, 40)
    region = server_region(client, game_id, "ko")
    tablet = tablet_for(client, kit, game_id, region, "ko")
    names = sorted(panel_names(tablet.table.game.state))
    assert {"board", "void", "deeds-0"} <= set(names)
    for name in names:
        answer = client.get(f"/games/{game_id}/panels/{name}", headers={"HX-Request": "true", "Accept-Language": "ko"})
        assert answer.status_code == 200
        assert same_but_keys(tablet.panel(name)) == same_but_keys(answer.get_data(as_text=True)), name
    assert "nowhere" in tablet.panel("nowhere")
    opened = tablet.region(panels=["board"])
    assert 'id="board" data-panel="board" data-keep open>' in opened


def test_the_standby_follows_each_tap_the_server_answered_and_takes_the_table_with_nothing_kept(app, client, kit):
    """Beside the server's screen the tablet follows each tap the server answered (recorded, or refused, as there),
    keeping nothing; when it takes the table (the server slow to answer), it reads the screen's facts anew and its
    record is the server's, so that the entries it keeps from then follow it."""
    game_id, n = played(app, client, 6)
    region = server_region(client, game_id, "en")
    standby = tablet_for(client, kit, game_id, region, "en")
    form = dice_form(region, "1,2")
    assert client.post(f"/games/{game_id}/record", data=pairs_data(form)).status_code == 303  # the server answered it
    assert client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).count("\n") == n + 2
    assert standby.follow(form) == n + 1 and standby.kept == []
    assert standby.follow(form) == n + 1  # the same form again: stale there as on the server
    after = server_region(client, game_id, "en")
    assert standby.resume(kept_facts(after)) == n + 1 and standby.kept == []
    assert standby.kept_record() == "\n".join(
        client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()[:n + 2]) + "\n"


def test_a_table_with_rulings_and_its_record_file_open_on_the_tablet_and_keep_the_rulings(app, client, kit):
    """The server's record of a table carries its rulings after its entries: the tablet reads past them (the table
    opens, so it referees offline), and its record file carries them on, the server's import checking them."""
    from referee.services import games, rulings

    game_id, n = played(app, client, 6)
    with app.app_context():
        rulings.record_ruling(game_id, 2, "Ben says the roll was 3 and 4", "The roll stands as recorded", "", "referee")
    region = server_region(client, game_id, "en")
    tablet = tablet_for(client, kit, game_id, region, "en")
    assert tablet.table.seq == n
    tablet.tap(dice_form(region, "1,2"))
    text = tablet.record_text()
    assert '{"ruling": ' in text and json.loads(text.splitlines()[-1])["chain"]["entries"] == n + 1
    with app.app_context():
        imported = games.import_record(text, "123456")
        (ruling,) = rulings.read(imported).items
    assert ruling.entry == 2 and ruling.ruling == "The roll stands as recorded"
