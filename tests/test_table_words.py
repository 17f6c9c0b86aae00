"""Rulings a referee can stake a dispute on: the table screen and the log say why, in English and Japanese,
citing the rule (equal calls at an auction, doubles, the last rolls in jail, the last roll of the game, the
price of a sale of buildings before it is tapped)."""
import html
import json
import re
from io import BytesIO

import pytest

from referee.services import rulesets
from conftest import new_game, post
from conftest import said_in

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

JMA = rulesets.load("jma-2006")
CLASSIC = rulesets.load("classic")
JA = {"Accept-Language": "ja"}


def source(rule, ruleset=JMA, lang="en"):
    """The clause's source as an English screen cites it: in English, the source as written beside it."""
    written = ruleset.clauses[rule].source
    shown = rulesets.language(lang).source_in(written)
    return f"{shown} ({written})" if shown != written else written


def screen(client, game_id, path="", **headers):
    """The page as the referee reads it: tags gone, entities decoded, white space collapsed."""
    page = client.get(f"/games/{game_id}{path}", headers=headers).get_data(as_text=True)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def record(client, game_id, *entries):
    """Record entries in turn through the table's form, as a tablet does."""
    seq = len(client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()) - 1
    for entry in entries:
        entry = dict(entry)
        fields = {}
        if "dice" in entry:
            fields["dice"] = ",".join(map(str, entry.pop("dice")))
        r = post(client, game_id, seq, entry, **fields)
        assert 'class="flash refused"' not in r.get_data(as_text=True), (entry, r.get_data(as_text=True))
        seq += 1
    return r


def roll(player, a, b):
    return {"type": "roll", "player": player, "dice": [a, b]}


def imported(client, ruleset="jma-2006", players=("Aki", "Ben", "Chie"), **options):
    """A new game with options of its own (a tournament's regulations), started from a record's header."""
    header = {"format": "referee-game-record", "version": 1, "ruleset": ruleset, "options": options,
              "players": list(players), "seating": "fixed"}
    r = client.post("/games/import", data={"record": (BytesIO(json.dumps(header).encode()), "game.jsonl"),
                                           "pin": "654321"}, content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)
    return int(r.headers["Location"].rsplit("/", 1)[1])


# --- equal calls at an auction ---------------------------------------------------------------------------


def auction_of_oriental_avenue(client):
    """Aki buys Baltic Avenue; on Ben's turn Oriental Avenue goes to auction."""
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 2), {"type": "buy", "player": "Aki"}, roll("Ben", 1, 5),
           {"type": "decline", "player": "Ben"})
    return game_id


def test_equal_calls_say_who_won_and_by_which_rule_in_the_log_and_on_the_auction_card(client):
    game_id = auction_of_oriental_avenue(client)
    r = record(client, game_id, {"type": "bid", "players": ["Aki", "Chie"], "amount": 70})
    # Ben's turn: Chie's turn comes next, so Chie's call wins
    why = "equal calls at once: Chie's call wins, as Chie's turn comes next"
    line = f"Aki = Chie bids $70 for Oriental Avenue — {why} ({source('auction_tie')})"  # the log names the lot
    assert line in html.unescape(r.get_data(as_text=True))  # the flash when it is recorded says what the log keeps
    page = screen(client, game_id)
    assert f"5 {line} " in page  # entry 5 of the log
    assert "Highest bid: $70 by Chie" in page
    assert (f"Aki and Chie called $70 at once: Chie's call wins, as Chie's turn comes next "
            f"{source('auction_tie')}") in page
    ja = screen(client, game_id, **JA)
    assert (f"Aki = Chie が オリエンタル・アベニュー に $70 で入札 — 同時に同額のコール：次の手番が Chie なので、"
            f"Chie のコールが優先されます（{source('auction_tie', lang='ja')}）") in ja
    assert f"Aki と Chie が同時に同額の $70 をコール：次の手番が Chie なので、Chie のコールが優先されます" in ja
    assert line in screen(client, game_id, "/log")  # the whole log says it too
    assert "同時に同額のコール：次の手番が Chie なので" in screen(client, game_id, "/log", **JA)


