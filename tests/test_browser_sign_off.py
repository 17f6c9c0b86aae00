"""Players sign off a finished game on the referee's tablet, in a real browser, on both orientations and in
English and Japanese: each taps their own large button (a double tap records one confirmation), a refusal asks
for the reason behind its confirmation, the card counts who signed, nothing is wider than the screen.
Screenshots go to tests/artifacts/sign-off-*.png."""
import random

import pytest
import sqlalchemy

from referee.db import db
from referee.demo import play_table
from test_browser import armed, shot, start_game
from browser_support import fits
from test_browser_dispute import LANGUAGES, VIEWPORTS, choose_language

COUNTED = {"en": "signed 3 of 3", "ja": "署名 3 / 3"}


def stored(app, game_id) -> list[tuple]:
    with app.app_context():
        return db.session.execute(sqlalchemy.text(
            "SELECT player, verdict, reason FROM sign_offs WHERE game_id = :g ORDER BY n"), {"g": game_id}).all()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("orientation", VIEWPORTS)
def test_players_sign_off_on_the_tablet_and_a_double_tap_records_one_confirmation(live, browser, orientation, lang):
    server, app = live
    page = browser.new_context(viewport=VIEWPORTS[orientation]).new_page()
    game_id = start_game(page, server)
    choose_language(page, lang)
    with app.app_context():  # the game played to its end (as the table's entries would be)
        play_table(game_id, random.Random(5), 6)
    page.goto(f"{server}/games/{game_id}")
    armed(page)
    signers = page.locator("#sign-off li.signer")
    assert signers.count() == 3
    big = signers.nth(0).locator("button.primary")
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
    fits(page)
    shot(page, f"sign-off-signed-{orientation}-{lang}")
