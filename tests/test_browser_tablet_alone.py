"""A game refereed on a tablet alone, with no server at all (chromium): the page of the games on the tablet opened
once on the network, then the network gone for good; a game made from the new-game form, refereed tap by tap by
the tablet's own Python (the golden JMA game: its refusals with their clauses; its game clock started on the
tablet), the page reloaded with no network and the game still there, its clock run on; its record saved as a file, which ends on the hash its entries chain to; and, the
network back, the game sent to the server, which checks every entry and that chain and makes it a game of its
own, its stored chain whole."""
import json
import time
from pathlib import Path

from browser_support import armed
from referee.engine import chain
from referee.services import folds, record_file
from test_browser_offline_table import entry_of, parse, tap_entry

PIN = "975310"
PLAYED = 30  # the golden record's entries tapped on the tablet


def ready(page) -> None:
    """The page's Python started and the games kept here listed (the start button live)."""
    page.wait_for_selector("#alone-new button[type=submit]:not([disabled])", timeout=120000)
    page.wait_for_selector("#alone-games[data-drawn]")


def test_a_game_refereed_on_a_tablet_alone_is_kept_through_a_reload_offline_and_sent_to_the_server_whole(
        offline_server, browser):
    server, app = offline_server
    lines = (Path(__file__).parent / "golden" / "jma-short-game.jsonl").read_text(encoding="utf-8").splitlines()
    context = browser.new_context(viewport={"width": 768, "height": 1024}, accept_downloads=True)
    page = context.new_page()
    asked: list[str] = []  # every address the page asks for
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{server}/offline/table")
    page.wait_for_selector("#alone-status.done", timeout=120000)  # Pyodide, the kit and this page kept
    assert "ready" in page.inner_text("#alone-status")
    context.set_offline(True)  # gone for good: the page, the rules and the games come from the tablet
    page.reload()
    ready(page)
    assert "No game is kept on this tablet yet" in page.inner_text("#alone-games")

    armed(page)
    page.fill("#alone-new input[name=title]", "Family game")
    page.fill("#alone-new textarea[name=players]", "Aki\nAki")
    page.click("#alone-new button[type=submit]")  # refused as the server refuses it, nothing kept
    page.wait_for_selector("#alone-new-message .flash.refused")
    assert "Aki" in page.inner_text("#alone-new-message")
    page.fill("#alone-new textarea[name=players]", "Aki\nBen\nChie")
    page.fill("#alone-new input[name=time_limit]", "30")
    armed(page)
    page.click("#alone-new button[type=submit]")
    page.wait_for_selector("body[data-tablet] #tablelive[data-kept] #kept")
    assert "refereed on this tablet alone" in page.inner_text("#kept")
    assert page.locator("#tablelive #judge").count() == 0
    assert page.get_attribute("#clock .clock", "data-running") == "0"
    armed(page)
    page.click("#clock button[value=start]")  # the game clock started on the tablet, no server asked
    page.wait_for_selector("#clock .clock[data-running='1']")
    started = time.time()

    tap_entry(page, {"type": "buy", "player": "Aki"})  # no lot to buy before the seating roll: its clause, not kept
    refused = page.inner_text("#tablelive .flash.refused")
    assert "a purchase cannot be recorded now" in refused and "JMA competition rules 2006" in refused
    assert page.get_attribute("#tablelive", "data-seq") == "0"
    for n in range(1, PLAYED + 1):
        tap_entry(page, entry_of(lines[n]))
        page.wait_for_selector(f"#tablelive[data-seq='{n}']")
    assert f"Its record ({PLAYED} entries) is kept on this tablet only" in page.inner_text("#kept")

    page.reload()  # closed and opened again with no network: the same game, open where it was
    page.wait_for_selector("body[data-tablet] #tablelive[data-kept] #kept", timeout=120000)
    assert page.get_attribute("#tablelive", "data-seq") == str(PLAYED)
    run = 30 * 60 - int(page.get_attribute("#clock .clock", "data-left"))  # its clock ran on through the reload
    assert page.get_attribute("#clock .clock", "data-running") == "1" and abs(run - (time.time() - started)) < 3, run
    armed(page)
    page.click("#alone-close")
    page.wait_for_selector("#alone-games li[data-name]")
    assert f"{PLAYED} entries" in page.inner_text("#alone-games") and "Family game" in page.inner_text("#alone-games")

    with page.expect_download() as saving:
        armed(page)
        page.click("#alone-games [data-alone=file]")
    saved = Path(saving.value.path()).read_text(encoding="utf-8")
    header = json.loads(saved.splitlines()[0])
    assert header["players"] == ["Aki", "Ben", "Chie"] and header["meta"] == {"title": "Family game"}
    with app.app_context():
        checked = record_file.check(saved)  # referee verify FILE: every entry by the rules, and the chain
    assert [e.to_dict() for e in checked.game.entries] == [parse(line) for line in lines[1:PLAYED + 1]]
    assert json.loads(saved.splitlines()[-1])["chain"]["head"] == chain.record_head(
        header, record_file.entry_texts(checked.game))

    context.set_offline(False)  # the network back: the game sent to the server's import
    page.wait_for_timeout(1500)  # (a table screen's region polls every second: this page's asks for nothing)
    assert not [url for url in asked if "/games/0" in url]
    armed(page)
    page.click("#alone-games [data-alone=send]")
    page.wait_for_selector("#alone-send:not([hidden])")
    assert page.inner_text("#alone-send-which") == "Family game"
    page.fill("#alone-send-pin", PIN)
    armed(page)
    page.click("#alone-send button[type=submit]")
    page.wait_for_url(f"{server}/games/*")
    game_id = int(page.url.rsplit("/", 1)[1])
    with app.app_context():
        loaded = folds.load(game_id)
        assert loaded.seq == PLAYED and loaded.altered is None and folds.verify_all()[1] == []
        assert [e.to_dict() for e in loaded.game.entries] == [e.to_dict() for e in checked.game.entries]

    page.goto(f"{server}/offline/table")  # still kept on the tablet until it is deleted there
    ready(page)
    armed(page)
    page.click("#alone-games details.confirm > summary")
    armed(page)
    page.click("#alone-games [data-alone=delete]")
    page.wait_for_selector("#alone-games p.muted")
    assert "No game is kept on this tablet yet" in page.inner_text("#alone-games")
    context.close()
