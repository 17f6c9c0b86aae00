"""The shipped rulesets load, and a ruleset file is read strictly."""
import copy
import tomllib

import pytest

from referee.cache import RULESET_NOTES
from referee.services import rulesets
from referee.engine import (CLAUSE_KEYS, OPTION_SPECS, Game, Header, RecordError, RulesetError, parse_ruleset, stake_refusal,
                            with_options)

DIR = rulesets.RULESETS_DIR


def raw(name):
    with open(DIR / f"{name}.toml", "rb") as fh:
        data = tomllib.load(fh)
    with open(DIR / "boards" / "atlantic-city-us.toml", "rb") as fh:
        board = tomllib.load(fh)
    with open(DIR / "decks" / "us-pre-2008.toml", "rb") as fh:
        decks = tomllib.load(fh)
    return data, board, decks


@pytest.mark.parametrize("name", ["jma-2006", "classic"])
def test_shipped_ruleset_loads_with_every_option_and_clause(name):
    r = rulesets.load(name)
    # the clause that puts a tournament's regulations first is given where the text has one: JMA's 総則
    assert set(r.clauses) == set(OPTION_SPECS) | set(CLAUSE_KEYS) | ({"regulations"} if name == "jma-2006" else set())
    assert len(r.squares) == 40 and len(r.decks["chance"]) == 16 and len(r.decks["community_chest"]) == 16
    assert sum(sq.price for sq in r.squares if sq.is_property) == 5690
    assert r.money.start_cash == 1500 and (r.houses, r.hotels) == (32, 12)
    for clause in r.clauses.values():
        assert clause.source and clause.text


def test_square_and_card_names_are_in_english_and_japanese():
    r = rulesets.load("jma-2006")
    assert all({"en", "ja"} <= set(sq.name) for sq in r.squares)
    assert all({"en", "ja"} <= set(card.text) for card in r.cards.values())


def test_jma_and_classic_differ_where_the_texts_differ():
    jma, classic = rulesets.load("jma-2006").options, rulesets.load("classic").options
    assert (jma.auction_bid_step, classic.auction_bid_step) == (10, 1)
    assert (jma.income_tax, classic.income_tax) == ("flat", "choice")
    assert (jma.transferred_mortgage_interest, classic.transferred_mortgage_interest) == \
        ("on_unmortgage_only", "on_transfer")


def test_unknown_option_in_a_ruleset_file_is_refused():
    data, board, decks = raw("jma-2006")
    data = copy.deepcopy(data)
    data["options"]["texas_free_parking"] = {"value": True, "source": "x", "text": {"en": "x"}}
    with pytest.raises(RulesetError, match="unknown key.*texas_free_parking"):
        parse_ruleset(data, board, decks)


def test_missing_option_is_refused():
    data, board, decks = raw("jma-2006")
    data = copy.deepcopy(data)
    del data["options"]["auction_tie"]
    with pytest.raises(RulesetError, match="missing key.*auction_tie"):
        parse_ruleset(data, board, decks)


def test_option_value_of_the_wrong_kind_is_refused_naming_it():
    data, board, decks = raw("jma-2006")
    data = copy.deepcopy(data)
    data["options"]["auction_bid_step"]["value"] = "ten"
    with pytest.raises(RulesetError, match="auction_bid_step.value.*'ten'"):
        parse_ruleset(data, board, decks)


def test_card_naming_a_square_not_on_the_board_is_refused():
    data, board, decks = raw("jma-2006")
    decks = copy.deepcopy(decks)
    decks["chance"][0]["effect"]["square"] = "piccadilly"
    with pytest.raises(RulesetError, match="piccadilly"):
        parse_ruleset(data, board, decks)


def test_street_rent_table_must_have_six_amounts():
    data, board, decks = raw("jma-2006")
    board = copy.deepcopy(board)
    board["square"][1]["rent"] = [2, 10]
    with pytest.raises(RulesetError, match="rent"):
        parse_ruleset(data, board, decks)


def test_header_option_override_is_checked_and_cited():
    r = with_options(rulesets.load("jma-2006"), {"income_tax": "choice"})
    assert r.options.income_tax == "choice"
    assert "game record header" in r.clauses["income_tax"].source
    with pytest.raises(RulesetError, match="expected one of flat, choice"):
        with_options(r, {"income_tax": "sometimes"})


