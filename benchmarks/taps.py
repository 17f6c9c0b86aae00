"""Taps a referee needs, situation by situation, on the table screen of a 1024x768 tablet.

    .venv/bin/python benchmarks/taps.py [--no-screens]

Starts the app on a temporary SQLite database, drives Debian's chromium through Playwright as a referee would,
and counts taps: every click on a control (button, a <summary> opening a panel, a checkbox), plus each field
given a value (an amount typed on the keyboard, a choice made in a <select>) counted as one tap.  Setting a
situation up (creating the game, or importing a record from a set-up position) is not counted.  The UI is measured
as it is: a goal not met is printed as not met.

    situation                   counted from ... to ...                                                goal
    plain turn                  the roll to the next player's dice pad (average over 6 turns)           1.0
    buy                         the roll to the next player's dice pad                                 2
    auction, one raise          the roll (declined with the opening bid, hammer) to the next player's dice pad      3
    debt paid by one mortgage   the roll (rent beyond cash) to the next player's dice pad               3
    debt paid by selling houses the roll (rent beyond cash) to the next player's dice pad               2
    deed-for-cash trade         opening the trade panel to the trade recorded (checked first)           6
    building round, 2 declare   opening the buildings panel to the buildings built                      8
    shortage auction            closing two declarations with 1 house in the bank to the next roll      8

On the way, every decision card met is shot at 1024x768 and 768x1024 (and the plain screen in Japanese too) into
tests/artifacts/screens/<situation>-<w>x<h>-<lang>.png; the debt card's sale and an auction with a bid beyond its
bidder's reach are shot in Japanese too.
"""
from __future__ import annotations

import argparse
import json
import logging
import re
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee import create_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENS = ROOT / "tests" / "artifacts" / "screens"
LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
PIN = "246802"
PLAYERS = ["Aki", "Ben", "Chie"]


@dataclass
class Situation:
    name: str
    counted: str
    goal: float
    taps: list[int] = field(default_factory=list)  # one count per time the situation was played
    steps: list[str] = field(default_factory=list)  # what was tapped, the first time

    @property
    def value(self) -> float:
        return sum(self.taps) / len(self.taps) if self.taps else float("nan")


