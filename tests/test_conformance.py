"""The conformance suite: one game record per clause of the rules, replayed by the engine.

Each ``tests/conformance/NAME.jsonl`` is a game record (docs/game-record.md), usually starting from a set-up
``position``; its header's ``meta`` says what it pins (``title``), the clause of the rules text it pins
(``clause``: source, quote, ruleset key) and what must hold once it is replayed (``expect``).  A record the
engine does not yet get right carries ``known_gap`` (why) and is expected to fail.  ``docs/conformance.md``
is the table of clauses, ruleset keys, engine functions and records; the tests below keep the two in step.
"""
from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import re
from pathlib import Path

import pytest

from referee.services import rulesets
from referee.engine import Game, IllegalEntry, RecordError, legal_actions, parse_record, places, ranking, winner
from referee.engine import state as state_module

HERE = Path(__file__).parent
SUITE = HERE / "conformance"
TABLE = HERE.parent / "docs" / "conformance.md"
SEEDS = HERE.parent.parent / "shared" / "seeds"  # the rules texts, beside the repository when it is at hand
SEED_FILES = {"jma-2006": ("001_608c340b844c9681.txt",),
              "classic": ("002_08765b3ec79ed32b.txt", "003_4202a87258be9dae.txt"),
              "korean-house": ("000_2ddb5dfb9cd7b45c.txt",),
              "classic-short": ("003_4202a87258be9dae.txt",), "classic-timed": ("003_4202a87258be9dae.txt",),
              "disney": ("003_4202a87258be9dae.txt",), "german-simple": ("004_502a6545ce9e2205.txt",)}
PREFIX = {"jma-2006": "jma-", "classic": "classic-", "korean-house": "korean-", "classic-short": "short-",
          "classic-timed": "timed-", "disney": "disney-", "german-simple": "german-"}
RECORDS = sorted(SUITE.glob("*.jsonl"))

META_KEYS = {"title", "clause", "expect", "known_gap"}
CLAUSE_KEYS = {"source", "quote", "rule"}
EXPECT_KEYS = {"refused", "cash", "owner", "mortgaged", "buildings", "bank", "pot", "players", "pending", "actions",
               "events", "ranking", "winner", "places", "bank_money"}
PLAYER_KEYS = {"square", "in_jail", "jail_rolls", "jail_cards", "bankrupt"}
BANK_KEYS = {"houses", "hotels"}
INCLUDES_EXCLUDES = {"includes", "excludes"}
# fields of pending decisions and action details that hold a player index, a tuple of them, or a square index
PLAYER_FIELDS = {"player", "high_bidder", "debtor", "creditor", "winner"}
PLAYER_TUPLE_FIELDS = {"excluded", "waiting", "order", "partners"}
SQUARE_FIELDS = {"square"}
SQUARE_TUPLE_FIELDS = {"squares", "available"}


def read(path: Path):
    return parse_record(path.read_text(encoding="utf-8").splitlines())


def _param(path: Path):
    try:
        header, _ = read(path)
    except RecordError:  # the form test names what is wrong with it
        return pytest.param(path, id=path.stem)
    gap = header.meta.get("known_gap")
    marks = [pytest.mark.xfail(reason=f"known gap: {gap}", strict=True)] if gap else []
    return pytest.param(path, id=path.stem, marks=marks)


def _pending_classes() -> dict[str, type]:
    return {name: cls for name, cls in vars(state_module).items()
            if dataclasses.is_dataclass(cls) and cls.__module__ == state_module.__name__
            and name not in ("Player", "GameState")}


# --- the records' own form ----------------------------------------------------


