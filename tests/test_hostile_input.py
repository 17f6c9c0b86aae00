"""Hostile input on a shared venue network (issue 12): every form and the import, fuzzed with hypothesis on SQLite
and PostgreSQL.  Whatever is sent (lone surrogates, NUL bytes, ids and numbers past any column, lists or objects
where a value belongs, JSON nested 10,000 deep, megabyte names), the answer is never a server error, and an input
that is refused changes nothing in the database."""
import json
import re
from io import BytesIO
from urllib.parse import quote

import pytest
import sqlalchemy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.services import games
from referee.store.db import db
from referee.engine import ENTRY_FIELDS


PIN, DIRECTOR = "123456", "135791"
FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# values nobody types at a table, next to ordinary ones
EDGES = st.sampled_from([
    "", " ", "0", "-1", "1", "6", "3,4", "2147483647", "2147483648", "9223372036854775808", "9" * 5000, "1e309",
    "NaN", "null", "true", "[]", "{}", "[1]", "\x00", "a\x00b", "\ud800", "x\udfffy", "\u202e", "x" * 70_000,
    "[" * 10_000 + "]" * 10_000, '{"a":' * 3000 + "1" + "}" * 3000, "Aki", "hotel", "boardwalk", "roll",
    # numbers past any a float holds (a validator comparing them as floats overflowed), and no numbers at all
    "9" * 400, "-" + "9" * 400, " " + "9" * 309 + " ", "1e400", "-1e400", "Infinity", "-Infinity", "inf", "nan",
    "\u0661\u0662", "1_000", "+5", "0x10", "\ufeff7",
    # the JSON escape of half a surrogate pair, a NUL and a control character, as a forged form sends them
    '"\\ud800"', '"\\u0000"', '"\\u001b[31m"',
])
TEXT = st.text(st.characters(blacklist_categories=()), max_size=40)  # surrogates and controls included
VALUE = st.one_of(EDGES, TEXT, st.integers(min_value=-(2**70), max_value=2**70).map(str))
HUGE = st.integers(min_value=300, max_value=450).map(lambda n: 10**n - 1)  # 300 to 450 digits: past any float
JSON_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), TEXT, EDGES, HUGE,
              HUGE.map(lambda n: -n), st.floats(allow_nan=True, allow_infinity=True)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)), max_leaves=12)
ENTRY = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.one_of(st.sampled_from(sorted(ENTRY_FIELDS) + ["nonsense", "\ud800", "x\udfffy", "\x00", "a\x1bb"]), TEXT),
    st.dictionaries(st.sampled_from(["player", "players", "dice", "amount", "count", "square", "card", "choice",
                                     "partner", "creditor", "deeds", "give", "take", "targets", "note", "seq"]),
                    JSON_VALUE, max_size=4))
ENTRY_TEXT = st.one_of(ENTRY.map(json.dumps), EDGES, TEXT)


def body(fields: list[tuple[str, str]]) -> bytes:
    """A form body as a forged client sends it: any text, lone surrogates included, percent-encoded."""
    return "&".join(f"{quote(k)}={quote(v.encode('utf-8', 'surrogatepass'))}" for k, v in fields).encode()


def post(client, path: str, fields: list[tuple[str, str]], **headers):
    return client.post(path, data=body(fields), content_type="application/x-www-form-urlencoded",
                       headers=headers)


def snapshot(app) -> tuple:
    """Everything stored: every row of every table."""
    with app.app_context():
        rows = []
        for name in ("games", "entries", "tournaments", "tournament_players", "rounds", "tables",
                      "result_corrections", "entry_keys"):
            rows.append(sorted(map(repr, db.session.execute(sqlalchemy.text(f"SELECT * FROM {name}")).all())))
        return tuple(map(tuple, rows))


def refused(client, response) -> bool:
    """The answer says nothing was done: an error status, a refusal flashed for the next page, or (to htmx) a
    refusal at the top of the answer."""
    if response.status_code >= 400:
        return True
    if re.match(r'\s*(<div id="tablelive"[^>]*>\s*)?<div class="flash refused"', response.get_data(as_text=True)):
        return True
    with client.session_transaction() as session:
        flashes = session.get("_flashes", [])
    return any(isinstance(m, dict) and m.get("kind") == "refused" for _, m in flashes)


