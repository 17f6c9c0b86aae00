"""The taps a table's tablet kept while the server could not be reached, sent when it is back (POST
/games/ID/sync): recorded in order, exactly once each, checked by the engine as each tap would have been, in one
commit that continues the hash chain; a run sent again after its answer was lost records nothing twice; a table
recorded meanwhile by another tablet refuses the run with both records from the first difference; a tap the rules
refuse refuses the run, naming the tap and its clause; anything else sent there changes nothing."""
import json
import random
from pathlib import Path

import pytest

from conftest import new_game
from referee.engine import Game, Header, RefereeError, legal_actions, parse_entry
from referee.screens.kept import choice_ruling
from referee.services import entry_keys, folds, games, rulings
from referee.services.sync import MAX_TAPS
from referee.sim.policy import Policy


def kept_run(app, game_id: int, n: int, seed: int = 5) -> list[dict]:
    """``n`` taps a tablet took on the table as the server has it (the simulator's random referee choosing), each
    with its own form's key and the entry it followed."""
    with app.app_context():
        table = folds.load(game_id)
        game, after = table.game.copy(), table.seq
    policy = Policy(random.Random(seed), "random")
    taps = []
    for k in range(n):
        entry = policy.choose(game.state, legal_actions(game.state)).to_dict()
        game.record(parse_entry(entry))
        taps.append({"key": entry_keys.new_key(), "entry": entry, "after": after + k})
    return taps


def send(client, game_id: int, taps: list[dict]):
    return client.post(f"/games/{game_id}/sync", data=json.dumps({"taps": taps}), content_type="application/json")


def recorded(client, game_id: int) -> list[dict]:
    lines = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()[1:]
    return [{k: v for k, v in json.loads(line).items() if k != "seq"} for line in lines
            if "ruling" not in json.loads(line)]  # the record's entries (its rulings follow them)


def test_thirty_taps_kept_on_a_tablet_are_recorded_once_each_in_order_and_the_chain_holds(app, client):
    game_id = new_game(client)
    taps = kept_run(app, game_id, 30)
    answer = send(client, game_id, taps)
    assert answer.status_code == 200, answer.json
    assert answer.json == {"recorded": 30, "already": 0, "seq": 30, "message": "30 entries recorded"}
    assert recorded(client, game_id) == [parse_entry(t["entry"]).to_dict() for t in taps]
    again = send(client, game_id, taps)  # the answer was lost: the tablet sends the run again
    assert again.status_code == 200 and again.json["recorded"] == 0 and again.json["already"] == 30
    assert len(recorded(client, game_id)) == 30
    with app.app_context():
        count, altered = folds.verify_all()
        assert count == 1 and altered == []  # the hash chain continued, as `referee verify` checks it


def test_a_form_of_two_entries_that_reached_the_server_is_known_in_the_tablets_run_as_its_two_taps(app, client):
    """A decline and the opening bid its button adds, sent as one form: its answer slow, the tablet took it as two
    taps (the form's key, then ``run_key(key, 1)``) and went on.  The server, which recorded the form whole under its
    key, counts both as recorded and records the taps after them once."""
    from referee.engine import run_key

    game_id = new_game(client)
    key = entry_keys.new_key()
    decline, bid = {"type": "decline", "player": "Aki"}, {"type": "bid", "player": "Ben", "amount": 10}
    client.post(f"/games/{game_id}/record", data={"seq": 0, "entry": json.dumps({"type": "roll", "player": "Aki",
                                                                                 "dice": [1, 2]})})
    answer = client.post(f"/games/{game_id}/record", data={"seq": 1, "entry": json.dumps(decline),
                                                           "then": json.dumps(bid), "entry_key": key})
    assert answer.status_code == 303 and len(recorded(client, game_id)) == 3
    taps = [{"key": key, "entry": decline, "after": 1}, {"key": run_key(key, 1), "entry": bid, "after": 2}]
    taps += [{**tap, "after": 3 + n} for n, tap in enumerate(kept_run(app, game_id, 2))]
    synced = send(client, game_id, taps)
    assert synced.status_code == 200 and (synced.json["recorded"], synced.json["already"]) == (2, 2)
    assert recorded(client, game_id)[1:] == [decline, bid] + [t["entry"] for t in taps[2:]]
    other = send(client, game_id, [{"key": key, "entry": decline, "after": 1},
                                   {"key": run_key(key, 1), "entry": {**bid, "amount": 20}, "after": 2}])
    assert other.status_code == 409 and "sent again with another entry" in other.json["refused"]


