"""The table's engine in the tablet's own browser: Pyodide, served by the app (scripts/pyodide installs it from the npm
registry), runs the project's own Python from the app's offline kit (the engine, referee/tablet, every ruleset's
values), under the table screen's own Content-Security-Policy.  A tap checked there is judged as the server judges
it: the same entry recorded with the same decision next, the same refusal with the same clause; and the tablet
folds a whole record tap by tap to the state the server folded."""
import hashlib
import json

import pytest

from browser_support import golden_table
from referee.engine import IllegalEntry, MalformedEntry
from referee.services import folds, games

PIN = "246802"


def server_says(app, game_id: int, entry: dict) -> dict:
    """What the server's engine makes of ``entry`` on the table as stored (as its tablet's tap would be checked)."""
    with app.app_context():
        seq = folds.load(game_id).seq
        try:
            applied = games.check(game_id, entry, seq)
        except (MalformedEntry, IllegalEntry) as refusal:
            return {"recorded": False, "seq": seq, "refusal": refusal.as_dict()}
        return {"recorded": True, "seq": seq + 1, "waiting": type(applied.outcome.state.pending).__name__}


@pytest.fixture(scope="module")
def table_screen(live, chromium):
    """A table continued from the golden record to its 20th entry, its screen open on an unlocked tablet (one for
    the module: Pyodide starts once in it)."""
    page, game_id, lines = opened_table(live, chromium)
    page.wait_for_function("() => typeof window.refereeTablet === 'function'")
    yield page, game_id, lines
    page.context.close()


def opened_table(server_and_app, browser):
    """A table continued from the golden record to its 20th entry, its screen opened on a new tablet (a browser
    context of its own) given the table's PIN: the page, the game and the golden record's lines."""
    return golden_table(server_and_app, browser, 20, PIN)


TAPS = """async ([record, entries]) => {
  const table = await window.refereeTablet();
  const opened = await table.open(record);
  return [opened, entries.map((entry) => table.tap(entry))];
}"""


def test_a_tap_checked_on_the_tablet_is_judged_as_the_server_judges_it(live, table_screen):
    server, app = live
    page, game_id, lines = table_screen
    record = page.request.get(f"{server}/games/{game_id}/record.jsonl").text()
    nxt = json.loads(lines[21])
    nxt.pop("seq")
    wrong_player = {**nxt, "player": "Ben" if nxt.get("player") != "Ben" else "Chie"}
    taps = [
        {"type": "roll", "player": "Nobody", "dice": [1, 2]},  # no such player
        {"type": "roll", "player": "Aki", "dice": [7, 1]},  # an impossible die
        wrong_player,  # not that player's turn, or not that decision
        {"type": "bid", "player": "Aki", "amount": 15},  # a bid where none is asked for
        nxt,  # the entry the record makes next
    ]
    expected = [server_says(app, game_id, tap) for tap in taps[:-1]] + [server_says(app, game_id, nxt)]
    opened, answers = page.evaluate(TAPS, [record, taps])
    assert opened == 20
    for tap, answer, want in zip(taps, answers, expected):
        assert answer["recorded"] == want["recorded"], (tap, answer, want)
        if want["recorded"]:
            assert answer["seq"] == 21 and answer["waiting"] == want["waiting"], (tap, answer)
        else:
            assert answer["refusal"] == want["refusal"], tap  # code, message, clause and its key: the server's
            assert answer["seq"] == 20
    assert [a["recorded"] for a in answers] == [False, False, False, False, True]
    assert all(a["refusal"]["clause"] for a in answers[2:4])  # a rule's refusal names its clause


def test_the_tablet_folds_a_whole_record_tap_by_tap_as_the_server_did(live, table_screen):
    server, app = live
    page, game_id, lines = table_screen
    entries = [{k: v for k, v in json.loads(line).items() if k != "seq"} for line in lines[1:]]
    opened, answers = page.evaluate(TAPS, [lines[0] + "\n", entries])
    assert opened == 0
    assert [a["recorded"] for a in answers] == [True] * len(entries), next(a for a in answers if not a["recorded"])
    assert [a["seq"] for a in answers] == list(range(1, len(entries) + 1))
    with app.app_context():
        whole = games.import_record("\n".join(lines) + "\n", PIN)
        assert answers[-1]["waiting"] == type(folds.load(whole).game.state.pending).__name__


