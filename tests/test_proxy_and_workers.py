"""The app on real servers as a venue runs it: behind an https reverse proxy (``referee serve``,
and gunicorn), with several gunicorn workers counting wrong PINs in one redis-server, and several workers starting
at once on a new database (SQLite and PostgreSQL), each started here on free ports and stopped after."""
import os
import subprocess
import sys

import pytest
import sqlalchemy

from server_support import ROOT, BOOTED, ReverseProxy, Tablet, gunicorn, redis_server, referee_serve, token

DIRECTOR = "135791"
PUBLIC_HOST = "tables.venue.example"
SPLIT_COUNTS = "each count wrong PINs and passwords in their own memory"


def start(kind: str, tmp_path, env: dict, workers: int = 1):
    server = referee_serve(tmp_path, env) if kind == "referee serve" else gunicorn(tmp_path, env, workers)
    server.wait_for_port()
    return server


def new_tournament(tablet: Tablet, players: int = 8) -> int:
    status, page = tablet.get("/tournaments")
    assert status == 200, page
    reply = tablet.request("POST", "/tournaments", {
        "csrf_token": token(page), "name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006", "pin": DIRECTOR,
        "round_minutes": "70", "players": "\n".join(f"P{i}" for i in range(players))})
    assert reply.status == 302, reply.text
    return int(reply.headers["Location"].rsplit("/", 1)[1])


def device(proxy: ReverseProxy, address: str) -> Tablet:
    """A device at ``address`` that reaches the app through the proxy, at the address the venue's tablets type."""
    return Tablet(proxy.base, source=address, headers={"Host": PUBLIC_HOST}, origin=f"https://{PUBLIC_HOST}")


def unlock(tablet: Tablet, path: str, pin: str) -> int:
    status, page = tablet.get(path)
    assert status == 200, page
    return tablet.post(path, {"csrf_token": token(page), "pin": pin})[0]


@pytest.mark.parametrize("kind", ["referee serve", "gunicorn"])
def test_behind_an_https_proxy_pages_are_https_cookies_secure_and_each_device_counted_alone(kind, tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'proxied.sqlite'}", "SECRET_KEY": "proxied",
           "REFEREE_HTTPS": "1", "REFEREE_PROXIES": "1"}  # the proxy is on this machine: nothing more to say
    server = start(kind, tmp_path, env)
    try:
        with ReverseProxy(server.port) as proxy:
            director = device(proxy, "127.0.0.2")
            home = director.request("GET", "/")
            assert home.status == 200, (home.status, home.headers.get("Location"))  # no redirect to itself
            assert "max-age" in home.headers["Strict-Transport-Security"]  # the app knows it is served over https
            tid = new_tournament(director)
            session = [c for c in director.set_cookies if c.startswith("session=")]
            assert session and all("; Secure" in c and "; HttpOnly" in c for c in session)
            status, _ = director.post(f"/tournaments/{tid}/rounds", {
                "csrf_token": token(director.get(f"/tournaments/{tid}")[1]), "round": "1"})
            assert status == 303
            slips = director.request("GET", f"/tournaments/{tid}/rounds/1/slips.pdf")
            assert slips.status == 200
            pdf = tmp_path / "slips.pdf"
            pdf.write_bytes(slips.body)
            text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                                  check=True).stdout.decode()
            assert f"https://{PUBLIC_HOST}/games/" in text  # the tables' address, as the devices type it
            # one guesser's wrong PINs are its own: its sixth is refused, another device may still try
            guesser = device(proxy, "127.0.0.3")
            assert [unlock(guesser, "/games/1/unlock", f"00000{n}") for n in range(6)] == [403] * 5 + [429]
            other = device(proxy, "127.0.0.4")
            assert unlock(other, "/games/1/unlock", "000009") == 403
            assert unlock(director, f"/tournaments/{tid}/unlock", DIRECTOR) == 302  # never locked by the guesser
        assert SPLIT_COUNTS not in server.output()  # one process: its threads share the counts
    finally:
        server.stop()


