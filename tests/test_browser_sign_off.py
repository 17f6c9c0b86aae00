"""Players sign off a finished game on the referee's tablet, in a real browser, on both orientations (the card
looked at both ways, the tablet turned) and in
English and Japanese: each taps their own large button (a double tap records one confirmation), a refusal asks
for the reason behind its confirmation, the card counts the confirmations and the refusals apart, nothing is wider
than the screen.  At a tournament's table, a correction by the director after players signed reaches the open
game-over card at its next poll: the corrected ranking with every player's buttons again, and the words that it
must be signed again.  Screenshots go to tests/artifacts/sign-off-*.png."""
import random

import pytest
import sqlalchemy

from referee.engine import chain
from referee.store.db import db
from referee.app.demo import play_table
from referee.services import results
from browser_support import armed, shot, start_game, turned
from browser_support import fits
from test_browser_corrections import played_round
from test_browser_dispute import LANGUAGES, VIEWPORTS, choose_language

COUNTED = {"en": "2 confirmed, 1 refused", "ja": "承認 2 人、拒否 1 人"}
AGAIN = {"en": "the corrected ranking must be signed again", "ja": "訂正後の順位にあらためて署名が必要です"}


def stored(app, game_id) -> list[tuple]:
    with app.app_context():
        return db.session.execute(sqlalchemy.text(
            "SELECT player, verdict, reason FROM sign_offs WHERE game_id = :g ORDER BY n"), {"g": game_id}).all()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_players_sign_off_on_the_tablet_and_a_double_tap_records_one_confirmation(live, browser, lang):
    server, app = live
    page = browser.new_context(viewport=VIEWPORTS["landscape"]).new_page()
    game_id = start_game(page, server)
    choose_language(page, lang)
    with app.app_context():  # the game played to its end (as the table's entries would be)
        play_table(game_id, random.Random(5), 6)
    page.goto(f"{server}/games/{game_id}")
    armed(page)
    signers = page.locator("#sign-off li.signer")
    assert signers.count() == 3
    big = signers.nth(0).locator("button.primary")
    for orientation, viewport in VIEWPORTS.items():
        turned(page, viewport)
        box = big.bounding_box()
        assert box["height"] >= 60 and box["width"] >= 150  # a large target for a player's own tap
        fits(page)
        shot(page, f"sign-off-open-{orientation}-{lang}")

    big.dblclick()  # a double tap
    page.wait_for_load_state()
    armed(page)
    assert stored(app, game_id) == [("Aki", "confirms", "")]

    ben = page.locator("#sign-off li.signer").nth(1)
    ben.locator("summary").click()
    ben.locator("textarea[name=reason]").fill("Marvin Gardens was counted twice")
    ben.locator("form button.danger").click()
    page.wait_for_load_state()
    armed(page)
    page.locator("#sign-off li.signer").nth(2).locator("button.primary").click()
    page.wait_for_load_state()
    armed(page)
    card = page.inner_text("#sign-off")
    assert COUNTED[lang] in card and "Marvin Gardens was counted twice" in card
    assert page.locator("#sign-off button.primary").count() == 0  # everyone has signed: no button is left
    assert stored(app, game_id) == [("Aki", "confirms", ""), ("Ben", "refuses", "Marvin Gardens was counted twice"),
                                    ("Chie", "confirms", "")]
    for orientation, viewport in VIEWPORTS.items():
        turned(page, viewport)
        fits(page)
        shot(page, f"sign-off-signed-{orientation}-{lang}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_correction_after_sign_off_reaches_the_game_over_card_with_the_buttons_again(live, browser, lang):
    server, app = live
    tid, game_id, before = played_round(app)
    names = [p["name"] for p in before["ranking"]]
    page = browser.new_context(viewport=VIEWPORTS["portrait"]).new_page()
    page.goto(f"{server}/games/{game_id}/unlock")
    armed(page)
    choose_language(page, lang)
    page.fill("input[name=pin]", "135791")  # the director's PIN opens a table
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(f"{server}/games/{game_id}")
    armed(page)
    for name in names[:2]:
        page.locator("#sign-off li.signer", has_text=name).locator("button.primary").click()
        page.wait_for_load_state()
        armed(page)
    assert [row[0] for row in stored(app, game_id)] == names[:2]

    ranking = before["ranking"]  # the director swaps the first two places (and their totals) on the director's page
    places = {p["name"]: [2, 1, *range(3, len(ranking) + 1)][k] for k, p in enumerate(ranking)}
    totals = {p["name"]: ranking[[1, 0, *range(2, len(ranking))][k]]["total"] for k, p in enumerate(ranking)}
    with app.app_context():
        results.correct_result(tid, game_id, places, totals, {p["name"] for p in ranking if p["bankrupt_order"]},
                               False, "1st and 2nd swapped on the slip", 0)
        digest = chain.ranking_digest(results.table_result(tid, game_id))
    page.wait_for_selector("#corrected-ranking", timeout=10000)  # the open card follows at its next poll
    armed(page)
    card = page.inner_text("#sign-off")
    assert AGAIN[lang] in card and "1st and 2nd swapped on the slip" in card
    assert page.locator("#corrected-ranking tr").first.inner_text().split()[:2] == ["1", names[1]]
    assert page.locator("#sign-off li.signer button.primary").count() == len(names)  # every player signs again
    fits(page)
    shot(page, f"sign-off-corrected-{lang}")

    page.locator("#sign-off li.signer", has_text=names[1]).locator("button.primary").click()
    page.wait_for_load_state()
    armed(page)
    assert stored(app, game_id)[-1] == (names[1], "confirms", "")
    with app.app_context():
        assert db.session.execute(sqlalchemy.text(
            "SELECT ranking FROM sign_offs WHERE game_id = :g ORDER BY n DESC"), {"g": game_id}).scalar() == digest
    assert page.locator("#sign-off li.signer button.primary").count() == len(names) - 1
    fits(page)
