"""The dispute view in a real browser, on both tablet orientations (each screen looked at both ways, the tablet
turned) and in English and Japanese: the log's line is
tapped, the table at that entry opens (the entry, its ruling with the clause, what the table waited for before and
after), one tap steps back and one forward, nothing is wider than the screen and the step buttons are large
targets.  Screenshots go to tests/artifacts/dispute-*.png."""
import json

import pytest

from browser_support import fits, write_artifact
from browser_support import armed, import_record, shot, turned

VIEWPORTS = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024}}
LANGUAGES = {"en": "English", "ja": "日本語"}
ENTRIES = [{"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "buy", "player": "Aki"},
           {"type": "roll", "player": "Ben", "dice": [1, 5]}, {"type": "decline", "player": "Ben"},
           {"type": "bid", "players": ["Ben", "Aki"], "amount": 60}]
EXPECT = {  # entry 5 (equal calls), entry 4 (the decline) and the ruling's clause, in each language
    "en": ("Entry 5 of 5", "Ben = Aki bids $60 for Oriental Avenue", "Aki's call wins", "Entry 4 of 5",
           "waiting for Ben to buy or decline Oriental Avenue"),
    "ja": ("記録 5 件目（全 5 件）", "Ben = Aki が オリエンタル・アベニュー に $60 で入札", "Aki のコールが優先されます",
           "記録 4 件目（全 5 件）", "Ben が オリエンタル・アベニュー を購入するか断るか待ち"),
}


def choose_language(page, lang):
    link = page.locator(f"header a:text-is('{LANGUAGES[lang]}')")
    if link.count():
        page.click("header details.langs summary")
        link.click()
        page.wait_for_load_state()
    assert page.get_attribute("html", "lang") == lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_log_line_opens_the_table_at_its_entry_and_one_tap_steps_each_way(server, browser, lang):
    header = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": ["Aki", "Ben", "Chie"],
              "seating": "fixed"}
    path = write_artifact("dispute.jsonl", "\n".join(
        [json.dumps(header)] + [json.dumps({"seq": i, **e}) for i, e in enumerate(ENTRIES, 1)]) + "\n")
    context = browser.new_context(viewport=VIEWPORTS["landscape"])
    page = context.new_page()
    game_id = import_record(page, server, path)
    choose_language(page, lang)
    entry5, said, ruling, entry4, waiting4 = EXPECT[lang]

    page.goto(f"{server}/games/{game_id}/log")
    armed(page)
    for orientation, viewport in VIEWPORTS.items():
        turned(page, viewport)
        shot(page, f"dispute-log-{orientation}-{lang}")
    page.click("table.log a.line[href$='/entries/5']")
    page.wait_for_selector(".atentry")
    assert page.url.endswith(f"/games/{game_id}/entries/5")
    top = page.inner_text(".atentry")
    assert entry5 in top and said in top and ruling in top
    assert page.locator(".atentry .why .cite").first.inner_text()  # the clause it rests on
    for orientation, viewport in VIEWPORTS.items():
        turned(page, viewport)
        fits(page)
        box = page.locator(".steps a[rel=prev]").bounding_box()
        assert box["height"] >= 48 and box["width"] >= 96  # a large target
        shot(page, f"dispute-entry5-{orientation}-{lang}")

    armed(page)
    page.locator(".steps a[rel=prev]").click()
    page.wait_for_url(f"**/games/{game_id}/entries/4")
    assert entry4 in page.inner_text(".atentry") and waiting4 in page.inner_text(".atentry")
    for orientation, viewport in VIEWPORTS.items():
        turned(page, viewport)
        fits(page)
        shot(page, f"dispute-entry4-{orientation}-{lang}")

    armed(page)
    page.click(".steps a[rel=next]")
    page.wait_for_url(f"**/games/{game_id}/entries/5")
    assert page.locator(".steps a[rel=next]").count() == 0  # the latest entry: nothing further
    assert "entries/5" in page.url
    context.close()


def test_cash_that_fell_is_shown_in_the_colour_of_a_loss_never_the_green_of_a_gain(server, browser):
    """Ben pays Aki rent at entry 3: as the browser draws it, Aki's cash is green, Ben's red (not green)."""
    header = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": ["Aki", "Ben", "Chie"],
              "seating": "fixed"}
    rent = [{"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "buy", "player": "Aki"},
            {"type": "roll", "player": "Ben", "dice": [1, 2]}]
    path = write_artifact("dispute-rent.jsonl", "\n".join(
        [json.dumps(header)] + [json.dumps({"seq": i, **e}) for i, e in enumerate(rent, 1)]) + "\n")
    page = browser.new_page(viewport=VIEWPORTS["portrait"])
    game_id = import_record(page, server, path)
    page.goto(f"{server}/games/{game_id}/entries/3")
    page.wait_for_load_state("load")

    def colour(name):
        return page.locator(".atplayers .player", has_text=name).locator(".cash").evaluate(
            "e => getComputedStyle(e).color")

    assert colour("Aki") == "rgb(11, 93, 59)"  # the gain: var(--good)
    assert colour("Ben") == "rgb(163, 23, 27)"  # the loss: var(--bad)
    page.close()
