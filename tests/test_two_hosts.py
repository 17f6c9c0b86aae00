"""Past one machine: two hosts of the app (two `referee serve`, each its own port and instance folder, standing for
two machines) on one PostgreSQL database and one redis-server, behind Debian's haproxy with the repository's
configuration (docs/haproxy.cfg), as the README's "Past one machine" runs them.  A table recorded on one host is
seen whole on the other at its next poll; a device whose requests the proxy hands to either host keeps its unlock
and its table; the wrong PINs a device types are counted once over both hosts."""
import json
import random

import pytest

from referee.engine import legal_actions, parse_record, replay
from referee.services import rulesets
from referee.sim.policy import Policy
from server_support import Tablet, haproxy, redis_server, token, waitress

PIN = "246810"
HX = {"HX-Request": "true"}


@pytest.fixture
def venue(postgresql, tmp_path):
    """(host A, host B, the proxy): each started and, after the test, stopped."""
    started = []
    try:
        store = redis_server(tmp_path)
        started.append(store)
        store.wait_for_port()
        hosts = []
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            host = waitress(tmp_path, {"DATABASE_URL": postgresql, "SECRET_KEY": "one key for both hosts",
                                       "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{store.port}/0",
                                       "REFEREE_INSTANCE": str(tmp_path / name), "REFEREE_PROXIES": "1"})
            started.append(host)
            hosts.append(host)
        for host in hosts:
            host.wait_for_port()
        proxy = haproxy(tmp_path, hosts)
        started.append(proxy)
        proxy.wait_for_port()
        yield hosts[0], hosts[1], proxy
    finally:
        for server in reversed(started):
            server.stop()


def new_game(tablet: Tablet) -> int:
    status, page = tablet.get("/")
    assert status == 200, page
    reply = tablet.request("POST", "/games", {"csrf_token": token(page), "title": "Table 1", "ruleset": "jma-2006",
                                              "players": "Aki\nBen\nChie", "seating": "fixed", "pin": PIN})
    assert reply.status == 302, reply.text
    return int(reply.headers["Location"].rsplit("/", 1)[1])


def unlocked(base: str, game_id: int, source: str) -> Tablet:
    tablet = Tablet(base, source=source)
    status, page = tablet.get(f"/games/{game_id}/unlock")
    assert status == 200, page
    assert tablet.post(f"/games/{game_id}/unlock", {"csrf_token": token(page), "pin": PIN})[0] == 302
    return tablet


def record_next(tablet: Tablet, game_id: int, seed: int) -> int:
    """One legal entry (no trade: its form has fields of its own) recorded from the table screen, as its forms send
    it; the number of entries the record holds after it."""
    header, entries = parse_record(tablet.get(f"/games/{game_id}/record.jsonl")[1].splitlines())
    game = replay(rulesets.for_header(header), header, entries)
    actions = [a for a in legal_actions(game.state) if a.type != "trade"]
    chosen = Policy(random.Random(seed), "random").choose(game.state, actions).to_dict()
    status, page = tablet.get(f"/games/{game_id}")
    assert status == 200, page
    entry_key = page.split('name="entry_key" value="', 1)[1].split('"', 1)[0]
    reply = tablet.request("POST", f"/games/{game_id}/record", {
        "csrf_token": token(page), "seq": len(entries), "entry_key": entry_key,
        "entry": json.dumps(chosen, ensure_ascii=False)})
    assert reply.status == 303, reply.text
    return len(entries) + 1


def live_version(page: str) -> str:
    return page.split('id="tablelive"', 1)[1].split('data-version="', 1)[1].split('"', 1)[0]


def seq_shown(page: str) -> int:
    return int(page.split('name="seq" value="', 1)[1].split('"', 1)[0])


def test_a_table_recorded_on_one_host_is_seen_at_once_on_the_other(venue):
    host_a, host_b, _ = venue
    referee_a = Tablet(host_a.base, source="127.0.0.2")
    game_id = new_game(referee_a)
    follower_b = unlocked(host_b.base, game_id, "127.0.0.3")
    version = live_version(follower_b.get(f"/games/{game_id}")[1])
    assert follower_b.get(f"/games/{game_id}?v={version}", headers=HX)[0] == 204
    for n in range(6):
        held = record_next(referee_a, game_id, n)  # on host A
        status, region = follower_b.get(f"/games/{game_id}?v={version}", headers=HX)  # host B, at once
        assert status == 200, (n, status)
        assert seq_shown(region) == held
        version = live_version(region)
    # and the other way round: host B records, host A's screen shows it whole
    held = record_next(follower_b, game_id, 99)
    assert seq_shown(referee_a.get(f"/games/{game_id}")[1]) == held


def test_a_device_behind_the_proxy_records_on_either_host_and_its_wrong_pins_count_once(venue):
    host_a, host_b, proxy = venue
    # each request a new connection: the proxy hands them to the hosts in turn
    referee = Tablet(proxy.base, source="127.0.0.4")
    game_id = new_game(referee)
    for n in range(4):
        held = record_next(referee, game_id, n)
        assert seq_shown(referee.get(f"/games/{game_id}")[1]) == held
    answered = proxy.output()
    assert "referee/a " in answered and "referee/b " in answered  # both hosts answered the device
    guesser = Tablet(proxy.base, source="127.0.0.5")
    tries = []
    for n in range(6):
        page = guesser.get(f"/games/{game_id}/unlock")[1]
        tries.append(guesser.post(f"/games/{game_id}/unlock", {"csrf_token": token(page), "pin": f"99999{n}"})[0])
    assert tries == [403] * 5 + [429]  # counted once over both hosts (each alone would allow ten)
    # another device (its own address, as the proxy forwards it) is not held back by the guesser's count
    assert unlocked(proxy.base, game_id, "127.0.0.6").get(f"/games/{game_id}")[0] == 200
    # a host stops (its laptop's battery): the devices go on through the proxy on the other, nothing lost
    host_a.stop()
    for n in range(4, 8):
        held = record_next(referee, game_id, n)
        assert seq_shown(referee.get(f"/games/{game_id}")[1]) == held
    assert held == 8
