"""Every clause of every ruleset in the four languages of the app, the original first as the authority: the rules
page, a refusal and a ruling show a Korean or German device its own language beside the original; the rules page's
search finds a word in the device's language and in the original."""
import html
import re
import unicodedata
from datetime import datetime
from io import BytesIO
from types import SimpleNamespace

import pytest

from referee.services import rulesets
from referee.screens.rules_page import MAX_QUERY
from referee.screens.rulings_log import ruling_lines

from conftest import new_game, post
from conftest import said_in

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

LANGUAGES = ("en", "ja", "ko", "de")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
KANA_KANJI_HANGUL = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]")
# a figure of a text: a number of two digits or more, a percentage, a footnote mark [N], or an amount in thousands
# ("50 thousand rubles", "5万ルーブル", "5만 루블", "50.000 Rubel"), its digit grouping aside (4000 M, 4,000 M)
FIGURE = re.compile(r"(\[)?(\d+(?:[.,\u00a0 ]\d{3})*(?:[.,]\d+)?)(\])?\s*(thousand|Tausend|만|万|%)?")
THOUSANDS = {"thousand": 1000, "Tausend": 1000, "만": 10000, "万": 10000}


def every_clause(ruleset):
    """The clauses a ruleset cites: its options' and clauses', and each switch's rule for either of its values."""
    yield from ruleset.clauses.values()
    for house_rule in ruleset.house_rules.values():
        yield house_rule.on_clause
        yield house_rule.off_clause


def original_text(ruleset, clause) -> str:
    return clause.text[ruleset.clause_language]


def figures(text: str) -> set:
    found = set()
    for m in FIGURE.finditer(text):
        value = int(re.sub(r"[.,\u00a0 ]", "", m.group(2))) * THOUSANDS.get(m.group(4), 1)
        if m.group(1) and m.group(3):
            found.add(f"[{value}]")
        elif value >= 10 or m.group(4):
            found.add(value)
    return found


@pytest.mark.parametrize("ruleset_id", rulesets.available())
def test_every_clause_of_every_ruleset_has_its_text_in_english_japanese_korean_and_german(ruleset_id):
    ruleset = rulesets.load(ruleset_id)
    missing = [(c.key, lang) for c in every_clause(ruleset) for lang in LANGUAGES if not c.text.get(lang)]
    assert missing == []
    assert all(ruleset.clause_language in c.text for c in every_clause(ruleset))  # the original is one of them


@pytest.mark.parametrize("ruleset_id", rulesets.available())
def test_every_translation_keeps_the_numbers_and_amounts_of_the_original(ruleset_id):
    ruleset = rulesets.load(ruleset_id)
    lost = [(c.key, lang, sorted(map(str, figures(original_text(ruleset, c)) - figures(text))))
            for c in every_clause(ruleset) for lang, text in c.text.items()
            if figures(original_text(ruleset, c)) - figures(text)]
    assert lost == []


def test_the_figures_of_a_text_are_its_amounts_percentages_and_footnote_marks():
    assert figures("pay 50 thousand rubles [$50] and 10% of $1,500 [2]") == {50000, 50, 10, 1500, "[2]"}
    assert figures("5만 루블[$50], 4000 M, 6,5-Fache, 3 Runden") == {50000, 50, 4000, 65}
    assert figures("50.000 Rubel") == figures("5万ルーブル") == {50000}


@pytest.mark.parametrize("ruleset_id", rulesets.available())
def test_each_translation_is_written_in_its_own_language(ruleset_id):
    ruleset = rulesets.load(ruleset_id)
    for c in every_clause(ruleset):
        assert HANGUL.search(c.text["ko"]), (c.key, c.text["ko"])
        if ruleset.clause_language != "ko":  # the Korean wiki's own words stay Korean in every translation's quotes
            assert not KANA_KANJI_HANGUL.search(c.text["de"]), (c.key, c.text["de"])
        assert c.text["de"] != c.text["en"] or ruleset.clause_language == "de", c.key


# ---------------------------------------------------------------- the rules page


def rules_page(client, ruleset_id, lang, q=None):
    client.get(f"/lang/{lang}")
    r = client.get(f"/rulesets/{ruleset_id}", query_string={} if q is None else {"q": q})
    assert r.status_code == 200
    return r.get_data(as_text=True)


def shown(page: str) -> list[str]:
    """The clauses a rules page lists, by their anchors."""
    return re.findall(r'<article id="rule-([a-z_]+)"', page)


