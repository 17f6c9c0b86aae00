"""The debt card's sale plan in a real browser (Debian's chromium driven by Playwright), and a live swap that waits
for a tap that has started.

A debt that four houses pay is paid in one tap after the roll, on a landscape and a portrait tablet.  On a second
tablet, a live region is not swapped while a confirmation is open or a finger is down: the swap comes with the next
poll once the confirmation is closed or the finger lifted (referee.js)."""
import json
import time

import pytest

from browser_support import armed, import_record, shot, start_game
from test_browser_taps import button, entries, follows, record_tap, tablet, unlocked_tablet, watched

PLAYERS = ["Aki", "Ben", "Chie"]


def debt_position(tmp_path) -> object:
    """Aki, with $60, owns Dark Blue with two houses on each lot and Oriental Avenue; Ben's Baltic Avenue has a
    hotel ($450 rent)."""
    header = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": PLAYERS,
              "seating": "fixed", "position": {
                  "players": {"Aki": {"cash": 60}},
                  "deeds": {"park-place": {"owner": "Aki", "buildings": 2}, "boardwalk": {"owner": "Aki", "buildings": 2},
                            "oriental-avenue": {"owner": "Aki"},
                            "mediterranean-avenue": {"owner": "Ben", "buildings": "hotel"},
                            "baltic-avenue": {"owner": "Ben", "buildings": "hotel"}}}}
    path = tmp_path / "debt.jsonl"
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("viewport", [{"width": 1024, "height": 768}, {"width": 768, "height": 1024}],
                         ids=["1024x768", "768x1024"])
def test_a_debt_four_houses_pay_is_paid_in_one_tap_after_the_roll(server, browser, tmp_path, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    game_id = import_record(page, server, debt_position(tmp_path))
    record_tap(page, button(page, "1·2"))  # Aki on Baltic Avenue: $450 rent, $60 in cash
    assert "Aki owes Ben $450 (rent)" in page.inner_text(".decision")
    sale = page.locator("#sale-plan button")
    assert sale.inner_text() == "Sell 4 houses: +$400"
    box = sale.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box  # within the tablet's width
    assert box["height"] >= 44  # a finger's size
    assert "after the sale" in page.inner_text("#debt-raisable")  # Dark Blue's mortgages wait for the sale
    shot(page, f"screens/debt-sale-{viewport['width']}x{viewport['height']}-en", full_page=False)
    record_tap(page, sale)  # the second tap: the sale, and with it the rent
    assert "waiting for Ben to roll" in page.inner_text(".decision")
    recorded = entries(page, server, game_id)
    assert [e["type"] for e in recorded] == ["roll", "sell_buildings"]
    assert recorded[1]["targets"] == {"park-place": 0, "boardwalk": 0}
    assert page.locator(".player", has_text="Aki").first.locator(".cash").inner_text() == "$10"
    context.close()


def test_a_live_swap_waits_while_a_confirmation_is_open_or_a_finger_is_down(server, browser):
    first, a = tablet(browser, "mouse")
    game_id = start_game(a, server)
    second, b = unlocked_tablet(browser, server, game_id, {"width": 768, "height": 1024})
    watched(b)
    b.evaluate("window.__same = 1")
    confirmation = b.locator("details.confirm").first
    assert confirmation.count() == 1, "the table screen offers a confirmation"
    confirmation.locator("summary").click()
    assert confirmation.get_attribute("open") is not None
    record_tap(a, button(a, "1·2"))  # Aki on Baltic Avenue, recorded on the first tablet
    time.sleep(2.5)  # two polls and more: each brings the new region, none is swapped in under the open question
    assert "waiting for Aki to roll" in b.inner_text(".decision")
    assert confirmation.get_attribute("open") is not None
    armed(b)
    confirmation.locator("summary").click()  # closed: the next poll brings the table as it now is
    took = follows(b, ".decision", "waiting for Aki to buy or decline Baltic Avenue", time.monotonic())
    assert took <= 3, f"followed {took} polls after the confirmation closed"  # the next (or one under way, refused)
    # a finger down on the screen: the region waits until it is lifted
    armed(b)
    b.mouse.move(5, 300)
    b.mouse.down()
    record_tap(a, button(a, "Buy Baltic Avenue for $60"))
    time.sleep(2.5)
    assert "waiting for Aki to buy or decline Baltic Avenue" in b.inner_text(".decision")
    b.mouse.up()
    took = follows(b, ".decision", "waiting for Ben to roll", time.monotonic())
    assert took <= 3, f"followed {took} polls after the finger lifted"
    assert b.evaluate("window.__same") == 1  # swapped in place each time, never reloaded
    assert [e["type"] for e in entries(a, server, game_id)] == ["roll", "buy"]
    first.close()
    second.close()
