"""A slow and lossy venue network (chromium through a proxy that holds every chunk of an answer 0.1 to 0.9 s and
cuts one answer in five as it begins, its request having reached the app): the table's tablet keeps the table
folded beside the server's screen (the standby, its own Python), so that a tap the server does not answer at once
is taken by the tablet, shown, kept and sent behind the screen; the referee goes on tapping, and the server has
each entry once, in order, the hash chain whole."""
from browser_support import golden_table
from referee.services import folds
from server_support import LossyProxy
from test_browser_offline_table import entry_of, parse, tap_entry

PIN = "531975"
START = 10
TAPS = 12


def test_on_a_slow_and_lossy_network_each_tap_is_taken_at_once_and_recorded_once_in_order(offline_server,
                                                                                            browser):
    server, app = offline_server
    with LossyProxy(int(server.rsplit(":", 1)[1])) as proxy:
        page, game_id, lines = golden_table((proxy.base, app), browser, START, PIN)
        assert page.evaluate("() => window.refereeKept") is True
        page.wait_for_function("() => window.refereeStandby()", timeout=120000)
        proxy.lossy = True
        taken = 0  # the taps the tablet took because the server's answer was slow, or lost
        for n in range(START + 1, START + TAPS + 1):
            tap_entry(page, entry_of(lines[n]))
            page.wait_for_selector(f"#tablelive[data-seq='{n}']", timeout=30000)
            if page.locator("body[data-tablet]").count():
                taken += 1
                slow = page.inner_text("#kept")  # the server slow, or the network cut: the banner says which
                assert "The server is slow to answer" in slow or "Offline:" in slow
        assert taken > 0 and proxy.cut > 0
        proxy.lossy = False
        page.wait_for_selector(f"body:not([data-tablet]) #tablelive[data-seq='{START + TAPS}']", timeout=60000)
        with app.app_context():
            loaded = folds.load(game_id)
            assert loaded.seq == START + TAPS and loaded.altered is None and folds.verify_all()[1] == []
            assert [e.to_dict() for e in loaded.game.entries[START:]] == [
                parse(lines[n]) for n in range(START + 1, START + TAPS + 1)]
        assert page.evaluate("() => window.refereeKeptEntries()") is None
        page.context.close()


def test_a_double_tap_answered_behind_the_screen_records_one_entry(venue_offline_server, browser):
    """With the standby ready, a tap is sent behind the screen and the server's answer swapped in (no page load):
    a second touch 80 or 300 ms after the first finds the tap on its way, or the new screen not armed yet (the
    venue's 600 ms), and records nothing more."""
    from browser_support import start_game
    from test_browser_taps import double_tap, entries, tablet

    server = venue_offline_server.url
    for delay in (80, 300):
        context, page = tablet(browser, "touch")
        game_id = start_game(page, server)
        page.wait_for_function("() => window.refereeStandby && window.refereeStandby()", timeout=120000)
        dice = page.locator(".decision .dicepad").get_by_role("button", name="4·6", exact=True)
        box = dice.bounding_box()
        double_tap(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, delay, "touch")
        page.wait_for_selector("#tablelive[data-seq='1']")
        assert [e["type"] for e in entries(page, server, game_id)] == ["roll"], delay
        assert page.locator(".flash.refused").count() == 0
        assert page.evaluate("() => window.refereeStandby()")  # followed the tap: ready for the next one
        context.close()
