"""The tablet screens in a real browser: Debian's chromium driven by Playwright, tablet viewport."""
import os
import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from referee import create_app

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by scripts/setup")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
TABLET = {"width": 1024, "height": 768}

if not os.path.exists(CHROMIUM):  # scripts/setup installs it; a missing browser is a setup failure, not a skip
    pytest.fail(f"no chromium at {CHROMIUM}: run scripts/setup", pytrace=False)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("browser") / "b.sqlite"
    app = create_app({"SECRET_KEY": "browser", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db}"})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def start_game(page, server, players="Aki\nBen\nChie"):
    page.goto(server + "/")
    page.fill("textarea[name=players]", players)
    page.check("input[name=seating][value=fixed]")
    page.fill("form[action='/games'] input[name=pin]", "2468")
    page.click("text=Start the game")
    page.wait_for_selector(".decision")
    return int(page.url.rsplit("/", 1)[1])


def tap(page, text):
    page.locator("button", has_text=text).first.click()
    page.wait_for_load_state()


def dice(page, a, b):
    page.locator(".dicepad button", has_text=f"{a}·{b}").click()
    page.wait_for_load_state()


def test_roll_purchase_and_an_auction_with_a_tie_on_a_tablet(server, browser):
    page = browser.new_page(viewport=TABLET)
    start_game(page, server)
    shot(page, "table-start")
    dice(page, 1, 2)  # Baltic Avenue
    assert "waiting for Aki to buy or decline Baltic Avenue" in page.inner_text(".decision")
    tap(page, "Buy Baltic Avenue for $60")
    assert "$1,440" in page.inner_text(".players")
    dice(page, 1, 5)  # Ben: Oriental Avenue
    tap(page, "Decline: auction it")
    shot(page, "auction")
    page.check("input[name=players][value=Chie]")
    page.check("input[name=players][value=Aki]")
    page.fill("form:has(input[name=players]) input[name=amount]", "70")
    tap(page, "Equal calls at once")
    # Ben's turn: Chie moves next, so Chie's equal call wins
    assert "Highest bid: $70 by Chie" in page.inner_text(".decision")
    tap(page, "Hammer: sold")
    assert "Chie takes Oriental Avenue" in page.inner_text(".flash")
    shot(page, "after-auction")
    page.close()


def test_a_refused_bid_shows_its_clause(server, browser):
    page = browser.new_page(viewport=TABLET)
    start_game(page, server)
    dice(page, 1, 2)
    tap(page, "Decline: auction it")
    bid = page.locator("form:has(button:text-is('Bid'))").first
    bid.locator("input[name=amount]").fill("15")
    bid.locator("button").click()
    page.wait_for_load_state()
    text = page.inner_text(".flash.refused")
    assert "bid of $15" in text and "競売価格は$10以上$10単位で行います" in text
    shot(page, "refusal")
    page.close()


def test_a_stale_tablet_is_refused_and_the_roll_is_recorded_once(server, browser):
    first = browser.new_context(viewport=TABLET)
    a = first.new_page()
    game_id = start_game(a, server)
    second = browser.new_context(viewport={"width": 768, "height": 1024})
    b = second.new_page()
    b.goto(f"{server}/games/{game_id}")
    b.fill("input[name=pin]", "2468")
    b.click("text=Unlock")
    b.wait_for_selector(".dicepad")
    dice(a, 4, 6)
    dice(b, 4, 6)  # the same roll from a second tablet that had not seen the first
    assert "nothing was recorded" in b.inner_text(".flash.refused")
    shot(b, "stale-refused-portrait")
    record = a.request.get(f"{server}/games/{game_id}/record.jsonl").text().splitlines()
    assert len(record) == 2
    first.close()
    second.close()
