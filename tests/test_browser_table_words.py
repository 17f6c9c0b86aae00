"""The rulings the table screen explains, in a real browser on both tablet orientations (each screen loaded once and
the tablet turned) and in both languages:
the dice pad on the last roll in jail, during doubles and after time is called, the sell panel with its prices,
the log and the auction card after equal calls.  Screenshots go to tests/artifacts/table-words-*.png."""
import json

import pytest

from browser_support import fits, turned, write_artifact
from browser_support import import_record, shot

VIEWPORTS = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024}}
LANGUAGES = {"en": "English", "ja": "日本語"}


def roll(player, a, b):
    return {"type": "roll", "player": player, "dice": [a, b]}


SCENES = {
    "jail-third-roll": ({}, [roll("Aki", 2, 2), roll("Aki", 3, 3), roll("Aki", 1, 1), roll("Ben", 4, 6),
                             roll("Chie", 4, 6), roll("Aki", 1, 2), roll("Ben", 4, 6), roll("Chie", 4, 6),
                             roll("Aki", 1, 2), roll("Ben", 4, 6), roll("Chie", 4, 6)]),
    "doubles": ({}, [roll("Aki", 2, 2), roll("Aki", 3, 3)]),
    "time-called": ({}, [roll("Aki", 2, 2), {"type": "time_called"}]),
    "sell-panel": ({"dealt_deeds": 3}, [
        {"type": "deal", "player": "Chie", "deeds": ["reading-railroad", "st-charles-place", "states-avenue"]},
        {"type": "deal", "player": "Ben", "deeds": ["virginia-avenue", "tennessee-avenue", "kentucky-avenue"]},
        {"type": "deal", "player": "Aki", "deeds": ["oriental-avenue", "vermont-avenue", "connecticut-avenue"]},
        {"type": "build", "player": "Aki",
         "targets": {"oriental-avenue": 4, "vermont-avenue": 4, "connecticut-avenue": "hotel"}}]),
    "tie-log": ({}, [roll("Aki", 1, 2), {"type": "buy", "player": "Aki"}, roll("Ben", 1, 5),
                     {"type": "decline", "player": "Ben"},
                     {"type": "bid", "players": ["Ben", "Aki"], "amount": 60}]),
}
EXPECT = {  # what each scene must say, in each language
    ("jail-third-roll", "en"): "Aki is in jail: roll 3 of 3, the last.",
    ("jail-third-roll", "ja"): "Aki は刑務所にいます：3回中3回目、最後のサイコロです。",
    ("doubles", "en"): "Aki rolls again: doubles 2 of 3",
    ("doubles", "ja"): "ゾロ目3回中2回目",
    ("time-called", "en"): "Last roll of the game",
    ("time-called", "ja"): "ゲーム最後のサイコロです",
    ("sell-panel", "en"): "Sell: the bank pays $125",
    ("sell-panel", "ja"): "売却：銀行から$125",
    ("tie-log", "en"): "Aki's call wins, as the caller nearest in turn order counting from Chie",
    ("tie-log", "ja"): "次の手番の Chie から右回りに最も近い Aki のコールが優先されます",
}


def import_scene(page, server, name) -> int:
    options, entries = SCENES[name]
    header = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "options": options,
              "players": ["Aki", "Ben", "Chie"], "seating": "fixed"}
    lines = [json.dumps(header)] + [json.dumps({"seq": i, **e}) for i, e in enumerate(entries, start=1)]
    path = write_artifact(f"table-words-{name}.jsonl", "\n".join(lines) + "\n")
    return import_record(page, server, path)