def test_a_proxy_named_in_the_config_is_believed_and_a_device_that_forges_its_headers_is_not(tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'named.sqlite'}", "SECRET_KEY": "named", "REFEREE_HTTPS": "1",
           "REFEREE_PROXIES": "1", "REFEREE_TRUSTED_PROXY": "127.0.0.50"}
    server = start("referee serve", tmp_path, env)
    try:
        with ReverseProxy(server.port, source="127.0.0.50") as proxy:
            director = Tablet(proxy.base, source="127.0.0.2", origin=proxy.base.replace("http:", "https:"))
            assert director.request("GET", "/").status == 200
            tid = new_tournament(director)
            # straight to the server, past the proxy, claiming https and another address each time
            forger = Tablet(server.base, source="127.0.0.9")
            reply = forger.request("GET", "/", headers={"X-Forwarded-Proto": "https"})
            assert reply.status in (301, 302) and reply.headers["Location"].startswith("https://")
            # through the proxy, naming another device before itself each time: the proxy's hop is the one read
            answers = []
            for n in range(6):
                guesser = Tablet(proxy.base, source="127.0.0.9", headers={"X-Forwarded-For": f"10.0.0.{n}"},
                                 origin=director.origin)
                answers.append(unlock(guesser, f"/tournaments/{tid}/unlock", DIRECTOR if n == 5 else f"99999{n}"))
            assert answers == [403] * 5 + [429]
            assert unlock(director, f"/tournaments/{tid}/unlock", DIRECTOR) == 302
    finally:
        server.stop()


def test_four_gunicorn_workers_sharing_redis_refuse_the_sixth_wrong_pin_and_the_director_pin_command_recovers(
        tmp_path):
    store = redis_server(tmp_path)
    try:
        store.wait_for_port()
        url = f"sqlite:///{tmp_path / 'shared.sqlite'}"
        env = {"DATABASE_URL": url, "SECRET_KEY": "shared",
               "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{store.port}/0"}
        server = start("gunicorn", tmp_path, env, workers=4)
        try:
            server.wait_for_output(BOOTED, count=4)
            director = Tablet(server.base, source="127.0.0.2")
            tid = new_tournament(director)
            assert unlock(director, f"/tournaments/{tid}/unlock", DIRECTOR) == 302
            status, page = director.get("/")
            assert status == 200
            # each request a new connection: the four workers answer in turn, and count in one store
            guesser = Tablet(server.base, source="127.0.0.3")
            assert [unlock(guesser, f"/tournaments/{tid}/unlock", f"00000{n}") for n in range(6)] == [403] * 5 + [429]
            # a crowd, each device under its own limit, reaches the director's cap (20, the guesser's 5 included)
            crowd = [unlock(Tablet(server.base, source=f"127.0.1.{n}"), f"/tournaments/{tid}/unlock", f"1234{n:02d}")
                     for n in range(20)]
            assert crowd == [403] * 15 + [429] * 5
            late = Tablet(server.base, source="127.0.2.1")
            assert unlock(late, f"/tournaments/{tid}/unlock", DIRECTOR) == 429
            assert "referee director-pin" in late.last.text
            recovered = subprocess.run(
                [sys.executable, "-m", "referee.cli", "director-pin", "--tournament", str(tid), "--stdin",
                 "--database", url], input="86420975\n", capture_output=True, text=True, cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
            assert recovered.returncode == 0, recovered.stderr
            assert unlock(late, f"/tournaments/{tid}/unlock", "86420975") == 302
            assert late.get(f"/tournaments/{tid}")[0] == 200
            assert SPLIT_COUNTS not in server.output()
        finally:
            server.stop()
    finally:
        store.stop()


# --- several workers starting on a new database ------------------------------------
# gunicorn -w 4 is started once on a new database (each worker makes the app and finds the schema to migrate: the
# real boot, end to end); the race itself, every worker migrating at the same moment, is run many times over by
# processes forked from this one (the app's code already loaded), which is what gunicorn's workers are.

WORKERS = 4
RACES = 5


def boots_cleanly(tmp_path, url: str) -> None:
    """A new database, gunicorn -w 4 on it: every worker loads the app (none fails to boot), the app answers, the
    schema is at its latest migration; then stopped."""
    server = start("gunicorn", tmp_path, {"DATABASE_URL": url, "SECRET_KEY": "boot"}, workers=WORKERS)
    try:
        text = server.wait_for_output(BOOTED, count=WORKERS)
        assert server.proc.poll() is None and "Traceback" not in text and "failed to boot" not in text, text
        assert Tablet(server.base).get("/")[0] == 200
        assert SPLIT_COUNTS in text  # four workers counting in memory are told they are split
    finally:
        server.stop()
    assert_at_head(url)


def assert_at_head(url: str) -> None:
    from referee.app import MIGRATIONS

    heads = {path.stem.split("_")[0] for path in (MIGRATIONS / "versions").glob("*.py")}
    engine = sqlalchemy.create_engine(url)
    with engine.connect() as conn:
        version = conn.execute(sqlalchemy.text("SELECT version_num FROM alembic_version")).scalars().all()
        games = conn.execute(sqlalchemy.text("SELECT count(*) FROM games")).scalar()
    engine.dispose()
    assert len(version) == 1 and version[0] in heads and games == 0


def _worker_starts(url: str, at_once) -> None:
    """A worker process making the app on ``url``, its migration begun at the moment the others' are."""
    from referee import app as app_module

    migrate = app_module._upgrade_or_create
    migrate = getattr(migrate, "migrate", migrate)  # the real migration, not the tests' copy of a migrated schema

    def together() -> None:
        at_once.wait(timeout=60)
        migrate()

    app_module._upgrade_or_create = together
    app_module.create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "boot"})


