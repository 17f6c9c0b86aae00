"""The table screen on a tournament day (issue 11): every screen follows the game live (a poll answered 204 while
nothing changed, the live region alone when it did, never a flash taken by a poll), a trade is checked without
losing the form, game-ending entries ask first, any run of latest entries can be voided and redone, and a clock
stopped by the game's end or by time called cannot be started again."""
import json
import re

from conftest import new_game, post
from test_table_decisions import from_position, seq_of
from test_table_words import record, roll, screen

HX = {"HX-Request": "true"}


def live_version(page: str) -> str:
    return page.split('data-version="', 1)[1].split('"', 1)[0]


def test_a_second_tablet_polls_the_live_region_and_is_sent_it_only_when_the_game_changed(app, client):
    game_id = new_game(client)
    other = app.test_client()
    assert other.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    page = other.get(f"/games/{game_id}").get_data(as_text=True)
    version = live_version(page)
    assert f'hx-get="/games/{game_id}?v={version}"' in page and 'hx-trigger="every 1s"' in page
    assert other.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204
    record(client, game_id, roll("Aki", 1, 3))
    live = other.get(f"/games/{game_id}?v={version}", headers=HX)
    text = live.get_data(as_text=True)
    assert live.status_code == 200 and text.lstrip().startswith("{#") is False
    assert '<div id="tablelive"' in text and "<html" not in text and "<header" not in text
    assert "waiting for Ben to roll" in text and live_version(text) != version
    assert other.get(f"/games/{game_id}?v={live_version(text)}", headers=HX).status_code == 204


def test_a_poll_never_takes_the_flash_meant_for_the_screen_that_recorded(app, client):
    game_id = new_game(client)
    client.post(f"/games/{game_id}/record", data={"seq": 0, "entry": json.dumps({"type": "roll", "player": "Aki"}),
                                                  "dice": "1,3"})  # the redirect is not followed yet
    assert client.get(f"/games/{game_id}?v=old", headers=HX).status_code == 200  # a poll in between
    assert "Aki moves to Income Tax" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_locked_tablet_polling_is_sent_to_the_pin_screen(app, client):
    game_id = new_game(client)
    stranger = app.test_client()
    r = stranger.get(f"/games/{game_id}?v=x", headers=HX)
    assert r.status_code == 403 and r.headers["HX-Redirect"] == f"/games/{game_id}/unlock"


def test_the_spectator_display_follows_live_without_a_pin(app, client):
    game_id = new_game(client)
    spectator = app.test_client()
    page = spectator.get(f"/games/{game_id}/display").get_data(as_text=True)
    version = live_version(page)
    assert spectator.get(f"/games/{game_id}/display?v={version}", headers=HX).status_code == 204
    record(client, game_id, roll("Aki", 1, 3))
    live = spectator.get(f"/games/{game_id}/display?v={version}", headers=HX).get_data(as_text=True)
    assert '<div id="displaylive"' in live and "waiting for Ben to roll" in live and "/record\"" not in live


def trade_page(client):
    return from_position(client, {"deeds": {"baltic-avenue": {"owner": "Aki"}}, "players": {"Ben": {"cash": 500}}})


def test_checking_a_trade_answers_in_the_form_and_records_nothing(client):
    game_id = trade_page(client)
    page = client.get(f"/games/{game_id}/panels/trade").get_data(as_text=True)  # the referee opens Trade
    assert 'id="trade-form-0-1"' in page and 'hx-target="#check-0-1"' in page
    entry = {"type": "trade", "player": "Aki", "partner": "Ben"}
    r = client.post(f"/games/{game_id}/check", headers=HX,
                    data={"seq": 0, "entry": json.dumps(entry), "give-deeds": "baltic-avenue", "take-cash": "120"})
    verdict = r.get_data(as_text=True)
    assert r.status_code == 200 and "allowed (not recorded yet)" in verdict and "<html" not in verdict
    assert "Baltic Avenue" in verdict  # what the trade would do
    r = client.post(f"/games/{game_id}/check", headers=HX,
                    data={"seq": 0, "entry": json.dumps(entry), "give-deeds": "baltic-avenue", "take-cash": "900"})
    assert 'class="flash refused"' in r.get_data(as_text=True)  # Ben has $500
    assert seq_of(client, game_id) == 0


