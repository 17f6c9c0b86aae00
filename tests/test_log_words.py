"""What a referee looks up in the log, in English and Japanese: a trade names both sides' goods (cash with its
currency, deeds by their names, jail cards by their deck), a card is its text and never its id, an auction's bids
name the lot, the hammer says who bought what for how much (or that the bid was void, or that nobody bid), a
building auction likewise, and sales, declarations and purchases give the lots and buildings in words.

The log's lines come from ``referee.screens.log.log_lines`` over real game records (tests/conformance/), each judged on the
table as it was when the entry was recorded."""
import html
import re
from pathlib import Path

import pytest

from referee.services import rulesets
from referee.engine import Game, IllegalEntry, Offer, parse_entry, parse_record
from referee.screens.log import entry_words, log_lines, trade_words
from conftest import new_game, post
from conftest import said_in

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

CONFORMANCE = Path(__file__).parent / "conformance"
JMA = rulesets.load("jma-2006")
JA = {"Accept-Language": "ja"}


def game_of(name: str) -> Game:
    """The game a conformance record plays, up to its last accepted entry (a record may end on a refused one)."""
    header, entries = parse_record((CONFORMANCE / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
    game = Game(rulesets.for_header(header), header)
    for _, entry, _ in entries:
        try:
            game.record(entry)
        except IllegalEntry:
            break
    return game


def lines(app, name: str, lang: str) -> list[str]:
    """The log of a record, oldest first, in ``lang``."""
    game = game_of(name)
    with said_in(app, lang):
        return [words for _, words, _ in log_lines(game, 0, len(game.entries))]


def screen(client, game_id, path="", **headers):
    page = client.get(f"/games/{game_id}{path}", headers=headers).get_data(as_text=True)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


# --- trades -----------------------------------------------------------------------------------------------------


def test_a_trade_in_the_log_names_both_sides_goods(app):
    assert lines(app, "jma-trade-sell-buildings-then-trade-deeds", "en")[1] == \
        "Aki ⇄ Ben: Aki gives Mediterranean Avenue and Baltic Avenue; Ben gives $200"
    assert lines(app, "jma-trade-sell-buildings-then-trade-deeds", "ja")[1] == \
        "Aki ⇄ Ben：Aki は メディタレーニアン・アベニュー と バルティック・アベニュー を、Ben は $200 を渡す"


def test_a_trade_names_jail_cards_by_their_deck_never_their_id(app):
    en = lines(app, "jma-trade-limits-bundle-within-every-limit", "en")
    assert en == ["Aki ⇄ Ben: Aki gives Boardwalk and a get-out-of-jail card (Chance); Ben gives $230"]
    ja = lines(app, "jma-trade-limits-bundle-within-every-limit", "ja")
    assert ja == ["Aki ⇄ Ben：Aki は ボードウォーク と 釈放カード（チャンス） を、Ben は $230 を渡す"]
    # the card bought after the third failed roll, and the card then used: by deck, never chest-get-out-of-jail-free
    en = lines(app, "jma-jail-third-failed-roll-buy-a-card-before-the-fine", "en")
    assert en[1:] == ["Aki ⇄ Chie: Aki gives $40; Chie gives a get-out-of-jail card (Community Chest)",
                      "Aki uses a get-out-of-jail card (Community Chest)"]
    ja = lines(app, "jma-jail-third-failed-roll-buy-a-card-before-the-fine", "ja")
    assert ja[1:] == ["Aki ⇄ Chie：Aki は $40 を、Chie は 釈放カード（共同基金） を渡す",
                      "Aki が 釈放カード（共同基金） を使う"]
    assert not any("chest-" in line or "chance-" in line for line in en + ja)


def test_a_trade_marks_mortgaged_deeds_and_says_when_it_is_a_rescue(app):
    assert lines(app, "classic-mortgaged-deed-received-and-lifted-at-once", "en")[0] == \
        "Aki ⇄ Ben: Aki gives Boardwalk (mortgaged); Ben gives $10"
    assert lines(app, "classic-mortgaged-deed-received-and-lifted-at-once", "ja")[0] == \
        "Aki ⇄ Ben：Aki は ボードウォーク（抵当） を、Ben は $10 を渡す"
    assert lines(app, "jma-bankruptcy-jail-exit-rescue-covering-both", "en")[1] == \
        "rescue: Aki ⇄ Chie: Aki gives Mediterranean Avenue; Chie gives $50"
    assert lines(app, "jma-bankruptcy-jail-exit-rescue-covering-both", "ja")[1] == \
        "救済：Aki ⇄ Chie：Aki は メディタレーニアン・アベニュー を、Chie は $50 を渡す"


def test_a_trade_recorded_on_the_table_reads_with_its_goods_in_the_flash_and_the_log(client):
    game_id = new_game(client)
    for seq, (entry, fields) in enumerate([({"type": "roll", "player": "Aki"}, {"dice": "1,2"}),
                                           ({"type": "buy", "player": "Aki"}, {}),
                                           ({"type": "roll", "player": "Ben"}, {"dice": "1,5"}),
                                           ({"type": "buy", "player": "Ben"}, {})]):
        post(client, game_id, seq, entry, **fields)
    r = post(client, game_id, 4, {"type": "trade", "player": "Aki", "partner": "Ben"},
             **{"give-cash": "1200", "give-deeds": "baltic-avenue", "take-deeds": "oriental-avenue"})
    line = "Aki ⇄ Ben: Aki gives $1,200 and Baltic Avenue; Ben gives Oriental Avenue"
    assert line in html.unescape(r.get_data(as_text=True))  # the flash, and the same line in the table's log
    assert f"5 {line} " in screen(client, game_id, "/log")
    assert "5 Aki ⇄ Ben：Aki は $1,200 と バルティック・アベニュー を、Ben は オリエンタル・アベニュー を渡す " in \
        screen(client, game_id, "/log", **JA)
    assert "trades with" not in screen(client, game_id) and "baltic-avenue" not in screen(client, game_id, "/log")


def test_a_side_that_gives_nothing_says_so(app):
    with said_in(app, "en"):
        assert trade_words(JMA, "Aki", "Ben", Offer(cash=50), Offer()) == \
            "Aki ⇄ Ben: Aki gives $50; Ben gives nothing"
    with said_in(app, "ja"):
        assert trade_words(JMA, "Aki", "Ben", Offer(cash=50), None) == "Aki ⇄ Ben：Aki は $50 を、Ben は なし を渡す"


# --- cards ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_card_drawn_reads_as_its_text_in_the_device_language_never_its_id(app, lang):
    deck = {"en": {"chance": "Chance", "community_chest": "Community Chest"},
            "ja": {"chance": "チャンス", "community_chest": "共同基金"}}[lang]
    with said_in(app, lang):
        for card in JMA.cards.values():
            words = entry_words(parse_entry({"type": "card", "player": "Aki", "card": card.id}), JMA)
            expected = (f"Aki draws a {deck[card.deck]} card: {card.text['en']}" if lang == "en" else
                        f"Aki が{deck[card.deck]}のカードを引く：{card.text['ja']}")
            assert words == expected and card.id not in words


def test_a_card_line_keeps_the_referees_note(app):
    assert lines(app, "classic-pay-each-player-card-bankruptcy-to-players", "en")[1].startswith(
        "Aki draws a Chance card: You have been elected Chairman of the Board – Pay each player $50 (")


# --- auctions ---------------------------------------------------------------------------------------------------


def test_bids_name_the_lot_and_the_hammer_says_who_bought_what_for_how_much(app):
    assert lines(app, "jma-auction-highest-bid-buys", "en")[1:] == [
        "Aki declines Baltic Avenue: it goes to auction",
        "Ben bids $10 for Baltic Avenue",
        "Aki bids $50 for Baltic Avenue (the player who declined bids)",
        "Chie bids $60 for Baltic Avenue",
        "hammer: Chie buys Baltic Avenue for $60",
    ]
    assert lines(app, "jma-auction-highest-bid-buys", "ja")[1:] == [
        "Aki は バルティック・アベニュー を購入しない：競売へ",
        "Ben が バルティック・アベニュー に $10 で入札",
        "Aki が バルティック・アベニュー に $50 で入札 (the player who declined bids)",
        "Chie が バルティック・アベニュー に $60 で入札",
        "落札：Chie が バルティック・アベニュー を $60 で購入",
    ]


def test_the_hammer_on_a_void_bid_and_on_no_bid(app):
    assert lines(app, "jma-auction-unpayable-bid-void", "en")[3] == \
        "hammer: Ben's winning bid of $310 for Baltic Avenue is void"
    assert lines(app, "jma-auction-unpayable-bid-void", "ja")[3] == "落札：Ben の バルティック・アベニュー の落札 $310 は無効"
    game = Game(JMA, parse_record(['{"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", '
                                   '"players": ["Aki", "Ben"], "seating": "fixed"}'])[0])
    for entry in ({"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "decline", "player": "Aki"},
                  {"type": "hammer"}):
        game.record(parse_entry(entry))
    with said_in(app, "en"):
        assert log_lines(game, 2, 3) == [(3, "hammer: no bid, Baltic Avenue stays with the bank", True)]
    with said_in(app, "ja"):
        assert log_lines(game, 2, 3) == [(3, "落札：入札なし、バルティック・アベニュー は銀行に残る", True)]


def test_a_building_auction_names_the_building_and_the_winning_price(app):
    assert lines(app, "jma-shortage-auction-one-house-then-declarations-again", "en")[3:6] == [
        "Aki bids $100 for a house", "Ben bids $150 for a house", "hammer: Ben wins a house for $150"]
    assert lines(app, "jma-shortage-auction-one-house-then-declarations-again", "ja")[3:6] == [
        "Aki が 家1軒 に $100 で入札", "Ben が 家1軒 に $150 で入札", "落札：Ben が 家1軒 を $150 で落札"]


def test_equal_calls_name_the_lot_and_keep_the_ruling(app):
    en = lines(app, "jma-auction-equal-calls-nearest-from-next-turn", "en")
    bid = next(line for line in en if " = " in line)
    assert re.match(r"\w+ = \w+ bids \$\d+ for Baltic Avenue .*— equal calls at once: \w+'s call wins", bid), bid


# --- buildings, purchases ---------------------------------------------------------------------------------------


def test_sales_and_declarations_give_each_lot_before_and_after(app):
    assert lines(app, "jma-trade-sell-buildings-then-trade-deeds", "en")[0] == \
        "Aki sells buildings: Mediterranean Avenue 1 house → no buildings (the house goes back for $25)"
    assert lines(app, "jma-trade-sell-buildings-then-trade-deeds", "ja")[0] == \
        "Aki が建物を売却：メディタレーニアン・アベニュー 家1軒 → 建物なし (the house goes back for $25)"
    assert lines(app, "jma-build-declaration-stands-at-once", "en")[0] == (
        "Aki declares buildings: St. James Place no buildings → 1 house, Tennessee Avenue no buildings → 1 house, "
        "New York Avenue no buildings → 1 house (Ben could follow with at most 12 houses: 15 of 32)")
    # the JMA example: 4, 4, hotel sold to 2, 3, 3
    assert lines(app, "jma-hotel-sale-keeps-the-groups-houses", "ja") == [
        "Aki が建物を売却：セント・ジェームス・プレイス 家4軒 → 家2軒、テネシー・アベニュー 家4軒 → 家3軒、"
        "ニューヨーク・アベニュー ホテル → 家3軒"]
    # a sale names only the lots it changes: St. James Place keeps its 4 houses
    assert lines(app, "jma-hotel-breakdown-as-far-as-the-debt-needs", "en")[1] == \
        "Aki sells buildings: Tennessee Avenue 4 houses → 3 houses, New York Avenue hotel → 4 houses"


def test_a_purchase_names_the_deed_and_its_price(app):
    game = Game(JMA, parse_record(['{"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", '
                                   '"players": ["Aki", "Ben"], "seating": "fixed"}'])[0])
    for entry in ({"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "buy", "player": "Aki"}):
        game.record(parse_entry(entry))
    with said_in(app, "en"):
        assert log_lines(game, 1, 2) == [(2, "Aki buys Baltic Avenue for $60", True)]
    with said_in(app, "ja"):
        assert log_lines(game, 1, 2) == [(2, "Aki が バルティック・アベニュー を $60 で購入", True)]


# --- the log's facts are judged once, on the state each entry was recorded on ----------------------------------------


def test_the_facts_are_kept_and_carried_on_as_entries_are_added_and_voided(app):
    game = Game(JMA, parse_record(['{"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", '
                                   '"players": ["Aki", "Ben"], "seating": "fixed"}'])[0], history=True)
    for entry in ({"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "decline", "player": "Aki"},
                  {"type": "bid", "player": "Ben", "amount": 70}):
        game.record(parse_entry(entry))
    first = list(game.history.facts)
    assert [i for i, facts in enumerate(first) if facts] == [1, 2]
    game.record(parse_entry({"type": "void", "count": 1}))  # the bid is taken back, then made again higher
    game.record(parse_entry({"type": "bid", "player": "Aki", "amount": 90}))
    game.record(parse_entry({"type": "hammer"}))
    with said_in(app, "en"):
        log = log_lines(game, 0, len(game.entries))
    assert [(n, words) for n, words, _ in log[2:]] == [
        (3, "Ben bids $70 for Baltic Avenue"), (4, "the referee takes back the latest entry"), (5, "Aki bids $90 for Baltic Avenue"),
        (6, "hammer: Aki buys Baltic Avenue for $90")]
    assert [effective for _, _, effective in log] == [True, True, False, True, True, True]
    assert game.history.facts[:3] == first  # judged once: the earlier facts stand as they were
    assert game.history.facts[5].winner == "Aki" and game.history.facts[5].amount == 90
    assert len(game.history.events) == len(game.entries) == 6  # each entry's events, the void's too


# --- every kind of entry, one sentence saying who did what ----------------------------------------------------

# each entry type the engine reads: a record of tests/conformance/ that has one, the entry's number there, and its
# words in the log and the flash, in English and Japanese (a referee's note on the entry follows in brackets)
SENTENCES = {
    "seat_roll": ("classic-seating-highest-starts-then-seat-order", 1, "Aki rolls 3+4 for the order of play",
                  "Aki がスタート順のサイコロで 3+4 を出す"),
    "deal": ("jma-tournament-regulation-dealt-deeds", 2,
             "Ben is dealt Reading Railroad and Oriental Avenue and pays $300 for them",
             "Ben が リーディング鉄道 と オリエンタル・アベニュー の権利書を配られ、代金 $300 を支払う"),
    "roll": ("classic-auction-any-price", 1, "Aki rolls 1+2", "Aki がサイコロで 1+2 を出す"),
    "buy": ("classic-jail-skip-a-turn-instead-of-the-fine", 9, "Aki buys Pennsylvania Railroad for $200",
            "Aki が ペンシルバニア鉄道 を $200 で購入"),
    "decline": ("classic-auction-any-price", 2, "Aki declines Baltic Avenue: it goes to auction",
                "Aki は バルティック・アベニュー を購入しない：競売へ"),
    "bid": ("classic-auction-any-price", 3, "Ben bids $15 for Baltic Avenue", "Ben が バルティック・アベニュー に $15 で入札"),
    "hammer": ("classic-auction-any-price", 5, "hammer: Chie buys Baltic Avenue for $16",
               "落札：Chie が バルティック・アベニュー を $16 で購入"),
    "income_tax": ("classic-income-tax-choice-ten-percent", 2,
                   "Aki chooses the income tax of 10% of assets (cash $900 + Boardwalk $400 + Reading Railroad $200)",
                   "Aki が所得税に総資産の10%を選ぶ (cash $900 + Boardwalk $400 + Reading Railroad $200)"),
    "card": ("disney-back-to-tarzan-without-passing-go", 2,
             "Aki draws a Magic Moments card: Get Lost in the jungle. Go Back to Tarzan. Don't Pass Go. Don't Collect "
             "200.", "Aki がマジック・モーメントのカードを引く：ジャングルで迷う。「ターザン」まで戻る。GOを通過しない。200を受け取らない。"),
    "fine_or_card": ("disney-fine-or-show-time-card-drawn", 3,
                     "Aki chooses to draw a Show Time card instead of paying the fine of $10",
                     "Aki が罰金 $10 を払わず、ショータイムのカードを引くことを選ぶ"),
    "rent_roll": ("jma-utility-rent-fresh-roll-after-chance-card", 3,
                  "Aki rolls 6+5 again for the utility's rent (the fresh roll, not the 3 that moved the token)",
                  "Aki が公共会社のレンタル料を決めるサイコロを振り直し、6+5 を出す (the fresh roll, not the 3 that moved the "
                  "token)"),
    "rent_not_claimed": ("classic-rent-not-claimed-by-the-second-following-turn-goes-back", 5,
                         "Aki gets back the rent paid on Boardwalk: its owner did not claim it in time",
                         "Aki が ボードウォーク で払ったレンタル料が戻る：持ち主が期限内に請求しなかった"),
    "build_house": ("german-one-house-on-landing-at-half-price-with-the-whole-colour", 2,
                    "Aki builds one house on Turmstraße", "Aki が トゥルムシュトラーセ に家を1軒建てる"),
    "sell_to_bank": ("german-sell-ones-own-street-to-the-bank-on-landing", 2, "Aki sells Seestraße back to the bank",
                     "Aki が ゼーシュトラーセ を銀行に売り戻す"),
    "pay_bail": ("jma-jail-prepaid-release-doubles-roll-again", 1, "Aki pays $50 to leave jail", "Aki が出所料 $50 を払う"),
    "use_jail_card": ("jma-jail-card-release-doubles-roll-again", 1, "Aki uses a get-out-of-jail card (Community Chest)",
                      "Aki が 釈放カード（共同基金） を使う"),
    "skip_jail_turn": ("classic-jail-skip-a-turn-instead-of-the-fine", 1,
                       "Aki skips a turn instead of paying the jail fine (no fine, no roll: Ben rolls next)",
                       "Aki が罰金を払う代わりに1回休む (no fine, no roll: Ben rolls next)"),
    "mortgage": ("classic-mortgage-and-unmortgage-any-time", 2, "Ben mortgages Boardwalk",
                 "Ben が ボードウォーク を抵当に入れる"),
    "unmortgage": ("classic-mortgage-and-unmortgage-any-time", 3, "Chie lifts the mortgage on Park Place",
                   "Chie が パークプレイス の抵当を戻す"),
    "bankrupt": ("classic-fine-for-a-move-out-of-turn-unpayable-is-bankruptcy-to-the-bank", 2, "Ben goes bankrupt",
                 "Ben が破産"),
    "build": ("classic-at-most-3-houses-a-turn-where-the-text-says-so", 1,
              "Ben declares buildings: Oriental Avenue no buildings → 1 house, Vermont Avenue no buildings → 1 house, "
              "Connecticut Avenue no buildings → 1 house",
              "Ben が建設を宣言：オリエンタル・アベニュー 建物なし → 家1軒、バーモント・アベニュー 建物なし → 家1軒、コネチカット・アベニュー 建物なし → 家1軒"),
    "withdraw_build": ("jma-build-withdrawal-while-demand-exceeds-stock", 3,
                       "Ben reduces the declaration to St. Charles Place no buildings, States Avenue no buildings, "
                       "Virginia Avenue no buildings",
                       "Ben が宣言を減らす：セント・チャールズ・プレイス 建物なし、ステーツ・アベニュー 建物なし、バージニア・アベニュー 建物なし"),
    "close_builds": ("jma-build-declaration-may-be-raised", 3, "the referee closes the declarations", "審判が宣言を締め切る"),
    "place_building": ("jma-shortage-auction-bid-below-the-chosen-lot-is-held", 9, "Ben chooses Boardwalk for the building",
                       "Ben が建物を建てる土地に ボードウォーク を選ぶ"),
    "sell_buildings": ("classic-hotel-breakdown-any-player", 1, "Aki sells buildings: New York Avenue hotel → 4 houses",
                       "Aki が建物を売却：ニューヨーク・アベニュー ホテル → 家4軒"),
    "trade": ("classic-jailed-player-may-trade", 1, "Ben ⇄ Aki: Ben gives $400; Aki gives Boardwalk",
              "Ben ⇄ Aki：Ben は $400 を、Aki は ボードウォーク を渡す"),
    "time_called": ("jma-ranking-by-assets", 1, "the referee calls time", "審判が終了の合図をする"),
    "rolloff": ("jma-ranking-tie-rolled-off", 3, "Aki rolls 3+3 in the roll-off", "Aki が順位決定のサイコロで 3+3 を出す"),
    "void": ("jma-correction-void", None, "the referee takes back the latest 2 entries", "審判が直近2件の記録を取り消す"),
    "penalty": ("classic-fine-for-a-move-out-of-turn-unpayable-is-bankruptcy-to-the-bank", 1,
                "Ben is fined $50: a move out of turn", "Ben に罰金 $50：順番外の移動"),
    "keep": ("german-sell-ones-own-street-to-the-bank-on-landing", None, "Aki leaves Seestraße as it is",
             "Aki は ゼーシュトラーセ をそのままにする"),
}


def test_every_entry_type_reads_as_a_sentence_saying_who_did_what_in_english_and_japanese(app):
    """The log's words for an entry are the flash the referee reads when recording it: for every entry type the
    engine reads, a sentence naming who did what (a player, or the referee), never a label and its fields ("Cy
    income tax percentage of assets"): the income tax choice with the ruleset's percentage, a roll with what it
    was for, a deal with what it cost.  An entry type without a sentence here fails the test."""
    from referee.engine import ENTRY_FIELDS, EntryFacts

    assert sorted(SENTENCES) == sorted(ENTRY_FIELDS)
    for kind, (name, number, en, ja) in SENTENCES.items():
        game = game_of(name)
        if kind == "keep":  # the record sells the deed landed on: the same landing, the deed left as it is
            landed = EntryFacts(square=game.ruleset.square("seestrasse").index)
            said = []
            for lang in ("en", "ja"):
                with said_in(app, lang):
                    said.append(entry_words(parse_entry({"type": "keep", "player": "Aki"}), game.ruleset, facts=landed))
            assert said == [en, ja]
            continue
        if number is None:  # the first entry of its type in the record (with the referee's note)
            number = next(i for i, e in enumerate(game.entries, start=1) if e.type == kind)
        assert game.entries[number - 1].type == kind, (kind, name, number)
        for lang, want in (("en", en), ("ja", ja)):
            got = lines(app, name, lang)[number - 1]
            assert got == want or got.startswith(want + " ("), (kind, lang, got)  # (the referee's note follows)


def test_the_income_tax_choice_is_flashed_as_a_sentence_with_the_rulesets_percentage(client):
    """Official rules (Hasbro), Income Tax: "$200 or 10% of your total worth": the referee taps the choice and reads
    "Aki chooses the income tax of 10% of assets", the percentage from the ruleset, with the tax it came to."""
    from io import BytesIO

    header = (CONFORMANCE / "classic-income-tax-choice-ten-percent.jsonl").read_text(encoding="utf-8").splitlines()[0]
    r = client.post("/games/import", data={"record": (BytesIO(header.encode()), "game.jsonl"), "pin": "654321"},
                    content_type="multipart/form-data")
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,3")
    r = post(client, game_id, 1, {"type": "income_tax", "player": "Aki", "choice": "percent"})
    flash = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", r.get_data(as_text=True).split(
        'class="flash done"', 1)[1].split("</div>\n  </div>", 1)[0])))
    assert "Aki chooses the income tax of 10% of assets" in flash and "Aki pays the bank $150 tax" in flash
    assert "percentage of assets" not in flash
    assert "2 Aki が所得税に総資産の10%を選ぶ " in screen(client, game_id, "/log", **JA)
