"""Past one machine: two hosts of the app (two `referee serve`, each its own port and instance folder, standing for
two machines) on one PostgreSQL database and one redis-server, behind Debian's haproxy with the repository's
configuration (docs/haproxy.cfg), as the README's "Past one machine" runs them.  A table recorded on one host is
seen whole on the other at its next poll; a device keeping its connection open stays on its host; every request of a
table reaches one host, the tables spread over both; the wrong PINs a device types are counted
once over both hosts; a host stopped, its devices go on through the other.  And each host's instance folder, named
by REFEREE_INSTANCE, is the one its commands read too."""
import http.client
import json
import random
import re

import pytest

from referee import create_app
from referee.engine import legal_actions, parse_record, replay
from referee.services import rulesets
from referee.sim.policy import Policy
from referee.store import backup
from server_support import Tablet, haproxy, redis_server, referee_serve, token
from test_proxy_and_workers import unlock

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
            host = referee_serve(tmp_path, {"DATABASE_URL": postgresql, "SECRET_KEY": "one key for both hosts",
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
    assert unlock(tablet, f"/games/{game_id}/unlock", PIN) == 302
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


def test_a_tables_devices_reach_one_host_and_the_tables_are_spread_over_the_hosts(venue):
    _, _, proxy = venue
    # a device keeping its connection open (as a browser polling every second does) stays on one host
    kept = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=30, source_address=("127.0.0.7", 0))
    for _ in range(6):
        kept.request("GET", "/ping")
        response = kept.getresponse()
        assert response.status == 200 and response.read()
    kept.close()
    logged = proxy.wait_for_output(r"(?m)^127\.0\.0\.7:.*GET /ping", count=6, seconds=10)  # each once answered
    answered_by = [re.search(r" referee/(\w+) ", line).group(1) for line in logged.splitlines()
                   if line.startswith("127.0.0.7:") and "/ping" in line]
    assert len(answered_by) == 6 and len(set(answered_by)) == 1, answered_by
    # each request a new connection, from a table's two tablets: every request of a table is answered by one host
    # (the proxy hashes its address: the host keeps the table's game and the drawing of its screen, which the other
    # tablet is sent at once), and the tables are spread over both hosts
    referee = Tablet(proxy.base, source="127.0.0.4")
    games = [new_game(referee) for _ in range(12)]
    for game_id in games:
        follower = unlocked(proxy.base, game_id, "127.0.0.6")  # its own address, as the proxy forwards it
        version = live_version(follower.get(f"/games/{game_id}")[1])
        held = record_next(referee, game_id, game_id)
        status, region = follower.get(f"/games/{game_id}?v={version}", headers=HX)
        assert status == 200 and seq_shown(region) == held
        held = record_next(follower, game_id, game_id + 1)  # the other tablet records on the table it shows
        assert seq_shown(referee.get(f"/games/{game_id}")[1]) == held
    answered = proxy.output().splitlines()
    hosts = {game_id: {re.search(r" referee/(\w+) ", line).group(1) for line in answered
                       if re.search(rf'"[A-Z]+ /games/{game_id}[/? ]', line)} for game_id in games}
    assert all(len(found) == 1 for found in hosts.values()), hosts
    assert set().union(*hosts.values()) == {"a", "b"}, hosts


def test_a_devices_wrong_pins_are_counted_once_over_both_hosts(venue):
    host_a, host_b, _ = venue
    game_id = new_game(Tablet(host_a.base, source="127.0.0.2"))
    tries = []
    for n in range(6):  # the guesser's tries land on the two hosts in turn
        guesser = Tablet((host_a, host_b)[n % 2].base, source="127.0.0.5")
        tries.append(unlock(guesser, f"/games/{game_id}/unlock", f"99999{n}"))
    assert tries == [403] * 5 + [429]  # five a device over both hosts (counted alone, each host would allow five)


def test_a_hosts_devices_go_on_through_the_other_when_it_stops(venue):
    host_a, _, proxy = venue
    referee = Tablet(proxy.base, source="127.0.0.4")
    game_id = new_game(referee)
    for n in range(3):
        record_next(referee, game_id, n)
    host_a.stop()  # its laptop shut down: its port refuses the proxy's connections
    for n in range(3, 7):
        held = record_next(referee, game_id, n)
        assert seq_shown(referee.get(f"/games/{game_id}")[1]) == held
    assert held == 7  # nothing lost


def test_referee_instance_names_the_folder_the_app_and_its_commands_read(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("REFEREE_INSTANCE", str(tmp_path / "host-b"))
    with pytest.raises(ValueError, match="REFEREE_INSTANCE names .*host-b, which is not a folder"):
        create_app()  # a name mistyped: not made anew with a key of its own
    (tmp_path / "host-b").mkdir()
    (tmp_path / "host-b" / "config.py").write_text("SQLALCHEMY_DATABASE_URI = 'sqlite:////var/b.sqlite'\n")
    assert backup.instance_folder() == tmp_path / "host-b"
    assert backup.database_url() == "sqlite:////var/b.sqlite"  # `referee backup` backs up this host's database
    assert backup.backup_dir() == tmp_path / "host-b" / "backups"