def test_a_run_sent_again_longer_after_its_answer_was_lost_records_only_the_taps_not_recorded(app, client):
    game_id = new_game(client)
    taps = kept_run(app, game_id, 12)
    assert send(client, game_id, taps[:5]).json["recorded"] == 5
    answer = send(client, game_id, taps)
    assert answer.status_code == 200 and (answer.json["recorded"], answer.json["already"]) == (7, 5)
    assert answer.json["seq"] == 12 and len(recorded(client, game_id)) == 12
    assert answer.json["message"] == "12 entries recorded (5 of them when they were sent before: that answer was lost)"


def test_a_table_recorded_meanwhile_by_another_tablet_refuses_the_run_with_both_records(app, client):
    game_id = new_game(client)
    taps = kept_run(app, game_id, 5)
    first = taps[0]["entry"]
    other = {"type": "roll", "player": first["player"], "dice": [1, 2] if first.get("dice") != [1, 2] else [2, 3]}
    with app.app_context():
        games.record(game_id, other, 0)  # another tablet at the same table, while this one was cut off
    answer = send(client, game_id, taps)
    assert answer.status_code == 409
    conflict = answer.json["conflict"]
    assert conflict["after"] == 0 and conflict["server"] == [other] and conflict["tablet"] == [t["entry"] for t in taps]
    assert "an entry on the server that this tablet did not know of" in answer.json["message"]
    assert recorded(client, game_id) == [other]  # nothing of the tablet's recorded, nothing of the server's lost


def test_a_tap_the_rules_refuse_refuses_the_whole_run_naming_the_tap_and_its_clause(app, client):
    game_id = new_game(client)
    taps = kept_run(app, game_id, 5)
    taps[3] = {**taps[3], "entry": {"type": "roll", "player": "Nobody", "dice": [1, 2]}}
    with app.app_context():  # what the engine says of it on the table the first three taps leave
        game = folds.load(game_id).game.copy()
    for tap in taps[:3]:
        game.record(parse_entry(tap["entry"]))
    with pytest.raises(RefereeError) as refused:
        game.record(parse_entry(taps[3]["entry"]))
    answer = send(client, game_id, taps)
    assert answer.status_code == 422
    assert answer.json["tap"] == 3 and answer.json["refusal"]["code"] == refused.value.code
    assert answer.json["refusal"]["message"] and answer.json["refusal"]["clause"]
    assert recorded(client, game_id) == []


DEEP = '{"taps": ' + "[" * 10_000 + "]" * 10_000 + "}"


@pytest.mark.parametrize("body", [
    "not json", DEEP, '{"taps": "x"}', "[]", '{"taps": [{"key": "short", "entry": {}, "after": 0}]}',
    '{"taps": [{"key": "' + "k" * 24 + '", "entry": [], "after": 0}]}',
    '{"taps": [{"key": "' + "k" * 24 + '", "entry": {"type": "roll"}, "after": -1}]}',
    '{"taps": [{"key": "' + "k" * 24 + '", "entry": {"type": "roll"}, "after": true}]}',
    '{"taps": [{"key": "' + "k" * 24 + '", "entry": {"type": "roll"}, "after": 1' + "0" * 400 + "}]}",
    '{"taps": [' + ",".join(['{"key": "' + "k" * 24 + '", "entry": {}, "after": 0}'] * (MAX_TAPS + 1)) + "]}",
], ids=["not-json", "deep", "not-a-list", "not-an-object", "bad-key", "entry-not-object", "after-negative",
        "after-boolean", "after-huge", "too-many"])
def test_taps_not_as_a_table_screen_sends_them_change_nothing(app, client, body):
    game_id = new_game(client)
    answer = client.post(f"/games/{game_id}/sync", data=body, content_type="application/json")
    assert answer.status_code == 400 and "nothing was recorded" in answer.json["refused"]
    assert recorded(client, game_id) == []


