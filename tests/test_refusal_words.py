"""Every refusal says what was wrong in the device's language: an English pattern with typed values (squares,
colour groups, money, building levels, cards, the decision the table waits for), translated as a whole and never
showing an internal value (a square, group or card id, a building "level")."""
import ast
import functools
import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from babel.support import Translations

from referee.services import rulesets
from referee.engine import ENTRY_FIELDS, Game, IllegalEntry, MalformedEntry, parse_record
from referee import create_app
from referee.language.i18n import TRANSLATIONS
from referee.screens.refusals import detail as refusal_detail

from conftest import do, give, place, seated_state, said_in
from test_catalogues import keywords as catalogue_keywords
from conftest import new_game, post

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [*sorted((ROOT / "referee" / "engine").glob("*.py")), *sorted((ROOT / "referee" / "services").glob("*.py")),
           *[ROOT / "referee" / "tournament" / f"{name}.py" for name in ("messages", "roster", "corrections", "progress")]]
PATTERN_ARG = {"illegal": 2, "refuse": 1, "_malformed": 1, "of": 0}  # where a refusal's English pattern goes
JA_PO = ROOT / "referee" / "language" / "translations" / "ja" / "LC_MESSAGES" / "messages.po"
JA = Translations.load(str(TRANSLATIONS), ["ja"])
JMA = rulesets.load("jma-2006")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _call_name(node: ast.Call) -> str | None:
    return node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)


def refusal_patterns() -> dict[str, str]:
    """Every pattern given to a refusal in the engine, the services and the director's tournament rules, with where it is;
    fails on a pattern that is not a plain string (an f-string cannot be extracted or translated)."""
    found, bad = {}, []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = _call_name(node)
            if name in ("IllegalEntry", "MalformedEntry", "StaleEntry") and "pattern" not in {
                    k.arg for k in node.keywords}:
                bad.append(f"{path.name}:{node.lineno}: {name}(...) made without a pattern")
            if name not in PATTERN_ARG or len(node.args) <= PATTERN_ARG[name]:
                continue
            arg = node.args[PATTERN_ARG[name]]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found[arg.value] = f"{path.name}:{node.lineno}"
            elif not (isinstance(arg, ast.Name) and arg.id == "pattern"):  # the helpers passing theirs on
                bad.append(f"{path.name}:{node.lineno}: {name}(...) with a pattern that is not a plain string")
    assert not bad, bad
    return found


def test_every_refusal_pattern_is_extracted_by_the_documented_command_and_has_japanese():
    patterns = refusal_patterns()
    assert len(patterns) > 90
    keywords = catalogue_keywords()  # those scripts/catalogues gives pybabel extract
    extracted = {msgid for path in SOURCES for _, msgid, _, _ in extract_from_file("python", str(path), keywords)}
    assert set(patterns) - extracted == set()
    catalogue = {m.id: m.string for m in read_po(JA_PO.open("rb")) if m.id}
    missing = {p: where for p, where in patterns.items() if not catalogue.get(p)}
    assert missing == {}
    for pattern in patterns:  # a translation fills the same placeholders
        assert set(PLACEHOLDER.findall(catalogue[pattern])) == set(PLACEHOLDER.findall(pattern)), pattern


def test_the_words_that_fill_a_refusal_have_japanese():
    words = {msgid for path in ("referee/engine/phrases.py", "referee/screens/refusals.py")
             for _, msgid, _, _ in extract_from_file("python", str(ROOT / path), keywords=catalogue_keywords())}
    assert {"mortgage a deed", "a purchase", "the {deck} get-out-of-jail card", "hotel", "%(n)s houses"} <= words
    assert [w for w in words if JA.gettext(w) == w] == []


@functools.cache
def _screens_app():
    # (its limiter left on: Flask-Limiter keeps one app's RATELIMIT_ENABLED as the default of every later app of
    # the process, and a later test's throttle would count nothing)
    return create_app({"SECRET_KEY": "words", "SQLALCHEMY_DATABASE_URI": "sqlite://"})


def said(exc, lang: str = "en") -> str:
    """A refusal as a screen in ``lang`` says it: the decision awaited in its own words, each kind of entry by its
    noun (the engine's own English only names them)."""
    return said_all([exc], lang)[0]


def said_all(excs, lang: str = "en") -> list[str]:
    """Refusals as one screen in ``lang`` says them (one request for them all)."""
    with said_in(_screens_app(), lang):
        return [refusal_detail(exc) for exc in excs]


def ja(exc) -> str:
    return said(exc, "ja")


def refused(state, **entry):
    with pytest.raises((IllegalEntry, MalformedEntry)) as err:
        do(state, **entry)
    return err.value