def check(app, client, response, before) -> None:
    """No server error, neither the answer nor the page it sends the tablet to (which shows the flashed message,
    quoting what was sent); a refusal changed nothing."""
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if refused(client, response):
        assert snapshot(app) == before
    if response.status_code in (302, 303):
        shown = client.get(response.headers["Location"])
        assert shown.status_code < 500, shown.get_data(as_text=True)[:500]
        assert_printable(shown.get_data(as_text=True))
    else:
        assert_printable(response.get_data(as_text=True))
    with client.session_transaction() as session:
        session.pop("_flashes", None)


MESSAGE = re.compile(r'class="flash[^"]*"[^>]*>(.*?)(?:</p>|\n  </div>)', re.S)  # a flash, an error page's message


def assert_printable(page: str) -> None:
    """Every message on the page (a refusal, a form's error) holds no character a message must not repeat as it
    is: no NUL, no control character but the line's, no half of a surrogate pair."""
    for message in MESSAGE.findall(page):
        bad = [ch for ch in message if (ch < " " and ch not in "\n\r\t") or "\x7f" <= ch <= "\x9f"]
        assert not bad, (message[:300], [hex(ord(ch)) for ch in bad[:5]])


@pytest.fixture
def unlocked(app):
    """A game and a tournament, and a tablet unlocked for both (the referee's and the director's rights)."""
    client = app.test_client()
    client.post("/games", data={"players": "Aki\nBen\nChie", "seating": "fixed", "ruleset": "jma-2006",
                                "pin": PIN})
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "\n".join(f"P{i}" for i in range(8)), "pin": DIRECTOR})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/tournaments/{tid}/rounds", data={"round": "1"})
    with app.app_context():
        game_id = games.list_games()[-1].id
    return client, game_id, tid


@pytest.mark.long  # fuzzed: many generated forms, each sent to the app: scripts/test runs it, --fast leaves it out
@FUZZ
@given(fields=st.lists(st.tuples(st.sampled_from(["title", "ruleset", "players", "seating", "time_limit", "pin",
                                                  "extra"]), VALUE), max_size=7))
def test_the_new_game_form_never_errs_and_a_refusal_changes_nothing(app, unlocked, fields):
    client = unlocked[0]
    before = snapshot(app)
    check(app, client, post(client, "/games", fields), before)


@pytest.mark.long  # fuzzed: many generated forms, each sent to the app: scripts/test runs it, --fast leaves it out
@FUZZ
@given(fields=st.lists(st.tuples(st.sampled_from(["name", "scheme", "ruleset", "players", "round_minutes", "pin",
                                                  "regulation-dealt_deeds", "regulation-trades_before_first_go",
                                                  "format", "alternates", "check_in",
                                                  "regulation-after_time_called", "regulation-penalty_dice_off_table",
                                                  "regulation-bank_money", "regulation-bank"]), VALUE), max_size=8))
def test_the_new_tournament_form_never_errs_and_a_refusal_changes_nothing(app, unlocked, fields):
    client = unlocked[0]
    before = snapshot(app)
    check(app, client, post(client, "/tournaments", fields), before)


@pytest.mark.long  # fuzzed: many generated forms, each sent to the app: scripts/test runs it, --fast leaves it out
@FUZZ
@given(entry=ENTRY_TEXT, seq=st.one_of(st.just("0"), VALUE),
       extra=st.lists(st.tuples(st.sampled_from(["dice", "amount", "card", "square", "choice", "count", "partner",
                                                 "note", "players", "deeds", "then", "level-boardwalk",
                                                 "give-cash", "take-deeds", "give-cards", "entry_key"]), VALUE),
                    max_size=4),
       path=st.sampled_from(["record", "check"]), hx=st.booleans())
def test_an_entry_form_never_errs_and_a_refused_entry_changes_nothing(app, unlocked, entry, seq, extra, path, hx):
    client, game_id, _ = unlocked
    before = snapshot(app)
    headers = {"HX-Request": "true"} if hx else {}
    response = post(client, f"/games/{game_id}/{path}", [("seq", seq), ("entry", entry)] + extra, **headers)
    check(app, client, response, before)


