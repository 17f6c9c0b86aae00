"""axe-core in a real browser (no serious or critical violation: contrast, names and labels, landmarks), and the
screens that must fit without scrolling.  axe-core runs over every page a user reads, at every size and in every
language, in the layout sweep (tests/test_browser_layout.py, with :func:`axe_violations`); here are the fits: the
spectators' display shows the whole board on a 1024x768 tablet and on a 1920x1080 projector, and the card picker's
16 cards fit both tablet orientations.  Screenshots go to tests/artifacts/axe-*.png.

axe-core is vendored in tests/axe/ (axe.min.js from the npm package, MPL-2.0, its LICENSE beside it).  The app's
Content-Security-Policy forbids inline script, so the checks run in a browser context that bypasses it to add
axe's script tag; the fit checks here run in an ordinary context, under the app's own policy."""
import json
from pathlib import Path

import pytest

from browser_support import write_artifact
from browser_support import armed, import_record, shot

AXE = Path(__file__).parent / "axe" / "axe.min.js"
LANGUAGES = ("en", "ja")
LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
PROJECTOR = {"width": 1920, "height": 1080}
HEADER = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": ["Aki", "Ben", "Chie"],
          "seating": "fixed"}
# Aki rolls 3 and 4 from GO onto Chance: the table waits for the card drawn (16 in the deck); a second game plays on
# past the card so that deeds are owned, houses stand and tokens lie on the board the display draws.
TO_CHANCE = [{"type": "roll", "player": "Aki", "dice": [3, 4]}]
SIX = ["Aki", "Ben", "Chie", "Daisuke", "Emi", "Fumiko"]
PLAYED = [entry for player, dice in zip(SIX, ([1, 2], [1, 4], [1, 5], [3, 5], [4, 5], [5, 6]))
          for entry in ({"type": "roll", "player": player, "dice": dice}, {"type": "buy", "player": player})]


def game(page, server, entries, name, players=HEADER["players"]) -> int:
    """A table continued from a record of ``entries`` through the home page's import (which unlocks it here)."""
    path = write_artifact(f"axe-{name}.jsonl", "\n".join(
        [json.dumps({**HEADER, "players": list(players)})] + [json.dumps({"seq": i, **e}) for i, e in enumerate(entries, 1)]) + "\n")
    return import_record(page, server, path)


def in_language(page, server, lang):
    page.goto(f"{server}/lang/{lang}")


def opened(browser, server, size, lang, path, storage=None):
    """A page of ``path`` in a browser context of the screen's ``size`` and language (unlocked as the ``storage``
    state says), armed."""
    context = browser.new_context(viewport=size, storage_state=storage)
    page = context.new_page()
    in_language(page, server, lang)
    page.goto(server + path)
    armed(page)
    return page


def axe_violations(page, contrast: bool = True) -> list:
    """axe-core's serious and critical violations on the page as shown, each as rule id, impact, help and the
    first few offending elements.  ``contrast``: with its colour-contrast rule (over half of axe's time on a page)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):  # not already added to each of its context's pages
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async (contrast) => {
      const rules = {'color-contrast': {enabled: contrast}};
      // a rule whose every check (and the rule itself) is of minor or moderate impact never finds what is asked
      // here (axe's own data, as its results weigh a rule's failure): not run
      const data = axe._audit && axe._audit.data;
      for (const rule of (data && axe._audit.rules) || []) {
        const impacts = [rule.impact, ...[...rule.any, ...rule.all, ...rule.none].map(
          (check) => (data.checks[typeof check === 'string' ? check : check.id] || {}).impact)];
        if (impacts.every((impact) => impact === undefined || impact === 'minor' || impact === 'moderate') &&
            impacts.some((impact) => impact !== undefined)) rules[rule.id] = rules[rule.id] || {enabled: false};
      }
      const r = await axe.run(document, {resultTypes: ['violations'], rules});
      return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => ({id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
    }""", contrast)
    return found


@pytest.fixture(scope="module")
def pages(server, chromium):
    """One table waiting for a card and one played on (deeds owned, tokens on the board), imported by a device
    whose unlocks are kept (``storage``)."""
    context = chromium.new_context(viewport=LANDSCAPE)
    page = context.new_page()
    card = game(page, server, TO_CHANCE, "card")
    played = game(page, server, PLAYED, "played", SIX)
    storage = context.storage_state()
    context.close()
    return {"storage": storage, "card": card, "played": played}


INSIDE_JS = """selector => {
  const el = [...document.querySelectorAll(selector)].pop();
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: r.top, left: r.left, bottom: r.bottom, right: r.right,
          width: innerWidth, height: innerHeight, scrollH: document.documentElement.scrollHeight,
          scrollW: document.documentElement.scrollWidth};
}"""


