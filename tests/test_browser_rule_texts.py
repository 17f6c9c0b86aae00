"""The rules page in Korean and German, in a real browser on a phone held upright and a tablet held sideways: the
search box finds the jail's clauses in the device's words, and each clause reads in its original first, then
marked as a translation in the device's language, nothing running over anything.  Screenshots go to
tests/artifacts/rule-texts-*.png."""
import pytest

from browser_support import laid_out, shot
from browser_support import armed

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768}}
JAIL = {"ko": ("감옥", "번역:", "감옥으로 보내질 때는"), "de": ("Gefängnis", "Übersetzung:", "Wer ins Gefängnis geschickt wird")}


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("lang", JAIL)
def test_the_rules_page_searched_in_korean_and_german_reads_on_a_phone_and_a_tablet(browser, server, lang, viewport):
    word, label, translation = JAIL[lang]
    page = browser.new_context(viewport=VIEWPORTS[viewport]).new_page()
    page.goto(f"{server}/lang/{lang}")
    page.goto(f"{server}/rulesets/jma-2006")
    page.fill("input[name=q]", word)
    armed(page)  # a tap (or Enter) counts once the page has been shown a moment
    with page.expect_navigation():
        page.press("input[name=q]", "Enter")
    jail = page.locator("#rule-jail")
    assert jail.locator("p.original").inner_text().endswith("$200のサラリーは受け取ることができません。")
    assert jail.locator("p.translation").inner_text().startswith(label)
    assert translation in jail.locator("p.translation").inner_text()
    assert page.locator("#rule-auction").count() == 0
    laid_out(page, f"the rules page searched for {word} ({viewport})", within="main")
    shot(page, f"rule-texts-{lang}-{viewport}", full_page=False)
    page.goto(f"{server}/rulesets/classic")  # every clause, each with its translation
    laid_out(page, f"the classic rules ({viewport})", within="main")