IDS = {sq.id for sq in JMA.squares if "-" in sq.id} | {g for g in JMA.groups if "-" in g} | set(JMA.cards) | {
    t for t in ENTRY_FIELDS if "_" in t} | {"level"}
INTERNAL = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, IDS), key=len, reverse=True)) + r")(?![\w-])")
ENGLISH_WORD = re.compile(r"(?<![A-Za-z])[a-z]{3,}(?![A-Za-z])")  # in Japanese: an id or an untranslated word


def assert_plain(text: str) -> None:
    """No internal value: no square, group or card id, no entry type, no building "level", no placeholder; in
    Japanese no English word at all."""
    assert not INTERNAL.search(text), text
    assert "{" not in text, text
    if re.search("[\u3040-\u30ff\u4e00-\u9fff]", text):
        assert not ENGLISH_WORD.search(text), text


def assert_says(err, english: str, japanese: str) -> None:
    """The refusal begins with these words in English and in Japanese, and shows no internal value in either."""
    assert err.message.startswith(english), err.message
    assert ja(err).startswith(japanese), ja(err)
    for text in (err.message, ja(err)):
        assert_plain(text)


def test_a_bad_bid_step_in_japanese_and_in_english(jma):
    s = do(do(seated_state(jma), type="roll", player="Aki", dice=[1, 2]), type="decline", player="Aki")
    err = refused(s, type="bid", player="Ben", amount=15)
    assert err.message == "bid of $15: bids are from $10 in steps of $10" == str(err)
    assert ja(err) == "入札 $15：競売価格は$10以上$10単位です"


def test_an_uneven_build_names_the_lots_and_their_buildings_in_words(jma):
    s = give(seated_state(jma), 0, "st-james-place", "tennessee-avenue", "new-york-avenue")
    s.set_level(16, 4)
    s.set_level(18, 3)
    s.set_level(19, 3)
    err = refused(s, type="build", player="Aki", targets={"st-james-place": "hotel"})
    assert err.code == "uneven" and "均等" in ja(err)
    assert_says(err, "St. James Place hotel, Tennessee Avenue 3 houses, New York Avenue 3 houses: ",
                "セント・ジェームス・プレイス ホテル、テネシー・アベニュー 家3軒、ニューヨーク・アベニュー 家3軒：")


def test_a_build_below_a_hotel_says_hotel_not_a_level(jma):
    s = give(seated_state(jma), 0, "st-james-place", "tennessee-avenue", "new-york-avenue")
    s.set_level(16, 5)
    s.set_level(18, 5)
    s.set_level(19, 5)
    err = refused(s, type="build", player="Aki", targets={"st-james-place": 3})
    assert err.message == "St. James Place: hotel now; a build cannot take it to 3 houses"
    assert ja(err) == "セント・ジェームス・プレイス は現在ホテルです：建設で家3軒にすることはできません"


def test_mortgaging_during_another_players_doubles_says_the_turn_is_not_over(jma):
    s = give(do(seated_state(jma), type="roll", player="Aki", dice=[5, 5]), 1, "boardwalk")  # Aki rolls again
    err = refused(s, type="mortgage", player="Ben", square="boardwalk")
    assert err.code == "not_between_turns" and err.rule == "mortgage_timing"
    assert err.message == "Aki rolled doubles and rolls again: the turn is not over"
    assert ja(err) == "Aki はゾロ目が出たのでもう1回サイコロを振ります：手番はまだ終わっていません"
    trade = refused(give(s, 0, "park-place"), type="trade", player="Aki", partner="Ben",
                    give={"deeds": ["park-place"]}, take={"cash": 300})
    assert trade.code == "not_now" and trade.message == err.message


def test_building_while_a_payment_is_being_settled_says_so(jma):
    s = give(seated_state(jma), 0, "st-james-place", "tennessee-avenue", "new-york-avenue")
    s = give(place(s, 0, "income-tax", cash=100), 1, "mediterranean-avenue", "baltic-avenue")
    s.set_level(1, 5)
    s.set_level(3, 5)
    s = do(place(s, 0, "go", cash=10), type="roll", player="Aki", dice=[1, 2])  # Baltic's hotel: a debt
    err = refused(s, type="build", player="Aki", targets={"st-james-place": 1})
    assert said(err).startswith("Aki cannot build houses or hotels while a payment is being settled: Aki owes Ben")
    assert ja(err).startswith("支払い処理中のため、Aki は今は家等を建設することはできません：Aki は Ben に")


