"""The browser tests' app server and chromium: one of each per test process (each parallel worker), shared by every
tests/test_browser*.py module (registered in tests/conftest.py).

The app is served on a free port of 127.0.0.1 from a thread, on a SQLite file of its own.  The tests share its
database: each creates or imports the games and tournaments it plays, and none counts on an empty one.  Each test
gets a clean browser all the same: the contexts and pages it opened (its cookies, its unlocks, its live polls)
are closed after it."""
import os
import shutil
import threading
from pathlib import Path
from typing import Iterator, NamedTuple

import pytest
from werkzeug.serving import make_server

from referee import create_app

# Debian's chromium as its headless shell (the package chromium-headless-shell: the same Blink and V8 without the
# browser's own windows and pages, as Playwright runs chromium headless by default): a new browser context costs
# about half the CPU the whole browser's does, a page load a third less.
CHROMIUM = shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell"
ARTIFACTS = Path(__file__).parent / "artifacts"


class LiveServer(NamedTuple):
    url: str
    app: object  # the Flask app it serves (to record on a table as another tablet would)


# The controls of a screen wait ARM_MS once it is shown before a tap counts (referee.js), and the tests wait for that
# before each tap (test_browser.armed): the shared server arms them in TEST_ARM_MS, not the venue's 600 ms, as the
# screens' behaviour is the same at either.  The tests of the arming itself (tests/test_browser_taps.py: double taps
# 80 to 300 ms apart) use a server at the venue's setting (``venue_server``).
TEST_ARM_MS = 50