def test_bankruptcy_that_ends_the_game_asks_first_and_says_so(client):
    blues = {sq: {"owner": "Ben", "buildings": "hotel"} for sq in ("oriental-avenue", "vermont-avenue", "connecticut-avenue")}
    game_id = from_position(client, {"players": {"Aki": {"cash": 10}}, "deeds": blues}, players=("Aki", "Ben"))
    record(client, game_id, roll("Aki", 2, 4))
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    block = page.split('id="confirm-bankrupt"', 1)[1].split("</details>", 1)[0]
    assert "No rescue: bankrupt" in block and "Aki goes bankrupt. This ends the game." in block
    assert '"type": "bankrupt"' in block.replace("&#34;", '"')


def test_calling_time_asks_first(client):
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    block = page.split('id="confirm-time"', 1)[1].split("</details>", 1)[0]
    assert "Call time:" in block and "the last roll is played and the game is ranked" in block


def test_any_run_of_latest_entries_is_voided_in_two_taps_and_redone_in_one(client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 2), {"type": "buy", "player": "Aki"}, roll("Ben", 2, 4),
           {"type": "buy", "player": "Ben"})
    page = screen(client, game_id, "/panels/void")  # the referee opens the void menu
    assert "Void entries 2–4" in page and "Void entry 4" in page
    # each run says what it takes back, in words: the entry and how many after it (one: "the entry after it")
    assert "and the entry after it" in page and "and the 2 entries after it" in page
    assert "and the 1 entries after it" not in page
    r = screen(client, game_id) if post(client, game_id, 4, {"type": "void", "count": 3}) else ""
    assert "Buy Baltic Avenue for $60" in r
    assert seq_of(client, game_id) == 5
    page = screen(client, game_id)
    assert "Redo the 3 voided entries" in page
    r = client.post(f"/games/{game_id}/redo", data={"seq": 5}, follow_redirects=True).get_data(as_text=True)
    assert "3 entries recorded again" in r
    assert seq_of(client, game_id) == 8
    lines = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()
    assert [json.loads(x)["type"] for x in lines[1:]] == ["roll", "buy", "roll", "buy", "void", "buy", "roll",
                                                          "buy"]
    r = client.post(f"/games/{game_id}/redo", data={"seq": 8}, follow_redirects=True).get_data(as_text=True)
    assert "there is nothing to redo" in r and seq_of(client, game_id) == 8


def test_a_stale_redo_is_refused(client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 3), {"type": "void", "count": 1})
    r = client.post(f"/games/{game_id}/redo", data={"seq": 1}, follow_redirects=True).get_data(as_text=True)
    assert "nothing was recorded" in r and seq_of(client, game_id) == 2


def test_the_clock_stays_stopped_once_time_is_called(client):
    r = client.post("/games", data={"title": "T", "ruleset": "jma-2006", "players": "Aki\nBen", "seating": "fixed",
                                    "pin": "123456", "time_limit": "70"})
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/games/{game_id}/clock", data={"action": "start"})
    record(client, game_id, {"type": "time_called"})
    assert "Start the clock" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    r = client.post(f"/games/{game_id}/clock", data={"action": "start"}, follow_redirects=True)
    assert r.status_code == 200 and "time has been called: the game clock stays stopped" in r.get_data(as_text=True)
    assert "(stopped)" in r.get_data(as_text=True)


def test_the_games_page_and_its_forms_read_in_japanese(client):
    new_game(client)
    ja = client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    for words in ("プレイヤー（1行に1人、座席順）", "サイコロで決める", "入力した順", "制限時間（分）", "審判のPIN",
                  "日本モノポリー協会 競技ルール（2006年）", "表示用画面"):
        assert words in ja, words
    for english in ("Players, one per line", "seating roll-off", "as listed", "Referee PIN", ">display<", "jma-2006<"):
        assert english not in ja, english
    r = client.post("/games", data={"title": "T", "ruleset": "jma-2006", "players": "", "seating": "fixed",
                                    "pin": "123456"}, headers={"Accept-Language": "ja"})
    assert r.status_code == 400 and "プレイヤー（1行に1人、座席順）:" in r.get_data(as_text=True)