def choose_language(page, lang):
    """The header's language menu offers the other languages: open it and tap ``lang`` unless the screen is in it
    already."""
    link = page.locator(f"header a:text-is('{LANGUAGES[lang]}')")
    if link.count():
        page.click("header details.langs summary")
        link.click()
    page.wait_for_selector(".decision")
    assert page.get_attribute("html", "lang") == lang


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("scene", SCENES)
def test_the_rulings_read_well_on_a_tablet(server, browser, scene, lang):
    """Each scene in each language, on the tablet held one way then turned the other."""
    context = browser.new_context(viewport=VIEWPORTS["landscape"])
    page = context.new_page()
    import_scene(page, server, scene)
    choose_language(page, lang)
    expected = EXPECT[scene, lang]
    for orientation in VIEWPORTS:
        turned(page, VIEWPORTS[orientation])
        if scene == "sell-panel":
            if not page.locator("#sell[open]").count():
                page.click("#sell summary")  # the panel's contents are fetched as it opens
            page.locator("#sell .panel-body table.sale").first.wait_for()
            assert expected in page.inner_text("#sell")
            target = page.locator("#sell")
        elif scene == "tie-log":
            assert expected in page.locator("table.log").last.inner_text()
            assert expected in page.inner_text(".decision")
            target = page.locator(".decision")
        else:
            assert expected in page.inner_text(".decision")
            target = page.locator(".decision")
        # nothing wider than the screen: no sideways scrolling on a tablet
        fits(page)
        target.scroll_into_view_if_needed()
        shot(page, f"table-words-{scene}-{orientation}-{lang}")
        if scene == "tie-log":
            shot(page.locator("table.log").last, f"table-words-{scene}-{orientation}-{lang}-log")
        shot(target, f"table-words-{scene}-{orientation}-{lang}-card")
    context.close()


LOG_SCENE = ({"dealt_deeds": 2, "dealt_deeds_redeal_pairs": False}, [
    {"type": "deal", "player": "Chie", "deeds": ["oriental-avenue", "st-charles-place"]},
    {"type": "deal", "player": "Ben", "deeds": ["states-avenue", "virginia-avenue"]},
    {"type": "deal", "player": "Aki", "deeds": ["mediterranean-avenue", "baltic-avenue"]},
    {"type": "build", "player": "Aki", "targets": {"mediterranean-avenue": 4, "baltic-avenue": 4}},
    roll("Aki", 2, 5), {"type": "card", "player": "Aki", "card": "chance-bank-dividend"}, roll("Ben", 3, 5),
    {"type": "buy", "player": "Ben"}, roll("Chie", 1, 3),
    {"type": "trade", "player": "Ben", "partner": "Chie", "give": {"cash": 150, "deeds": ["vermont-avenue"]},
     "take": {"deeds": ["oriental-avenue"]}}])
LOG_EXPECT = {
    "en": ["Ben ⇄ Chie: Ben gives $150 and Vermont Avenue; Chie gives Oriental Avenue",
           "Aki draws a Chance card: Bank pays you dividend of $50"],
    "ja": ["Ben ⇄ Chie：Ben は $150 と バーモント・アベニュー を、Chie は オリエンタル・アベニュー を渡す",
           "Aki がチャンスのカードを引く：銀行から配当金$50を受け取る"],
}
RULES_EXPECT = {"en": ["Equal calls at the same time: the caller nearest in turn order from the next player wins",
                       "Note: The token does not move by the third doubles."],
                "ja": ["同時に同額のコール：次の手番のプレイヤーから右回りに近い人が優先", "注：3回目のゾロ目では駒を進めません。"]}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_log_and_the_rules_page_read_in_the_device_language_on_a_tablet(server, browser, lang):
    """Each page on the tablet held one way then turned the other."""
    options, entries = LOG_SCENE
    header = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "options": options,
              "players": ["Aki", "Ben", "Chie"], "seating": "fixed"}
    path = write_artifact("table-words-log.jsonl", "\n".join(
        [json.dumps(header)] + [json.dumps({"seq": i, **e}) for i, e in enumerate(entries, 1)]) + "\n")
    context = browser.new_context(viewport=VIEWPORTS["landscape"])
    page = context.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body:not(.arming)")  # a tap is taken once controls are armed
    page.set_input_files("input[name=record]", str(path))
    page.fill("form[enctype] input[name=pin]", "246802")
    page.click("form[enctype] button")
    page.wait_for_selector(".decision")
    choose_language(page, lang)
    game = page.url.split("?")[0].rstrip("/")
    for path, expected in (("/log", LOG_EXPECT[lang]), ("/rules", RULES_EXPECT[lang])):
        page.goto(game + path)
        for orientation in VIEWPORTS:
            turned(page, VIEWPORTS[orientation])
            text = page.inner_text("main")
            for words in expected:
                assert words in text, (path, words)
            assert "chance-bank-dividend" not in text and "vermont-avenue" not in text
            fits(page)
            shot(page, f"table-words-{path.strip('/')}-{orientation}-{lang}")
    context.close()
