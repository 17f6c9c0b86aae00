"""A new kind of entry is one engine module, one screens module and one template (docs/architecture.md, "An entry
kind"): a toy kind declared here, a caution the referee gives a player while a roll is awaited (for slow play or
for noise, with no payment), is read from a record line, offered by legal_actions, recorded by the simulator and
through the table screen's form, shown as a panel of buttons, said in the log and refused with its own words
when the rules do not allow it, with no other file of the app edited: the engine's and the screens' registries
find it, and the record's page is checked against it."""
import json
import random
import re
from dataclasses import dataclass

import jinja2
import pytest

from referee.engine import (Action, AwaitRoll, Entry, EntryType, Event, Game, GameState, Header, legal_actions,
                            parse_entry, parse_record, register, Simulated, unregister)
from referee.engine.phrases import Player
from referee.engine.step import Step
from referee.sim.policy import Policy
from referee.screens.kind import Buttons, Confirmation, EntryScreen, Paper, register_screen, unregister_screen

from test_fines import text
from test_record_and_cli import undocumented_entries
from test_table_words import imported, record

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

# --- the engine's module: its name, fields, when it is offered, how it is applied, its event -------------------

CAUSES = ("slow_play", "noise")


@dataclass(slots=True)
class Cautioned(Event):
    """The referee cautioned a player (nothing changes but the record)."""

    player: int
    cause: str

    def apply(self, state: GameState) -> None:
        pass


def caution_actions(state: GameState, player: int | None = None) -> list[Action]:
    if type(state.pending) is not AwaitRoll:
        return []
    return [Action("caution", i, {"cause": cause}) for i in state.active if player in (None, i) for cause in CAUSES]


def caution(step: Step, entry: Entry) -> None:
    who = step.player(entry.player, entry.type)
    if type(step.state.pending) is not AwaitRoll:
        raise step.refuse("no_caution_now", "{player} can be cautioned only while a roll is awaited", "referee",
                          player=Player(who))
    assert entry.choice is not None
    step.emit(Cautioned(who, entry.choice))


def caution_entry(state: GameState, action: Action) -> Entry:
    assert action.player is not None
    return Entry("caution", player=state.players[action.player].name, choice=action.detail["cause"])


CAUTION = EntryType("caution", ("player", "choice"), caution, choices=CAUSES, offered=caution_actions,
                    events=((Cautioned, "cautioned"),), ready=caution_entry,
                    simulated=Simulated(1.0, lambda state: True))

# --- the screens' module: its noun, log line, refusal's title, buttons -----------------------------------------


def cause_words(cause: str) -> str:
    return {"slow_play": "slow play", "noise": "noise"}.get(cause, cause)  # (a real kind's words go through gettext)


def caution_offers(state: GameState, actions: list[Action]) -> list[Confirmation]:
    return [Confirmation(f"{a.player}-{a.detail['cause']}",
                         caution_entry(state, a).to_dict(),
                         f"{state.players[a.player].name}: {cause_words(a.detail['cause'])}", "", "")
            for a in actions if a.player is not None]


CAUTION_SCREEN = EntryScreen(
    "caution", lambda: "a caution",
    lambda entry, ruleset, facts: f"{entry.player} is cautioned: {cause_words(entry.choice or '')}",
    titles={"no_caution_now": "No caution now"},
    buttons=Buttons("cautions", caution_offers, "table/kinds/caution.html", panel=lambda: "Cautions"),
    paper=Paper(lambda: "Cautions given", lambda: (("entry", True), ("player", False), ("cause", False)),
                lambda game: [(str(i + 1), game.entries[i].player or "", cause_words(game.entries[i].choice or ""))
                              for i in game.effective if game.entries[i].type == "caution"]))

# --- its template ----------------------------------------------------------------------------------------------

TEMPLATE = """{% for c in place.offers %}{{ entry_form(c.entry, c.label, id="caution-" ~ c.key) }}{% endfor %}"""


@pytest.fixture
def caution_kind():
    register(CAUTION)
    register_screen(CAUTION_SCREEN)
    yield
    unregister_screen("caution")
    unregister("caution")


