"""Every value the process keeps lives in referee/cache/, named for what it holds and by what: no module keeps
one of its own (a functools cache, a dictionary filled as asked), and ``empty_all`` empties them all, after which
what is asked is made afresh from what it is made of (a changed file read again, a game's fold read again from the
database), never served stale."""
import ast
import random
from pathlib import Path

import flask

from referee import cache, language, reports
from referee.cache import empty_all, KEPT
from referee.engine import Game, Header
from referee.screens.holdings import board_places
from referee.app.demo import play_table
from referee.services import folds, grants, progress, rulesets, table_views, tournaments
from referee.store.db import db
from referee.web.views import cards

from conftest import new_game, post

REFEREE = Path(__file__).resolve().parent.parent / "referee"


def test_every_kept_value_is_named_for_what_it_holds_and_by_what():
    named = {name: value for name, value in vars(cache).items() if isinstance(value, cache.Cache)}
    assert sorted(map(id, named.values())) == sorted(map(id, KEPT))  # each one a name of referee/cache/
    assert all(kept.holds and kept.size > 0 for kept in KEPT)
    assert len({kept.holds for kept in KEPT}) == len(KEPT)


def kept_elsewhere(path: Path) -> list[str]:
    """What ``path`` keeps of its own: a functools cache on a function, a Cache made at module level, a module-level
    dictionary written to by a function of the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                text = ast.unparse(decorator)
                if any(word in text for word in ("lru_cache", "functools.cache", "cache")) and "kept_in" not in text:
                    found.append(f"{node.name}: @{text}")
    module_dicts = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                    if isinstance(t, ast.Name) and isinstance(node.value, (ast.Dict, ast.Call))
                    and (not isinstance(node.value, ast.Call) or ast.unparse(node.value.func) in ("dict", "Cache"))}
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) \
                and node.value.id in module_dicts:
            found.append(f"{node.value.id}[...] = ...")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Cache" \
                and path.parent.name not in ("cache", "views"):
            found.append("Cache(...)")
    return found


def test_no_module_keeps_a_value_of_its_own():
    """The engine's plans of legal_actions and the simulator's kinds asked at once are the two tables of code facts
    kept where they are used (cache.py's docstring says why), and the kinds of entry are registered, as their
    modules are imported, in the engine's and the screens' registries; nothing else is kept outside
    referee/cache/ (the web's drawn cards are each app's own, in app.extensions)."""
    found = {f"{path.relative_to(REFEREE)}: {what}" for path in sorted(REFEREE.rglob("*.py"))
             for what in kept_elsewhere(path)}
    assert found == {"engine/rules.py: _PLANS[...] = ...", "sim/policy.py: _ASKED[...] = ...",
                     "engine/registry.py: KINDS[...] = ...", "engine/registry.py: HANDLERS[...] = ...",
                     "screens/kind.py: SCREENS[...] = ..."}


def test_the_check_finds_a_module_that_keeps_its_own(tmp_path):
    written = tmp_path / "kept.py"
    written.write_text("import functools\nfrom functools import lru_cache\n_SEEN = {}\n\n"
                       "@functools.cache\ndef a(): return 1\n\n@lru_cache(maxsize=None)\ndef b(): return 2\n\n"
                       "def c(k):\n    _SEEN[k] = k\n", encoding="utf-8")
    assert sorted(kept_elsewhere(written)) == ["_SEEN[...] = ...", "a: @functools.cache", "b: @lru_cache(maxsize=None)"]


def fill_all(app, client) -> None:
    """Ask for what fills every kept value: the rulesets' files and the languages, a statement, a board's places, a
    number on paper, a card's fields, a game's fold, a tournament's roster and progress, a live page's version,
    a finished result, a session cookie checked and the tablet's offline kit."""
    game_id = new_game(client)
    post(client, game_id, 0, {"type": "time_called"})
    post(client, game_id, 1, {"type": "roll", "player": "Aki", "dice": [4, 6]})  # the last roll
    for seq, (player, dice) in enumerate((("Aki", [6, 6]), ("Ben", [3, 4]), ("Chie", [1, 2])), start=2):
        post(client, game_id, seq, {"type": "rolloff", "player": player, "dice": dice})  # equal assets: ranked by dice
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "\n".join(f"P{i}" for i in range(4)), "pin": "135791",
                                          "round_minutes": "70"})
    tid = int(r.headers["Location"].rsplit("/", 1)[-1])
    with app.app_context():  # a round played out and the next seated: the director's page keeps the tables' ends and
        # values, the finished round whole and the rounds' ends
        progress.seat_round(tid, 1)
        for k, view in enumerate(tournaments.round_overview(tid, 1)):
            play_table(view.game_id, random.Random(k), 3)
        progress.seat_round(tid, 2)
        db.session.remove()
    assert client.get(f"/tournaments/{tid}").status_code == 200
    live = client.get(f"/tournaments/{tid}/standings?v=old", headers={"HX-Request": "true"})  # its version, shared
    assert live.status_code == 200
    assert client.get("/offline/kit.zip").status_code == 200
    jma = rulesets.load("jma-2006")
    rulesets.load_scheme("jma-placement")
    rulesets.load_format("open")
    with language.speaking(rulesets.language("ko")):
        board_places(jma)
    language.locale("ko")
    grants._look_up_statement(1)
    reports._number_in("de", 1234567, 0)
    cards._drawn_from(folds.LoadedGame)
    with app.app_context():
        table = folds.load(game_id)
        assert table.game.state.over
        table_views._final_result(table.row.id, table.fold)


