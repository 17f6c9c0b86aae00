"""A table that keeps refereeing when the network fails (chromium, the tablet's context set offline): the tablet's own
Python (the offline kit in Pyodide) draws the table screen and takes the entry forms' taps, each checked by the
same rules, refused with its clause or recorded and kept in IndexedDB, the banner counting the entries kept; the
page reloaded while offline still has them; once the network is back (the table's unlock gone with the browser's
session: its PIN screen says how many entries wait) they are sent in order and recorded once each, the hash chain
continued, and the server's screen comes back saying how many it recorded."""
import json
import os
import time
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser_support import TEST_ARM_MS, armed, golden_table, shot
from referee.engine import parse_entry
from referee.services import clocks, folds, games, rulings
from referee.store.db import db
from referee.store.models import GameRow

PIN = "135790"
START = 10  # the table as the server has it when the network fails: the golden record's first entries
OFFLINE = 30  # the entries recorded on the tablet alone


def entry_of(line: str) -> dict:
    return {k: v for k, v in json.loads(line).items() if k != "seq"}


# The screen's own entry form (its token, the number of entries it shows, its key) carrying the entry: tapped as the
# referee taps a button (a click, which the screen arms), its answer drawn in place of the region.
TAP_ENTRY = """([entry]) => {
  const live = document.getElementById("tablelive");
  const model = live.querySelector('form[action$="/record"]');
  const form = document.createElement("form");
  form.method = "post";
  form.action = model.action;
  for (const name of ["csrf_token", "seq", "entry_key"]) {
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = name;
    field.value = model.querySelector(`input[name=${name}]`).value;
    form.append(field);
  }
  const field = document.createElement("input");
  field.type = "hidden";
  field.name = "entry";
  field.value = JSON.stringify(entry);
  const button = document.createElement("button");
  button.type = "submit";
  button.id = "tap-under-test";
  button.textContent = "tap";
  form.append(field, button);
  live.querySelector(".main-col").prepend(form);
}"""


def tap_entry(page, entry: dict) -> None:
    """``entry`` tapped on the screen: a roll on the dice pad's own button, any other through the screen's form.  A
    live poll's answer may redraw the screen between the form put in and the tap (the screen arming again, then the
    form gone with the old region): the tap never landed, and is made again on the screen as redrawn."""
    dice = entry.get("dice")
    button = f"#tablelive .dicepad button[value='{dice[0]},{dice[1]}']" if entry["type"] == "roll" and dice else None
    for attempt in range(3):
        page.evaluate("() => { window.beforeTap = document.getElementById('tablelive'); }")  # the screen tapped on
        armed(page)
        if button and page.locator(button).count() == 1:
            page.click(button)
            break
        page.evaluate(TAP_ENTRY, [entry])
        try:
            page.click("#tap-under-test", timeout=10000)
            break
        except PlaywrightTimeout:
            if attempt == 2 or page.locator("#tap-under-test").count():  # still there: the tap itself failed
                raise
    # its answer drawn: the live region replaced (by the tablet, by the server's answer, or by a new page)
    page.wait_for_function("() => document.getElementById('tablelive') !== window.beforeTap")


