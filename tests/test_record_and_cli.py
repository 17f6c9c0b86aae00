"""The game record: golden records, corrections, and the replay and simulate commands."""
import json
import re
import sys
from pathlib import Path

import pytest

from referee.services import rulesets
from referee.cli import main
from referee.engine import (Game, Header, IllegalEntry, legal_actions, parse_entry, parse_record, ranking, record,
                            replay, rules)

HERE = Path(__file__).parent
GOLDEN = sorted((HERE / "golden").glob("*.jsonl"))


def load(path: Path) -> Game:
    header, entries = parse_record(path.read_text(encoding="utf-8").splitlines())
    return replay(rulesets.for_header(header), header, entries)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_to_its_expected_cash_positions_and_owners(path):
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    game = load(path)
    state = game.state
    assert [p.name for p in state.players] == expected["turn_order"]
    for p in state.players:
        want = expected["players"][p.name]
        i = state.player_index(p.name)
        got = {
            "cash": p.cash, "position": p.position, "in_jail": p.in_jail, "jail_cards": p.jail_cards,
            "deeds": [state.ruleset.squares[sq].id for sq in state.deeds_of(i)],
        }
        assert got == {k: want[k] for k in got}, p.name
        assert p.bankrupt == want.get("bankrupt", False)
    assert len(game.entries) == expected["entries"]
    assert len(game.effective) == expected["effective_entries"]
    if "ranking" in expected:
        assert state.over and state.pending.reason == expected["end"]
        got = [{"rank": st.rank, "name": st.name, "assets": st.assets.as_dict(), "bankrupt_order": st.bankrupt_order,
                "rolloff": list(st.rolloff)} for st in ranking(state)]
        assert got == expected["ranking"]
        for st in ranking(state):  # the breakdown, counted again from the board
            i = st.player
            deeds = [sq for sq in range(40) if state.owner[sq] == i]
            squares = state.ruleset.squares
            assert st.assets.total == (state.players[i].cash
                                       + sum(squares[q].price for q in deeds if not state.mortgaged[q])
                                       + sum(squares[q].price // 2 for q in deeds if state.mortgaged[q])
                                       + sum(state.buildings[q] * squares[q].house_cost for q in deeds))


def test_golden_records_exist():
    assert len(GOLDEN) >= 5


def undocumented_entries() -> list[str]:
    """What docs/game-record.md's entry table lacks against the entry types the engine reads (entries.ENTRY_FIELDS,
    what parse_entry checks an entry against, the kinds of engine/kinds/ included): a type without its row, a row
    for no type, a field its row does not name, a row that does not say when the entry is allowed or what it
    records."""
    from referee.engine.entries import ENTRY_FIELDS

    text = (Path(__file__).parents[1] / "docs" / "game-record.md").read_text(encoding="utf-8")
    table = text.split("## Entries", 1)[1].split("\n\n| type |", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 4 and cells[0].startswith("`"), f"docs/game-record.md: not a row of the table: {line}"
        rows[cells[0].strip("`")] = cells
    problems = [f"{kind}: no row" for kind in sorted(set(ENTRY_FIELDS) - set(rows))]
    problems += [f"{kind}: a row for no entry type the engine reads" for kind in sorted(set(rows) - set(ENTRY_FIELDS))]
    for kind, (required, optional) in ENTRY_FIELDS.items():
        if kind not in rows:
            continue
        named = set(re.findall(r"`(\w+)`", rows[kind][1]))
        if not set(required + optional) <= named:
            problems.append(f"{kind}: fields {sorted(set(required + optional) - named)} not named")
        if not (rows[kind][2] and rows[kind][3]):
            problems.append(f"{kind}: when it is allowed and what it records")
    return problems


def test_the_game_record_page_lists_every_entry_type_the_engine_parses_with_its_fields():
    """docs/game-record.md's entry table has a row for each entry type the engine reads, naming each of its fields,
    and no row for a type the engine does not read: a type added to the engine and not to the page fails here."""
    assert undocumented_entries() == []


def test_record_written_back_reads_the_same(tmp_path):
    game = load(HERE / "golden" / "jma-short-game.jsonl")
    out = tmp_path / "again.jsonl"
    out.write_text("\n".join(game.to_lines()) + "\n", encoding="utf-8")
    again = load(out)
    assert [p.cash for p in again.state.players] == [p.cash for p in game.state.players]
    assert again.entries == game.entries


def test_void_takes_back_the_latest_entries_and_is_itself_kept(jma):
    game = Game(jma, Header("jma-2006", ("Aki", "Ben"), seating="fixed"))
    game.record(parse_entry({"type": "roll", "player": "Aki", "dice": [1, 2]}))
    game.record(parse_entry({"type": "buy", "player": "Aki"}))
    assert game.state.owner[3] == 0
    game.record(parse_entry({"type": "void", "count": 2, "note": "wrong dice"}))
    assert game.state.owner[3] is None and game.state.players[0].position == 0
    assert [e.type for e in game.entries] == ["roll", "buy", "void"]
    assert game.entries[-1].note == "wrong dice"
    assert game.state_after(2).owner[3] == 0  # the state as it was, for a dispute


def test_void_of_more_entries_than_recorded_is_refused(jma):
    game = Game(jma, Header("jma-2006", ("Aki", "Ben"), seating="fixed"))
    game.record(parse_entry({"type": "roll", "player": "Aki", "dice": [1, 2]}))
    with pytest.raises(IllegalEntry) as err:
        game.record(parse_entry({"type": "void", "count": 2}))
    assert err.value.code == "void_too_many"
    assert "遡って修正" in err.value.clause
    assert len(game.entries) == 1


def test_void_across_a_snapshot_refolds_from_the_snapshot(jma, monkeypatch):
    monkeypatch.setattr(record, "SNAPSHOT_EVERY", 4)
    game = load(HERE / "golden" / "jma-short-game.jsonl")
    plain = Game(jma, game.header)
    for entry in game.entries:
        plain.record(entry)
    game.record(parse_entry({"type": "void", "count": 9}))
    fresh = Game(jma, game.header)
    for entry in game.effective_entries():
        fresh.record(entry)
    assert [p.cash for p in game.state.players] == [p.cash for p in fresh.state.players]
    assert game.state.pending == fresh.state.pending


def test_replay_command_prints_the_final_state(capsys):
    assert main(["replay", str(HERE / "golden" / "jma-short-game.jsonl"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert {p["name"]: p["cash"] for p in summary["players"]} == {"Ben": 1002, "Chie": 756, "Aki": 1382}
    assert summary["pending"] == "waiting for Ben to roll"


def test_replay_shows_the_money_of_a_finite_bank_that_ends_the_game(capsys):
    """004, 3: Das Spiel endet spätestens nach der Runde, in der das Bankvermögen auf 0 gefallen ist: the bank's
    money is in the summary, as text and as JSON; a bank that never runs out has none."""
    german = HERE / "conformance" / "german-the-bank-pays-what-it-has-and-the-game-ends-after-that-round.jsonl"
    assert main(["replay", str(german), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["bank_money"] == 0 and summary["end"] == "bank" and summary["game_over"]
    assert main(["replay", str(german)]) == 0
    assert "; 0 M in cash" in capsys.readouterr().out
    assert main(["replay", str(HERE / "golden" / "jma-short-game.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bank_money"] is None


@pytest.mark.parametrize("name, line, words", [
    ("illegal-bid", 11, ["$55", "bad_bid_step", "$10単位"]),
    ("illegal-roll", 14, ["waiting for Chie to roll", "wrong_player"]),
    ("illegal-purchase", 24, ["waiting for Aki to buy or decline St. Charles Place", "購入できます"]),
    ("impossible-die", 7, ["impossible die 7"]),
    ("unknown-type", 8, ["unknown entry type \"teleport\""]),
    ("missing-field", 8, ["missing field(s) player"]),
    ("not-json", 6, ["not JSON"]),
])
def test_replay_refuses_a_bad_record_naming_the_line_and_the_rule(capsys, name, line, words):
    assert main(["replay", str(HERE / "records" / f"{name}.jsonl")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"line {line}:" in err
    for word in words:
        assert word in err


def test_replay_of_a_missing_file_is_one_line(capsys):
    assert main(["replay", "/nonexistent/record.jsonl"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_replay_refuses_an_unknown_option_in_the_header(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"format": "referee-game-record", "version": 1, "ruleset": "jma-2006",
                                "options": {"warp_speed": True}, "players": ["A", "B"]}) + "\n")
    assert main(["replay", str(path)]) == 1
    assert "unknown option 'warp_speed'" in capsys.readouterr().err


def test_simulate_sets_what_the_process_made_aside_from_the_collector_only_in_a_process_of_its_own(
        capsys, monkeypatch):
    """``referee simulate`` in a process of its own (its console script, ``python -m referee.cli``) freezes what the
    process made before the games (``gc.freeze``: the collector no longer walks the libraries' objects as the games
    run, a twenty-fifth of a simulated turn); run among other work (``main``, as a test runs it) it freezes nothing,
    as that work's garbage would be frozen with it and kept for good."""
    import gc

    from referee import cli

    froze = []
    monkeypatch.setattr(gc, "freeze", lambda: froze.append(True))
    assert main(["simulate", "--games", "1", "--seed", "1", "--max-turns", "20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1 and froze == []
    monkeypatch.setattr(sys, "argv", ["referee", "simulate", "--games", "1", "--seed", "1", "--max-turns", "20",
                                      "--json"])
    assert cli.command() == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1 and froze == [True]


def test_simulate_json_has_every_key_and_no_invariant_violation(capsys):
    assert main(["simulate", "--games", "3", "--seed", "1", "--max-turns", "200", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"games", "events", "turns", "seconds", "events_per_second", "turns_per_second",
                           "mechanisms", "events_by_type", "endings", "landings",
                           "invariant_violations"}
    assert result["games"] == 3 and result["invariant_violations"] == 0
    assert sum(result["endings"].values()) == 3
    assert result["mechanisms"]["time called"] == result["events_by_type"].get("time_called", 0)
    assert set(result["endings"]) <= {"last_player_standing", "last_player_standing_with_rolloff",
                                      "timed_finish", "timed_finish_with_rolloff"}
    assert set(result["landings"]) <= {str(i) for i in range(40)} | {"jail"}
    assert sum(result["landings"].values()) == result["events_by_type"]["dice_rolled"]


def test_simulate_clock_max_calls_time_after_the_last_turn_random_calls_it_anywhere_up_to_it(capsys):
    assert main(["simulate", "--games", "4", "--seed", "5", "--max-turns", "40", "--clock", "max", "--json"]) == 0
    fixed = json.loads(capsys.readouterr().out)
    assert fixed["events_by_type"]["time_called"] == 4 and fixed["turns"] >= 4 * 40
    assert main(["simulate", "--games", "4", "--seed", "5", "--max-turns", "40", "--json"]) == 0
    drawn = json.loads(capsys.readouterr().out)
    assert drawn["events_by_type"]["time_called"] == 4 and drawn["turns"] < fixed["turns"]


def test_simulate_jail_modes_short_leaves_at_once_long_stays_for_doubles(capsys):
    counts = {}
    for jail in ("short", "long"):
        assert main(["simulate", "--games", "2", "--seed", "3", "--max-turns", "150", "--jail", jail, "--json"]) == 0
        counts[jail] = json.loads(capsys.readouterr().out)["events_by_type"]
    # short pays or uses a card before rolling whenever it can; long rolls for doubles every time
    assert counts["short"].get("jail_roll_failed", 0) < counts["long"]["jail_roll_failed"]
    assert counts["long"].get("paid.bail", 0) <= counts["long"]["jail_roll_failed"]


def test_simulate_is_repeatable_for_a_seed(capsys):
    main(["simulate", "--games", "2", "--seed", "9", "--max-turns", "100", "--json"])
    first = json.loads(capsys.readouterr().out)
    main(["simulate", "--games", "2", "--seed", "9", "--max-turns", "100", "--json"])
    second = json.loads(capsys.readouterr().out)
    assert first["events_by_type"] == second["events_by_type"] and first["landings"] == second["landings"]


def test_a_fold_in_place_reaches_every_state_a_fold_of_new_states_does_voids_and_snapshots_included(jma, monkeypatch):
    """Issue 13: a replay and the simulator change one state in place instead of making a new one for each entry;
    the states are the same, entry by entry, and no snapshot or earlier state is changed."""
    import random

    from referee.sim.simulate import play_game
    monkeypatch.setattr(record, "SNAPSHOT_EVERY", 16)
    source = play_game(jma, random.Random(4), players=3, max_turns=120, check=False)
    copying, in_place = Game(jma, source.header), Game(jma, source.header, in_place=True)
    for n, entry in enumerate(source.entries):
        copying.record(entry)
        in_place.record(entry)
        if n % 50 == 49:  # a correction now and then: the fold in place refolds from a snapshot it never changed
            void = parse_entry({"type": "void", "count": 20})
            copying.record(void)
            in_place.record(void)
            assert in_place.state == copying.state
            for again in copying.redoable():  # and the entries taken back recorded again
                copying.record(again)
                in_place.record(again)
        assert in_place.state == copying.state
    assert in_place.initial == copying.initial == Game(jma, source.header).initial  # never changed
    for length, snapshot in in_place._snapshots.items():
        assert snapshot == copying._snapshots[length] and snapshot is not in_place.state


def test_an_entry_refused_half_way_through_a_fold_in_place_leaves_the_game_as_it_was(jma, monkeypatch):
    """An entry refused after its first events were applied in place: the game folds again from its snapshot."""
    from referee.engine import events as ev

    game = Game(jma, Header("jma-2006", ("Aki", "Ben"), seating="fixed"), in_place=True)
    game.record(parse_entry({"type": "roll", "player": "Aki", "dice": [1, 2]}))
    game.record(parse_entry({"type": "buy", "player": "Aki"}))
    before = game.state.copy()

    roll = rules.HANDLERS["roll"]

    def moves_then_refuses(step, entry):  # Ben's roll only: the refold goes through Aki's as before
        if entry.player != "Ben":
            return roll(step, entry)
        step.emit(ev.Moved(1, 30))
        step.emit(ev.Paid(1, None, 500, "tax"))
        raise step.refuse("not_now", "refused after moving", "dice")

    monkeypatch.setitem(rules.HANDLERS, "roll", moves_then_refuses)
    with pytest.raises(IllegalEntry):
        game.record(parse_entry({"type": "roll", "player": "Ben", "dice": [3, 4]}))
    assert game.state == before and game.state.players[1].position == 0
    assert len(game.entries) == 2
    monkeypatch.undo()
    game.record(parse_entry({"type": "roll", "player": "Ben", "dice": [3, 4]}))
    assert game.state.players[1].position == 7


def test_a_replayed_game_makes_new_states_for_what_is_recorded_on_it_after(jma):
    game = load(HERE / "golden" / "jma-short-game.jsonl")
    assert not game.in_place
    before = game.state
    cash = [p.cash for p in before.players]
    if not before.over:
        from referee.sim.policy import Policy
        import random
        game.record(Policy(random.Random(1), "random").choose(before, legal_actions(before)))
        assert [p.cash for p in before.players] == cash and game.state is not before


@pytest.mark.parametrize("limits, raised, connections", [
    ((1024, 4096), (1064, 4096), 1000),  # raised as far as needed
    ((256, 256), None, 192),  # the hard limit: as many connections as it leaves room for
    ((100_000, 100_000), None, 1000),  # already room enough
])
def test_referee_serve_makes_room_for_every_devices_connection_among_its_open_files(monkeypatch, limits, raised,
                                                                                      connections):
    """`referee serve` keeps up to 1,000 connections open (each device keeps its own between polls); each is an
    open file, so the process's soft limit is raised as far as the hard one allows, and the connections it takes
    are as many as the limit leaves room for beside the database's and the app's own files."""
    import resource

    from referee.app import serving

    set_to = []
    monkeypatch.setattr(resource, "getrlimit", lambda which: limits)
    monkeypatch.setattr(resource, "setrlimit", lambda which, value: set_to.append(value))
    assert serving.open_files(serving.CONNECTIONS) == connections
    assert set_to == ([raised] if raised else [])
