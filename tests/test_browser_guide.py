"""The day's guide laid out on a phone (390x844) and a tablet (1024x768), in English, Japanese, Korean and German:
nothing overlaps, nothing scrolls sideways, no text runs out of its box (tests/layout.js).  Screenshots go to
tests/artifacts/guide-*.png."""
import pytest

from browser_support import laid_out, shot

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768}}
LANGUAGES = ("en", "ja", "ko", "de")
PAGES = ("/help", "/help/organiser", "/help/director", "/help/table-referee", "/help/judge")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("device", VIEWPORTS)
def test_every_guide_page_is_laid_out_on_a_phone_and_a_tablet(server, browser, device, lang):
    context = browser.new_context(viewport=VIEWPORTS[device])
    context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    page = context.new_page()
    for address in PAGES:
        page.goto(server + address)
        assert page.get_attribute("html", "lang") == lang
        assert page.locator("main ol li").count() >= (0 if address == "/help" else 10)
        shot(page, f"guide-{address.strip('/').replace('/', '-')}-{device}-{lang}")
        laid_out(page, f"{address} ({device}, {lang})")