@pytest.fixture
def caution_app(app, caution_kind):
    app.jinja_env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({"table/kinds/caution.html": TEMPLATE}),
                                                app.jinja_env.loader])
    return app


def test_a_kind_of_entry_declared_in_a_module_of_its_own_is_read_offered_and_applied(jma, caution_kind):
    game = Game(jma, Header("jma-2006", ("Aki", "Ben"), seating="fixed"))
    line = '{"type": "caution", "player": "Ben", "choice": "noise", "note": "shouted at the dice"}'
    entry = parse_entry(json.loads(line))
    assert (entry.type, entry.player, entry.choice) == ("caution", "Ben", "noise")
    offered = [(a.type, a.player, a.detail["cause"]) for a in legal_actions(game.state) if a.type == "caution"]
    assert offered == [("caution", 0, "slow_play"), ("caution", 0, "noise"), ("caution", 1, "slow_play"),
                       ("caution", 1, "noise")]
    assert [a.player for a in legal_actions(game.state, ("caution",), player=1)] == [1, 1]
    outcome = game.record(entry)
    assert [e.kind for e in outcome.events] == ["cautioned"] and type(game.state.pending) is AwaitRoll
    _, read = parse_record(game.to_lines())  # written and read back
    assert [e for _, e, _ in read] == game.entries and read[-1][2]["note"] == "shouted at the dice"


def test_a_kind_of_entry_refuses_a_choice_it_does_not_give(caution_kind):
    from referee.engine import MalformedEntry

    with pytest.raises(MalformedEntry) as err:
        parse_entry({"type": "caution", "player": "Ben", "choice": "rudeness"})
    assert "choice must be one of slow_play, noise" in str(err.value)


def test_the_simulator_records_a_kind_of_entry_it_finds_in_the_registry(jma, caution_kind):
    game = Game(jma, Header("jma-2006", ("Aki", "Ben"), seating="fixed"))
    policy = Policy(random.Random(1), "random")
    assert policy.choose(game.state).type == "caution"  # its rate is 1: the first chance taken before a roll


def test_the_simulator_asks_a_kind_its_rules_never_offer_nothing_at_each_roll(jma):
    """A kind whose ``in_rules`` says a game's options never offer it is left out of the policy's list once, for the
    whole game: its ``possible`` is never asked and no chance is drawn for it, so the game's draws are those of a
    game without it (the fine and a rent's lapse, on JMA rules: asked at every roll awaited, they had made a turn a
    tenth dearer; benchmarks/NOTES.md)."""
    from referee.engine import simulated

    asked = []

    def possible(state: GameState) -> bool:
        asked.append(state.turn)
        return True

    never = EntryType("caution", ("player", "choice"), caution, choices=CAUSES, offered=caution_actions,
                      events=((Cautioned, "cautioned"),), ready=caution_entry,
                      simulated=Simulated(1.0, possible, in_rules=lambda options: options.rent_claim_turns > 0))
    register(never)
    try:
        assert jma.options.rent_claim_turns == 0  # JMA: a claim that can be traced back is paid
        assert "caution" in [k.name for k in simulated()] and "caution" not in [k.name for k in simulated(jma.options)]
        assert [k.name for k in simulated(jma.options)] == []  # neither the fine nor a rent's lapse either
        rolls = []
        for seed in (1, 2):
            game = Game(jma, Header("jma-2006", ("Aki", "Ben"), seating="fixed"))
            policy = Policy(random.Random(seed), "random")
            for _ in range(40):
                entry = policy.choose(game.state)
                assert entry.type != "caution"
                game.record(entry)
            rolls.append([e.dice for e in game.entries if e.type == "roll"])
    finally:
        unregister("caution")
    assert asked == []
    for seed, seen in zip((1, 2), rolls):  # the same dice as with no such kind registered
        game = Game(jma, Header("jma-2006", ("Aki", "Ben"), seating="fixed"))
        policy = Policy(random.Random(seed), "random")
        for _ in range(40):
            game.record(policy.choose(game.state))
        assert [e.dice for e in game.entries if e.type == "roll"] == seen


