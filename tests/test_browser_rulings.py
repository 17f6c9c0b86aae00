"""The last JMA clauses played by tapping, in a real browser on a tablet: a winning bid raised from the card,
a get-out-of-jail card bought before the fine, a shortage bid held by a dearer lot.  Each starts from a record
of tests/conformance/ (imported, as a referee continues a game begun on paper) and is played on from there.
Screenshots go to tests/artifacts/rulings-*.png."""
from pathlib import Path

from browser_support import fits, write_artifact
from browser_support import TABLET, import_record, shot

CONFORMANCE = Path(__file__).parent / "conformance"


def continue_from(page, server, record: str, keep: int) -> int:
    """Import the first ``keep`` entries of a conformance record and open its table."""
    lines = (CONFORMANCE / f"{record}.jsonl").read_text(encoding="utf-8").splitlines()[:1 + keep]
    path = write_artifact(f"rulings-{record}.jsonl", "\n".join(lines) + "\n")
    return import_record(page, server, path)


def tap(page, text):
    page.locator(".decision button", has_text=text).first.click()
    page.wait_for_load_state()


def cash(page, player: str) -> str:
    return page.locator(".player", has_text=player).first.locator(".cash").inner_text()


def test_a_winning_bid_is_raised_from_its_card_then_paid(server, browser):
    page = browser.new_page(viewport=TABLET)
    continue_from(page, server, "jma-auction-unpayable-bid-waits-for-the-winner", 4)
    decision = page.inner_text(".decision")
    assert "Ben won Baltic Avenue at $250 and raises the cash to pay" in decision
    assert "The table waits for the $150 still missing" in decision
    assert page.locator(".decision .dicepad").count() == 0  # nothing else can be recorded meanwhile
    shot(page, "rulings-bid-payment")
    tap(page, "mortgage Boardwalk: +$200")
    assert "waiting for Ben to roll" in page.inner_text(".decision")
    assert cash(page, "Ben") == "$50"


def test_a_jail_card_is_bought_before_the_fine_and_used(server, browser):
    page = browser.new_page(viewport=TABLET)
    continue_from(page, server, "jma-jail-third-failed-roll-buy-a-card-before-the-fine", 1)
    assert "before paying the $50 fine, Aki may buy a get-out-of-jail card" in page.inner_text(".decision")
    shot(page, "rulings-jail-card-offer")
    page.fill(".decision input[name=give-cash]", "30")
    tap(page, "Buy Chie's card")
    tap(page, "Use a get-out-of-jail card and move")
    assert "waiting for Aki to buy or decline States Avenue" in page.inner_text(".decision")
    assert cash(page, "Aki") == "$1,470" and cash(page, "Chie") == "$1,530"


def test_a_shortage_bid_held_by_a_dearer_lot_goes_on_in_japanese(server, browser):
    page = browser.new_page(viewport=TABLET)
    continue_from(page, server, "jma-shortage-auction-bid-below-the-chosen-lot-is-held", 5)
    page.click("header details.langs summary")  # the language menu
    page.click("header a:text-is('日本語')")
    page.wait_for_selector(".decision")
    assert "落札を保留して競売を継続" in page.inner_text(".decision")
    shot(page, "rulings-held-lots-ja")
    tap(page, "ボードウォーク")
    assert "$150" in page.inner_text(".decision")  # the held bid stands as the highest bid
    fits(page)