# The snapshots of the Python's memory this tablet keeps (offline.js: one, named by the Pyodide, the site's root and
# the kit's SHA-256), in one transaction on their store: ``work(store)`` asks, and gives a function of the answer.
SNAPSHOT_STORE = """(mode, work) => new Promise((done) => {
  const opening = indexedDB.open("referee-engine", 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore("snapshots");
  opening.onsuccess = () => {
    const tx = opening.result.transaction("snapshots", mode);
    const answer = work(tx.objectStore("snapshots"));
    tx.oncomplete = () => { opening.result.close(); done(answer()); };
  };
})"""
# their names, once one is kept (asked again every 200 ms until then)
SNAPSHOTS = f"""async () => {{
  const store = {SNAPSHOT_STORE};
  for (;;) {{
    const kept = await store("readonly", (snapshots) => {{
      const got = snapshots.getAllKeys();
      return () => got.result;
    }});
    if (kept.length) return kept;
    await new Promise((wait) => setTimeout(wait, 200));
  }}
}}"""
# the snapshot of that name damaged (4 KB of 7s in its place)
DAMAGE = f"""(name) => ({SNAPSHOT_STORE})("readwrite", (snapshots) => {{
  snapshots.put(new Uint8Array(4096).fill(7), name);
  return () => true;
}})"""
# the bytes of the snapshot of that name (0: none)
SNAPSHOT_BYTES = f"""(name) => ({SNAPSHOT_STORE})("readonly", (snapshots) => {{
  const got = snapshots.get(name);
  return () => (got.result ? got.result.length : 0);
}})"""


def kit_digest(server, page) -> str:
    """The SHA-256 of the offline kit the page's script names, as the server sends it."""
    kit = page.get_attribute("#referee-offline", "data-kit")
    return hashlib.sha256(page.request.get(server + kit).body()).hexdigest()


def test_a_table_screen_opened_once_opens_again_with_the_network_gone_and_its_engine_judges_taps(offline_server,
                                                                                                   browser):
    """Opened once on the network, a table screen keeps (its service worker) Pyodide, the kit, the screen and the
    record; with the network gone, the screen reloaded comes back as it was, and the engine starts from what was
    kept and records the next tap.  What the server records meanwhile is not seen: the kept copies answered.  The
    engine's first start (cold: CPython started, the kit imported) left a snapshot of its memory on the tablet, and
    the start of the reloaded screen restores it; a snapshot that cannot be restored is set aside (the engine
    starts cold, judges as before and keeps a new one)."""
    server, app = offline_server
    page, game_id, lines = opened_table(offline_server, browser)
    context = page.context
    assert page.evaluate("() => window.refereeKept") is True  # the worker keeps this screen's requests, all fetched
    names = page.evaluate(SNAPSHOTS)
    assert len(names) == 1 and names[0].endswith(" " + kit_digest(server, page)), names
    assert page.evaluate("() => window.refereeStartedFrom()") == "cold"
    nxt = {k: v for k, v in json.loads(lines[21]).items() if k != "seq"}
    context.set_offline(True)
    with app.app_context():  # recorded by another device once this tablet is cut off (not before: the tablet's
        games.record(game_id, nxt, 20)  # standby could fetch the record in between, and keep the server's)
    again = page.reload()
    assert again.from_service_worker and page.get_attribute("#tablelive", "data-seq") == "20"
    record = page.evaluate("(path) => fetch(path).then((r) => r.text())", f"/games/{game_id}/record.jsonl")
    assert len(record.splitlines()) == 21  # the record as this tablet last had it
    page.wait_for_function("() => typeof window.refereeTablet === 'function'")
    opened, answers = page.evaluate(TAPS, [record, [nxt]])
    assert opened == 20 and answers[0]["recorded"] and answers[0]["seq"] == 21
    assert page.evaluate("() => window.refereeStartedFrom()") == "snapshot"
    # a snapshot that cannot be restored (damaged here) is set aside: the engine starts cold, judges as before, and
    # the tablet keeps a new snapshot
    page.evaluate(DAMAGE, names[0])
    page.reload()
    page.wait_for_function("() => typeof window.refereeTablet === 'function'")
    opened, answers = page.evaluate(TAPS, [record, [nxt]])
    assert opened == 20 and answers[0]["recorded"] and answers[0]["seq"] == 21
    assert page.evaluate("() => window.refereeStartedFrom()") == "cold"
    assert page.evaluate(SNAPSHOTS) == names and page.evaluate(SNAPSHOT_BYTES, names[0]) > 10_000_000
    context.set_offline(False)
    context.close()