@pytest.mark.parametrize("ruleset_id, options, counts", [
    ("jma-2006", {"penalty_dice_off_table": 50, "penalty_out_of_turn_move": 20, "rent_claim_turns": 1},
     (18084, 2825, 20, 47)),
    ("classic", {}, (17156, 2515, 19, 38)),
])
def test_the_simulator_draws_the_fines_and_lapsed_rents_as_it_did_when_it_asked_each_kind_at_every_roll(
        ruleset_id, options, counts):
    """Where a game's options give fines and let rents lapse, the simulator draws the same numbers as when it asked
    every kind at every roll awaited whether one could be recorded: the same games, their events, turns, fines and
    lapsed rents as counted then (12 games from seed 7, at the commit before the kinds were asked once a game)."""
    from referee.engine import with_options
    from referee.services import rulesets
    from referee.sim.simulate import simulate

    result = simulate(with_options(rulesets.load(ruleset_id), options, "test"), 12, 7).as_dict()
    kinds = result["events_by_type"]
    assert (result["events"], result["turns"], kinds.get("penalised", 0), kinds.get("rent_unclaimed", 0)) == counts


def test_a_policy_sees_a_kind_registered_or_taken_away_while_it_plays(jma):
    """The policy keeps the kinds its game's options allow (asked once a game), and asks again once a kind is
    registered or taken away (registry.generation): a policy playing on (the benchmarks' players play many games with
    one) records a kind registered meanwhile, and no longer one taken away."""
    game = Game(jma, Header("jma-2006", ("Aki", "Ben"), seating="fixed"))
    policy = Policy(random.Random(1), "random")
    assert policy.choose(game.state).type != "caution"
    register(CAUTION)
    try:
        assert policy.choose(game.state).type == "caution"  # its rate is 1
    finally:
        unregister("caution")
    assert policy.choose(game.state).type != "caution"


def test_the_record_page_check_finds_a_kind_of_entry_it_does_not_list(caution_kind):
    assert undocumented_entries() == ["caution: no row"]


def test_a_kind_of_entry_is_a_panel_of_buttons_recorded_said_in_the_log_and_refused_with_its_own_words(
        caution_app, client):
    game_id = imported(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'data-panel="cautions"' in page and "Cautions" in page  # its panel, closed
    panel = client.get(f"/games/{game_id}/panels/cautions").get_data(as_text=True)
    assert 'id="caution-1-noise"' in panel and "Ben: noise" in panel  # one button a player and cause
    r = record(client, game_id, {"type": "caution", "player": "Ben", "choice": "noise"})
    assert "Ben is cautioned: noise" in text(r)  # the log's line, in the flash and the log
    assert '"type": "caution"' in client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True)
    record(client, game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]})  # Baltic Avenue: buy or decline
    r = client.post(f"/games/{game_id}/record", data={"seq": "2", "entry": json.dumps(
        {"type": "caution", "player": "Ben", "choice": "slow_play"})}, follow_redirects=True)
    words = text(r)
    assert "No caution now" in words and "Ben can be cautioned only while a roll is awaited" in words
    assert client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).count("\n") == 3  # nothing more


def test_the_registries_are_as_they_were_once_a_kind_is_taken_away(jma, caution_kind):
    from referee.engine import ENTRY_FIELDS, KINDS
    from referee.screens.kind import SCREENS

    assert "caution" in ENTRY_FIELDS and "caution" in KINDS and "caution" in SCREENS
    unregister_screen("caution")
    unregister("caution")
    try:
        assert "caution" not in ENTRY_FIELDS and "caution" not in KINDS and "caution" not in SCREENS
        game = Game(jma, Header("jma-2006", ("Aki", "Ben"), seating="fixed"))
        assert not [a for a in legal_actions(game.state) if a.type == "caution"]
    finally:
        register(CAUTION)
        register_screen(CAUTION_SCREEN)


def test_a_kind_of_entry_gives_its_table_to_the_result_page_and_sheet_without_the_reports_naming_it(
        caution_app, client):
    game_id = imported(client)
    record(client, game_id, {"type": "caution", "player": "Ben", "choice": "noise"})
    from referee import reports

    result = client.get(f"/games/{game_id}/result").get_data(as_text=True)
    with caution_app.test_request_context():
        sheet = reports.game_html(game_id)  # the result sheet, before it is printed
    for page in (result, sheet):
        assert "<h2>Cautions given</h2>" in page and "<td>noise</td>" in page and '<td class="n">1</td>' in page