class Referee:
    """A referee's hands on one tablet: taps counted into the situation being played."""

    def __init__(self, page, server: str, screens: bool):
        self.page = page
        self.server = server
        self.screens = screens
        self.situation: Situation | None = None
        self.count = 0
        self.shots: list[Path] = []

    # --- setting up (not counted) -----------------------------------------------------------------------
    def new_game(self) -> int:
        page = self.page
        page.goto(self.server + "/")
        page.fill("textarea[name=players]", "\n".join(PLAYERS))
        page.check("input[name=seating][value=fixed]")
        page.fill("form[action='/games'] input[name=pin]", PIN)
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_selector(".decision")
        return int(page.url.rsplit("/", 1)[1])

    def import_game(self, position: dict, entries: list[dict], tmp: Path) -> int:
        """A game continued from a set-up position (and a few entries), through the home page's import form."""
        header = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": PLAYERS,
                  "seating": "fixed", "position": position}
        path = tmp / f"position-{time.monotonic_ns()}.jsonl"
        path.write_text("\n".join(json.dumps(x) for x in [header, *entries]) + "\n", encoding="utf-8")
        page = self.page
        page.goto(self.server + "/")
        page.set_input_files("input[name=record]", str(path))
        page.fill("form[enctype] input[name=pin]", PIN)
        page.locator("form[enctype]").get_by_role("button", name="Import").click()
        page.wait_for_selector(".decision")
        return int(page.url.rsplit("/", 1)[1])

    # --- counting ---------------------------------------------------------------------------------------
    def begin(self, situation: Situation) -> None:
        self.situation, self.count = situation, 0

    def end(self) -> int:
        self.situation.taps.append(self.count)
        return self.count

    def _counted(self, what: str) -> None:
        self.count += 1
        if len(self.situation.taps) == 0:
            self.situation.steps.append(what)

    def armed(self) -> None:
        self.page.wait_for_selector("body:not(.arming)", timeout=5000)  # a selector: the app's CSP allows no eval

    def tap(self, locator, what: str, navigates: bool = True) -> None:
        """A tap on a control; ``navigates``: it sends a form and a new screen comes (waited for)."""
        self.armed()
        if navigates:
            with self.page.expect_navigation():
                locator.click()
            self.page.wait_for_selector(".decision")
            refused = self.page.locator(".flash.refused")
            if refused.count():
                raise RuntimeError(f"{what}: refused: {refused.first.inner_text()}")
        else:
            locator.click()
        self._counted(what)

    def tick(self, locator, what: str) -> None:
        self.armed()
        locator.check()
        self._counted(what)

    def type_amount(self, locator, amount: int, what: str) -> None:
        locator.fill(str(amount))  # one field given on the keyboard: one tap
        self._counted(what)

    def choose(self, locator, value: str, what: str) -> None:
        locator.select_option(value)  # one field chosen: one tap
        self._counted(what)

    # --- what is on the screen --------------------------------------------------------------------------
    def decision(self):
        return self.page.locator(".decision").first

    def button(self, name, scope=None):
        scope = scope if scope is not None else self.decision()
        return scope.get_by_role("button", name=name).first

    def bidder_row(self, player: str):
        return self.decision().locator(".row", has=self.page.locator("strong", has_text=player)).filter(
            has=self.page.get_by_role("button", name=re.compile(r"^\$"))).first

    def dice(self, a: int, b: int, what: str | None = None) -> None:
        self.tap(self.decision().get_by_role("button", name=f"{a}·{b}", exact=True), what or f"dice {a}·{b}")

    def waiting(self) -> str:
        return self.decision().locator("h2").first.inner_text()

    # --- screenshots --------------------------------------------------------------------------------------
    def shoot(self, name: str, focus=None, lang: str = "en") -> None:
        """The screen as the referee sees it (the viewport, not the whole page), at 1024x768 and 768x1024, with
        ``focus`` (default: the decision card) scrolled into view."""
        if not self.screens:
            return
        SCREENS.mkdir(parents=True, exist_ok=True)
        page = self.page
        for size in (LANDSCAPE, PORTRAIT):
            page.set_viewport_size(size)
            page.wait_for_timeout(150)
            page.evaluate("window.scrollTo(0, 0)")
            target = focus if focus is not None else self.decision()
            box = target.bounding_box()
            if box and box["y"] + min(box["height"], size["height"]) > size["height"]:
                target.scroll_into_view_if_needed()
            path = SCREENS / f"{name}-{size['width']}x{size['height']}-{lang}.png"
            page.screenshot(path=str(path))
            self.shots.append(path)
        page.set_viewport_size(LANDSCAPE)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(100)

    def language(self, code: str) -> None:
        label = {"en": "English", "ja": "日本語"}[code]
        menu = self.page.locator("header details.langs")
        if menu.count() and not menu.evaluate("d => d.open"):  # the languages sit in a menu that opens first
            menu.locator("summary").click()
        with self.page.expect_navigation():
            self.page.locator("header").get_by_role("link", name=label).click()
        self.page.wait_for_selector(".decision")


# --- the situations --------------------------------------------------------------------------------------

SITUATIONS = {
    "plain": Situation("plain turn", "roll -> next dice pad; average of 6 turns", 1.0),
    "buy": Situation("buy", "roll -> next dice pad", 2),
    "auction": Situation("auction, one raise", "roll -> next dice pad", 3),
    "debt": Situation("debt paid by one mortgage", "roll -> next dice pad", 3),
    "debt-sale": Situation("debt paid by selling 4 houses", "roll -> next dice pad", 2),
    "trade": Situation("deed-for-cash trade", "open Trade -> recorded (checked first)", 6),
    "building": Situation("building round, 2 declare", "open Buildings -> built", 8),
    "shortage": Situation("shortage auction", "close (2 declared, 1 house) -> next roll", 8),
}

# Aki's buildings fill the bank down to what a situation needs (28 or 31 houses on the board).
AKI_28 = {**{sq: {"owner": "Aki", "buildings": 4} for sq in (
    "st-james-place", "tennessee-avenue", "new-york-avenue", "kentucky-avenue", "indiana-avenue", "illinois-avenue")},
    "atlantic-avenue": {"owner": "Aki", "buildings": 2}, "ventnor-avenue": {"owner": "Aki", "buildings": 1},
    "marvin-gardens": {"owner": "Aki", "buildings": 1}}