def test_taps_out_of_order_or_a_key_sent_with_another_entry_change_nothing(app, client):
    game_id = new_game(client)
    taps = kept_run(app, game_id, 4)
    answer = send(client, game_id, [taps[0], taps[2], taps[1]])
    assert answer.status_code == 400 and "not in the order they were taken" in answer.json["refused"]
    assert send(client, game_id, taps[:2]).json["recorded"] == 2
    forged = [{**taps[0], "entry": taps[1]["entry"]}]  # a kept key with another entry
    answer = send(client, game_id, forged)
    assert answer.status_code == 409 and "already recorded entry 1" in answer.json["refused"]
    assert len(recorded(client, game_id)) == 2


def test_a_device_not_unlocked_records_nothing(app, client):
    game_id = new_game(client)
    taps = kept_run(app, game_id, 3)
    other = app.test_client()
    answer = other.post(f"/games/{game_id}/sync", data=json.dumps({"taps": taps}), content_type="application/json",
                        headers={"HX-Request": "true"})
    assert answer.status_code == 403
    assert recorded(client, game_id) == []


def test_a_run_that_is_not_one_tablets_taps_in_order_changes_nothing(app, client):
    """A key twice in the run, a tap recorded before the taps ahead of it, taps that follow an entry the server
    never had, an entry whose type is not a word: refused, nothing recorded (and no error of the server's)."""
    game_id = new_game(client)
    taps = kept_run(app, game_id, 4)
    twice = [taps[0], {**taps[1], "key": taps[0]["key"]}]
    assert send(client, game_id, twice).json["refused"].startswith("a form's key comes twice in the run")
    beyond = send(client, game_id, [{**taps[0], "after": 7}])
    assert beyond.status_code == 400 and "follow entry 7, but the table has 0 entries" in beyond.json["refused"]
    odd = send(client, game_id, [{**taps[0], "entry": {"type": ["roll"], "player": "Aki"}}])
    assert odd.status_code == 400 and "unknown entry type" in odd.json["refused"]
    assert send(client, game_id, taps[:1]).json["recorded"] == 1
    ahead = send(client, game_id, [{**taps[1], "key": entry_keys.new_key()},
                                   {**taps[2], "key": taps[0]["key"]}])  # a key kept already, behind a new one
    assert ahead.status_code == 400 and "recorded before the taps ahead of it" in ahead.json["refused"]
    assert len(recorded(client, game_id)) == 1


def conflicted(app, client, server_entries: int = 1):
    """A tablet's 5 kept taps from the table's start, and ``server_entries`` recorded meanwhile by another tablet
    (the seating roll-off's rolls, the first different from the tablet's): the game, the taps, the server's entries."""
    game_id = new_game(client)
    taps = kept_run(app, game_id, 5)
    first = taps[0]["entry"]
    other = [{"type": "roll", "player": first["player"], "dice": [1, 2] if first.get("dice") != [1, 2] else [2, 3]}]
    with app.app_context():
        games.record(game_id, other[0], 0)
        for n in range(1, server_entries):
            state = folds.load(game_id).game.state
            other.append(Policy(random.Random(n), "random").choose(state, legal_actions(state)).to_dict())
            games.record(game_id, other[-1], n)
    return game_id, taps, other


def choose(client, game_id: int, taps: list[dict], choice: str, seen: int):
    return client.post(f"/games/{game_id}/sync", data=json.dumps({"taps": taps, "choice": choice, "seen": seen}),
                       content_type="application/json")


def test_the_referee_keeps_the_servers_record_and_the_tablets_entries_are_discarded_in_a_ruling(app, client):
    game_id, taps, other = conflicted(app, client)
    answer = choose(client, game_id, taps, "server", 1)
    assert answer.status_code == 200 and answer.json["recorded"] == 0
    assert "this tablet's 5 entries were discarded" in answer.json["message"]
    assert recorded(client, game_id) == other
    with app.app_context():
        (ruling,) = rulings.read(game_id).items
    assert ruling.entry == 1 and ruling.decider == "referee"
    assert ruling.claim.startswith("While the server could not be reached, this tablet recorded 5 entries after "
                                   "entry 0: ")
    assert "discarded" in ruling.ruling
    assert choose(client, game_id, taps, "server", 1).status_code == 200  # its answer lost: sent again, once
    with app.app_context():
        assert len(rulings.read(game_id).items) == 1