def inside(page, selector, size) -> dict:
    """The last element matching ``selector``: its box lies wholly inside the viewport, with nothing to scroll."""
    box = page.evaluate(INSIDE_JS, selector)
    assert box is not None, selector
    assert box["top"] >= 0 and box["left"] >= 0, box
    assert box["bottom"] <= size["height"] and box["right"] <= size["width"], box
    assert box["scrollW"] <= size["width"], box
    return box


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("screen", ["tablet", "portrait", "projector"])
def test_the_spectators_display_shows_the_whole_board_on_a_tablet_and_a_projector(server, browser, pages, screen,
                                                                                    lang):
    size = {"tablet": LANDSCAPE, "portrait": PORTRAIT, "projector": PROJECTOR}[screen]
    page = opened(browser, server, size, lang, f"/games/{pages['played']}/display")  # a spectator's: not unlocked
    shot(page, f"axe-display-{size['width']}x{size['height']}-{lang}")
    inside(page, ".board40", size)
    inside(page, ".board40 .cell", size)  # GO's row, the lowest, in full
    inside(page, ".players", size)
    clipped = page.evaluate("""() => [...document.querySelectorAll('.board40 .cell, .board40 .centre')]
      .filter(c => c.scrollHeight > c.clientHeight + 1 || c.scrollWidth > c.clientWidth + 1).map(c => c.innerText)""")
    assert clipped == []  # no square's name, owner or token is cut off, nor anything in the centre
    page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
def test_the_card_picker_shows_all_16_cards_without_scrolling(server, browser, pages, orientation, lang):
    size = {"landscape": LANDSCAPE, "portrait": PORTRAIT}[orientation]
    page = opened(browser, server, size, lang, f"/games/{pages['card']}", pages["storage"])
    cards = page.locator(".cardpick button")
    assert cards.count() == 16
    shot(page, f"axe-cards-{size['width']}x{size['height']}-{lang}")
    inside(page, ".cardpick button", size)
    page.context.close()


HEADER_LINKS_JS = """() => {
  const text = a => { const r = document.createRange(); r.selectNodeContents(a); return r.getBoundingClientRect(); };
  return [...document.querySelectorAll('header.bar nav.links > a')].filter(a => a.previousElementSibling?.tagName === 'A')
    .map(a => ({pair: a.previousElementSibling.innerText + ' | ' + a.innerText,
                gap: text(a).left - text(a.previousElementSibling).right,
                rule: parseFloat(getComputedStyle(a).borderLeftWidth), ruleColor: getComputedStyle(a).borderLeftColor}));
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
def test_the_header_links_are_set_apart_by_a_rule_and_space(server, browser, pages, orientation, lang):
    size = {"landscape": LANDSCAPE, "portrait": PORTRAIT}[orientation]
    page = opened(browser, server, size, lang, f"/games/{pages['played']}", pages["storage"])
    pairs = page.evaluate(HEADER_LINKS_JS)
    # Tournaments | rules | display | result | record | Help: those that fit the bar's row, the others in its menu
    assert len(pairs) >= (4 if orientation == "landscape" else 1), pairs
    assert page.locator("header.bar nav.links > a, header.bar #bar-menu > a").count() == 6
    for pair in pairs:
        assert pair["gap"] >= 12 and pair["rule"] >= 1 and pair["ruleColor"] != "rgba(0, 0, 0, 0)", pair
    shot(page.locator("header.bar"), f"axe-header-{size['width']}-{lang}")
    page.context.close()


def contrast(a: str, b: str = "#ffffff") -> float:
    """WCAG 2's contrast ratio of two sRGB colours (#rrggbb)."""
    def luminance(colour):
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_each_players_colour_reads_as_text_on_white_and_under_white_text():
    """A deed's owner is written in the player's colour on the white square, and a token's initials in white on
    it: both at WCAG AA's 4.5:1 at least, for all eight seats (axe reaches only the seats a page shows)."""
    import re
    css = (Path(__file__).parent.parent / "referee" / "web" / "static" / "referee.css").read_text(encoding="utf-8")
    colours = dict(re.findall(r"\.board40 \.cell\.(p[0-7]) \{ outline:3px solid (#[0-9a-f]{6});", css))
    assert sorted(colours) == [f"p{i}" for i in range(8)]
    for seat, colour in colours.items():
        assert f".board40 .cell.{seat} .own {{ color:{colour}; }}" in css and f".swatch.{seat} {{ background:{colour}; }}" in css
        assert contrast(colour) >= 4.5, (seat, colour, contrast(colour))


FAULTY = """<!doctype html><html lang="en"><head><title>faults</title></head><body>
<h1>Table 3</h1><h4>skipped heading levels</h4><button></button><img src="/none.png">
<p style="color:#bbb;background:#fff">faint words</p><div role="banner"><div role="banner">twice</div></div>
<input type="text"><a href="#x"></a><ul><div>not a list item</div></ul>
<table><tr><th></th><th>cash</th></tr><tr><td>Aki</td><td>$1,500</td></tr></table></body></html>"""


def test_axe_reports_what_a_run_of_every_rule_finds_serious_or_critical(browser):
    """The rules left out of :func:`axe_violations` (every check of theirs minor or moderate) change nothing it
    reports: on a page with faults of every weight, it finds the serious and critical ones a run of every rule
    finds, and only those."""
    page = browser.new_context().new_page()
    page.set_content(FAULTY)
    found = {v["id"] for v in axe_violations(page)}
    page.add_script_tag(path=str(AXE))
    everything = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
      .map(v => [v.id, v.impact])""")
    assert found == {rule for rule, impact in everything if impact in ("serious", "critical")}
    assert {"button-name", "image-alt", "color-contrast", "label", "link-name", "list"} <= found
    assert {impact for _, impact in everything} >= {"moderate", "minor"}  # the page has lighter faults too