AKI_31 = dict(AKI_28, **{"atlantic-avenue": {"owner": "Aki", "buildings": 3},
                         "ventnor-avenue": {"owner": "Aki", "buildings": 2},
                         "marvin-gardens": {"owner": "Aki", "buildings": 2}})
DARK_BLUE_AND_BROWN = {"park-place": {"owner": "Ben"}, "boardwalk": {"owner": "Ben"},
                       "mediterranean-avenue": {"owner": "Chie"}, "baltic-avenue": {"owner": "Chie"}}


def plain_turns(r: Referee) -> None:
    """Six turns that land where nothing is decided: Just Visiting, the income tax (paid at once), Free
    Parking."""
    s = SITUATIONS["plain"]
    r.new_game()
    r.shoot("plain")
    r.language("ja")
    r.shoot("plain", lang="ja")
    r.language("en")
    for player, a, b in (("Aki", 4, 6), ("Ben", 1, 3), ("Chie", 4, 6), ("Aki", 4, 6), ("Ben", 2, 4), ("Chie", 6, 4)):
        assert f"waiting for {player} to roll" in r.waiting(), r.waiting()
        r.begin(s)
        r.dice(a, b, "dice")
        r.end()
    assert "waiting for Aki to roll" in r.waiting(), r.waiting()


def buy(r: Referee) -> None:
    s = SITUATIONS["buy"]
    r.new_game()
    r.begin(s)
    r.dice(1, 2, "dice")  # Baltic Avenue
    r.shoot("buy")
    r.tap(r.button(re.compile(r"^Buy .* for \$")), "Buy")
    r.end()
    assert "waiting for Ben to roll" in r.waiting(), r.waiting()


def auction(r: Referee) -> None:
    s = SITUATIONS["auction"]
    r.new_game()
    r.begin(s)
    r.dice(1, 2, "dice")  # Baltic Avenue
    r.shoot("auction-open")  # the buy-or-decline card offers each player's opening bid: decline and bid in one tap
    opening = r.page.locator("form.opening .row", has=r.page.locator("strong.who", has_text="Ben"))
    r.tap(opening.get_by_role("button", name="$10", exact=True), "decline, Ben opens the auction at $10")
    r.shoot("auction-bid")
    r.tap(r.button(re.compile(r"^Hammer")), "Hammer")
    r.end()
    assert "waiting for Ben to roll" in r.waiting(), r.waiting()


def debt(r: Referee, tmp: Path) -> None:
    """Aki has $50 and lands on Connecticut Avenue with two houses ($100 rent to Ben); Illinois Avenue's mortgage
    ($120) covers it."""
    s = SITUATIONS["debt"]
    r.import_game({"players": {"Aki": {"cash": 50}},
                   "deeds": {**{sq: {"owner": "Ben", "buildings": 2} for sq in (
                       "oriental-avenue", "vermont-avenue", "connecticut-avenue")},
                       "illinois-avenue": {"owner": "Aki"}}}, [], tmp)
    r.begin(s)
    r.dice(3, 6, "dice")  # Connecticut Avenue
    r.shoot("debt")
    r.tap(r.button(re.compile("Illinois Avenue")), "mortgage Illinois Avenue (on the debt card)")
    for _ in range(3):  # whatever the card still asks before the debt is paid
        if "waiting for Ben to roll" in r.waiting():
            break
        r.shoot("debt-after-mortgage")
        r.tap(r.button(re.compile(r"^Pay")), "Pay")
    r.end()
    assert "waiting for Ben to roll" in r.waiting(), r.waiting()