def _form_problems(path: Path) -> list[str]:
    header, entries = read(path)
    meta = header.meta
    problems = []
    if not path.stem.startswith(PREFIX.get(header.ruleset, "?")):
        problems.append(f"a {header.ruleset} record is named {PREFIX.get(header.ruleset)}...")
    if set(meta) - META_KEYS:
        problems.append(f"unknown meta key(s) {sorted(set(meta) - META_KEYS)}")
    title = meta.get("title")
    if not isinstance(title, str) or not title.strip() or "\n" in title:
        problems.append("meta.title must be one line of text")
    clause = meta.get("clause")
    if not isinstance(clause, dict) or set(clause) != CLAUSE_KEYS or not all(
            isinstance(clause[k], str) and clause[k].strip() for k in CLAUSE_KEYS):
        problems.append(f"meta.clause must have exactly {sorted(CLAUSE_KEYS)}, each a text")
    else:
        ruleset = rulesets.load(header.ruleset)
        if clause["rule"] not in ruleset.clauses:
            problems.append(f"meta.clause.rule {clause['rule']!r} is no option or clause of {header.ruleset}")
    if "known_gap" in meta and not (isinstance(meta["known_gap"], str) and meta["known_gap"].strip()):
        problems.append("meta.known_gap must say what the engine gets wrong")
    if not entries:
        problems.append("a record needs at least one entry")
    expect = meta.get("expect")
    if not isinstance(expect, dict) or not expect:
        return problems + ["meta.expect must be an object of outcomes"]
    problems += [f"unknown expect key {k!r} (known: {sorted(EXPECT_KEYS)})" for k in sorted(set(expect) - EXPECT_KEYS)]
    refused = expect.get("refused")
    if refused is not None and (not isinstance(refused, dict) or set(refused) != {"code", "rule"}):
        problems.append("expect.refused must have exactly code and rule")
    for name, want in expect.get("players", {}).items():
        if name not in header.players or not isinstance(want, dict) or set(want) - PLAYER_KEYS:
            problems.append(f"expect.players.{name}: a player of the record, with keys among {sorted(PLAYER_KEYS)}")
    if set(expect.get("bank", {})) - BANK_KEYS:
        problems.append(f"expect.bank: keys among {sorted(BANK_KEYS)}")
    for key in ("actions", "events"):
        if set(expect.get(key, {})) - INCLUDES_EXCLUDES:
            problems.append(f"expect.{key}: keys among {sorted(INCLUDES_EXCLUDES)}")
    for spec in expect.get("actions", {}).get("includes", []) + expect.get("actions", {}).get("excludes", []):
        if not isinstance(spec, dict) or "type" not in spec:
            problems.append(f"expect.actions: each action needs a type, got {spec!r}")
    pending = expect.get("pending")
    if pending is not None:
        cls = _pending_classes().get(pending.get("type")) if isinstance(pending, dict) else None
        if cls is None:
            problems.append(f"expect.pending.type must name a pending class of referee/engine/state.py, got "
                            f"{pending!r}")
        else:
            names = {f.name for f in dataclasses.fields(cls)}
            problems += [f"expect.pending: {cls.__name__} has no field {k!r}" for k in set(pending) - names - {"type"}]
    return problems


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_says_what_it_pins_and_expects_only_known_outcomes(path):
    problems = _form_problems(path)
    assert not problems, "\n".join(problems)