def workers_race_to_migrate(new_database) -> None:
    """RACES times: a new database (``new_database()`` makes it and returns its URL), and WORKERS processes making
    the app on it, all migrating at once: every one starts (none fails on a table another made), and the schema is
    at its latest migration."""
    import multiprocessing

    fork = multiprocessing.get_context("fork")
    for race in range(RACES):
        url = new_database(race)
        at_once = fork.Barrier(WORKERS)
        workers = [fork.Process(target=_worker_starts, args=(url, at_once)) for _ in range(WORKERS)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
        assert [worker.exitcode for worker in workers] == [0] * WORKERS, f"race {race}: a worker failed to start"
        assert_at_head(url)


def test_four_gunicorn_workers_starting_on_a_new_sqlite_database_all_boot(tmp_path):
    boots_cleanly(tmp_path, f"sqlite:///{tmp_path}/new.sqlite")


@pytest.mark.long
def test_four_workers_migrating_a_new_sqlite_database_at_the_same_moment_all_start(tmp_path):
    workers_race_to_migrate(lambda race: f"sqlite:///{tmp_path}/race-{race}.sqlite")


def _emptied(url: str) -> str:
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    return url


def test_four_gunicorn_workers_starting_on_a_new_postgresql_database_all_boot(postgresql, tmp_path):
    boots_cleanly(tmp_path, _emptied(postgresql))


def test_four_workers_migrating_a_new_postgresql_database_at_the_same_moment_all_start(postgresql):
    workers_race_to_migrate(lambda race: _emptied(postgresql))


def _key_of(instance: str) -> str:
    from pathlib import Path

    from referee.app import _secret_key

    return _secret_key(Path(instance))


def test_workers_starting_at_once_on_a_new_instance_all_read_one_secret_key(tmp_path, monkeypatch):
    import multiprocessing

    monkeypatch.delenv("SECRET_KEY", raising=False)
    with multiprocessing.get_context("fork").Pool(8) as pool:
        keys = pool.map(_key_of, [str(tmp_path)] * 32)
    assert len(set(keys)) == 1 and len(keys[0]) == 64
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no draft left behind