@pytest.mark.parametrize("ruleset_id", ["jma-2006", "classic"])
@pytest.mark.parametrize("lang, word, found, not_found", [
    ("ko", "경매", {"auction", "auction_on_decline", "auction_bid_step"}, {"jail", "rent", "seating"}),
    ("ko", "감옥", {"jail", "jail_release", "doubles_to_jail"}, {"auction", "rent", "seating"}),
    ("de", "Versteigerung", {"auction", "auction_on_decline"}, {"jail", "rent", "seating"}),
    ("de", "Gefängnis", {"jail", "jail_release", "doubles_to_jail"}, {"auction", "rent", "seating"}),
    ("de", "Hypothek", {"mortgage", "unmortgage", "mortgage_interest_percent"}, {"jail", "seating", "dice"}),
])
def test_the_rules_search_finds_auctions_jail_and_mortgages_in_the_devices_language(client, ruleset_id, lang, word,
                                                                                      found, not_found):
    listed = set(shown(rules_page(client, ruleset_id, lang, word)))
    assert found <= listed and not listed & not_found, listed


def test_a_japanese_word_on_an_english_device_still_finds_the_jma_clause_in_its_original(client):
    page = rules_page(client, "jma-2006", "en", "抵当")
    assert {"mortgage", "unmortgage", "mortgaged_rent"} <= set(shown(page)) and "seating" not in shown(page)
    assert "建物のない土地は、いつでも抵当に入れてお金を借りることができます" in page  # the original, as the authority


def test_the_rules_search_finds_the_names_values_and_notes_the_device_reads(client):
    # a clause by its name, an option by its value in words, and a note as the device reads it
    assert shown(rules_page(client, "jma-2006", "de", "Sitzordnung")) == ["seating"]
    assert "seating_order" in shown(rules_page(client, "jma-2006", "ko", "높은 사람부터"))
    assert "auction_own_raise" in shown(rules_page(client, "jma-2006", "ko", "시뮬레이션 게임"))
    assert "auction_own_raise" in shown(rules_page(client, "jma-2006", "de", "simulierte Spiele"))


def test_the_rules_search_takes_every_word_and_ignores_case_width_and_decomposed_hangul(client):
    both = set(shown(rules_page(client, "jma-2006", "de", "gefängnis PASCH")))
    assert "doubles" in both and both == set(shown(rules_page(client, "jma-2006", "de", "Gefängnis"))) & set(
        shown(rules_page(client, "jma-2006", "de", "Pasch")))
    assert shown(rules_page(client, "jma-2006", "ko", unicodedata.normalize("NFD", "감옥"))) == shown(
        rules_page(client, "jma-2006", "ko", "감옥"))
    assert shown(rules_page(client, "jma-2006", "en", "ＡＵＣＴＩＯＮ")) == shown(rules_page(client, "jma-2006", "en", "auction"))


@pytest.mark.parametrize("q", [None, "", "   "])
def test_an_empty_search_lists_every_clause(client, q):
    assert len(shown(rules_page(client, "korean-house", "ko", q))) == len(rulesets.load("korean-house").clauses)


@pytest.mark.parametrize("lang, words", [("en", "No clause matches “zqxw”."), ("ko", "“zqxw”와 일치하는 조항이 없습니다."),
                                         ("de", "Keine Regel passt zu „zqxw“.")])
def test_a_search_matching_nothing_says_so(client, lang, words):
    page = rules_page(client, "classic", lang, "zqxw")
    assert shown(page) == [] and words in html.unescape(page)


def test_a_megabyte_search_is_cut_and_answered_never_refused(client):
    page = rules_page(client, "jma-2006", "de", "Gefängnis" + "x" * (1 << 20))
    assert shown(page) == [] and f'value="{("Gefängnis" + "x" * MAX_QUERY)[:MAX_QUERY]}"' in page
    assert len(page) < 20_000


@pytest.mark.parametrize("lang, placeholder", [("en", "search the rules (e.g. auction, 抵当)"),
                                               ("ja", "ルールを検索（例：競売、抵当）"),
                                               ("ko", "규칙 검색 (예: 경매, 抵当)"),
                                               ("de", "Regeln durchsuchen (z. B. Versteigerung, Hypothek)")])
def test_the_search_suggests_words_in_the_devices_language(client, lang, placeholder):
    assert f'placeholder="{placeholder}"' in rules_page(client, "jma-2006", lang)