def _normal(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_quotes_its_clause_exactly_from_the_rules_text(path):
    header, _ = read(path)
    files = [SEEDS / name for name in SEED_FILES[header.ruleset]]
    if not all(f.exists() for f in files):
        pytest.skip(f"the rules texts are not at {SEEDS}")
    text = "".join(_normal(f.read_text(encoding="utf-8")) for f in files)
    quote = header.meta["clause"]["quote"]
    for piece in quote.split("…"):  # an elision joins two exact passages
        assert _normal(piece) in text, f"not in the rules text of {header.ruleset}: {piece!r}"


# --- replaying a record and checking what it expects -----------------------------


def _plain(state, key: str, value):
    """A value of the engine as the records write it: players by name, squares by id, tuples as lists."""
    if key in PLAYER_FIELDS and isinstance(value, int):
        return state.players[value].name
    if key in PLAYER_TUPLE_FIELDS and isinstance(value, tuple):
        return [state.players[i].name for i in value]
    if key in SQUARE_FIELDS and isinstance(value, int):
        return state.ruleset.squares[value].id
    if key in SQUARE_TUPLE_FIELDS and isinstance(value, tuple):
        return [state.ruleset.squares[i].id for i in value]
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(state, f.name, getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_plain(state, "", v) for v in value]
    return value


def _level(state, square: int):
    return "hotel" if state.hotels_on(square) else state.buildings[square]


def _action_matches(state, action, spec: dict) -> bool:
    if action.type != spec["type"]:
        return False
    if "player" in spec and (None if action.player is None else state.players[action.player].name) != spec["player"]:
        return False
    return all(k in action.detail and _plain(state, k, action.detail[k]) == v
               for k, v in spec.items() if k not in ("type", "player"))


def _outcome_problems(game: Game, expect: dict, kinds: list[str]) -> list[str]:
    s = game.state
    got: dict[str, object] = {}
    want: dict[str, object] = {}

    def compare(label: str, have, should) -> None:
        got[label], want[label] = have, should

    def square(ref) -> int:
        return s.ruleset.square(ref).index

    for name, cash in expect.get("cash", {}).items():
        compare(f"cash of {name}", s.players[s.player_index(name)].cash, cash)
    for ref, owner in expect.get("owner", {}).items():
        o = s.owner[square(ref)]
        compare(f"owner of {ref}", None if o is None else s.players[o].name, owner)
    for ref, flag in expect.get("mortgaged", {}).items():
        compare(f"{ref} mortgaged", s.mortgaged[square(ref)], flag)
    for ref, level in expect.get("buildings", {}).items():
        compare(f"buildings on {ref}", _level(s, square(ref)), level)
    for key, count in expect.get("bank", {}).items():
        compare(f"bank {key}", s.bank_houses if key == "houses" else s.bank_hotels, count)
    if "pot" in expect:
        compare("pot", s.pot, expect["pot"])
    for name, fields in expect.get("players", {}).items():
        p = s.players[s.player_index(name)]
        have = {"square": s.ruleset.squares[p.position].id, "in_jail": p.in_jail, "jail_rolls": p.jail_rolls,
                "jail_cards": list(p.jail_cards), "bankrupt": p.bankrupt}
        for key, value in fields.items():
            if key == "square":
                value = s.ruleset.squares[square(value)].id
            compare(f"{name}.{key}", have[key], value)
    if "pending" in expect:
        spec = expect["pending"]
        p = s.pending
        compare("pending", type(p).__name__, spec["type"])
        if type(p).__name__ == spec["type"]:
            for key, value in spec.items():
                if key != "type":
                    compare(f"pending.{key}", _plain(s, key, getattr(p, key)), value)
    actions = legal_actions(s)
    for spec in expect.get("actions", {}).get("includes", []):
        compare(f"action {spec}", any(_action_matches(s, a, spec) for a in actions), True)
    for spec in expect.get("actions", {}).get("excludes", []):
        compare(f"no action {spec}", any(_action_matches(s, a, spec) for a in actions), False)
    for kind in expect.get("events", {}).get("includes", []):
        compare(f"event {kind}", kind in kinds, True)
    for kind in expect.get("events", {}).get("excludes", []):
        compare(f"no event {kind}", kind in kinds, False)
    if "winner" in expect:  # known once play is over, even while a roll-off for a lower place is due
        w = winner(s)
        compare("winner", None if w is None else s.players[w].name, expect["winner"])
    if "places" in expect:  # every place decided so far, and only those
        compare("places decided", {s.players[i].name: rank for i, rank in places(s).items()}, expect["places"])
    if "bank_money" in expect:
        compare("the bank's money", s.bank_cash, expect["bank_money"])
    if "ranking" in expect:
        compare("game over", s.over, True)
        compare("ranking", [st.name for st in ranking(s)] if s.over else None, expect["ranking"])
    return [f"{label}: expected {want[label]!r}, got {got[label]!r}" for label in got if got[label] != want[label]]


def replay_and_check(path: Path) -> list[str]:
    """Replay a conformance record; what it expects and does not find, each as a line."""
    header, entries = read(path)
    expect = header.meta["expect"]
    refused = expect.get("refused")
    game = Game(rulesets.for_header(header), header)
    kinds: list[str] = []
    for n, (line, entry, raw) in enumerate(entries, start=1):
        last = n == len(entries)
        try:
            outcome = game.record(entry)
        except IllegalEntry as exc:
            if not (last and refused):
                return [f"line {line} {raw} was refused: {exc.message} [{exc.code}, rule {exc.rule}]"]
            got = {"code": exc.code, "rule": exc.rule}
            if got != refused:
                return [f"line {line} {raw} was refused with {got}, expected {refused}: {exc.message}"]
            break
        if last and refused:
            return [f"line {line} {raw} was applied, but it must be refused with {refused}"]
        kinds.extend(e.kind for e in outcome.events)
    return _outcome_problems(game, expect, kinds)


@pytest.mark.parametrize("path", [_param(p) for p in RECORDS])
def test_record_replays_to_what_its_clause_demands(path):
    problems = replay_and_check(path)
    clause = read(path)[0].meta["clause"]
    assert not problems, (f"{path.name}: {'; '.join(problems)}\n"
                          f"  clause: {clause['source']}: {clause['quote']} [{clause['rule']}]")


# --- the clause table (docs/conformance.md) -----------------------------------------------

COLUMNS = ["clause", "rule", "engine", "records"]
NOT_A_RULE = "not a rule of the record"


def table_rows() -> list[dict]:
    """Every row of the clause tables, with the ruleset of its section (a heading naming the ruleset id)."""
    rows, ruleset = [], None
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^##\s+.*\(ruleset `([\w-]+)`\)", line)
        if heading:
            ruleset = heading.group(1)
            continue
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells == [c.capitalize() for c in COLUMNS] or set("".join(cells)) <= set("-: "):
            continue
        assert len(cells) == len(COLUMNS) and ruleset, f"docs/conformance.md: a row of {len(COLUMNS)} cells " \
                                                       f"under a ruleset heading: {line}"
        row = dict(zip(COLUMNS, cells), ruleset=ruleset, line=line)
        for col in ("rule", "engine", "records"):
            row[col + "_names"] = re.findall(r"`([^`]+)`", row[col])
        rows.append(row)
    return rows


def test_the_clause_table_and_the_record_files_agree():
    rows = table_rows()
    named = [name for row in rows for name in row["records_names"]]
    stems = {p.stem for p in RECORDS}
    assert sorted(set(named) - stems) == [], "records named in docs/conformance.md with no file in tests/conformance"
    assert sorted(stems - set(named)) == [], "record files that docs/conformance.md does not name"
    for row in rows:
        if row["records"].startswith(NOT_A_RULE):
            assert not row["records_names"] and not row["rule_names"], row["line"]
        else:
            assert row["records_names"], f"a clause with no record: {row['line']}"
            for name in row["records_names"]:
                assert name.startswith(PREFIX[row["ruleset"]]), f"{name} under {row['ruleset']}"
                rule = read(SUITE / f"{name}.jsonl")[0].meta["clause"]["rule"]
                assert rule in row["rule_names"], f"{name} pins {rule!r}, not a key of its row: {row['line']}"


def test_the_clause_table_names_ruleset_keys_and_engine_functions_that_exist():
    rows = table_rows()
    assert {row["ruleset"] for row in rows} == set(PREFIX)
    for row in rows:
        clauses = rulesets.load(row["ruleset"]).clauses
        for key in row["rule_names"]:
            assert key in clauses, f"{key!r} is no option or clause of {row['ruleset']}: {row['line']}"
        if not row["records"].startswith(NOT_A_RULE):
            assert row["engine_names"], f"a clause the engine applies names the function: {row['line']}"
        for name in row["engine_names"]:
            module, *path = name.split(".")
            while path and hasattr(importlib.import_module(f"referee.engine.{module}"), "__path__") \
                    and importlib.util.find_spec(f"referee.engine.{module}.{path[0]}") is not None:
                module = f"{module}.{path.pop(0)}"  # a module of a package (kinds.penalty)
            target = importlib.import_module(f"referee.engine.{module}")
            for attr in path:
                assert hasattr(target, attr), f"referee.engine.{name} does not exist: {row['line']}"
                target = getattr(target, attr)
            defined_in = getattr(target, "__module__", None)  # where it is made, not a module that imports it
            assert defined_in in (None, f"referee.engine.{module}"), (
                f"referee.engine.{name} is defined in {defined_in}: {row['line']}")