def test_thirty_entries_recorded_offline_survive_a_reload_and_are_recorded_once_each_in_order(offline_server,
                                                                                              browser):
    server, app = offline_server
    page, game_id, lines = golden_table(offline_server, browser, START, PIN)
    context = page.context
    assert page.evaluate("() => window.refereeKept") is True
    context.set_offline(True)
    page.wait_for_selector("body[data-tablet] #kept", timeout=120000)  # Pyodide started from what was kept
    assert "0 entries kept on this tablet" in page.inner_text("#kept")
    assert not page.is_visible("#offline")  # the cut-off banner gives way to the tablet's

    # a tap the rules refuse (a roll while an auction is on): its clause, nothing kept
    tap_entry(page, {"type": "roll", "player": "Aki", "dice": [1, 2]})
    refused = page.inner_text("#tablelive .flash.refused")
    assert "a roll of the dice cannot be recorded now: auction of" in refused
    assert "JMA competition rules" in refused and "基本的な駒の進め方" in refused
    assert page.get_attribute("#tablelive", "data-seq") == str(START)

    armed(page)  # a panel opened offline: drawn by the tablet, and kept open through the taps that follow
    page.click("#board > summary")
    page.wait_for_selector("#board .panel-body .boardwrap")
    for n in range(START + 1, START + OFFLINE + 1):
        tap_entry(page, entry_of(lines[n]))
        assert page.get_attribute("#tablelive", "data-seq") == str(n), page.inner_text("#tablelive")[:600]
        assert page.locator("#board[open] .panel-body .boardwrap").count() == 1
        assert page.locator("#tablelive .flash.done").count() == 1  # the entry in the log's words
    assert f"{OFFLINE} entries kept on this tablet" in page.inner_text("#kept")
    with app.app_context():
        assert folds.load(game_id).seq == START  # nothing reached the server
    with page.expect_download() as saving:  # the record as the tablet has it, as a file the server's import replays
        armed(page)
        page.click("#kept-export")
    saved = Path(saving.value.path()).read_text(encoding="utf-8")
    with app.app_context():
        imported = folds.load(games.import_record(saved, PIN))
        assert imported.seq == START + OFFLINE and [e.to_dict() for e in imported.game.entries] == [
            parse(line) for line in lines[1:START + OFFLINE + 1]]

    # closed and opened again offline: the screen (kept by the service worker) and the entries (IndexedDB) are back
    page.reload()
    page.wait_for_selector("body[data-tablet] #kept", timeout=120000)
    assert page.get_attribute("#tablelive", "data-seq") == str(START + OFFLINE)
    assert f"{OFFLINE} entries kept on this tablet" in page.inner_text("#kept")

    # the browser closed meanwhile (its session, and with it the table's unlock, gone): back on the network, the
    # table's PIN screen says how many entries wait on this tablet; unlocked, they are sent
    context.clear_cookies()
    context.set_offline(False)
    page.wait_for_selector("#kept-waiting:not([hidden])", timeout=30000)
    assert page.inner_text("#kept-waiting strong") == str(OFFLINE)
    assert "not yet recorded there" in page.inner_text("#kept-waiting")
    shot(page, "offline-pin-screen-entries-waiting")
    armed(page)
    page.fill("input[name=pin]", PIN)
    page.click(f"form[action='/games/{game_id}/unlock'] button[type=submit]")
    page.wait_for_selector("body:not([data-tablet]) #tablelive .flash.done", timeout=30000)
    assert f"{OFFLINE} entries recorded" in page.inner_text("#tablelive .flash.done")
    assert page.get_attribute("#tablelive", "data-seq") == str(START + OFFLINE)
    with app.app_context():
        loaded = folds.load(game_id)
        assert loaded.seq == START + OFFLINE and loaded.altered is None
        assert [e.to_dict() for e in loaded.game.entries] == [
            parsed.to_dict() for parsed in folds.load(games.import_record(
                "\n".join(lines[:START + OFFLINE + 1]) + "\n", PIN)).game.entries]
        total, broken = folds.verify_all()
        assert broken == []
    assert page.evaluate("() => window.refereeKeptEntries()") is None  # nothing left on the tablet
    context.close()


def kept_offline_while_another_device_records(offline_server, browser, pin: str):
    """A tablet cut off at entry START records three entries (the golden record's next ones) while another device
    records one at the same table (the golden record's next entry, by the server's service); the network comes
    back: the page, the game, the record's lines, the other device's entry."""
    server, app = offline_server
    page, game_id, lines = golden_table(offline_server, browser, START, pin)
    assert page.evaluate("() => window.refereeKept") is True
    page.context.set_offline(True)
    page.wait_for_selector("body[data-tablet] #kept", timeout=120000)
    for n in range(START + 1, START + 4):
        tap_entry(page, entry_of(lines[n]))
    other = entry_of(lines[START + 1])
    with app.app_context():
        games.record(game_id, other, START)
    page.context.set_offline(False)
    page.wait_for_selector("#sync-conflict", timeout=30000)
    return page, game_id, lines, other


def chosen(page, choice: str) -> str:
    """The referee's ``choice`` on the conflict, behind its confirmation; what the server's screen then says."""
    armed(page)
    page.click(f"#keep-{choice} summary")
    armed(page)
    page.click(f"#keep-{choice} [data-choice={choice}]")
    page.wait_for_selector("body:not([data-tablet]) #tablelive .flash.done", timeout=30000)
    return page.inner_text("#tablelive .flash.done")


