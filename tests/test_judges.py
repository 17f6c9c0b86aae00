"""A floor judge's role of their own: the director makes a judges' PIN and a head judge's PIN; a judge's phone
unlocked with one lists the tournament's open calls for a judge (live) and records rulings at every table (a judge's,
and the head judge's with the head judge's PIN: JMA competition rules 2006, 補足ルール「審判」: 審判の決定および指示には
従わなくてはなりません), and nothing else: every director-only and table-only action answers a judge's device 403,
nothing recorded.  A call for a judge names the entry in dispute (the latest by default) and who called.  On SQLite
and PostgreSQL."""
import re

import pytest
import sqlalchemy

from referee.store.db import db
from referee.store.models import GrantRow, JudgeCallRow, RulingRow
from referee.services import folds, rulings, tournaments

from test_rulings_log import rule, seated, stored, text

HX = {"HX-Request": "true"}


def make_pin(director, tid: int, role: str) -> str:
    page = text(director.post(f"/tournaments/{tid}/judges/pin", data={"role": role}, follow_redirects=True))
    return re.search(r"New (?:judges'|head judge's) PIN: (\d+)\.", page).group(1)


def judge_phone(app, tid: int, pin: str):
    phone = app.test_client()
    r = phone.post(f"/tournaments/{tid}/judge/unlock", data={"pin": pin})
    assert r.status_code == 302 and r.headers["Location"] == f"/tournaments/{tid}/judge", r.data
    return phone


def judged(app):
    """A seated tournament (its first table played past the seating roll), the director's and the table referee's
    clients, and a judge's phone unlocked with the judges' PIN."""
    tid, game_id, director, referee = seated(app)
    return tid, game_id, director, referee, judge_phone(app, tid, make_pin(director, tid, "judge"))


def state_of(app, tid: int) -> tuple:
    """Everything a judge must not change: each table's entries, the rounds, grants and rulings, the corrections."""
    with app.app_context():
        row = tournaments.get_tournament(tid)
        return (tuple(folds.load(t.game_id).seq for r in row.rounds for t in r.tables), len(row.rounds),
                tuple(sorted((g.id, g.revoked_at is None) for g in db.session.scalars(sqlalchemy.select(GrantRow)))),
                db.session.scalar(sqlalchemy.select(sqlalchemy.func.count(RulingRow.id))),
                tuple(len(t.corrections) for r in row.rounds for t in r.tables), row.judge_pin, row.head_judge_pin,
                tuple((p.name, p.dropped_round, p.checked_in) for p in row.players), row.archived)


def test_the_director_makes_the_judges_pins_shown_on_the_directors_page_and_a_new_one_locks_the_old_ones_devices(app):
    tid, game_id, director, referee = seated(app)
    page = text(director.get(f"/tournaments/{tid}"))
    assert "Judges' PIN: none yet" in page and "Head judge's PIN: none yet" in page
    assert f"/tournaments/{tid}/judge" in page  # the address of the judges' screen, with its QR code
    judge_pin, head_pin = make_pin(director, tid, "judge"), make_pin(director, tid, "head_judge")
    assert re.fullmatch(r"\d{8}", judge_pin) and re.fullmatch(r"\d{8}", head_pin) and judge_pin != head_pin
    page = text(director.get(f"/tournaments/{tid}"))
    assert f"Judges' PIN: {judge_pin}" in page and f"Head judge's PIN: {head_pin}" in page
    phone = judge_phone(app, tid, judge_pin)
    assert "1 device unlocked with a judges' PIN: a judge ·" in text(director.get(f"/tournaments/{tid}"))
    renewed = make_pin(director, tid, "judge")
    assert renewed != judge_pin
    assert phone.get(f"/tournaments/{tid}/judge").headers["Location"] == f"/tournaments/{tid}/judge/unlock"
    assert phone.post(f"/tournaments/{tid}/judge/unlock", data={"pin": judge_pin}).status_code == 403
    judge_phone(app, tid, renewed)
    # the table's referee, a judge and a stranger make no PIN
    for other in (referee, phone, app.test_client()):
        other.post(f"/tournaments/{tid}/judges/pin", data={"role": "judge"})
    with app.app_context():
        assert tournaments.get_tournament(tid).judge_pin == renewed


def test_a_wrong_or_forged_judges_pin_opens_nothing(app):
    tid, game_id, director, referee = seated(app)
    stranger = app.test_client()
    for pin in ("", "135791", "x" * 10_000, "00000000"):  # the director's PIN is no judges' PIN
        r = stranger.post(f"/tournaments/{tid}/judge/unlock", data={"pin": pin})
        assert r.status_code in (403, 429) and "Calls for a judge" not in text(r)
    assert stranger.get(f"/tournaments/{tid}/judge").headers["Location"] == f"/tournaments/{tid}/judge/unlock"
    assert "wrong PIN: the judges' PIN" in text(app.test_client().post(f"/tournaments/{tid}/judge/unlock",
                                                                       data={"pin": "12345678"}))