@pytest.mark.long  # fuzzed: many generated forms, each sent to the app: scripts/test runs it, --fast leaves it out
@FUZZ
@given(path=st.sampled_from(["/games/{g}/unlock", "/games/{g}/clock", "/games/{g}/redo", "/tournaments/{t}/unlock",
                             "/tournaments/{t}/rounds", "/tournaments/{t}/rounds/1/time", "/organiser", "/lock",
                             "/tournaments/{t}/players", "/tournaments/{t}/tables/{g}/correct"]),
       fields=st.lists(st.tuples(st.sampled_from(["pin", "action", "seq", "round", "final", "password", "next",
                                                  "stage", "seated", "name", "division", "replaces", "reason",
                                                  "seen", "place-0", "assets-0", "monopoly", "entry_key"]),
                                 VALUE), max_size=4))
def test_every_other_form_never_errs_and_a_refusal_changes_nothing(app, unlocked, path, fields):
    client, game_id, tid = unlocked
    before = snapshot(app)
    check(app, client, post(client, path.format(g=game_id, t=tid), fields), before)
    client.post(f"/games/{game_id}/unlock", data={"pin": PIN})  # a fuzzed /lock locked the tablet: open it again


@pytest.mark.long  # fuzzed: many generated forms, each sent to the app: scripts/test runs it, --fast leaves it out
@FUZZ
@given(path=st.sampled_from(["/games/{v}", "/games/{v}/display", "/games/{v}/log", "/games/{v}/rules",
                             "/games/{v}/result", "/games/{v}/record.jsonl", "/games/{v}/unlock",
                             "/tournaments/{v}", "/tournaments/{v}/standings", "/tournaments/{v}/live",
                             "/tournaments/{v}/display", "/tournaments/{v}/standings.csv",
                             "/tournaments/{v}/tables/{g}/correct",
                             "/games/{g}?at={v}", "/games/{g}/display?v={v}", "/games/{g}/log?page={v}",
                             "/games/{g}/entries/{v}", "/games/{g}/entries?n={v}", "/games/{v}/entries/1",
                             "/games/{g}/rules?q={v}", "/lang/{v}", "/organiser?next={v}"]),
       value=st.one_of(EDGES, st.integers(min_value=-(2**70), max_value=2**70).map(str)))
def test_every_page_answers_a_forged_address_without_a_server_error(app, unlocked, path, value):
    client, game_id, _ = unlocked
    url = path.format(g=game_id, v=quote(value.encode("utf-8", "surrogatepass"), safe=""))
    response = client.get(url[:60_000])
    assert response.status_code < 500


def test_an_address_whose_query_is_not_utf8_is_read_as_a_browser_would_have_sent_it(app, unlocked):
    """A browser percent-encodes an address's bytes; a forged one may carry raw bytes that are not UTF-8: every page
    read its parameters strictly and answered a server error (a live poll too)."""
    client, game_id, _ = unlocked
    for path in ("/", "/tournaments", f"/games/{game_id}", f"/games/{game_id}/display", f"/games/{game_id}/log",
                 f"/games/{game_id}/rules"):
        for query in ("q=\xff", "v=\xff\xfe&at=\xc3", "x=caf\xe9"):
            r = client.get(path, environ_overrides={"QUERY_STRING": query}, headers={"HX-Request": "true"})
            assert r.status_code < 500, (path, query, r.status_code)
    page = client.get(f"/games/{game_id}/rules", environ_overrides={"QUERY_STRING": "q=\xff"})
    assert page.status_code == 200 and "%FF" in page.get_data(as_text=True)  # the search shows what it was given


# a number as a forged form or address sends it: past any float (hundreds of digits, 1e400), not a number a float
# compares (NaN, inf), digits that are not ASCII, and ordinary ones
NUMBER = st.one_of(HUGE.map(str), HUGE.map(lambda n: f"-{n}"), st.floats(allow_nan=True, allow_infinity=True).map(str),
                   EDGES, st.integers(min_value=-(2**40), max_value=2**40).map(str))
GAME_FIELDS = [("players", "Aki\nBen"), ("pin", PIN), ("ruleset", "jma-2006"), ("seating", "fixed")]
CUP_FIELDS = [("name", "Cup"), ("scheme", "jma-placement"), ("ruleset", "jma-2006"), ("players", "A\nB\nC"),
              ("pin", DIRECTOR)]
