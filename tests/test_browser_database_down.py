"""A database that cannot be reached or cannot write, in a real browser: the table screen's poll is answered 503 and
the screen shows the notice across its top (nothing was recorded, why, what to do) while it keeps the table and goes
on polling, not saying the network is lost; when the database answers again the notice goes by itself.  A tap whose
commit fails for a full disk is the whole page saying so, with the way back to the screen, and the tap made again
once the disk has room records once."""
import json

from playwright.sync_api import expect

from referee.services import games
from browser_support import TABLET, armed, dice, shot, start_game
from test_database_failures import commits_fail, database_gone


def entries(app, game_id: int) -> list[dict]:
    with app.app_context():
        return [json.loads(line) for line in games.export_record(game_id).splitlines()[1:]]


def test_a_screen_whose_database_is_gone_says_so_keeps_its_table_and_recovers_by_itself(live, browser):
    server, app = live
    page = browser.new_context(viewport=TABLET).new_page()
    game_id = start_game(page, server)
    armed(page)
    with database_gone(app):
        notice = page.wait_for_selector("#notice:has-text('Nothing was recorded.')", timeout=5000)
        assert "The app cannot reach its database." in notice.inner_text()
        assert "brings itself up to date when the database answers again" in notice.inner_text()
        expect(page.locator("#tablelive .dicepad")).to_be_visible()  # the table stays on the screen
        assert not page.locator("#offline").is_visible()  # the server answered: the network is not lost
        shot(page, "database-gone")
    expect(page.locator("#notice")).to_be_hidden(timeout=5000)  # the next poll answered: the notice goes
    assert page.locator("#tablelive[data-seq='0']").count() == 1

    with commits_fail(app, OSError(28, "No space left on device")):
        dice(page, 1, 2)
        expect(page.locator("main")).to_contain_text("the disk that holds it is full")
        assert page.locator("#tablelive").count() == 0  # the whole page, saying so
        shot(page, "database-disk-full")
    assert entries(app, game_id) == []
    page.click("text=Back to the screen")
    page.wait_for_selector("#tablelive[data-seq='0']")
    dice(page, 1, 2)  # the disk has room again: the tap records, once
    assert [(e["type"], e["dice"]) for e in entries(app, game_id)] == [("roll", [1, 2])]