def test_a_crowd_guessing_the_judges_pin_is_stopped_at_the_cap_and_a_new_pin_is_counted_afresh(app):
    app.config["PIN_FAILURES_PER_DEVICE"] = "1000 per 15 minutes"
    tid, game_id, director, referee = seated(app)
    pin = make_pin(director, tid, "judge")
    wrong = "0" * 8 if pin != "0" * 8 else "1" * 8
    for k in range(20):
        assert app.test_client().post(f"/tournaments/{tid}/judge/unlock", data={"pin": wrong}).status_code == 403
    capped = app.test_client().post(f"/tournaments/{tid}/judge/unlock", data={"pin": pin})
    assert capped.status_code == 429 and "wrong judges' PINs for this tournament" in text(capped)
    judge_phone(app, tid, make_pin(director, tid, "judge"))


def test_the_judges_screen_lists_each_open_call_with_its_table_entry_caller_and_wait_and_opens_the_entry(app):
    tid, game_id, director, referee, phone = judged(app)
    screen = phone.get(f"/tournaments/{tid}/judge")
    assert screen.status_code == 200 and "No table is waiting for a judge." in text(screen)
    version = re.search(r'data-version="([0-9a-f]+)"', screen.get_data(as_text=True)).group(1)
    assert phone.get(f"/tournaments/{tid}/judge?v={version}", headers=HX).status_code == 204
    referee.post(f"/games/{game_id}/call-judge", data={"entry": "5", "caller": "P2"})
    with app.app_context():
        words = text(referee.get(f"/games/{game_id}/entries/5")).split("Entry 5 of")[1].split(" ", 3)[3]
    live = phone.get(f"/tournaments/{tid}/judge?v={version}", headers=HX)
    shown = text(live)
    assert live.status_code == 200 and "Table 1 · Round 1 waiting 0 min" in shown
    assert "Entry 5: P" in shown and "called by P2" in shown and "Answer with a ruling" in shown
    assert f'href="/games/{game_id}/entries/5?call=1#record-ruling"' in live.get_data(as_text=True)
    assert words.split()[0] in shown  # the entry in the log's words
    # one tap opens the entry in dispute with the ruling form open under it, offering a judge's ruling only
    page = phone.get(f"/games/{game_id}/entries/5?call=1")
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and 'id="record-ruling" open' in body
    assert 'value="judge"' in body and 'value="head_judge"' not in body and 'value="referee"' not in body
    assert "A judge has been called on this entry · called by P2 · waiting 0 min" in text(page)
    # the judge rules: the call is answered, the screen says so
    assert "Ruling 1 recorded on entry 5" in rule(phone, game_id, 5, "judge")
    shown = text(phone.get(f"/tournaments/{tid}/judge"))
    assert "No table is waiting for a judge." in shown
    assert "Table 1 · Round 1 · Entry 5 — answered by ruling 1 (a judge)" in shown
    with app.app_context():
        call = db.session.scalar(sqlalchemy.select(JudgeCallRow))
        assert call.open_game_id is None and call.entry == 5 and call.caller == "P2"


def test_entries_of_play_send_the_judges_phone_nothing(app):
    tid, game_id, director, referee, phone = judged(app)
    version = re.search(r'data-version="([0-9a-f]+)"',
                        phone.get(f"/tournaments/{tid}/judge").get_data(as_text=True)).group(1)
    with app.app_context():
        table = folds.load(game_id)
        player = table.game.state.players[table.game.state.pending.player].name
        seq = table.seq
    referee.post(f"/games/{game_id}/record", data={"seq": str(seq), "entry": '{"type": "roll", "player": "%s", '
                                                   '"dice": [1, 2]}' % player})
    assert folds_seq(app, game_id) == seq + 1
    assert phone.get(f"/tournaments/{tid}/judge?v={version}", headers=HX).status_code == 204


def folds_seq(app, game_id: int) -> int:
    with app.app_context():
        return folds.load(game_id).seq


def test_a_judge_rules_as_a_judge_the_head_judge_on_appeal_and_the_head_judges_ruling_is_final(app):
    tid, game_id, director, referee, judge = judged(app)
    head = judge_phone(app, tid, make_pin(director, tid, "head_judge"))
    assert "Ruling 1 recorded on entry 3" in rule(referee, game_id, 3, "referee")
    assert "the head judge's PIN of this tournament" in rule(judge, game_id, 3, "head_judge")
    assert "recorded from the table's tablet" in rule(judge, game_id, 3, "referee")
    assert len(stored(app, game_id).items) == 1
    assert "Ruling 2 recorded on entry 3" in rule(judge, game_id, 3, "judge")
    body = head.get(f"/games/{game_id}/entries/3").get_data(as_text=True)
    assert 'value="head_judge"' in body and 'value="judge"' not in body  # an appeal goes up
    assert "Ruling 3 recorded on entry 3" in rule(head, game_id, 3, "head_judge", ruling="final word")
    assert "the head judge's ruling is final" in rule(director, game_id, 3, "head_judge")
    assert [r.decider for r in stored(app, game_id).items] == ["referee", "judge", "head_judge"]