def test_a_trade_under_the_bundle_limits_in_japanese_names_the_deed_and_no_ids(jma):
    s = give(seated_state(jma), 0, "boardwalk")
    s.players[0].jail_cards.append("chance-get-out-of-jail-free")
    err = refused(s, type="trade", player="Aki", partner="Ben",
                  give={"deeds": ["boardwalk"], "cards": ["chance-get-out-of-jail-free"]}, take={"cash": 10})
    assert err.code == "below_mortgage_value" and "bundle" in err.message and "抵当価額 $200" in ja(err)
    assert_says(err, "Boardwalk, a get-out-of-jail card from Aki for $10: that is worth $10 at most",
                "Aki の「ボードウォーク、釈放カード」と「$10」の交換：")


def test_groups_and_cards_are_named_never_by_their_ids(jma):
    err = refused(give(seated_state(jma), 0, "boardwalk"), type="build", player="Aki", targets={"boardwalk": 1})
    assert err.message == "Aki does not own every lot of the Dark Blue group"
    assert ja(err) == "Aki は紺の土地をすべては所有していません"
    s = seated_state(jma)
    s.players[1].jail_cards.append("chance-get-out-of-jail-free")
    s = do(place(s, 0, "income-tax"), type="roll", player="Aki", dice=[1, 2])  # Chance
    err = refused(s, type="card", player="Aki", card="chance-get-out-of-jail-free")
    assert err.message == "the Chance get-out-of-jail card is held by Ben, not in the deck"
    assert ja(err) == "チャンスの釈放カードは Ben が持っていて、カードの山にはありません"


def test_an_entry_refused_now_is_named_in_words_with_what_the_table_waits_for(jma):
    s = do(do(seated_state(jma), type="roll", player="Aki", dice=[1, 2]), type="decline", player="Aki")
    err = refused(s, type="buy", player="Aki")
    assert said(err) == "a purchase cannot be recorded now: auction of Baltic Avenue in progress"
    assert err.message == 'a "buy" entry cannot be recorded now: the table waits for: auction'  # the engine's English
    assert ja(err) == "今は購入を記録できません：バルティック・アベニュー の競売中"
    malformed = refused(seated_state(jma), type="roll", player="Aki", dice=[7, 1])
    assert ja(malformed) == "ありえないサイコロの目 7：サイコロの目は1から6です"


PROBED_RECORDS = sorted((ROOT / "tests" / "golden").glob("jma-*.jsonl"))


def probes(state):
    """Entries a referee might wrongly record in this state: one of each kind, by each player."""
    rs = state.ruleset
    for p in state.players:
        yield {"type": "roll", "player": p.name, "dice": [2, 3]}
        yield {"type": "buy", "player": p.name}
        yield {"type": "bid", "player": p.name, "amount": 15}
        yield {"type": "pay_bail", "player": p.name}
        yield {"type": "use_jail_card", "player": p.name}
        yield {"type": "bankrupt", "player": p.name}
        yield {"type": "withdraw_build", "player": p.name, "targets": {"boardwalk": 0}}
        for sq in rs.squares:
            if sq.is_property:
                yield {"type": "mortgage", "player": p.name, "square": sq.id}
                yield {"type": "unmortgage", "player": p.name, "square": sq.id}
        for group in rs.groups.values():
            first = rs.squares[group.squares[0]].id
            yield {"type": "build", "player": p.name, "targets": {first: 2}}
            yield {"type": "sell_buildings", "player": p.name, "targets": {first: 0}}
        for q in state.players:
            yield {"type": "trade", "player": p.name, "partner": q.name, "give": {"cash": 10}, "take": {"cash": 20}}
            yield {"type": "trade", "player": p.name, "partner": q.name, "give": {"deeds": ["boardwalk"]},
                   "take": {"cash": 1}}