def test_equal_calls_count_from_the_player_whose_turn_comes_next(client):
    game_id = auction_of_oriental_avenue(client)
    record(client, game_id, {"type": "bid", "players": ["Ben", "Aki"], "amount": 20})
    # counting from Chie: Aki comes before Ben
    why = "Aki's call wins, as the caller nearest in turn order counting from Chie, whose turn comes next"
    page = screen(client, game_id)
    assert f"Ben = Aki bids $20 for Oriental Avenue — equal calls at once: {why} ({source('auction_tie')})" in page
    assert f"Ben and Aki called $20 at once: {why}" in page
    assert "次の手番の Chie から右回りに最も近い Aki のコールが優先されます" in screen(client, game_id, **JA)
    # a single call over it: the standing bid no longer comes from equal calls
    record(client, game_id, {"type": "bid", "player": "Chie", "amount": 30})
    page = screen(client, game_id)
    assert "$30 by Chie" in page and "called $20 at once" not in page
    assert f"Ben = Aki bids $20 for Oriental Avenue — equal calls at once: {why}" in page  # the log keeps the ruling


def test_the_log_explains_equal_calls_after_the_game_is_loaded_anew(app, client):
    from referee.services import folds
    game_id = auction_of_oriental_avenue(client)
    record(client, game_id, {"type": "bid", "players": ["Aki", "Chie"], "amount": 70})
    with app.app_context():
        folds.forget(game_id)  # as after a restart: the record is folded again, the ruling judged again
    assert "Aki = Chie bids $70 for Oriental Avenue — equal calls at once: Chie's call wins" in screen(client, game_id)


def test_equal_calls_are_refused_under_the_classic_rules_and_nothing_is_explained(client):
    game_id = new_game(client, ruleset="classic")
    record(client, game_id, roll("Aki", 1, 2), {"type": "decline", "player": "Aki"})
    page = post(client, game_id, 2, {"type": "bid", "players": ["Ben", "Chie"], "amount": 70}).get_data(as_text=True)
    assert 'class="flash refused"' in page
    page = screen(client, game_id)
    assert "Equal calls at once" not in page and "at once" not in page and "call wins" not in page


def test_the_log_names_squares_cards_and_deeds_never_their_ids(client):
    game_id = new_game(client, players="Aki\nBen")
    record(client, game_id, roll("Aki", 2, 5), {"type": "card", "player": "Aki", "card": "chance-bank-dividend"})
    page = screen(client, game_id)
    assert "Aki draws a Chance card: Bank pays you dividend of $50" in page and "chance-bank-dividend" not in page
    assert "Aki がチャンスのカードを引く：銀行から配当金$50を受け取る" in screen(client, game_id, **JA)
    game_id = brown_hotels(client)
    page = screen(client, game_id)
    assert "Aki is dealt Mediterranean Avenue and Baltic Avenue and pays $120 for them" in page
    assert ("Aki declares buildings: Mediterranean Avenue no buildings → hotel, Baltic Avenue no buildings → hotel"
            in page)
    assert "mediterranean-avenue" not in page
    ja = screen(client, game_id, **JA)
    assert "Aki が メディタレーニアン・アベニュー と バルティック・アベニュー の権利書を配られ、代金 $120 を支払う" in ja


# --- doubles, jail, the last roll -------------------------------------------------------------------------


def test_the_dice_pad_counts_doubles(client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 2, 2))  # Income Tax, then Aki rolls again
    first = "Aki rolls again: doubles 1 of 3 — a third doubles in a row sends Aki to jail"
    assert f"{first} {source('doubles_to_jail')}" in screen(client, game_id)
    record(client, game_id, roll("Aki", 3, 3))  # Jail, just visiting
    page = screen(client, game_id)
    assert f"Aki rolls again: doubles 2 of 3 — a third doubles in a row sends Aki to jail " \
           f"{source('doubles_to_jail')}" in page
    assert ("Aki はもう1回振ります：ゾロ目3回中2回目 — ゾロ目が3回続くと Aki は刑務所に入ります"
            in screen(client, game_id, **JA))
    record(client, game_id, roll("Aki", 1, 1))  # the third doubles: jail, Ben's turn
    page = screen(client, game_id)
    assert "rolls again" not in page and "waiting for Ben to roll" in page


def jailed_aki(client):
    """Aki goes to jail on three doubles; Ben and Chie go round to Just Visiting."""
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 2, 2), roll("Aki", 3, 3), roll("Aki", 1, 1), roll("Ben", 4, 6),
           roll("Chie", 4, 6))
    return game_id