def test_a_judges_device_is_refused_403_on_every_director_only_and_table_only_action_and_nothing_changes(app):
    tid, game_id, director, referee, judge = judged(app)
    with app.app_context():
        players = [p.name for p in folds.load(game_id).game.state.players]
    fills = {"game_id": game_id, "tournament_id": tid, "number": 1, "name": "trade"}
    form = {"seq": "13", "entry": '{"type": "roll", "player": "%s", "dice": [1, 2]}' % players[0], "round": "2",
            "action": "start", "player": players[0], "verdict": "confirms", "entries": "13", "count": "0",
            "role": "judge", "name": "P1", "seated": "1", "archived": "1"}
    guarded = [(rule_, view.needs) for rule_ in app.url_map.iter_rules()
               if (view := app.view_functions[rule_.endpoint]) and hasattr(view, "needs")]
    assert {needs for _, needs in guarded} == {"game", "director"} and len(guarded) >= 20
    before = state_of(app, tid)
    for url_rule, needs in guarded:
        url = url_rule.build({k: fills[k] for k in url_rule.arguments}, append_unknown=False)[1]
        for method in url_rule.methods - {"HEAD", "OPTIONS"}:
            answer = judge.open(url, method=method, data=form if method == "POST" else None)
            assert answer.status_code == 403, (method, url, answer.status_code)
            said = text(answer)
            assert ("not the table's entries of play" in said if needs == "game" else
                    "not the director's page" in said), (method, url)
            polled = judge.open(url, method=method, data=form if method == "POST" else None, headers=HX)
            assert polled.status_code == 403, (method, url, "htmx")
    assert state_of(app, tid) == before
    # still a judge: the calls, and a ruling
    assert judge.get(f"/tournaments/{tid}/judge").status_code == 200
    assert "Ruling 1 recorded on entry 2" in rule(judge, game_id, 2, "judge")


def test_the_directors_lock_of_every_tablet_locks_the_judges_phones_too(app):
    tid, game_id, director, referee, judge = judged(app)
    assert "devices unlocked with a judges' PIN" in text(director.get(f"/tournaments/{tid}")) or \
        "device unlocked with a judges' PIN" in text(director.get(f"/tournaments/{tid}"))
    director.post(f"/tournaments/{tid}/lock")
    assert judge.get(f"/tournaments/{tid}/judge").headers["Location"] == f"/tournaments/{tid}/judge/unlock"
    assert "recorded with the judges' PIN" in rule(judge, game_id, 2, "judge")
    assert stored(app, game_id).items == ()


def test_a_call_names_the_entry_in_dispute_the_latest_by_default_and_who_calls(app):
    tid, game_id, director, referee = seated(app)
    latest = folds_seq(app, game_id)
    page = referee.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"Call a judge on entry {latest}" in page and 'name="other"' in page and 'name="caller"' in page
    # refused: an entry the game has not, a number that is none, a caller not at the table; nothing recorded
    for data, words in (({"entry": "0"}, f"a judge is called on an entry of the game: from 1 to {latest}"),
                        ({"other": str(latest + 1)}, f"from 1 to {latest}"),
                        ({"other": "9" * 400}, "is not an entry number: no judge was called"),
                        ({"entry": "abc"}, "“abc” is not an entry number"),
                        ({"entry": "3", "caller": "Mallory"}, "Mallory is not a player at this table")):
        assert words in text(referee.post(f"/games/{game_id}/call-judge", data=data, follow_redirects=True))
    with app.app_context():
        assert rulings.open_call(game_id) is None
    # a number typed over the one ticked, and a player calling
    said = text(referee.post(f"/games/{game_id}/call-judge", data={"entry": str(latest), "other": "4",
                                                                   "caller": "P2"}, follow_redirects=True))
    assert "A judge has been called on entry 4" in said and "called by P2" in said
    shown = director.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert f'href="/games/{game_id}/entries/4?call=1#record-ruling">Answer with a ruling' in shown
    assert "at entry 4" in text(shown) and "called by P2" in text(shown)
    with app.app_context():
        rulings_call = rulings.open_call(game_id)
        assert (rulings_call.entry, rulings_call.caller) == (4, "P2")


def test_the_dispute_view_calls_a_judge_on_its_own_entry_for_the_tables_referee(app):
    tid, game_id, director, referee = seated(app)
    assert "Call a judge on entry 6" in text(referee.get(f"/games/{game_id}/entries/6"))
    assert "Call a judge on entry 6" not in text(app.test_client().get(f"/games/{game_id}/entries/6"))
    r = referee.post(f"/games/{game_id}/call-judge", data={"entry": "6", "back": "6"})
    assert r.headers["Location"] == f"/games/{game_id}/entries/6"
    page = text(referee.get(f"/games/{game_id}/entries/6"))
    assert "A judge has been called on this entry · called by the table's referee" in page
    assert "A judge has been called on entry 6" in text(referee.get(f"/games/{game_id}/entries/2"))