def test_a_second_device_recording_meanwhile_gives_the_conflict_and_the_tablets_record_can_go_on(offline_server,
                                                                                                browser):
    server, app = offline_server
    page, game_id, lines, other = kept_offline_while_another_device_records(offline_server, browser, "246813")
    conflict = page.inner_text("#sync-conflict")
    assert "On the server: 1 entry after entry 10" in conflict and "On this tablet: 3 entries after entry 10" in conflict
    assert page.locator("#sync-conflict ol").nth(1).locator("li").count() == 3
    assert "This tablet's record goes on" in chosen(page, "tablet")
    with app.app_context():
        loaded = folds.load(game_id)
        assert loaded.seq == START + 5 and loaded.altered is None and folds.verify_all()[1] == []
        assert loaded.game.entries[START].to_dict() == parse_entry(other).to_dict()  # the other device's, kept
        effective = [e.to_dict() for e in loaded.game.effective_entries()][START:]
        assert effective == [parse(lines[n]) for n in range(START + 1, START + 4)]
        assert loaded.game.entries[START + 1].type == "void"
    assert page.evaluate("() => window.refereeKeptEntries()") is None
    page.context.close()


def test_the_referee_may_keep_the_servers_record_instead_and_the_tablets_entries_are_said_in_a_ruling(
        offline_server, browser):
    server, app = offline_server
    page, game_id, lines, other = kept_offline_while_another_device_records(offline_server, browser, "246824")
    assert "this tablet's 3 entries were discarded" in chosen(page, "server")
    with app.app_context():
        assert folds.load(game_id).seq == START + 1
        (ruling,) = rulings.read(game_id).items
    assert ruling.entry == START + 1 and ruling.claim.startswith("While the server could not be reached, this "
                                                                 "tablet recorded 3 entries after entry 10")
    assert page.evaluate("() => window.refereeKeptEntries()") is None
    page.context.close()


def parse(line: str) -> dict:
    return parse_entry(entry_of(line)).to_dict()


def test_the_server_killed_mid_sync_and_started_again_loses_and_doubles_nothing(tmp_path, browser):
    """The server (``referee serve``, a process of its own) is killed with SIGKILL twice while the tablet sends its
    30 kept entries: once as the run is sent (it never reaches the app), once after the app recorded the run and
    before its answer came back (the answer lost with the process).  Started again on the same database each time,
    the server has each entry once, in order, and ``referee verify`` finds the record whole."""
    import signal
    import subprocess
    import sys

    from referee import create_app
    from server_support import free_port, Server

    db = tmp_path / "served.sqlite"
    instance = tmp_path / "instance"  # the server's own (its records, its backups), its screens armed as the tests'
    instance.mkdir()
    (instance / "config.py").write_text(f"ARM_MS = {TEST_ARM_MS}\n")
    env = {"DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": "killed-mid-sync", "REFEREE_INSTANCE": str(instance)}
    port = free_port()

    def serve() -> Server:
        started = Server("referee serve", [sys.executable, "-m", "referee.cli", "serve", "--host", "127.0.0.1", "--port",
                                      str(port)], port, tmp_path / "serve.log", env)
        started.wait_for_port()
        return started

    served = serve()
    app = create_app({"SECRET_KEY": "killed-mid-sync", "SQLALCHEMY_DATABASE_URI": env["DATABASE_URL"]})
    try:
        page, game_id, lines = golden_table((served.base, app), browser, START, "864202")
        assert page.evaluate("() => window.refereeKept") is True
        page.context.set_offline(True)
        page.wait_for_selector("body[data-tablet] #kept", timeout=120000)
        for n in range(START + 1, START + OFFLINE + 1):
            tap_entry(page, entry_of(lines[n]))
        assert f"{OFFLINE} entries kept on this tablet" in page.inner_text("#kept")

        kills = []

        def killed_as_sent(route):  # the first run: the server dies as the run is sent, before it reaches the app
            kills.append("sent")
            os.killpg(served.proc.pid, signal.SIGKILL)
            served.proc.wait(timeout=30)
            route.continue_()

        page.route("**/sync", killed_as_sent)
        page.context.set_offline(False)
        until(page, lambda: len(kills) == 1)
        page.unroute("**/sync")
        assert kills == ["sent"] and f"{OFFLINE} entries kept" in page.inner_text("#kept")
        with app.app_context():
            assert folds.load(game_id).seq == START

        def killed_after_recording(route):  # the next: the app records the run, and dies before it answers
            answer = route.fetch()
            kills.append(answer.status)
            os.killpg(served.proc.pid, signal.SIGKILL)
            served.proc.wait(timeout=30)
            route.abort()

        page.route("**/sync", killed_after_recording)  # (before the server is back: its first sync is this one)
        served = serve()
        until(page, lambda: len(kills) == 2)
        page.unroute("**/sync")
        assert kills == ["sent", 200]
        with app.app_context():
            assert folds.load(game_id).seq == START + OFFLINE  # recorded, its answer lost
        assert f"{OFFLINE} entries kept" in page.inner_text("#kept")  # the tablet does not know: kept still

        served = serve()  # the run sent a third time: each entry the server has is known by its key
        page.wait_for_selector("body:not([data-tablet]) #tablelive .flash.done", timeout=60000)
        said = page.inner_text("#tablelive .flash.done")
        assert f"{OFFLINE} entries recorded ({OFFLINE} of them when they were sent before" in said
        with app.app_context():
            loaded = folds.load(game_id)
            assert loaded.seq == START + OFFLINE and loaded.altered is None
            assert [e.to_dict() for e in loaded.game.entries[START:]] == [
                parse(lines[n]) for n in range(START + 1, START + OFFLINE + 1)]
        verified = subprocess.run([sys.executable, "-m", "referee.cli", "verify"], capture_output=True, text=True,
                                  env={**os.environ, **env}, timeout=300)
        assert verified.returncode == 0 and "0 altered" in verified.stdout, verified.stdout + verified.stderr
        assert page.evaluate("() => window.refereeKeptEntries()") is None
        page.context.close()
    finally:
        served.stop()