def test_the_dice_pad_counts_the_rolls_in_jail_and_says_what_the_last_one_brings(client):
    game_id = jailed_aki(client)
    rule = source("jail_release")
    assert (f"Aki is in jail: roll 1 of 3. Doubles let Aki out and the token moves by the roll. {rule}"
            in screen(client, game_id))
    assert "Aki は刑務所にいます：3回中1回目のサイコロです。ゾロ目が出れば出所し、その目だけ駒を進めます。" in screen(
        client, game_id, **JA)
    record(client, game_id, roll("Aki", 1, 2), roll("Ben", 4, 6), roll("Chie", 4, 6))  # Free Parking
    assert "Aki is in jail: roll 2 of 3. Doubles let Aki out" in screen(client, game_id)
    record(client, game_id, roll("Aki", 1, 2), roll("Ben", 4, 6), roll("Chie", 4, 6))  # both go to jail
    last = ("Aki is in jail: roll 3 of 3, the last. Without doubles, Aki pays the $50 fine and the token moves by "
            "this roll.")
    assert f"{last} {rule}" in screen(client, game_id)
    assert ("Aki は刑務所にいます：3回中3回目、最後のサイコロです。ゾロ目が出なければ Aki は出所料$50を支払い、"
            "この目だけ駒を進めます。") in screen(client, game_id, **JA)
    r = record(client, game_id, roll("Aki", 1, 2))
    assert "Aki pays the bank $50 to leave jail" in html.unescape(r.get_data(as_text=True))
    assert "Aki moves to States Avenue" in r.get_data(as_text=True)  # by this roll, from jail


def test_the_last_roll_in_jail_mentions_a_card_the_player_holds(app):
    from conftest import seated_state
    from referee.screens.decisions.roll import roll_notes
    state = seated_state(JMA)
    aki = state.players[0]
    aki.in_jail, aki.jail_rolls, aki.jail_cards = True, 2, ["chance-get-out-of-jail"]
    with said_in(app, "en"):
        assert [w.text for w in roll_notes(state)] == [
            "Aki is in jail: roll 3 of 3, the last. Without doubles, Aki pays the $50 fine or uses a "
            "get-out-of-jail card, and the token moves by this roll."]
    with said_in(app, "ja"):
        assert [w.text for w in roll_notes(state)] == [
            "Aki は刑務所にいます：3回中3回目、最後のサイコロです。ゾロ目が出なければ Aki は出所料$50を支払うか釈放カードを"
            "使い、この目だけ駒を進めます。"]


def test_after_time_is_called_the_pad_says_it_is_the_last_roll_of_the_game(client):
    game_id = new_game(client, players="Aki\nBen")
    record(client, game_id, roll("Aki", 2, 2), {"type": "time_called"})  # during Aki's doubles
    last = ("Last roll of the game: time has been called. Once this roll and all it brings are settled, the game "
            "ends and is ranked; doubles give no further roll.")
    page = screen(client, game_id)
    assert f"{last} {source('after_time_called')}" in page
    assert "Aki rolls again: doubles 1 of 3" in page  # the doubling player's roll is the last one
    assert ("ゲーム最後のサイコロです：終了の合図がありました。このサイコロを振ってその処理を終えたらゲーム終了となり、"
            "順位を決めます。ゾロ目が出てももう1回は振りません。") in screen(client, game_id, **JA)
    page = html.unescape(record(client, game_id, roll("Aki", 3, 3)).get_data(as_text=True))  # Just Visiting
    assert "Final ranking (time)" in page and "Last roll of the game" not in page and 'name="dice"' not in page


def test_after_time_is_called_under_equal_turns_the_pad_says_whose_turn_ends_the_game(client):
    game_id = new_game(client, ruleset="classic")
    record(client, game_id, {"type": "time_called"})
    assert ("Time has been called: play goes on until Chie's turn is over, so that everyone has had as many "
            f"turns; then the game ends and is ranked. {source('after_time_called', CLASSIC)}"
            in screen(client, game_id))


# --- selling buildings: the price on each button ------------------------------------------------------------


def brown_hotels(client, **options):
    """Aki is dealt the brown group and builds a hotel on both lots."""
    game_id = imported(client, dealt_deeds=2, dealt_deeds_redeal_pairs=False, **options)
    record(client, game_id,
           {"type": "deal", "player": "Chie", "deeds": ["oriental-avenue", "st-charles-place"]},
           {"type": "deal", "player": "Ben", "deeds": ["states-avenue", "virginia-avenue"]},
           {"type": "deal", "player": "Aki", "deeds": ["mediterranean-avenue", "baltic-avenue"]},
           {"type": "build", "player": "Aki", "targets": {"mediterranean-avenue": "hotel", "baltic-avenue": "hotel"}})
    if "close the declarations" in client.get(f"/games/{game_id}").get_data(as_text=True):
        record(client, game_id, {"type": "close_builds"})  # where others could still follow
    return game_id


