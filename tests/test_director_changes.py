"""The director's changed poll answered with the parts that changed alone: a table's new card, the calls for a judge,
the devices, each swapped in place (htmx's out-of-band swap), the region's new version and drawing in headers; and
the region those parts make of the one the device had is the region drawn whole at the new version.  Each device is
compared with its own last drawing, never another's; a drawing this process does not keep (another host's, one long
past), another language, or a request that is not htmx's poll gets the whole region."""
import re
import xml.etree.ElementTree as ElementTree

import tinyhtml5

from test_director_poll_cost import PIN, roll, seated

from datetime import timedelta

import referee.store.db as store_db
from referee.services import clocks, latest, rulings
from referee.store.models import GameRow
from referee.web.views.cards import CLOCK, OOB as MARK, TOKEN
from referee.store.db import db

HX = {"HX-Request": "true"}
OOB = 'hx-swap-oob="true"'


IPAD = "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/604.1"
ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36"


def director(app, tid: int, agent: str = IPAD):
    """A device given the director's PIN (``agent``: the browser it says it is)."""
    client = app.test_client()
    client.environ_base["HTTP_USER_AGENT"] = agent
    assert client.post(f"/tournaments/{tid}/unlock", data={"pin": PIN}).status_code == 302
    return client


def whole(client, tid: int) -> tuple[str, tuple[str, str]]:
    """The region drawn whole (a poll naming no version the app knows), and what its next poll names: its version
    and its drawing."""
    answer = client.get(f"/tournaments/{tid}/live?v=none", headers=HX)
    assert answer.status_code == 200 and "HX-Reswap" not in answer.headers
    page = answer.get_data(as_text=True)
    return page, (re.search(r'id="live-rounds"[^>]*data-version="([^"]+)"', page).group(1),
                  re.search(r'id="live-rounds"[^>]*data-drawn="([^"]+)"', page).group(1))


def tree(page: str) -> ElementTree.Element:
    return tinyhtml5.parse(page, namespace_html_elements=False)


def swapped_in(region: str, changes: str) -> str:
    """``region`` with each out-of-band part of ``changes`` put in place of the element of its id, as htmx does."""
    root, parents = tree(region), {}
    for parent in root.iter():
        for child in parent:
            parents[child] = parent
    by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
    for part in tree(changes).find("body"):
        assert part.get("hx-swap-oob") == "true", part.get("id")
        old = by_id[part.get("id")]
        del part.attrib["hx-swap-oob"]
        siblings = parents[old]
        index = list(siblings).index(old)
        part.tail = old.tail
        siblings.remove(old)
        siblings.insert(index, part)
    return shown(root)


def shown(root: ElementTree.Element) -> str:
    """What a region shows, written out: the form tokens (the device's, made afresh at each answer) and a running
    clock's seconds left (read at each answer; the page counts them down) left out, and the region's version (moved
    and drawing (moved by the headers of an answer of changes)."""
    region = next(e for e in root.iter() if e.get("id") == "live-rounds")
    for e in region.iter():
        if e.get("name") == "csrf_token":
            e.set("value", "")
        if e.get("data-left") is not None and e.get("data-running") == "1":
            e.set("data-left", "")
            e.text = ""
    for name in ("hx-get", "data-version", "data-drawn"):
        region.attrib.pop(name, None)
    return re.sub(r"\s+", " ", ElementTree.tostring(region, encoding="unicode"))


def changes(client, tid: int, seen: tuple[str, str]):
    """A changed poll naming the version and the drawing ``seen``."""
    answer = client.get(f"/tournaments/{tid}/live?v={seen[0]}&d={seen[1]}", headers=HX)
    assert answer.status_code == 200
    return answer


def moved(answer) -> tuple[str, str]:
    """What the page names in its next poll after an answer of changes."""
    return answer.headers["Live-Version"], answer.headers["Live-Drawing"]


def sent(answer) -> list[str]:
    """The parts an answer of changes swaps in place, by id."""
    return re.findall(r'hx-swap-oob="true"[^>]* id="([^"]+)"', answer.get_data(as_text=True))


def test_a_changed_poll_from_a_drawing_kept_is_answered_with_the_changed_table_alone(app):
    tid, ids = seated(app, 6)
    client = director(app, tid)
    _, seen = whole(client, tid)
    roll(app, ids[2])
    answer = changes(client, tid, seen)
    body = answer.get_data(as_text=True)
    assert answer.headers["HX-Reswap"] == "none" and moved(answer)[0] != seen[0] and moved(answer)[1] != seen[1]
    # the table's card, and the devices unlocked (they mark the device asking: sent with every answer of changes)
    assert re.findall(r'<(\w+) hx-swap-oob="true"[^>]* id="([^"]+)"', body) == [("div", f"table-{ids[2]}"),
                                                                                ("section", "devices")]
    assert not any(mark in body for mark in (CLOCK, TOKEN, MARK))  # its clock line and token put in
    assert 'id="live-rounds"' not in body and "Standings" not in body
    assert len(body) < 5000  # one card, where the whole region of 6 tables is many times that