def test_empty_all_empties_every_kept_value_and_what_is_asked_next_is_made_afresh(app, client, tmp_path,
                                                                                   monkeypatch):
    fill_all(app, client)
    assert [kept.holds for kept in KEPT if not kept._values] == []
    empty_all()
    assert [kept.holds for kept in KEPT if kept._values] == []
    # nothing stale: a notes file changed since it was read is read again, the language's words with it
    monkeypatch.setattr(rulesets, "NOTES_DIR", tmp_path)
    (tmp_path / "jma-2006.ko.toml").write_text('[notes.doubles_to_jail]\nen = "a"\nko = "가"\n', encoding="utf-8")
    assert rulesets.language("ko").note("jma-2006", "doubles_to_jail") == ("a", "가")
    (tmp_path / "jma-2006.ko.toml").write_text('[notes.doubles_to_jail]\nen = "b"\nko = "나"\n', encoding="utf-8")
    assert rulesets.language("ko").note("jma-2006", "doubles_to_jail") == ("a", "가")  # kept
    empty_all()
    assert rulesets.language("ko").note("jma-2006", "doubles_to_jail") == ("b", "나")
    empty_all()
    assert not flask.has_app_context()


def test_a_fold_emptied_is_read_again_whole_from_the_database(app, client):
    game_id = new_game(client)
    post(client, game_id, 0, {"type": "time_called"})
    post(client, game_id, 1, {"type": "roll", "player": "Aki", "dice": [4, 6]})
    with app.app_context():
        kept = folds.load(game_id)
        assert folds.load(game_id).game is kept.game  # kept
        empty_all()
        again = folds.load(game_id)
        assert again.game is not kept.game and again.game.to_lines() == kept.game.to_lines()


def test_a_game_of_a_ruleset_read_again_plays_as_before():
    first = rulesets.load("classic")
    empty_all()
    second = rulesets.load("classic")
    assert second is not first and second == first
    assert Game(second, Header("classic", ("A", "B"), seating="fixed")).state.pending == Game(
        first, Header("classic", ("A", "B"), seating="fixed")).state.pending


def test_a_value_made_for_a_holder_weakly_is_given_back_while_the_holder_lives_and_never_to_another():
    import gc
    import weakref

    from referee.cache import Cache

    class Holder:
        pass

    cache: Cache = Cache(8)
    holder = Holder()
    gone = weakref.ref(holder)
    assert cache.made_for(holder, "card", lambda: "drawn", weakly=True) == "drawn"
    assert cache.made_for(holder, "card", lambda: "drawn again", weakly=True) == "drawn"
    del holder
    gc.collect()
    assert gone() is None  # the kept value does not keep its holder alive
    for _ in range(50):  # a later object, which may be given the freed one's id: never the value kept for that one
        assert cache.made_for(Holder(), "card", lambda: "new", weakly=True) == "new"