def debt_by_sale(r: Referee, tmp: Path) -> None:
    """Aki has $60 and lands on Baltic Avenue's hotel ($450 rent to Ben); the four houses on Dark Blue bring $400:
    the debt card's sale plan is one button."""
    s = SITUATIONS["debt-sale"]
    r.import_game({"players": {"Aki": {"cash": 60}},
                   "deeds": {"park-place": {"owner": "Aki", "buildings": 2}, "boardwalk": {"owner": "Aki", "buildings": 2},
                             "oriental-avenue": {"owner": "Aki"},
                             "mediterranean-avenue": {"owner": "Ben", "buildings": "hotel"},
                             "baltic-avenue": {"owner": "Ben", "buildings": "hotel"}}}, [], tmp)
    r.begin(s)
    r.dice(1, 2, "dice")  # Baltic Avenue
    r.shoot("debt-sale")
    r.language("ja")  # the screen in Japanese, shot, then back: not a tap of the situation
    r.shoot("debt-sale", lang="ja")
    r.language("en")
    r.tap(r.page.locator("#sale-plan button"), "the sale plan (on the debt card): " +
          r.page.locator("#sale-plan button").inner_text())
    r.end()
    assert "waiting for Ben to roll" in r.waiting(), r.waiting()


def auction_beyond_reach(r: Referee, tmp: Path) -> None:
    """Not counted: an auction where Ben ($25, nothing to sell or mortgage) sees his quick bids above $25 marked,
    shot in English and Japanese."""
    if not r.screens:
        return
    r.import_game({"players": {"Ben": {"cash": 25}}}, [
        {"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "decline", "player": "Aki"}], tmp)
    r.shoot("auction-beyond")
    r.language("ja")
    r.shoot("auction-beyond", lang="ja")
    r.language("en")


def trade(r: Referee, tmp: Path) -> None:
    """Between turns, Aki sells Oriental Avenue to Ben for $120."""
    s = SITUATIONS["trade"]
    r.import_game({"deeds": {"oriental-avenue": {"owner": "Aki"}}}, [], tmp)
    page = r.page
    r.begin(s)
    r.tap(page.locator("summary").filter(has_text=re.compile(r"^\s*Trade\s*$")).first, "open Trade", navigates=False)
    r.tap(page.locator("summary").filter(has_text="Aki ⇄ Ben").first, "open Aki ⇄ Ben", navigates=False)
    form = page.locator("form").filter(has=page.get_by_role("button", name=re.compile(r"^Record trade Aki ⇄ Ben")))
    aki = form.locator("fieldset").filter(has_text="Aki gives")
    ben = form.locator("fieldset").filter(has_text="Ben gives")
    r.tick(aki.get_by_label("Oriental Avenue"), "tick Oriental Avenue")
    r.type_amount(ben.get_by_label("cash"), 120, "type Ben's cash")
    r.tap(form.get_by_role("button", name="Check against the rules"), "Check against the rules", navigates=False)
    form.locator(".check-result .flash").wait_for()
    r.shoot("trade-checked", focus=form)
    r.tap(form.get_by_role("button", name=re.compile(r"^Record trade")), "Record trade")
    r.end()
    assert "waiting for Aki to roll" in r.waiting(), r.waiting()


def declare(r: Referee, player: str, group: str, levels: dict[str, str]) -> None:
    """A building declaration from the Buildings panel: the offer of the panel that leaves each lot of the group
    at the level wanted (one button), else lot by lot (a choice per lot, then Declare)."""
    page = r.page
    panel = page.locator("details").filter(
        has=page.locator("summary", has_text=re.compile(r"^\s*Buildings\s*$"))).first
    if not panel.evaluate("d => d.open"):
        r.tap(panel.locator("summary").first, "open Buildings", navigates=False)
    panel.locator(".panel-body form").first.wait_for()  # its contents come once it is open (htmx): not a tap
    wanted = [f"{level} house" if level == "1" else f"{level} houses" for level in levels.values()]
    offers = panel.locator("form").filter(has=page.locator("caption", has_text=re.compile(
        rf"{re.escape(player)}\W.*{re.escape(group)}")))
    for row in offers.locator("tr").filter(has=page.get_by_role("button")).all():
        if [c.strip() for c in row.locator("td").all_inner_texts()[:-1]] == wanted:
            r.tap(row.get_by_role("button"), f"{player}: {row.get_by_role('button').inner_text()} ({group})")
            return
    lot_by_lot = panel.locator("details").filter(has=page.locator("summary", has_text="lot by lot")).first
    if lot_by_lot.count() and not lot_by_lot.evaluate("d => d.open"):
        r.tap(lot_by_lot.locator("summary").first, "open lot by lot", navigates=False)
    form = panel.locator("form").filter(has_text=f"{player},").filter(has=page.get_by_role("button", name="Declare"))
    for square, level in levels.items():
        r.choose(form.get_by_label(square), level, f"{player}: {square} to {level}")
    r.tap(form.get_by_role("button", name="Declare"), f"Declare ({player})")


def building_round(r: Referee, tmp: Path) -> None:
    """Four houses in the bank; Ben (dark blue) and Chie (brown) each declare two; the referee closes the
    declarations and everything is built."""
    s = SITUATIONS["building"]
    r.import_game({"deeds": {**AKI_28, **DARK_BLUE_AND_BROWN}, "bank": {"houses": 4, "hotels": 12}}, [], tmp)
    r.begin(s)
    declare(r, "Ben", "Dark Blue", {"Park Place": "1", "Boardwalk": "1"})
    r.shoot("building-round")
    declare(r, "Chie", "Brown", {"Mediterranean Avenue": "1", "Baltic Avenue": "1"})
    r.shoot("building-round-two-declared")
    r.tap(r.button(re.compile("close the declarations")), "close the declarations")
    r.end()
    assert "waiting for Aki to roll" in r.waiting(), r.waiting()


def shortage(r: Referee, tmp: Path) -> None:
    """One house in the bank; Ben declared one on Boardwalk, Chie one on Baltic Avenue.  Closed: a shortage
    auction; Ben calls $200, Chie $210 and builds; the declarations are asked again and closed (Ben's lapses)."""
    s = SITUATIONS["shortage"]
    r.import_game({"deeds": {**AKI_31, **DARK_BLUE_AND_BROWN}, "bank": {"houses": 1, "hotels": 12}}, [
        {"type": "build", "player": "Ben", "targets": {"park-place": 0, "boardwalk": 1}},
        {"type": "build", "player": "Chie", "targets": {"mediterranean-avenue": 0, "baltic-avenue": 1}}], tmp)
    r.begin(s)
    r.tap(r.button(re.compile("close the declarations")), "close the declarations")
    r.shoot("shortage-auction")
    r.tap(r.bidder_row("Ben").get_by_role("button", name="$200", exact=True), "Ben's quick bid $200")
    r.tap(r.bidder_row("Chie").get_by_role("button", name="$210", exact=True), "Chie's quick bid $210")
    r.shoot("shortage-auction-bid")
    r.tap(r.button(re.compile(r"^Hammer")), "Hammer")
    r.shoot("shortage-lot")
    r.tap(r.button(re.compile("Baltic Avenue")), "Chie's lot: Baltic Avenue")
    r.shoot("shortage-declarations-again")
    r.tap(r.button(re.compile("close the declarations")), "close the declarations")
    r.end()
    assert "waiting for Aki to roll" in r.waiting(), r.waiting()


def table(situations) -> str:
    rows = [("situation", "counted", "taps", "goal", "met?")]
    for s in situations:
        value = f"{s.value:.1f}" if s.name == "plain turn" else f"{s.value:g}"
        goal = f"{s.goal:.1f}" if s.name == "plain turn" else f"{s.goal:g}"
        rows.append((s.name, s.counted, value, goal, "met" if s.value <= s.goal else "NOT MET"))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w) if i < 4 else c for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-screens", action="store_true", help="take no screenshots")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # the figures, not every request
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        app = create_app({"SECRET_KEY": "taps", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'taps.sqlite'}"})
        srv = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        server = f"http://127.0.0.1:{srv.server_port}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                    "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync"])
                context = browser.new_context(viewport=LANDSCAPE, has_touch=True, locale="en-GB")
                r = Referee(context.new_page(), server, screens=not args.no_screens)
                plain_turns(r)
                buy(r)
                auction(r)
                debt(r, tmp)
                debt_by_sale(r, tmp)
                auction_beyond_reach(r, tmp)
                trade(r, tmp)
                building_round(r, tmp)
                shortage(r, tmp)
                browser.close()
        finally:
            srv.shutdown()
    situations = list(SITUATIONS.values())
    print(table(situations))
    print()
    print("taps, the first time each situation was played:")
    for s in situations:
        print(f"  {s.name}: " + "; ".join(s.steps))
    if r.shots:
        print(f"\n{len(r.shots)} screenshots in {SCREENS.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