@pytest.mark.parametrize("ruleset_id, lang, original, translation, label", [
    ("jma-2006", "ko", "刑務所へ送られる時は", "감옥으로 보내질 때는", "번역:"),
    ("jma-2006", "de", "刑務所へ送られる時は", "Wer ins Gefängnis geschickt wird", "Übersetzung:"),
    ("classic", "ko", "When landing on the square marked", "감옥으로 가시오", "번역:"),
    ("korean-house", "de", "2번째 모서리에 위치한 칸으로", "Das Feld an der zweiten Ecke", "Übersetzung:"),
    ("german-simple", "ko", "Wer auf das Polizisten-Feld trifft", "경찰관 칸에 멈추는 사람은", "번역:"),
])
def test_the_rules_page_shows_the_original_first_and_marks_the_translation(client, ruleset_id, lang, original,
                                                                           translation, label):
    page = html.unescape(rules_page(client, ruleset_id, lang))
    jail = page[page.index('<article id="rule-jail"'):]
    jail = jail[:jail.index("</article>")]
    assert original in jail and translation in jail and jail.index(original) < jail.index(translation)
    assert re.search(rf'<p lang="{lang}" class="translation"><span class="text-label" lang="{lang}">{label}</span> ',
                     jail)


def test_a_device_reading_the_originals_language_sees_the_original_alone(client):
    page = html.unescape(rules_page(client, "korean-house", "ko"))
    jail = page[page.index('<article id="rule-jail"'):page.index('<article id="rule-jail_release"')]
    assert "2번째 모서리에 위치한 칸으로" in jail and "class=\"translation\"" not in jail and "text-label" not in jail


# ---------------------------------------------------------------- refusals and rulings


@pytest.mark.parametrize("lang, translation", [
    ("ko", "보드에 인쇄된 가격으로 구입을 거부한 플레이어도 경매에 참가할 수 있습니다"),
    ("de", "Auch der Spieler, der den Kauf zu dem auf dem Spielbrett aufgedruckten Preis abgelehnt hat")])
def test_a_refusals_clause_is_shown_in_korean_and_german_beside_the_original(client, lang, translation):
    game_id = new_game(client)
    client.get(f"/lang/{lang}")
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2")
    page = html.unescape(post(client, game_id, 1, {"type": "bid", "player": "Ben"}, amount="10").get_data(as_text=True))
    cited = page[page.index('<div class="clause">'):]
    cited = cited[:cited.index("</div>")]
    assert translation in cited and "ボードに印刷されている価格で購入を拒否したプレイヤーも競売に参加できます" in cited
    assert cited.index(translation) < cited.index("ボードに印刷されている価格")  # the device's words, the original beside
    assert "The player who declined may bid too" not in cited  # not the English translation


@pytest.mark.parametrize("lang, translation", [
    ("ko", "일부러 임대료를 청구하지 않을 수는 없습니다"), ("de", "Man darf nicht absichtlich darauf verzichten, Miete zu")])
def test_an_imported_records_refusal_cites_its_clause_in_the_devices_language_beside_the_original(client, lang,
                                                                                                   translation):
    record = ('{"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": ["A", "B"], '
              '"seating": "fixed"}\n{"type": "roll", "player": "A", "dice": [1, 2]}\n'
              '{"type": "buy", "player": "A"}\n{"type": "roll", "player": "B", "dice": [1, 2]}\n'
              '{"type": "rent_not_claimed", "player": "A", "square": "baltic-avenue"}\n').encode()
    client.get(f"/lang/{lang}")
    page = html.unescape(client.post("/games/import", data={"record": (BytesIO(record), "r.jsonl"), "pin": "654321"},
                                     content_type="multipart/form-data", follow_redirects=True).get_data(as_text=True))
    assert "line 5" in page
    cited = page[page.index('<div class="clause">'):]
    cited = cited[:cited.index("</div>")]
    assert translation in cited and "故意にレンタル料を請求しないことはできません" in cited
    assert cited.index(translation) < cited.index("故意にレンタル料")


@pytest.mark.parametrize("lang, translation", [
    ("ko", "같은 금액의 콜이 동시에 나온 경우에는"), ("de", "Werden gleichzeitig gleich hohe Gebote gerufen")])
def test_a_rulings_clause_is_cited_in_the_devices_language_beside_the_original(app, lang, translation):
    ruling = SimpleNamespace(n=1, entry=2, claim="c", ruling="r", clause="auction_tie", decider="judge",
                             at=datetime(2024, 5, 1, 12, 0))
    with said_in(app, lang):
        (line,) = ruling_lines(rulesets.load("jma-2006"), [ruling])
    assert translation in line.clause and "同時に同額のコールがあった場合は" in line.clause
    assert line.clause.index(translation) < line.clause.index("同時に同額のコール")
