"""A tablet that lost the network, in a real browser (Playwright's offline mode): within 2 seconds the screen says
so across its top and greys its controls; a tap then sends nothing; another device records meanwhile; when the
network is back the screen brings the table up to date by itself and says what was recorded meanwhile, naming
the entries, and the next tap records as usual: no entry wrong, lost or made twice."""
import json
import re
import time

from playwright.sync_api import expect

from referee.services import folds, games
from browser_support import TABLET, armed, dice, shot, start_game


def entries(app, game_id: int) -> list[dict]:
    with app.app_context():
        return [json.loads(line) for line in games.export_record(game_id).splitlines()[1:]]


def test_a_tablet_offline_says_so_within_2_s_sends_no_tap_and_says_what_another_device_recorded(live, browser):
    server, app = live
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    game_id = start_game(page, server)
    armed(page)
    posts = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)

    lost = time.monotonic()
    context.set_offline(True)
    page.wait_for_selector("#offline", state="visible", timeout=2000)  # within 2 s
    assert time.monotonic() - lost < 2.0
    assert "Cannot reach the server" in page.inner_text("#offline")
    assert "another device may have recorded since" in page.inner_text("#offline")
    button = page.locator(".dicepad button", has_text="1·2")
    expect(button).to_have_css("opacity", "0.35")  # greyed
    button.click()  # a tap while offline: the screen keeps it to itself
    page.wait_for_timeout(300)
    assert posts == [] and entries(app, game_id) == []
    shot(page, "offline")

    with app.app_context():  # another device records meanwhile
        games.record(game_id, {"type": "roll", "player": "Aki", "dice": [1, 2]}, 0)
        games.record(game_id, {"type": "buy", "player": "Aki"}, folds.load(game_id).seq)
    page.wait_for_timeout(1500)  # still offline: the screen says its table may be old, and keeps it
    assert page.locator("#offline").is_visible() and page.locator("#tablelive[data-seq='0']").count() == 1

    context.set_offline(False)
    told = page.wait_for_selector("#tablelive .flash:has-text('The network is back')", timeout=15000)
    words = re.sub(r"\s+", " ", told.inner_text())
    assert "2 entries were made on another device while this tablet was cut off." in words
    assert "1 · Aki rolls 1+2" in words and re.search(r"2 · [^\n]*Baltic Avenue", words)
    assert not page.locator("#offline").is_visible()
    assert page.locator("#tablelive[data-seq='2']").count() == 1  # the table as the server holds it
    expect(page.locator(".dicepad button").first).to_have_css("opacity", "1")
    shot(page, "back-online")
    assert posts == []

    dice(page, 2, 3)  # the next tap records as usual: Ben rolls
    assert [e["type"] for e in entries(app, game_id)] == ["roll", "buy", "roll"]
    assert entries(app, game_id)[2]["player"] == "Ben"

    context.set_offline(True)  # cut off again, and back with nothing recorded meanwhile: said so
    page.wait_for_selector("#offline", state="visible", timeout=2000)
    context.set_offline(False)
    page.wait_for_selector("#back", state="visible", timeout=15000)
    assert "no entry was made meanwhile" in page.inner_text("#back")
    assert not page.locator("#offline").is_visible()
    assert len(entries(app, game_id)) == 3
    context.close()