def test_a_build_is_one_tap_with_the_levels_each_lot_ends_with_and_the_price_on_the_button(client):
    """JMA 補足ルール: buildings are declared; the even rule holds (lots of a group differ by at most one)."""
    oranges = {sq: {"owner": "Aki"} for sq in ("st-james-place", "tennessee-avenue", "new-york-avenue")}
    game_id = from_position(client, {"deeds": oranges})
    page = client.get(f"/games/{game_id}?open=build").get_data(as_text=True)  # the referee opens Buildings
    panel = page.split('id="build"', 1)[1].split('id="build-any"', 1)[0]
    buttons = [json.loads(v.replace("&#34;", '"')) for v in
               re.findall(r"name=\"entry\" value='([^']+)'>Build: ", panel)]
    labels = re.findall(r">(Build: \$[\d,]+)<", panel)
    assert labels == ["Build: $100", "Build: $300", "Build: $600", "Build: $900", "Build: $1,200", "Build: $1,500"]
    assert buttons[1]["targets"] == {"st-james-place": 1, "tennessee-avenue": 1, "new-york-avenue": 1}
    assert list(buttons[1]["targets"]) == ["st-james-place", "tennessee-avenue", "new-york-avenue"]  # board order
    assert buttons[-1]["targets"] == {"st-james-place": "hotel", "tennessee-avenue": "hotel", "new-york-avenue": "hotel"}
    record(client, game_id, buttons[1])  # no one else could build: it stands at once
    panel = client.get(f"/games/{game_id}?open=build").get_data(as_text=True).split('id="build"', 1)[1].split(
        'id="build-any"')[0]
    assert panel.count("now: 1 house") == 3 and re.findall(r">(Build: \$[\d,]+)<", panel)[0] == "Build: $100"


def test_a_build_the_player_cannot_pay_for_is_not_offered(client):
    oranges = {sq: {"owner": "Aki"} for sq in ("st-james-place", "tennessee-avenue", "new-york-avenue")}
    game_id = from_position(client, {"deeds": oranges, "players": {"Aki": {"cash": 350}}})
    panel = client.get(f"/games/{game_id}/panels/build").get_data(as_text=True).split('id="build-any"')[0]
    assert re.findall(r">(Build: \$[\d,]+)<", panel) == ["Build: $100", "Build: $300"]


def test_a_decline_and_the_auctions_opening_bid_are_one_tap_both_recorded_or_neither(client):
    """JMA: a deed the player declines to buy is auctioned at once; the bids start at the ruleset's lowest bid."""
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 2))
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    opening = page.split('class="opening"', 1)[1].split("</form>", 1)[0]
    assert "Or decline, and the auction opens with a bid:" in opening
    assert re.findall(r"<strong class=\"who\">(\w+)</strong>", opening) == ["Aki", "Ben", "Chie"]
    first = re.search(r"name=\"then\" value='([^']+)'>([^<]+)<", opening)
    bid = json.loads(first.group(1).replace("&#34;", '"'))
    assert bid["player"] == "Aki" and first.group(2) == f"${bid['amount']}"
    decline = json.dumps({"type": "decline", "player": "Aki"})
    then = json.dumps({"type": "bid", "player": "Ben", "amount": 70})
    r = client.post(f"/games/{game_id}/record", data={"seq": 1, "entry": decline, "then": then}, follow_redirects=True)
    assert seq_of(client, game_id) == 3
    assert "Highest bid" in r.get_data(as_text=True) and "$70" in screen(client, game_id)
    lines = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()
    assert [json.loads(x)["type"] for x in lines[1:]] == ["roll", "decline", "bid"]


def test_a_decline_with_an_opening_bid_off_the_steps_records_neither(client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 2))
    decline = json.dumps({"type": "decline", "player": "Aki"})
    for then in (json.dumps({"type": "bid", "player": "Ben", "amount": 75}), "[1, 2]", "{"):
        r = client.post(f"/games/{game_id}/record", data={"seq": 1, "entry": decline, "then": then},
                        follow_redirects=True)
        assert r.status_code == 200 and 'class="flash refused"' in r.get_data(as_text=True)
        assert seq_of(client, game_id) == 1
    assert "Buy Baltic Avenue for $60" in screen(client, game_id)