def test_the_ruling_on_a_conflict_says_the_set_aside_entries_as_the_log_says_them(jma):
    """The entries the referee's choice sets aside are said in the rulings log as the conflict's screen showed them,
    folded on the record both sides had: the deed bought by its name and price (said alone, a purchase is only
    "buys the deed landed on")."""
    lines = (Path(__file__).parent / "golden" / "jma-short-game.jsonl").read_text(encoding="utf-8").splitlines()
    game = Game(jma, Header("jma-2006", ("Aki", "Ben", "Chie"), seating="roll"))
    for line in lines[1:6]:  # the seating roll-off
        game.record(parse_entry({k: v for k, v in json.loads(line).items() if k != "seq"}))
    tablet = [{"type": "roll", "player": "Ben", "dice": [2, 3]}, {"type": "buy", "player": "Ben"}]
    claim, ruling = choice_ruling("server", 5, [], tablet, game)
    assert claim == ("While the server could not be reached, this tablet recorded 2 entries after entry 5: Ben rolls "
                     "2+3; Ben buys Reading Railroad for $200")
    claim, ruling = choice_ruling("tablet", 5, tablet, [{"type": "roll", "player": "Ben", "dice": [1, 1]}], game)
    assert claim.endswith("after entry 5: Ben rolls 2+3; Ben buys Reading Railroad for $200")


def test_the_referee_keeps_the_tablets_record_through_a_void_and_the_chain_holds(app, client):
    game_id, taps, other = conflicted(app, client, server_entries=2)
    answer = choose(client, game_id, taps, "tablet", 2)
    assert answer.status_code == 200 and answer.json["recorded"] == 5 and answer.json["seq"] == 8
    assert recorded(client, game_id) == other + [{"type": "void", "count": 2}] + [t["entry"] for t in taps]
    with app.app_context():
        loaded = folds.load(game_id)
        tablet = folds.load(game_id).game.copy()
        assert loaded.altered is None and folds.verify_all()[1] == []
        (ruling,) = rulings.read(game_id).items
    assert ruling.entry == 3 and "kept this tablet's record" in ruling.ruling
    assert "another device recorded 2 entries after entry 0" in ruling.claim
    assert [e.to_dict() for e in tablet.effective_entries()] == [t["entry"] for t in taps]
    again = choose(client, game_id, taps, "tablet", 2)  # its answer lost: the same choice sent again
    assert again.status_code == 200 and (again.json["recorded"], again.json["already"]) == (0, 5)
    assert len(recorded(client, game_id)) == 8


def test_the_tablets_record_and_the_ruling_on_it_are_recorded_together_or_not_at_all(app, client, monkeypatch):
    """Every choice recorded: the void, the tablet's entries and the referee's ruling on them are one commit; a
    ruling that cannot be recorded (here: the game's rulings full) records none of the entries either."""
    game_id, taps, other = conflicted(app, client, server_entries=2)
    monkeypatch.setattr(rulings, "MAX_RULINGS", 0)
    answer = choose(client, game_id, taps, "tablet", 2)
    assert answer.status_code == 409 and "at most 0 rulings" in answer.json["refused"]
    assert recorded(client, game_id) == other
    with app.app_context():
        assert rulings.read(game_id).items == () and folds.verify_all()[1] == []
    monkeypatch.setattr(rulings, "MAX_RULINGS", 50)
    assert choose(client, game_id, taps, "tablet", 2).json["recorded"] == 5


def test_a_choice_made_on_a_table_that_moved_on_since_is_shown_the_conflict_again(app, client):
    game_id, taps, other = conflicted(app, client, server_entries=2)
    answer = choose(client, game_id, taps, "tablet", 1)  # the referee saw one entry of the server's; now two
    assert answer.status_code == 409 and answer.json["conflict"]["server"] == other
    assert recorded(client, game_id) == other


