"""Japanese everywhere on the table side: every ruleset, board group, square and card has Japanese words in the
data; the rules page names each option and clause, its value and its note in Japanese; a game's table screen, log,
rules page and result read in Japanese without an English ruleset, group, square or card word left; money is
written with thousands separators."""
import html
import re

import pytest

from referee.services import rulesets
from referee.engine import CLAUSE_KEYS, OPTION_SPECS, OPTIONAL_CLAUSE_KEYS
from referee.screens.rules_page import _choice_words, _clause_labels, clause_label, option_value_words
from referee.screens.words import money
from conftest import new_game, post
from test_table_words import imported, record, roll
from conftest import said_in

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")  # kana or kanji
JA = {"Accept-Language": "ja"}
SHIPPED = rulesets.available()


def page_text(client, game_id, path="", drop_english_quotes=False, **headers):
    """The page as read: scripts, styles and tags gone (attributes too), entities decoded, white space collapsed;
    ``drop_english_quotes``: without the English translations the rules page gives of each clause."""
    page = client.get(f"/games/{game_id}{path}", headers=headers).get_data(as_text=True)
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    if drop_english_quotes:
        page = re.sub(r'<p lang="en"[^>]*>.*?</p>', " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


# --- the data ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_every_ruleset_group_square_and_card_has_japanese_words(ruleset_id):
    rs = rulesets.load(ruleset_id)
    named = [("ruleset", rs.id, rs.name)] + [("group", g.id, g.name) for g in rs.groups.values()] + \
        [("square", sq.id, sq.name) for sq in rs.squares] + [("card", c.id, c.text) for c in rs.cards.values()]
    for kind, key, names in named:
        assert names.get("en"), (kind, key)  # the English is kept
        ja = names.get("ja", "")
        assert JAPANESE.search(ja) or ja == names["en"] == "GO", (kind, key, ja)


def test_the_colour_groups_have_their_japanese_names():
    groups = {g.id: g.name["ja"] for g in rulesets.load("jma-2006").groups.values()}
    assert groups == {"brown": "茶", "light-blue": "水色", "pink": "ピンク", "orange": "オレンジ", "red": "赤",
                      "yellow": "黄", "green": "緑", "dark-blue": "紺", "railroads": "鉄道", "utilities": "公共会社"}
    squares = {sq.id: sq.name["ja"] for sq in rulesets.load("jma-2006").squares}
    assert (squares["boardwalk"], squares["park-place"], squares["reading-railroad"], squares["electric-company"],
            squares["water-works"]) == ("ボードウォーク", "パークプレイス", "リーディング鉄道", "電力会社", "水道会社")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_option_and_clause_has_a_name_and_every_choice_words(app, lang):
    with said_in(app, lang):
        labels = _clause_labels()
        choices = _choice_words()
        for key in list(OPTION_SPECS) + list(CLAUSE_KEYS) + list(OPTIONAL_CLAUSE_KEYS):
            assert key in labels, key
            assert bool(JAPANESE.search(labels[key])) == (lang == "ja"), (key, labels[key])
        for key, spec in OPTION_SPECS.items():
            for value in spec.choices:
                assert (key, value) in choices, (key, value)
                assert bool(JAPANESE.search(choices[key, value])) == (lang == "ja"), (key, value)
        rs = rulesets.load("jma-2006")
        assert [option_value_words(rs, k, getattr(rs.options, k)) for k in
                ("auction_on_decline", "auction_bid_step", "mortgage_interest_percent", "monopoly_rent_multiplier",
                 "income_tax")] == (["yes", "$10", "10%", "2 times", "a flat amount"] if lang == "en" else
                                    ["あり", "$10", "10%", "2倍", "定額"])
        assert clause_label("auction_tie") == ("Equal calls at the same time" if lang == "en" else "同時に同額のコール")


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_every_note_of_a_shipped_ruleset_has_its_japanese(ruleset_id):
    rs = rulesets.load(ruleset_id)
    translated = rulesets.notes(ruleset_id, "ja")
    stale = [k for k, c in rs.clauses.items() if c.note and translated.get(k, ("",))[0] != c.note]
    assert stale == [], f"notes changed or added without their Japanese in rulesets/notes/{ruleset_id}.ja.toml"
    assert set(translated) <= {k for k, c in rs.clauses.items() if c.note}
    assert all(JAPANESE.search(ja) for _, ja in translated.values())


# --- the rules page ---------------------------------------------------------------------------------------------


def test_the_rules_page_in_japanese_names_options_values_and_notes_in_japanese(client):
    game_id = new_game(client)
    ja = page_text(client, game_id, "/rules", **JA)
    assert "ルール 大会 卓の画面" in ja and "日本モノポリー協会 競技ルール（2006年）" in ja
    assert "同時に同額のコール：次の手番のプレイヤーから右回りに近い人が優先" in ja
    assert "競売の入札単位：$10" in ja and "所得税：定額" in ja and "抵当の利息：10%" in ja
    assert "終了の合図の後：もう1回サイコロを振って終了" in ja and "家・ホテルの不足" in ja
    assert "注：3回目のゾロ目では駒を進めません。" in ja
    # the clause in its original words, which are the device's: no translation beside them; no option key or raw
    # value left
    assert "同時に同額のコールがあった場合は" in ja and "When equal calls are made at the same time" not in ja
    for raw in ("auction tie", "next_to_move_first", "auction_bid_step", "True", "False", "JMA competition rules",
                "Note:", "Search"):
        assert raw not in ja, raw
    en = page_text(client, game_id, "/rules")
    assert "Rules Tournaments table" in en and "JMA competition rules (2006)" in en
    assert "Equal calls at the same time: the caller nearest in turn order from the next player wins" in en
    assert "Note: The token does not move by the third doubles." in en and "注：" not in en
    # in English: the original words first, then the translation
    assert en.index("同時に同額のコールがあった場合は") < en.index("When equal calls are made at the same time")


def test_the_rules_page_shows_a_tournaments_override_as_written(client):
    game_id = imported(client, trades_before_first_go=False)
    ja = page_text(client, game_id, "/rules", **JA)
    assert "誰かがGOを通過する前の取引：なし" in ja
    assert "注：set to false for this game" in ja  # the override's own words, not the translation of the file's note


def test_the_rules_search_finds_options_in_japanese_too(client):
    game_id = new_game(client)
    ja = page_text(client, game_id, "/rules?q=抵当", **JA)
    assert "抵当の利息：10%" in ja and "スタート順の決め方" not in ja


# --- a whole game in Japanese -----------------------------------------------------------------------------------


def english_words(ruleset_id="jma-2006"):
    """The English names a Japanese page must not show: the ruleset's, every colour group's, every square's (where
    the Japanese differs) and every card's text."""
    rs = rulesets.load(ruleset_id)
    words = {rs.name["en"]} | {g.name["en"] for g in rs.groups.values()}
    words |= {sq.name["en"] for sq in rs.squares if sq.name["en"] != sq.name["ja"]}
    return words | {c.text["en"] for c in rs.cards.values()}


def sample_game(client) -> int:
    """Deeds dealt, hotels built on the brown group, a card drawn, an auction with bids and the hammer, a trade."""
    game_id = imported(client, dealt_deeds=2, dealt_deeds_redeal_pairs=False)
    record(client, game_id,
           {"type": "deal", "player": "Chie", "deeds": ["oriental-avenue", "st-charles-place"]},
           {"type": "deal", "player": "Ben", "deeds": ["states-avenue", "virginia-avenue"]},
           {"type": "deal", "player": "Aki", "deeds": ["mediterranean-avenue", "baltic-avenue"]},
           {"type": "build", "player": "Aki", "targets": {"mediterranean-avenue": 4, "baltic-avenue": 4}})
    if "close the declarations" in client.get(f"/games/{game_id}").get_data(as_text=True):
        record(client, game_id, {"type": "close_builds"})
    record(client, game_id, roll("Aki", 2, 5), {"type": "card", "player": "Aki", "card": "chance-bank-dividend"},
           roll("Ben", 3, 5), {"type": "decline", "player": "Ben"},  # Vermont Avenue goes to auction
           {"type": "bid", "player": "Chie", "amount": 60}, {"type": "bid", "player": "Aki", "amount": 80},
           {"type": "hammer"}, roll("Chie", 1, 3))
    seq = len(client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()) - 1
    r = post(client, game_id, seq, {"type": "trade", "player": "Ben", "partner": "Chie"},
             **{"give-cash": "150", "take-deeds": "oriental-avenue"})  # as the trade builder sends it
    assert 'class="flash done"' in r.get_data(as_text=True)
    return game_id


def test_a_game_reads_in_japanese_on_the_table_screen_log_rules_and_result(client):
    game_id = sample_game(client)
    log = page_text(client, game_id, "/log", **JA)
    assert "Aki がチャンスのカードを引く：銀行から配当金$50を受け取る" in log
    assert "Ben ⇄ Chie：Ben は $150 を、Chie は オリエンタル・アベニュー を渡す" in log
    # the table screen with every panel open (the board, the deed lists, the actions, the void menu)
    table = "?open=" + ",".join(("board", "void", "mortgages", "build", "sell", "trade", "deeds-0", "deeds-1", "deeds-2"))
    pages = {path: page_text(client, game_id, path, drop_english_quotes=path == "/rules", **JA)
             for path in (table, "/log", "/rules", "/result")}
    assert "茶" in pages[table] and "日本モノポリー協会 競技ルール（2006年）" in pages[table]
    for path, text in pages.items():
        left = sorted(w for w in english_words() if re.search(rf"(?<![\w.]){re.escape(w)}(?!\w)", text))
        assert left == [], (path or "/", left)
    # the same pages in English do name them (the check above is not vacuous)
    en = page_text(client, game_id, table)
    assert "Brown" in en and "JMA competition rules (2006)" in en and "Mediterranean Avenue" in en


def test_money_is_written_with_thousands_separators(app, client):
    from referee.engine import GameState

    state = GameState.new(rulesets.load("jma-2006"), ["Aki", "Ben"], seating="fixed")
    with said_in(app, "ja"):
        assert money(state, 1708) == "$1,708" and money(state, 1_000_000) == "$1,000,000"
    game_id = new_game(client)
    for text in (page_text(client, game_id), page_text(client, game_id, **JA),
                 page_text(client, game_id, "/result", **JA)):
        assert "$1,500" in text and "$1500" not in text
