"""A screen is drawn in the language it is handed (a value: the words of its catalogue and of the published
documents), with no app, no request and no Flask context: the table screen and the rules page for a game in Korean
and in German, the same game's in English beside them."""
import flask
import pytest

from referee.engine import Game, Header, parse_entry
from referee.language import current_language, ENGLISH, Language, speaking
from referee.screens.rules_page import clause_note, rules_page
from referee.screens.sources import clause_words
from referee.screens.table import table_screen
from referee.services import rulesets

JMA = rulesets.load("jma-2006")


def rolled() -> Game:
    game = Game(JMA, Header(JMA.id, ("Aki", "Ben", "Chie"), seating="fixed"))
    game.record(parse_entry({"type": "roll", "player": "Aki", "dice": [1, 2]}))
    return game


@pytest.mark.parametrize("lang, pending, rolls, stock", [
    ("en", "waiting for Aki to buy or decline Baltic Avenue", "Aki rolls 1+2", "In the bank: 32 houses, 12 hotels"),
    ("ko", "Aki의 발틱 애비뉴 구매 여부 대기 중", "Aki, 주사위 1+2", "은행 재고: 주택 32채, 호텔 12채"),
    ("de", "Warten, ob Aki Baltic Avenue kauft oder ablehnt", "Aki würfelt 1+2", "In der Bank: 32 Häuser, 12 Hotels"),
])
def test_the_table_screen_speaks_the_language_it_is_handed_with_no_app_context(lang, pending, rolls, stock):
    assert not flask.has_app_context()
    screen = table_screen(rolled(), language=rulesets.language(lang))
    assert not flask.has_app_context()
    assert (screen.pending, screen.log[-1][1], screen.bank_stock) == (pending, rolls, stock)
    assert current_language() == "en"  # the language was the screen's alone: nothing is left bound after it


def test_the_same_game_drawn_in_two_languages_one_after_the_other_keeps_each_its_own():
    game = rolled()
    korean = table_screen(game, language=rulesets.language("ko"))
    german = table_screen(game, language=rulesets.language("de"))
    assert "대기 중" in korean.pending and "Warten" in german.pending
    assert table_screen(game, language=rulesets.language("ko")).pending == korean.pending


@pytest.mark.parametrize("lang, query, found", [("de", "Sitzordnung", "seating"),
                                                ("ko", "높은 사람부터", "seating_order")])
def test_the_rules_page_searches_the_words_of_the_language_it_is_handed_with_no_app_context(lang, query, found):
    """A search finds a clause by its words as the device reads them (its name, its note translated beside the
    ruleset in rulesets/notes/, its source's words): a language handed in carries them."""
    assert not flask.has_app_context()
    page = rules_page(JMA, query, language=rulesets.language(lang))
    assert found in [c.key for c in page.clauses]
    assert rules_page(JMA, query, language=rulesets.language("en")).clauses == []


def test_a_clause_note_and_source_come_in_the_language_handed_in_with_the_documents_words():
    clause = JMA.clauses["doubles_to_jail"]
    english, korean = rulesets.language("ko").note("jma-2006", "doubles_to_jail")
    assert english == clause.note and korean and korean != english
    with speaking(rulesets.language("ko")):
        assert clause_note(JMA, clause) == korean
        cited = clause_words(JMA, clause)
    # the source as a Korean screen cites it: its words in Korean, the source as written beside them
    assert cited.endswith(")") and clause.source in cited and rulesets.language("ko").source_in(clause.source) in cited


def test_a_language_made_alone_names_the_documents_as_the_ruleset_files_write_them():
    """Language("ko") needs no service: its words are the catalogue's, the documents named as written."""
    bare = Language("ko")
    assert bare.gettext("yes") == rulesets.language("ko").gettext("yes") != ENGLISH.gettext("yes")
    assert bare.source_in(JMA.clauses["doubles_to_jail"].source) == JMA.clauses["doubles_to_jail"].source
    with pytest.raises(ValueError, match="no such language 'xx'"):
        Language("xx")