# every number a form carries, each with the rest of its form as a screen sends it
NUMBER_FIELDS = [
    ("/games", "time_limit", GAME_FIELDS),
    ("/tournaments", "round_minutes", CUP_FIELDS),
    ("/games/{g}/record", "seq", [("entry", '{"type": "roll", "player": "Aki"}'), ("dice", "3,4")]),
    ("/games/{g}/record", "dice", [("entry", '{"type": "roll", "player": "Aki"}'), ("seq", "0")]),
    ("/games/{g}/record", "amount", [("entry", '{"type": "pay", "player": "Aki"}'), ("seq", "0")]),
    ("/games/{g}/record", "count", [("entry", '{"type": "void"}'), ("seq", "0")]),
    ("/games/{g}/check", "give-cash", [("entry", '{"type": "trade", "player": "Aki", "partner": "Ben"}'),
                                       ("seq", "0")]),
    ("/games/{g}/record", "level-boardwalk", [("entry", '{"type": "build", "player": "Aki"}'), ("seq", "0")]),
    ("/games/{g}/redo", "seq", []),
    ("/tournaments/{t}/rounds", "round", []),
    ("/tournaments/{t}/players", "seated", [("action", "drop"), ("name", "P1")]),
    ("/tournaments/{t}/tables/{g}/correct", "seen", [("place-0", "1"), ("assets-0", "5"), ("reason", "typo")]),
    ("/tournaments/{t}/tables/{g}/correct", "place-0", [("assets-0", "5"), ("reason", "typo"), ("seen", "0")]),
]


@pytest.mark.long  # fuzzed: many generated forms, each sent to the app: scripts/test runs it, --fast leaves it out
@FUZZ
@given(where=st.sampled_from(NUMBER_FIELDS), number=NUMBER)
def test_every_number_a_form_carries_is_bounded_before_it_is_read(app, unlocked, where, number):
    """A number of 400 digits, 1e400, NaN: each form says what is wrong (or reads no number), changes nothing,
    and never errs (a validator comparing 400 digits as a float overflowed)."""
    client, game_id, tid = unlocked
    path, name, rest = where
    before = snapshot(app)
    check(app, client, post(client, path.format(g=game_id, t=tid), rest + [(name, number)]), before)


@pytest.mark.long  # fuzzed: many generated forms, each sent to the app: scripts/test runs it, --fast leaves it out
@FUZZ
@given(path=st.sampled_from(["/games/{g}?at={v}", "/games/{g}/log?page={v}", "/games/{g}/entries/{v}",
                             "/games/{g}/entries?n={v}", "/tournaments/scoresheet.pdf?players={v}"]),
       number=NUMBER)
def test_every_number_an_address_carries_is_bounded_before_it_is_read(app, unlocked, path, number):
    client, game_id, _ = unlocked
    response = client.get(path.format(g=game_id, v=quote(number.encode("utf-8", "surrogatepass"), safe=""))[:60_000])
    assert response.status_code < 500


RECORD_LINE = st.one_of(ENTRY.map(json.dumps), EDGES, JSON_VALUE.map(json.dumps))


@pytest.mark.long  # fuzzed: many generated forms, each sent to the app: scripts/test runs it, --fast leaves it out
@FUZZ
@given(header=st.one_of(st.just({"players": ["Aki", "Ben"]}),
                        st.dictionaries(st.sampled_from(["players", "ruleset", "seating", "options", "meta",
                                                         "position", "version", "format"]), JSON_VALUE, max_size=3)),
       lines=st.lists(RECORD_LINE, max_size=4), raw=st.one_of(st.none(), st.binary(max_size=200)))
def test_importing_any_file_never_errs_and_a_refused_record_adds_nothing(app, unlocked, header, lines, raw):
    client = unlocked[0]
    head = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "seating": "fixed", **header}
    text = raw if raw is not None else "\n".join([json.dumps(head)] + lines).encode("utf-8", "surrogatepass")
    before = snapshot(app)
    response = client.post("/games/import", data={"record": (BytesIO(text), "r.jsonl"), "pin": PIN},
                           content_type="multipart/form-data")
    check(app, client, response, before)