def test_the_buy_card_says_why_there_is_no_buy_button(client):
    """A player who cannot pay the price may only decline (the deed goes to auction)."""
    game_id = from_position(client, {"players": {"Aki": {"cash": 50}}})
    record(client, game_id, roll("Aki", 1, 2))
    page = screen(client, game_id)
    assert "Buy Baltic Avenue" not in page and "Decline: auction it" in page
    assert "No Buy button: Aki has $50, less than the price of $60." in page
    assert "購入ボタンはありません：Aki の所持金は$50で、価格$60に足りません。" in screen(client, game_id, **{"Accept-Language": "ja"})


def test_the_message_after_a_card_names_it_once(client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 3, 4))  # Chance
    page = html_text(record(client, game_id, {"type": "card", "player": "Aki", "card": "chance-bank-dividend"}))
    flash = page.split('class="flash done"', 1)[1].split("\n  </div>", 1)[0]  # to the message's own end
    assert flash.count("Bank pays you dividend of $50") == 1, flash


def html_text(response) -> str:
    import html
    return html.unescape(response.get_data(as_text=True))


def test_hostile_input_on_the_new_forms_gets_a_message_and_changes_nothing(client):
    """A forged opening bid (10,000 deep, NUL, huge), a forged redo, a forged poll: a message or nothing, never a
    500, and nothing recorded."""
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 2))
    decline = json.dumps({"type": "decline", "player": "Aki"})
    for then in ("[" * 10_000 + "]" * 10_000, '{"type": "bid", "player": "Ben\\u0000", "amount": 70}',
                 json.dumps({"type": "bid", "player": "Ben", "amount": 10 ** 400}), "x" * 1_000_000):
        r = client.post(f"/games/{game_id}/record", data={"seq": 1, "entry": decline, "then": then},
                        follow_redirects=True)
        assert r.status_code == 200 and 'class="flash refused"' in r.get_data(as_text=True), then[:40]
    for seq in ("-1", "99999999999999999999999", "x", ""):
        r = client.post(f"/games/{game_id}/redo", data={"seq": seq}, follow_redirects=True)
        assert r.status_code == 200 and 'class="flash refused"' in r.get_data(as_text=True), seq
    assert client.get(f"/games/{game_id}?v={'x' * 100_000}", headers=HX).status_code == 200
    assert client.post(f"/games/{game_id}/check", headers=HX, data={"seq": "1", "entry": "[" * 10_000}).status_code == 200
    assert seq_of(client, game_id) == 1


def test_an_amount_beyond_what_a_record_holds_is_refused_with_the_limit(client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 2), {"type": "decline", "player": "Aki"})
    r = post(client, game_id, 2, {"type": "bid", "player": "Ben", "amount": 2**31})
    text = r.get_data(as_text=True)
    assert "A number beyond the limit" in text and "amount is more than 2147483647" in text
    assert seq_of(client, game_id) == 2


def page_of(client, game_id: int) -> str:
    return client.get(f"/games/{game_id}").get_data(as_text=True)


def log_row(page: str, n: int) -> str:
    return re.search(rf'<tr id="entry-{n}"[^>]*>.*?</tr>', page, re.S).group(0)


def test_a_log_rows_drawing_is_kept_for_what_it_shows_and_a_void_or_the_entry_shown_draws_it_again(app, client):
    """The log's rows are each drawn once and kept (the latest thirty on every table screen): a row is kept under all
    it shows, so the entry a void takes back is drawn again struck out on the next screen, and the dispute view's
    entry is marked as the one shown there, where the same row elsewhere is not."""
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 2), {"type": "buy", "player": "Aki"})
    before = log_row(page_of(client, game_id), 2)
    assert 'class=""' in before and "Aki buys Baltic Avenue for $60" in before
    post(client, game_id, 2, {"type": "void", "count": 1})
    after = log_row(page_of(client, game_id), 2)
    assert 'class="voided"' in after and "Aki buys Baltic Avenue for $60" in after
    assert 'class="voided"' not in log_row(page_of(client, game_id), 1)
    shown = client.get(f"/games/{game_id}/entries/2").get_data(as_text=True)
    assert 'class="voided current"' in log_row(shown, 2) and "current" not in log_row(shown, 1)
    assert "current" not in log_row(page_of(client, game_id), 2)  # the same row on the table screen
