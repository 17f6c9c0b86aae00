"""A table that keeps refereeing when the network fails (chromium, the tablet's context set offline): the tablet's own
Python (the offline kit in Pyodide) draws the table screen and takes the entry forms' taps, each checked by the
same rules, refused with its clause or recorded and kept in IndexedDB, the banner counting the entries kept; the
page reloaded while offline still has them; once the network is back they are sent in order and recorded once
each, the hash chain continued, and the server's screen comes back saying how many it recorded."""
import json

from browser_support import armed, golden_table
from referee.services import folds, games

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
    """``entry`` tapped on the screen: a roll on the dice pad's own button, any other through the screen's form."""
    seq = page.get_attribute("#tablelive", "data-seq")
    armed(page)
    dice = entry.get("dice")
    button = f"#tablelive .dicepad button[value='{dice[0]},{dice[1]}']" if entry["type"] == "roll" and dice else None
    if button and page.locator(button).count() == 1:
        page.click(button)
    else:
        page.evaluate(TAP_ENTRY, [entry])
        page.click("#tap-under-test")
    page.wait_for_function("(seq) => document.getElementById('tablelive').dataset.seq !== seq"
                           " || document.querySelector('#tablelive .flash.refused') !== null", arg=seq)


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

    for n in range(START + 1, START + OFFLINE + 1):
        tap_entry(page, entry_of(lines[n]))
        assert page.get_attribute("#tablelive", "data-seq") == str(n), page.inner_text("#tablelive")[:600]
        assert page.locator("#tablelive .flash.done").count() == 1  # the entry in the log's words
    assert f"{OFFLINE} entries kept on this tablet" in page.inner_text("#kept")
    with app.app_context():
        assert folds.load(game_id).seq == START  # nothing reached the server

    # closed and opened again offline: the screen (kept by the service worker) and the entries (IndexedDB) are back
    page.reload()
    page.wait_for_selector("body[data-tablet] #kept", timeout=120000)
    assert page.get_attribute("#tablelive", "data-seq") == str(START + OFFLINE)
    assert f"{OFFLINE} entries kept on this tablet" in page.inner_text("#kept")

    context.set_offline(False)
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