def test_the_named_hostile_inputs_each_get_a_message_and_change_nothing(app, unlocked):
    """The cases the issue measured, one by one, each with the message that names the rule or the limit."""
    client, game_id, _ = unlocked
    before = snapshot(app)
    cases = [
        ("/games", [("players", "Aki\n" + "x" * 1_000_000), ("pin", PIN)], "longer than 60 characters"),
        ("/games", [("players", "Aki\nB\x00n"), ("pin", PIN)], "U+0000"),
        ("/games", [("title", "t" * 201), ("players", "Aki\nBen"), ("pin", PIN)], "longer than 200 characters"),
        ("/tournaments", [("name", "Cup"), ("scheme", "jma-placement"), ("ruleset", "jma-2006"),
                          ("players", "A\nB"), ("pin", DIRECTOR), ("round_minutes", "2147483648")],
         "whole numbers from 1 to 600"),
        (f"/games/{game_id}/record", [("seq", "0"), ("entry", json.dumps({"type": "roll", "player": "\ud800",
                                                                         "dice": [3, 4]}))], "U+D800"),
        (f"/games/{game_id}/record", [("seq", "0"), ("entry", json.dumps({"type": "roll", "player": "Aki",
                                                                         "dice": [3, 4], "note": "n" * 501}))],
         "longer than 500 characters"),
        (f"/games/{game_id}/record", [("seq", "0"), ("entry", json.dumps({"type": "roll", "player": "Aki",
                                                                         "dice": [3, 4], "note": "a\x00b"}))],
         "U+0000"),  # a legal roll: PostgreSQL could not store its note
        (f"/games/{game_id}/record", [("seq", "0"), ("entry", "[" * 10_000 + "]" * 10_000)],
         "not one the table screen makes"),
        (f"/games/{game_id}/record", [("seq", "0"), ("entry", json.dumps({"type": "roll", "player": ["Aki"],
                                                                         "dice": {"a": 1}}))], "must be"),
        # a time limit of 400 digits overflowed the validator that compared it as a float
        ("/games", GAME_FIELDS + [("time_limit", "9" * 400)], "Time limit (minutes): must be a whole number from 1 to 600"),
        ("/games", GAME_FIELDS + [("time_limit", "1e400")], "Time limit (minutes): must be a whole number from 1 to 600"),
        ("/tournaments", CUP_FIELDS + [("round_minutes", "60 " + "9" * 150)], "whole numbers from 1 to 600"),
        (f"/games/{game_id}/record", [("seq", "9" * 400), ("entry", '{"type": "roll", "player": "Aki"}'),
                                      ("dice", "3,4")], "seq is more than 2147483647, the largest number"),
        (f"/games/{game_id}/record", [("seq", "0"), ("entry", '{"type": "pay", "player": "Aki"}'),
                                      ("amount", "9" * 400)], "amount is more than 2147483647, the largest number"),
        (f"/games/{game_id}/record", [("seq", "0"), ("entry", '{"type": "roll", "player": "Aki", "dice": [3, '
                                                              + "4" * 400 + "]}")],
         "has more digits than any number an entry may carry (at most 10)"),
        # the JSON escape of half a surrogate pair as an entry's type: the next page could not encode the refusal
        (f"/games/{game_id}/record", [("seq", "0"), ("entry", '{"type": "\\ud800", "player": "Aki"}')],
         'unknown entry type &#34;\\ud800&#34;'),
        (f"/games/{game_id}/record", [("seq", "0"), ("entry", '{"type": "a\\u0000\\u001b\\u202eb"}')],
         'unknown entry type &#34;a\\u0000\\u001b\\u202eb&#34;'),
    ]
    for path, fields, words in cases:
        response = post(client, path, fields)
        assert response.status_code < 500
        page = client.get(response.headers["Location"]).get_data(as_text=True) if response.status_code in (
            302, 303) else response.get_data(as_text=True)
        assert words in page, (path, words)
        assert snapshot(app) == before
    deep = '{"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": ["A", "B"]}\n' + \
        "[" * 10_000 + "]" * 10_000 + "\n"
    r = client.post("/games/import", data={"record": (BytesIO(deep.encode()), "r.jsonl"), "pin": PIN},
                    content_type="multipart/form-data", follow_redirects=True)
    assert "line 2: not a record line: JSON nested more than 8 levels deep" in r.get_data(as_text=True)
    for url in ("/games/2147483648", "/games/9223372036854775808/display", "/tournaments/99999999999999999999"):
        assert client.get(url).status_code == 404
    assert snapshot(app) == before