@pytest.mark.long  # scripts/test runs it; --fast leaves it out (pyproject.toml's markers)
@pytest.mark.parametrize("path", PROBED_RECORDS, ids=[p.stem for p in PROBED_RECORDS])
def test_refusals_all_through_recorded_games_are_japanese_and_show_no_internal_values(path):
    header, entries = parse_record(path.read_text(encoding="utf-8").splitlines())
    game = Game(rulesets.for_header(header), header)
    codes = set()
    for n, (_, entry, _) in enumerate(entries):
        if n % max(1, len(entries) // 25) == 0:
            refusals = []
            for data in probes(game.state):
                try:
                    do(game.state, **data)
                except (IllegalEntry, MalformedEntry) as exc:
                    refusals.append(exc)
            codes.update(exc.code for exc in refusals)
            for exc, text, english in zip(refusals, said_all(refusals, "ja"), said_all(refusals)):
                assert text != exc.message and re.search("[\u3040-\u30ff\u4e00-\u9fff]", text), text
                assert_plain(text)
                assert_plain(english)
        game.record(entry)
    assert len(codes) >= 8


def test_a_refusal_on_the_table_screen_is_in_the_language_chosen(client):
    game_id = new_game(client)
    client.get("/lang/ja")
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2")
    post(client, game_id, 1, {"type": "buy", "player": "Aki"})
    page = client.post(f"/games/{game_id}/check", data={  # the trade builder's check against the rules
        "seq": 2, "entry": json.dumps({"type": "trade", "player": "Aki", "partner": "Ben"}),
        "give-deeds": "baltic-avenue", "take-cash": "10"}, follow_redirects=True).get_data(as_text=True)
    assert "Aki の「バルティック・アベニュー」と「$10」の交換：" in page and "抵当価額 $30" in page
    assert "baltic-avenue" not in page.split("<main>")[1].split("<form")[0]
    post(client, game_id, 2, {"type": "roll", "player": "Ben"}, dice="3,3")  # Oriental Avenue, doubles
    post(client, game_id, 3, {"type": "buy", "player": "Ben"})
    page = post(client, game_id, 4, {"type": "mortgage", "player": "Aki", "square": "baltic-avenue"}).get_data(
        as_text=True)
    assert "手番と手番の間のみです" in page  # the title
    assert "Ben はゾロ目が出たのでもう1回サイコロを振ります：手番はまだ終わっていません" in page  # the detail
    assert "rolls again" not in page and "not between turns" not in page
    client.get("/lang/en")
    page = post(client, game_id, 4, {"type": "mortgage", "player": "Aki", "square": "baltic-avenue"}).get_data(
        as_text=True)
    assert "Ben rolled doubles and rolls again: the turn is not over" in page


def _cited_rule(page: str) -> str:
    """The refusal's "Rule: …" line as the page shows it, in plain text."""
    found = re.search(r'<div class="clause">(.*?)<a ', page, re.S)
    assert found, page
    return " ".join(found.group(1).replace("&#39;", "'").split())


@pytest.mark.parametrize("lang, rule", [
    ("en", "Rule: JMA competition rules 2006, supplementary rules “Mortgages”: Outside the time between turns, a deed "
           "may be mortgaged only"),
    ("ja", "ルール: JMA 補足ルール「抵当」: 手番と手番の間以外のタイミングで"),
    ("ko", "규칙: JMA 대회 규칙 2006, 보충 규칙「저당」: 차례와 차례 사이가 아닌 때에 증서를 저당 잡힐 수 있는 것은"),
    ("de", "Regel: JMA-Turnierregeln 2006, Ergänzungsregeln „Hypotheken“: Außerhalb der Zeit zwischen den Zügen darf "
           "eine Besitzrechtkarte nur dann")])
def test_a_refusal_cites_its_clause_in_the_devices_language_with_the_original_beside_it(client, lang, rule):
    game_id = new_game(client)
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2")
    post(client, game_id, 1, {"type": "buy", "player": "Aki"})
    post(client, game_id, 2, {"type": "roll", "player": "Ben"}, dice="3,3")
    post(client, game_id, 3, {"type": "buy", "player": "Ben"})
    client.get(f"/lang/{lang}")
    cited = _cited_rule(post(client, game_id, 4, {"type": "mortgage", "player": "Aki", "square": "baltic-avenue"})
                        .get_data(as_text=True))
    assert cited.startswith(rule), cited
    original = "JMA 補足ルール「抵当」: 手番と手番の間以外のタイミングで"
    beside = {"en": " (" + original, "ko": " (원문: " + original, "de": " (im Original: " + original}
    if lang == "ja":
        assert "（" not in cited and cited.count("JMA 補足ルール「抵当」") == 1  # the original alone: nothing beside
    else:
        assert beside[lang] in cited and cited.endswith(")"), cited


@pytest.mark.parametrize("lang, rule", [
    ("en", "Rule: Korean wiki (Monopoly/game rules), 2.2 Deciding the order and moving: The player throws two dice "
           "and moves by the sum of the numbers shown. (Korean wiki (모노폴리/게임규칙), 2.2 순서 결정 및 이동: 두개의 "
           "주사위를 던져 나온 눈의 합만큼을 이동한다.)"),
    ("de", "Regel: Koreanisches Wiki (Monopoly/Spielregeln), 2.2 Reihenfolge und Ziehen: "),
    ("ko", "규칙: 한국어 위키 (모노폴리/게임규칙), 2.2 순서 결정 및 이동: 두개의 주사위를 던져 나온 눈의 합만큼을 "
           "이동한다. (원문: Korean wiki (모노폴리/게임규칙), 2.2 순서 결정 및 이동: ")])
def test_a_refusal_under_the_korean_wiki_cites_its_section_in_the_devices_language(client, lang, rule):
    game_id = new_game(client, ruleset="korean-house")
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2")
    client.get(f"/lang/{lang}")
    cited = _cited_rule(post(client, game_id, 1, {"type": "roll", "player": "Ben"}, dice="3,3").get_data(as_text=True))
    assert cited.startswith(rule), cited
