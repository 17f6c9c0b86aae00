"""benchmarks/load.py tells a poll answered 204 from a table screen by the server's own CPU time for each answer:
with the SERVER_TIMING setting (REFEREE_SERVER_TIMING=1 where `referee serve` starts) every answer carries a
Server-Timing header; without it, as at a venue, none does."""
import re

from referee import create_app


def timed_app(tmp_path, **settings):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}", **settings})


def test_each_answer_says_the_servers_cpu_time_for_it_when_the_setting_asks(tmp_path):
    client = timed_app(tmp_path, SERVER_TIMING=True).test_client()
    for path, status in (("/", 200), ("/ping", 200), ("/no/such/page", 404)):
        answer = client.get(path)
        assert answer.status_code == status
        timing = re.fullmatch(r"app;dur=(\d+\.\d{3})", answer.headers["Server-Timing"])
        assert timing and 0 <= float(timing.group(1)) < 60_000, answer.headers["Server-Timing"]


def test_no_answer_says_its_time_at_a_venue(tmp_path):
    client = timed_app(tmp_path).test_client()
    assert "Server-Timing" not in client.get("/").headers


def test_the_environment_of_the_served_app_turns_it_on(monkeypatch, tmp_path):
    monkeypatch.setenv("REFEREE_SERVER_TIMING", "1")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'served.sqlite'}")
    monkeypatch.setenv("SECRET_KEY", "t")
    app = create_app()
    assert app.config["SERVER_TIMING"] is True and "Server-Timing" in app.test_client().get("/ping").headers