def test_unknown_ruleset_id_is_refused():
    with pytest.raises(RulesetError, match="unknown ruleset 'monopoly-junior'"):
        rulesets.load("monopoly-junior")


def test_a_notes_translation_file_is_read_strictly(tmp_path, monkeypatch):
    monkeypatch.setattr(rulesets, "NOTES_DIR", tmp_path)
    RULESET_NOTES.clear()
    try:
        assert rulesets.notes("jma-2006", "ja") == {}  # no file: the notes stay in English
        (tmp_path / "jma-2006.ja.toml").write_text('[notes.doubles_to_jail]\nen = "The token does not move."\n'
                                                   'ja = "駒は進めません。"\n', encoding="utf-8")
        RULESET_NOTES.clear()
        assert rulesets.notes("jma-2006", "ja") == {"doubles_to_jail": ("The token does not move.", "駒は進めません。")}
        RULESET_NOTES.clear()
        (tmp_path / "jma-2006.ja.toml").write_text('[notes]\ndoubles_to_jail = "駒は進めません。"\n', encoding="utf-8")
        with pytest.raises(RulesetError, match="notes.doubles_to_jail: expected en and ja"):
            rulesets.notes("jma-2006", "ja")
    finally:
        RULESET_NOTES.clear()


@pytest.mark.parametrize("lang", ["ko", "de"])
@pytest.mark.parametrize("ruleset_id", rulesets.available())
def test_every_note_of_a_shipped_ruleset_is_translated_for_the_korean_and_german_screens(ruleset_id, lang):
    """The rules page shows a note in the device's language while its translation translates the note as it
    stands (rulesets/notes/ID.LANG.toml); a note changed or added without its translation is named here."""
    rs = rulesets.load(ruleset_id)
    translated = rulesets.notes(ruleset_id, lang)
    stale = [k for k, c in rs.clauses.items() if c.note and translated.get(k, ("",))[0] != c.note]
    assert stale == [], f"notes changed or added without their translation in rulesets/notes/{ruleset_id}.{lang}.toml"
    assert set(translated) <= {k for k, c in rs.clauses.items() if c.note}


def test_an_option_value_named_after_an_edition_once_still_reads_as_the_behaviour_it_selects(jma, classic):
    """Option values name the behaviour they select (``price_limits``, ``fine_and_rent_ahead``), never an edition;
    a record or a tournament's regulations written while they were called "jma" read as they always did."""
    assert jma.options.trade_limits == "price_limits"
    assert jma.options.jail_exit_bankruptcy == "fine_and_rent_ahead"
    old = with_options(classic, {"trade_limits": "jma", "jail_exit_bankruptcy": "jma"})
    assert (old.options.trade_limits, old.options.jail_exit_bankruptcy) == ("price_limits", "fine_and_rent_ahead")
    with pytest.raises(RulesetError, match="expected one of price_limits, none, got 'korean'"):
        with_options(classic, {"trade_limits": "korean"})


def test_a_finite_bank_refuses_a_table_it_cannot_stake_in_full():
    """004, 2: Bei Spielbeginn zahlt die Bank an jeden Spieler 30000 M Startkapital aus: 200,000 M stakes six
    players; a seventh is refused with the reason and the clause, and a tournament's larger bank lets them play."""
    german = rulesets.load("german-simple")
    seven = tuple("ABCDEFG")
    assert stake_refusal(german, seven[:6]) is None
    with pytest.raises(RecordError) as err:
        Game(german, Header("german-simple", seven, seating="fixed"))
    assert err.value.code == "bad_header"
    assert "7 players need 210,000 M of start money, 30,000 M each; the bank's 200,000 M pays at most 6" in str(err.value)
    assert "Bei Spielbeginn zahlt die Bank an jeden Spieler 30000 M" in err.value.clause
    bigger = rulesets.for_header(Header("german-simple", seven, {"bank_money": 250000}, seating="fixed"))
    assert Game(bigger, Header("german-simple", seven, {"bank_money": 250000}, seating="fixed")).state.bank_cash == 40000
    assert stake_refusal(rulesets.load("jma-2006"), tuple("ABCDEFGH")) is None  # a bank that never runs out