def _serve(folder: Path, **config) -> "Iterator[LiveServer]":
    db = folder / "live.sqlite"
    app = create_app({"SECRET_KEY": "browser", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db}", **config})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield LiveServer(f"http://127.0.0.1:{srv.server_port}", app)
    srv.shutdown()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app served on a real port for the whole run of this process, its screens armed in TEST_ARM_MS.  Its table
    screens keep nothing for offline use: each of the tests' new browser contexts would fetch Pyodide again (6.7 MB)
    in the background; the tests of that keeping have a server of their own (``offline_server``)."""
    yield from _serve(tmp_path_factory.mktemp("browser"), ARM_MS=TEST_ARM_MS, TABLETS_KEEP_OFFLINE=False)


@pytest.fixture(scope="session")
def offline_server(tmp_path_factory) -> "Iterator[LiveServer]":
    """The app served as at a venue for keeping what a table's tablet needs offline (its table screens register
    the service worker and fetch Pyodide and the kit through it), armed in TEST_ARM_MS."""
    yield from _serve(tmp_path_factory.mktemp("offline"), ARM_MS=TEST_ARM_MS)


@pytest.fixture(scope="session")
def venue_server(tmp_path_factory) -> "Iterator[str]":
    """The app served as at a venue (its screens armed in the 600 ms it ships with), for the tests of the arming;
    its address.  Its table screens keep nothing for offline use (as ``live_server``'s): a tap is a form sent and
    a page loaded, as on a tablet that keeps nothing; ``venue_offline_server`` arms the tablet's own taps."""
    for live in _serve(tmp_path_factory.mktemp("venue"), TABLETS_KEEP_OFFLINE=False):
        yield live.url


@pytest.fixture(scope="session")
def venue_offline_server(tmp_path_factory) -> "Iterator[LiveServer]":
    """The app served as at a venue, armed in 600 ms and keeping what a table's tablet needs offline: a tap on a
    screen whose standby is ready is sent behind the screen and its answer swapped in (offline.js)."""
    yield from _serve(tmp_path_factory.mktemp("venue-offline"))


@pytest.fixture(scope="session")
def server(live_server) -> str:
    """The live server's address (http://127.0.0.1:PORT)."""
    return live_server.url


@pytest.fixture(scope="session")
def live(live_server) -> tuple[str, object]:
    """The live server's address and its app."""
    return live_server.url, live_server.app


@pytest.fixture(scope="session")
def chromium():
    """Debian's chromium (its headless shell), launched once for the whole run of this process."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by scripts/setup")
    if not os.path.exists(CHROMIUM):  # scripts/setup installs it; a missing browser is a setup failure, not a skip
        pytest.fail(f"no chromium at {CHROMIUM}: run scripts/setup", pytrace=False)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


@pytest.fixture
def browser(chromium):
    """The shared chromium; whatever the test opened in it is closed after it."""
    before = set(chromium.contexts)
    yield chromium
    for context in chromium.contexts:
        if context not in before:
            context.close()


def write_artifact(name: str, text: str) -> Path:
    """A file for the browser to upload (a record to import), kept under tests/artifacts/, in a folder of this
    process's own when run in parallel: chromium refuses to send a file changed after it was chosen
    (ERR_UPLOAD_FILE_CHANGED), as it would be by a test in another worker writing the same name."""
    folder = ARTIFACTS / os.environ["PYTEST_XDIST_WORKER"] if "PYTEST_XDIST_WORKER" in os.environ else ARTIFACTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def fits(page) -> None:
    """No sideways scrolling on a tablet: the document no wider than the window, measured once the page and its
    styles have loaded (under load, an element can be there before the stylesheet that lays it out)."""
    page.wait_for_load_state("load")
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{page.url} is {width}px wide in a {inner}px window"


LAYOUT = (Path(__file__).parent / "layout.js").read_text(encoding="utf-8")


def layout_problems(page, within: str | None = None) -> list[str]:
    """What breaks the page's layout as a person holding the device sees it (tests/layout.js): a sideways scroll,
    a line of text over another, a line of text out of its box or the window; each in words, naming the texts.
    ``within``: a selector of the part of the page to look at (its text only; the page's width is not measured)."""
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready.then(() => true)")  # measured in the fonts the page is drawn in
    return [f"{p['kind']}: {p['what']}" for p in page.evaluate(LAYOUT, within)]


SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def turned(page, viewport: dict) -> None:
    """The device's window set to ``viewport`` (a tablet turned, a window resized), once the page has redrawn: one
    page looked at both ways, rather than the same screens reached again in a device of each size."""
    page.set_viewport_size(viewport)
    page.evaluate(SETTLED)


def laid_out(page, where: str = "", within: str | None = None) -> None:
    """Nothing overlaps, nothing scrolls sideways, no text runs out of its box (:func:`layout_problems`)."""
    problems = layout_problems(page, within)
    assert not problems, f"{where or page.url}: " + "; ".join(problems[:12]) + (
        f" (and {len(problems) - 12} more)" if len(problems) > 12 else "")


# --- what the browser tests do on the app's screens, as a person at the table would -----------------------------------

TABLET = {"width": 1024, "height": 768}


def shot(target, name: str, full_page: bool = True) -> None:
    """A screenshot for people to look at (``tests/artifacts/NAME.png``): of a page (the whole of it unless
    ``full_page`` is false) or of one element (a locator).  Taken when the run asks for them (``scripts/test
    --shots``, which sets REFEREE_SHOTS=1), not on every run: some 190 a run at 0.1-0.16 CPU-s each, checked by no
    test."""
    if os.environ.get("REFEREE_SHOTS") != "1":
        return
    path = ARTIFACTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    if hasattr(target, "goto"):  # a page
        target.screenshot(path=str(path), full_page=full_page)
    else:
        target.screenshot(path=str(path))


def start_game(page, server, players="Aki\nBen\nChie"):
    page.goto(server + "/")
    armed(page)
    page.fill("textarea[name=players]", players)
    page.check("input[name=seating][value=fixed]")
    page.fill("form[action='/games'] input[name=pin]", "246802")
    page.click("text=Start the game")
    page.wait_for_selector(".decision")
    return int(page.url.rsplit("/", 1)[1])


def import_record(page, server, path) -> int:
    """Continue a game from a record file through the home page's import form; the new table's id."""
    page.goto(server + "/")
    armed(page)  # a tap before the screen is armed is not taken (a busy machine arms it late)
    page.set_input_files("input[name=record]", str(path))
    page.fill("form[enctype] input[name=pin]", "246802")
    page.click("form[enctype] button")
    page.wait_for_selector(".decision")
    return int(page.url.rsplit("/", 1)[1])


def armed(page):
    page.wait_for_selector("body:not(.arming)", timeout=15000)  # a selector, not a script: the CSP allows no eval


def tap(page, text):
    armed(page)
    page.locator("button", has_text=text).first.click()
    page.wait_for_load_state()


def confirm_tap(page, text, yes):
    """A game-changing entry: its button opens a confirmation (armed anew), whose button records it."""
    armed(page)
    page.click(f"summary:has-text('{text}')")
    tap(page, yes)


def dice(page, a, b):
    armed(page)
    page.locator(".dicepad button", has_text=f"{a}·{b}").click()
    page.wait_for_load_state()


GOLDEN = Path(__file__).parent / "golden" / "jma-short-game.jsonl"


def golden_table(server_and_app, browser, entries: int, pin: str):
    """The golden record's first ``entries`` entries imported as a game, its table screen opened on a new tablet (a
    browser context of its own) given the table's ``pin``: the page, the game and the golden record's lines."""
    from referee.services import games

    server, app = server_and_app
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    with app.app_context():
        game_id = games.import_record("\n".join(lines[:entries + 1]) + "\n", pin)
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    page.goto(f"{server}/games/{game_id}/unlock")
    armed(page)
    page.fill("input[name=pin]", pin)
    page.click(f"form[action='/games/{game_id}/unlock'] button[type=submit]")
    page.wait_for_url(f"{server}/games/{game_id}")
    return page, game_id, lines