def sale_rows(client, game_id, **headers):
    """The sell panel's rows: the buildings each sale leaves, lot by lot, and its button (the panel opened)."""
    page = client.get(f"/games/{game_id}?open=sell", headers=headers).get_data(as_text=True)
    panel = page.split('id="sell"', 1)[1].split("</details>", 1)[0]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", panel, re.S)[1:]:
        cells = [re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", c))).strip()
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        rows.append(tuple(cells))
    return page, rows


def test_the_sell_panel_prices_selling_hotels_outright_before_the_tap(client):
    game_id = brown_hotels(client)
    page, rows = sale_rows(client, game_id)
    # JMA: a hotel is not broken into houses from the bank (the player is not in debt): only both hotels go,
    # each at half of five house prices ($50): $125 + $125
    assert rows == [("no buildings", "no buildings", "Sell: the bank pays $250")]
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    assert "Aki — " in text and " Brown" in text and "now: hotel" in text
    assert "level" not in text.lower().replace("level-", "") and "brown" not in text
    _, ja = sale_rows(client, game_id, **JA)
    assert ja == [("建物なし", "建物なし", "売却：銀行から$250")]
    r = record(client, game_id, {"type": "sell_buildings", "player": "Aki",
                                 "targets": {"mediterranean-avenue": 0, "baltic-avenue": 0}})
    page = html.unescape(r.get_data(as_text=True))
    assert "the bank pays Aki $250 for buildings sold" in page
    assert "Aki sells buildings: Mediterranean Avenue hotel → no buildings, Baltic Avenue hotel → no buildings" in page


def test_the_sell_panel_prices_breaking_a_hotel_into_houses(client):
    game_id = brown_hotels(client, hotel_breakdown="any_player")
    _, rows = sale_rows(client, game_id)
    assert rows[:4] == [
        ("hotel", "4 houses", "Sell: the bank pays $25"),  # one level: half of one house price
        ("4 houses", "hotel", "Sell: the bank pays $25"),
        ("4 houses", "4 houses", "Sell: the bank pays $50"),
        ("4 houses", "3 houses", "Sell: the bank pays $75"),
    ]
    assert rows[-1] == ("no buildings", "no buildings", "Sell: the bank pays $250")
    assert ("1 house", "no buildings", "Sell: the bank pays $225") in rows
    _, ja = sale_rows(client, game_id, **JA)
    assert ja[0] == ("ホテル", "家4軒", "売却：銀行から$25") and ("家1軒", "建物なし", "売却：銀行から$225") in ja
    # the button records that very sale, and the bank pays what it said
    r = record(client, game_id, {"type": "sell_buildings", "player": "Aki", "targets": {"baltic-avenue": 4}})
    assert "the bank pays Aki $25 for buildings sold" in html.unescape(r.get_data(as_text=True))


def test_each_sale_button_records_the_sale_it_names(client):
    game_id = brown_hotels(client, hotel_breakdown="any_player")
    page = client.get(f"/games/{game_id}?open=sell").get_data(as_text=True)  # the referee opens the sell panel
    panel = page.split('id="sell"', 1)[1].split("</details>", 1)[0]
    button = re.search(r"name=\"entry\" value='([^']+)'>Sell: the bank pays \$75<", panel)
    entry = json.loads(html.unescape(button.group(1)))
    assert entry == {"type": "sell_buildings", "player": "Aki", "targets": {"mediterranean-avenue": 4,
                                                                            "baltic-avenue": 3}}
    seq = len(client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()) - 1
    r = client.post(f"/games/{game_id}/record", data={"seq": seq, "entry": json.dumps(entry)}, follow_redirects=True)
    assert "the bank pays Aki $75 for buildings sold" in html.unescape(r.get_data(as_text=True))


def test_building_levels_and_groups_are_words_on_the_build_panel(client):
    game_id = brown_hotels(client)
    record(client, game_id, {"type": "sell_buildings", "player": "Aki",
                             "targets": {"mediterranean-avenue": 0, "baltic-avenue": 0}})
    page = client.get(f"/games/{game_id}?open=build").get_data(as_text=True)  # the referee opens Buildings
    build = page.split("<summary>Buildings</summary>", 1)[1].split("</details>", 1)[0]
    assert "Aki, Brown:" in build and ">2 houses</option>" in build and ">hotel</option>" in build
    assert ">no buildings</option>" in build and ">5</option>" not in build
    ja = client.get(f"/games/{game_id}/panels/build", headers=JA).get_data(as_text=True)
    assert "Aki, 茶:" in ja and ">家2軒</option>" in ja and ">ホテル</option>" in ja