def test_the_region_the_changes_make_is_the_region_drawn_whole(app):
    tid, ids = seated(app, 4)
    client = director(app, tid)
    region, seen = whole(client, tid)
    steps = [lambda: roll(app, ids[0]), lambda: roll(app, ids[3]),
             lambda: clocks.set_clock(ids[1], True), lambda: (roll(app, ids[1]), roll(app, ids[1])),
             lambda: rulings.call_judge(ids[2]), lambda: clocks.set_clock(ids[1], False)]
    sent_alone = []
    for step in steps:
        with app.app_context():
            step()
            db.session.commit()
            db.session.remove()
        answer = changes(client, tid, seen)
        assert answer.headers.get("HX-Reswap") == "none"  # each answered with its changes
        sent_alone.append(sent(answer))
        region = swapped_in(region, answer.get_data(as_text=True))
        drawn, seen = whole(client, tid)  # (the page loaded again: the next poll names this drawing)
        assert seen[0] == moved(answer)[0]
        assert region == shown(tree(drawn))
        region = drawn
    assert sent_alone[0] == [f"table-{ids[0]}", "devices"] and sent_alone[1] == [f"table-{ids[3]}", "devices"]
    assert f"table-{ids[1]}" in sent_alone[2] and "round-1-foot" in sent_alone[2]  # time can be called there now
    assert "judge-calls" in sent_alone[4]


def test_a_poll_from_a_drawing_not_kept_or_not_htmx_is_answered_with_the_whole_region(app):
    tid, ids = seated(app, 3)
    client = director(app, tid)
    _, seen = whole(client, tid)
    roll(app, ids[0])
    plain = client.get(f"/tournaments/{tid}/live?v={seen[0]}&d={seen[1]}")  # not htmx's poll: the whole region
    assert 'id="live-rounds"' in plain.get_data(as_text=True) and OOB not in plain.get_data(as_text=True)
    roll(app, ids[0])
    app.extensions["referee.director_shown"].clear()  # another host's drawing, or one no longer kept
    answer = changes(client, tid, seen)
    assert "HX-Reswap" not in answer.headers and 'id="live-rounds"' in answer.get_data(as_text=True)
    assert OOB not in answer.get_data(as_text=True)
    _, english = whole(client, tid)
    # the device's other tab switched to Japanese draws the same version (the language is the device's cookie)
    assert client.get(f"/tournaments/{tid}/live?v=none", headers={**HX, "Accept-Language": "ja"}).status_code == 200
    roll(app, ids[1])
    japanese = client.get(f"/tournaments/{tid}/live?v={english[0]}&d={english[1]}",
                          headers={**HX, "Accept-Language": "ja"})
    assert "HX-Reswap" not in japanese.headers  # the English tab's poll, asked in Japanese: the whole region
    assert 'id="live-rounds"' in japanese.get_data(as_text=True)


def test_each_director_device_is_sent_the_devices_unlocked_with_itself_marked(app):
    """The devices unlocked mark the device asking ("this device"): they are sent with every answer of changes,
    drawn for the device that asks."""
    tid, ids = seated(app, 2)
    first, second = director(app, tid, IPAD), director(app, tid, ANDROID)
    seen = {client: whole(client, tid)[1] for client in (first, second)}
    roll(app, ids[0])
    mine = []
    for client in (first, second):
        answer = changes(client, tid, seen[client])
        devices = re.search(r'<section hx-swap-oob="true" class="decision" id="devices">.*?</section>',
                            answer.get_data(as_text=True), re.S).group(0)
        mine += re.findall(r"<li>([^<]*\(this device\))</li>", devices)
    assert len(mine) == 2 and mine[0] != mine[1]  # each device marked itself, once


def test_a_device_is_sent_what_changed_since_its_own_drawing_not_another_devices_at_the_same_version(app, monkeypatch):
    """A version can be read a moment before another process's commit and drawn with the newer rows (versions are
    shared for half a second): a second device drawn so at the first device's version must not make the first
    device's next poll skip the change it has not been shown."""
    now = [1000.0]
    monkeypatch.setattr(latest, "clock", lambda: now[0])
    tid, ids = seated(app, 2)
    first, second = director(app, tid, IPAD), director(app, tid, ANDROID)
    _, seen = whole(first, tid)
    counted = store_db._commits
    roll(app, ids[0])  # committed by another process: this one's count of commits does not move
    store_db._commits = counted
    _, other = whole(second, tid)
    assert other[0] == seen[0]  # the same version, drawn with the entry
    now[0] += latest.LATEST_SECONDS + 0.1  # the shared version read again
    assert f"table-{ids[0]}" in sent(changes(first, tid, seen))


def test_a_clock_paused_and_started_again_between_two_polls_is_sent_again(app):
    """A running clock's card is compared by the moment the clock would have started had it never stopped: paused and
    started again between two of a device's polls (its answer not swapped in meanwhile, its tab asleep), the page's
    countdown would be off by the pause; the card is sent again."""
    tid, ids = seated(app, 2)
    with app.app_context():
        clocks.set_clock(ids[0], True)
        db.session.commit()
    client = director(app, tid)
    _, seen = whole(client, tid)
    with app.app_context():
        row = db.session.get(GameRow, ids[0])
        row.clock_started_at -= timedelta(seconds=30)  # it has run 30 s longer than the page counts: paused a while
        db.session.commit()
        clocks.set_clock(ids[0], False)
        clocks.set_clock(ids[0], True)
        db.session.commit()
    assert f"table-{ids[0]}" in sent(changes(client, tid, seen))
