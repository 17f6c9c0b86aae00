"""A floor judge on a phone (390 px wide), in a real browser, in English, Japanese, Korean and German: the director
makes the judges' PIN on the director's page; the judge's phone, unlocked with it, lists the tournament's open calls
live; a table's tablet calls a judge naming an earlier entry (one more tap than the latest) and who calls; the call
shows on the judge's phone within seconds without a reload (its table, the entry in words, who called, how long it
has waited); from the call list a judge's ruling is recorded in at most 3 taps, and it answers the call.  Nothing
is wider than the phone.  Screenshots go to tests/artifacts/judges-*.png."""
import re
import time

import pytest

from browser_support import fits
from browser_support import armed, shot
from test_browser_director import create_and_seat, finish_seating, round_overview, unlock_table

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}
NAMES = {"en": "English", "ja": "日本語", "ko": "한국어", "de": "Deutsch"}
WORDS = {  # the words each screen must show, in the device's language
    "en": {"none": "No table is waiting for a judge.", "entry": "Entry 2", "recorded": "Ruling 1 recorded on entry 2"},
    "ja": {"none": "ジャッジを待っている卓はありません。", "entry": "記録 2 件目", "recorded": "記録 2 に裁定 1 を記録しました"},
    "ko": {"none": "저지를 기다리는 테이블이 없습니다.", "entry": "기록 2번", "recorded": "기록 2에 판정 1을 기록했습니다"},
    "de": {"none": "Kein Tisch wartet auf einen Judge.", "entry": "Eintrag 2",
           "recorded": "Entscheidung 1 zu Eintrag 2 aufgezeichnet"},
}


def speaking(browser, viewport, server, lang):
    """A new device (a browser context of its own) that has chosen ``lang``."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(server + "/")
    armed(page)
    if lang != "en":
        page.click("header details.langs summary")
        page.locator(f"header a:text-is('{NAMES[lang]}')").click()
        page.wait_for_load_state()
    assert page.get_attribute("html", "lang") == lang
    return page


@pytest.mark.parametrize("lang", WORDS)
def test_a_judge_on_a_phone_answers_a_call_naming_its_entry_with_a_ruling_in_three_taps(live, browser, lang):
    server, app = live
    words = WORDS[lang]
    director = speaking(browser, TABLET, server, lang)
    director_url = create_and_seat(director, server, name=f"Judged open {lang}")
    tid = int(director_url.split("#")[0].rstrip("/").rsplit("/", 1)[1])
    table = round_overview(app, director)[0]
    finish_seating(app, table.game_id)
    director.locator("#judge-pin button").click()  # the director makes the judges' PIN
    director.wait_for_selector("#judges")
    pin = re.search(r"\b(\d{8})\b", director.inner_text("#judge-pin")).group(1)

    phone = speaking(browser, PHONE, server, lang)
    phone.goto(f"{server}/tournaments/{tid}/judge")
    armed(phone)
    phone.fill("#judge-pin", pin)
    phone.locator("form button[type=submit]").click()
    phone.wait_for_url(f"{server}/tournaments/{tid}/judge")
    armed(phone)
    assert words["none"] in phone.inner_text("#open-calls")
    fits(phone)
    phone.evaluate("window.__same = 1")

    tablet = speaking(browser, TABLET, server, lang)
    unlock_table(tablet, server, table)
    assert tablet.locator("#call-judge").count() == 1  # the latest entry in one tap; an earlier one in one more
    tablet.locator("#call-judge-other summary").click()
    radios = tablet.locator("#call-judge-form input[name=entry]")
    assert radios.count() == 6 and radios.first.is_checked()  # the latest six, the latest ticked
    tablet.fill("#call-other-entry", "2")  # any entry of the log by its number
    caller = tablet.locator("#call-caller option").nth(2).get_attribute("value")
    tablet.select_option("#call-caller", caller)
    tablet.locator("#call-judge-chosen").click()
    tablet.wait_for_selector("#judge-called")
    assert "2" in tablet.inner_text("#judge-called") and caller in tablet.inner_text("#judge-called")
    fits(tablet)

    call = phone.locator(f"#call-{table.game_id}")
    called = time.monotonic()
    call.wait_for(timeout=8000)  # the live list follows the call without a reload
    assert time.monotonic() - called < 8 and phone.evaluate("window.__same") == 1
    said = call.inner_text()
    assert words["entry"] in said and caller in said, said
    box = call.bounding_box()
    assert box["height"] >= 48 and box["width"] >= 300  # a large target across the phone
    fits(phone)
    shot(phone, f"judges-calls-phone-{lang}")

    taps = 0
    call.click()
    taps += 1
    phone.wait_for_url(f"**/games/{table.game_id}/entries/2*")
    armed(phone)
    form = phone.locator("#record-ruling form")
    assert form.is_visible()  # open under the entry, no tap needed to reach it
    form.locator("input[name=claim]").fill(f"{caller}: the roll was made before the dice settled")
    form.locator("input[name=ruling]").fill("the roll stands")
    assert form.locator("input[name=decider]:checked").get_attribute("value") == "judge"
    assert form.locator("input[name=decider][value=head_judge]").count() == 0
    form.locator("button[type=submit]").click()
    taps += 1
    phone.wait_for_selector("#ruling-1")
    assert taps <= 3
    assert words["recorded"] in phone.inner_text("body")
    fits(phone)
    shot(phone, f"judges-ruling-phone-{lang}")

    phone.goto(f"{server}/tournaments/{tid}/judge")
    armed(phone)
    assert words["none"] in phone.inner_text("#open-calls") and phone.locator("#answered").count() == 1
    tablet.wait_for_selector("#judge-called", state="detached", timeout=8000)  # the table may call again


def test_a_judges_phone_is_refused_the_table_screen_and_the_directors_page(live, browser):
    server, app = live
    director = speaking(browser, TABLET, server, "en")
    director_url = create_and_seat(director, server, name="Judged, refused")
    tid = int(director_url.split("#")[0].rstrip("/").rsplit("/", 1)[1])
    table = round_overview(app, director)[0]
    director.locator("#judge-pin button").click()
    director.wait_for_selector("#judges")
    pin = re.search(r"\b(\d{8})\b", director.inner_text("#judge-pin")).group(1)
    phone = speaking(browser, PHONE, server, "en")
    phone.goto(f"{server}/tournaments/{tid}/judge/unlock")
    armed(phone)
    phone.fill("#judge-pin", pin)
    phone.locator("form button[type=submit]").click()
    phone.wait_for_url(f"{server}/tournaments/{tid}/judge")
    for address, words in ((f"/games/{table.game_id}", "not the table's entries of play"),
                           (f"/tournaments/{tid}", "not the director's page")):
        answer = phone.goto(server + address)
        assert answer.status == 403 and words in phone.inner_text("main")
        fits(phone)
        phone.locator("main a.button").click()  # back to the calls
        phone.wait_for_url(f"{server}/tournaments/{tid}/judge")
