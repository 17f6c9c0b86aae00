"""The director's correction of a finished table's result and its withdrawal, in a real browser on both tablet
orientations (1024x768 and 768x1024, one page turned between them): the correction is made on its form, the
public standings show the corrected order with the correction in force; it is withdrawn behind its confirmation,
and the standings fall back to the game's own result with the correction marked withdrawn.  Nothing on these pages
is wider than the screen.  Screenshots go to tests/artifacts/corrections-*.png."""
import random

from referee.app.demo import play_table
from referee.services import progress, results, tournaments

from browser_support import fits
from browser_support import armed, shot

SIZES = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024}}


def played_round(app) -> tuple[int, int, dict]:
    """A tournament of eight whose first round was played to its end (made by the services: the live server's
    forms want their tokens); its id, its first table's game and that game's result."""
    with app.app_context():
        tid = tournaments.create_tournament("Corrections Cup", "jma-placement", "jma-2006",
                                            [f"P{i:02d}" for i in range(8)], "135791")
        progress.seat_round(tid)
        rng = random.Random("corrections")
        for view in tournaments.round_overview(tid, 1):
            play_table(view.game_id, rng, 6)
        game_id = tournaments.round_overview(tid, 1)[0].game_id
        return tid, game_id, results.table_result(tid, game_id)


def shown_order(page) -> list[str]:
    """The players in the order the standings page lists them."""
    return page.locator("#standings-live table.standings tr td:nth-child(2)").all_inner_texts()


def standings_at_both_sizes(page, server, tid, expected, state) -> None:
    """The standings page at each size: the players in ``expected`` order, the one correction marked ``state``."""
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        page.goto(f"{server}/tournaments/{tid}/standings")
        armed(page)
        assert shown_order(page) == expected
        assert page.locator(f"#standings-live ul.corrections li.{state}").count() == 1
        fits(page)
        shot(page, f"corrections-standings-{state}-{name}")


def test_a_director_corrects_a_result_then_withdraws_it_and_the_standings_follow_at_both_sizes(live, browser):
    server, app = live
    tid, game_id, before = played_round(app)
    first, second = before["ranking"][0], before["ranking"][1]
    with app.app_context():
        played = [st.player for st in progress.tournament_standings(tid)]
    page = browser.new_context(viewport=SIZES["landscape"]).new_page()
    page.goto(f"{server}/tournaments/{tid}/unlock")
    armed(page)
    page.fill("input[name=pin]", "135791")
    page.click(f"form[action='/tournaments/{tid}/unlock'] button[type=submit]")
    page.wait_for_url(f"{server}/tournaments/{tid}")

    # 1024x768: the scoring slip had 1st and 2nd swapped; their totals too
    page.goto(f"{server}/tournaments/{tid}/tables/{game_id}/correct")
    armed(page)
    fits(page)
    page.fill("input[name=place-0]", "2")
    page.fill("input[name=place-1]", "1")
    page.fill("input[name=assets-0]", str(second["total"]))
    page.fill("input[name=assets-1]", str(first["total"]))
    page.fill("#reason", "scoring slip: 1st and 2nd were swapped")
    page.get_by_role("button", name="Correct the result", exact=True).click()
    page.get_by_text("result corrected (scoring slip: 1st and 2nd were swapped)").first.wait_for()
    armed(page)
    fits(page)
    with app.app_context():
        corrected = [st.player for st in progress.tournament_standings(tid)]
    assert corrected.index(second["name"]) < corrected.index(first["name"]) and corrected != played
    standings_at_both_sizes(page, server, tid, corrected, "in_force")

    # 768x1024: the correction withdrawn behind its confirmation
    page.set_viewport_size(SIZES["portrait"])
    page.goto(f"{server}/tournaments/{tid}/tables/{game_id}/correct")
    armed(page)
    fits(page)
    page.click("#withdraw-1 summary")
    page.fill("#withdraw-reason-1", "the slip was right after all")
    page.get_by_role("button", name="Confirm: withdraw correction 1", exact=True).click()
    page.get_by_text("correction 1 withdrawn (the slip was right after all)").first.wait_for()
    armed(page)
    fits(page)
    shot(page, "corrections-withdrawn-portrait")
    standings_at_both_sizes(page, server, tid, played, "withdrawn")
    assert "the slip was right after all" in page.inner_text("#standings-live ul.corrections")