# --- the entries recorded whatever the decision awaited, moved onto the registry ------------------------------

MOVED = ("sell_buildings", "trade", "time_called", "mortgage", "unmortgage")


def test_the_moved_kinds_are_found_in_both_registries_and_no_longer_named_in_the_old_places():
    from pathlib import Path

    from referee.engine import KINDS
    from referee.engine.registry import AT_ANY_DECISION, HANDLERS
    from referee.screens import log, refusals, words
    from referee.screens.kind import SCREENS

    root = Path(__file__).parents[1]
    entries = (root / "referee/engine/entries.py").read_text(encoding="utf-8")
    rules = (root / "referee/engine/rules.py").read_text(encoding="utf-8")
    policy = (root / "referee/sim/policy.py").read_text(encoding="utf-8")
    panels = "".join((root / "templates/table" / name).read_text(encoding="utf-8")
                     for name in ("_panels.html", "_macros.html"))
    for name in MOVED:
        assert name in KINDS and name in SCREENS, name
        assert HANDLERS[name] is KINDS[name].apply, name
        assert f'"{name}"' not in entries and f'"{name}"' not in rules, name  # no field table's row, no branch
        assert name not in log._SENTENCES and name not in refusals._entry_nouns(), name
        assert f"A.{name}" not in panels and f'"type": "{name}"' not in panels, name
    assert "MADE_TOGETHER" not in policy  # the kinds offered together are asked of the registry (made_with)
    assert "mortgage" not in words._reasons() and "buildings_sold" not in words._reasons()
    # each producer of what may be recorded whatever the decision awaited, after the declarations', is a kind's
    assert [sorted(makes) for makes, _ in AT_ANY_DECISION[1:]] == [
        ["sell_buildings"], ["trade"], ["time_called"], ["mortgage", "unmortgage"], ["rent_not_claimed"], ["penalty"]]


def test_the_kinds_are_asked_in_the_order_the_rules_listed_them_before_they_moved(jma):
    """legal_actions lists what may be recorded whatever the decision awaited in the order it did when these were
    the rules' own (declarations, sales, trades, time, mortgages, then the kinds that were modules already), so the
    simulator draws among the same lists and seeded games stay the same."""
    from referee.engine import KINDS, made_with

    assert list(KINDS)[:7] == ["sell_buildings", "trade", "time_called", "mortgage", "unmortgage",
                               "rent_not_claimed", "penalty"]
    assert made_with("unmortgage") == made_with("mortgage") == ("mortgage", "unmortgage")
    assert made_with("trade") == ("trade",)
    game = Game(jma, Header("jma-2006", ("Aki", "Ben"), seating="fixed"))
    kinds = [a.type for a in legal_actions(game.state)]
    assert kinds == ["roll", "trade", "trade", "time_called"]  # (no deed yet: nothing to mortgage or sell)


def test_the_panels_of_the_kinds_are_drawn_in_the_order_they_were_before_they_moved(client):
    """Mortgages ahead of the buildings, then sales, trades and fines: the table screen as it was."""
    from io import BytesIO

    blues = {sq: {"owner": "Aki", "buildings": 1} for sq in ("oriental-avenue", "vermont-avenue",
                                                             "connecticut-avenue")}
    header = {"format": "referee-game-record", "version": 1, "ruleset": "classic", "players": ["Aki", "Ben"],
              "seating": "fixed", "position": {"deeds": {**blues, "baltic-avenue": {"owner": "Ben"}}}}
    r = client.post("/games/import", data={"record": (BytesIO(json.dumps(header).encode()), "game.jsonl"),
                                           "pin": "654321"}, content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)
    body = client.get(r.headers["Location"]).get_data(as_text=True)
    names = [name for name in re.findall(r'data-panel="([\w-]+)"', body)
             if name in ("mortgages", "build", "sell", "trade", "fines")]
    assert names == ["mortgages", "build", "sell", "trade", "fines"]