def test_the_tablets_record_cannot_go_on_when_the_server_voided_entries_it_had(app, client):
    game_id = new_game(client)
    taps = kept_run(app, game_id, 4)
    with app.app_context():
        games.record(game_id, taps[0]["entry"], 0)
        games.record(game_id, taps[1]["entry"], 1)
        games.record(game_id, {"type": "void", "count": 2}, 2)  # the director took back what the tablet had too
    answer = choose(client, game_id, taps[2:], "tablet", 3)
    assert answer.status_code == 400 and "only the server's record can go on" in answer.json["refused"]
    assert len(recorded(client, game_id)) == 3


def test_a_void_back_to_an_entry_counts_the_effective_entries_since_or_none_when_they_reach_behind_it(app, client):
    game_id = new_game(client)
    taps = kept_run(app, game_id, 6)
    with app.app_context():
        for n, tap in enumerate(taps[:4]):
            games.record(game_id, tap["entry"], n)
        games.record(game_id, {"type": "void", "count": 1}, 4)
        game = folds.load(game_id).game
    assert [game.void_back_to(n) for n in range(6)] == [3, 2, 1, 0, None, 0]


def test_the_directors_time_call_made_while_the_tablet_was_cut_off_applies_after_its_taps(app, client):
    """JMA competition rules, time-limit game: when time is called, the turn in progress ends the game.  A table cut
    off from the server learns of the director's call when it comes back: the call applies from then, as the table's
    referee would apply it.  The call recorded meanwhile is taken back by a void and recorded again after the taps,
    the record keeping both (no conflict for the referee to settle)."""
    from referee.services.tournaments import DIRECTOR_TIME_CALL

    game_id = new_game(client)
    taps = kept_run(app, game_id, 6)
    with app.app_context():
        games.record(game_id, DIRECTOR_TIME_CALL, 0)
    answer = send(client, game_id, taps)
    assert answer.status_code == 200 and answer.json["recorded"] == 6 and answer.json["seq"] == 9
    assert "The director called time while this tablet was cut off" in answer.json["message"]
    assert recorded(client, game_id) == ([DIRECTOR_TIME_CALL, {"type": "void", "count": 1}]
                                         + [t["entry"] for t in taps] + [DIRECTOR_TIME_CALL])
    with app.app_context():
        loaded = folds.load(game_id)
        assert loaded.game.state.time_called and folds.verify_all()[1] == []
    again = send(client, game_id, taps)  # its answer lost: sent again, each tap known by its key
    assert again.status_code == 200 and (again.json["recorded"], again.json["already"]) == (0, 6)
    assert len(recorded(client, game_id)) == 9


def test_each_kept_entry_is_stored_with_the_tablets_time_never_before_the_entry_before_nor_after_now(app, client):
    """Offline entries carry the tablet's time: the dispute view says when each was made at the table.  A tablet's
    clock may be wrong: a time before the entry stored before it is that entry's, one ahead of the server's is the
    server's (a record's times only go forward)."""
    from datetime import datetime, timedelta, timezone

    game_id = new_game(client)
    taps = kept_run(app, game_id, 4)
    now = datetime.now(timezone.utc)
    at = [int((now - timedelta(minutes=m)).timestamp()) for m in (20, 30, 10)] + [int(now.timestamp()) + 3600]
    answer = send(client, game_id, [{**tap, "at": t} for tap, t in zip(taps, at)])
    assert answer.status_code == 200
    with app.app_context():
        stored = [games.recorded_times(game_id, n)[0] for n in range(1, 5)]
    wanted = [datetime.fromtimestamp(t, timezone.utc).replace(tzinfo=None) for t in at]
    assert stored[0] == wanted[0]
    assert stored[1] == wanted[0]  # before the entry before it: that entry's time
    assert stored[2] == wanted[2]
    assert abs((stored[3] - now.replace(tzinfo=None)).total_seconds()) < 60  # ahead of the server's: the server's
    assert stored == sorted(stored)
    for wrong in ("yesterday", -1, 1.5, 253402300800):  # not a whole time in seconds; more digits than any
        bad = send(client, game_id, [{**kept_run(app, game_id, 1)[0], "at": wrong}])
        assert bad.status_code == 400 and ("taps[0].at" in bad.json["refused"] or "digits" in bad.json["refused"])
    latest = send(client, game_id, [{**kept_run(app, game_id, 1)[0], "at": 9_999_999_999}])
    assert latest.status_code == 200  # the year 2286 by the tablet's clock: stored as now