def until(page, done, seconds: float = 120) -> None:
    """Wait, letting the page's routes be answered, until ``done()``."""
    import time

    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "waited in vain"
        page.wait_for_timeout(100)


KEPT_RECORD = """async ([path, lines]) => {  // the service worker's copy of the record has ``lines`` lines
  const kept = await caches.match(path);
  return Boolean(kept) && (await kept.text()).trim().split("\\n").length === lines;
}"""


def test_a_screen_reopened_offline_is_at_the_last_entry_the_server_showed_and_its_clock_runs_on(offline_server,
                                                                                               browser):
    """The tablet's kept copies follow the server's screen: two taps recorded by the server, then the network gone
    and the screen reopened (the page the kept copy of the one loaded before the taps): the table is at the last
    entry the server showed, not one behind, and its game clock has run on from what the server's last screen
    said, not from the older page's reading.  Its top bar's links, to pages not kept, are greyed and not
    followed."""
    server, app = offline_server
    page, game_id, lines = golden_table(offline_server, browser, START, PIN)
    with app.app_context():
        db.session.get(GameRow, game_id).time_limit_minutes = 60
        db.session.commit()
        clocks.set_clock(game_id, True)
        db.session.commit()
    started = time.time()
    # loaded again at once, while its service worker may still be starting (a page loaded then can be left out of
    # the worker's first claim: it asks to be taken), the page the worker keeps: the table at START, its clock on
    page.reload()
    assert page.evaluate("() => window.refereeKept") is True
    page.wait_for_function("() => window.refereeStandby()", timeout=120000)
    for n in (START + 1, START + 2):  # recorded by the server, the standby following
        tap_entry(page, entry_of(lines[n]))
        page.wait_for_selector(f"body:not([data-tablet]) #tablelive[data-seq='{n}']")
    record = f"{server}/games/{game_id}/record.jsonl"
    deadline = time.monotonic() + 30
    while not page.evaluate(KEPT_RECORD, [record, START + 3]):  # the header and every entry shown
        assert time.monotonic() < deadline, "the kept record stayed behind the screen"
        page.wait_for_timeout(200)
    page.wait_for_timeout(3000)  # the clock runs on
    page.context.set_offline(True)
    again = page.reload()
    assert again.from_service_worker
    page.wait_for_selector("body[data-tablet] #kept", timeout=120000)
    assert page.get_attribute("#tablelive", "data-seq") == str(START + 2)
    run = 60 * 60 - int(page.get_attribute("#clock .clock", "data-left"))
    assert page.get_attribute("#clock .clock", "data-running") == "1" and abs(run - (time.time() - started)) < 3, run
    # the top bar's links lead to pages the tablet does not keep: greyed and not followed (no browser error page)
    home = page.locator("header.bar a.brand")
    assert home.evaluate("(a) => getComputedStyle(a).opacity") == "0.35"
    home.click()
    page.wait_for_timeout(300)
    assert page.url == f"{server}/games/{game_id}" and page.locator("body[data-tablet] #kept").count() == 1
    page.context.set_offline(False)
    page.context.close()
