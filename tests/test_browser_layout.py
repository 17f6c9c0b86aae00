"""Every screen at the sizes a venue uses, in every language: a phone (390x844), a portrait tablet (768x1024), a
landscape tablet (1024x768) and the projector (1920x1080), in English, Japanese, Korean and German.  On each page
nothing overlaps, nothing scrolls sideways and no text runs out of its box (tests/layout.js): the home page, the
tournaments, the director's page with 3 and with 16 tables, the standings, the room display, the judges' screen, a
table screen at every kind of decision the engine has with every panel open, the dispute view, the rulings, the
result, the log, the rules, the spectators' display, and the PIN screens of a table, a director and the judges; and axe-core finds no serious or critical accessibility
violation on any of them.  One page (a browser context) per language walks them all, each page loaded once and
measured at each size, the app's data made once per test process.  And the check itself fails when a top bar's links are forced
to overlap."""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass

import pytest

from browser_support import layout_problems, turned
from browser_support import armed
from test_browser_axe import AXE, axe_violations

from referee.engine import Game, Header, legal_actions, parse_entry
from referee.sim.policy import Policy
from referee.services import folds, games, judges, progress, rulesets, rulings, tournaments
from referee.screens.table import panel_names

SIZES = {"phone": (390, 844), "portrait": (768, 1024), "landscape": (1024, 768), "projector": (1920, 1080)}
NAMES = {"en": "English", "ja": "日本語", "ko": "한국어", "de": "Deutsch"}
PIN = "246802"
DIRECTOR_PIN = "135791"
PLAYERS = ["佐藤 葵", "Jürgen Groß", "김민수", "Anneliese Weiß-Schönberger"]
MANY = [f"{name} {k}" for k in range(1, 17) for name in ("Spieler", "選手", "선수", "Player")]


@dataclass(frozen=True)
class Sites:
    """The addresses the sweep visits, each with the name it is reported by."""

    pages: tuple[tuple[str, str], ...]
    locked: tuple[tuple[str, str], ...]  # the PIN screens, visited by a device not unlocked
    director_pins: tuple[tuple[int, str], ...]  # (tournament, PIN) to unlock before visiting
    table_pins: tuple[tuple[int, str], ...]  # (game, PIN)


def _decision_prefixes(seeds=range(1, 9), most=600) -> dict[str, list[dict]]:
    """For each kind of decision a random game reaches, the entries of a game that stops at it (its first time)."""
    ruleset = rulesets.load("jma-2006")
    found: dict[str, list[dict]] = {}
    for seed in seeds:
        rng = random.Random(seed)
        policy = Policy(rng, "random")
        game = Game(ruleset, Header("jma-2006", tuple(PLAYERS)))
        entries: list[dict] = []
        while len(entries) < most and not game.state.over:
            kind = type(game.state.pending).__name__
            found.setdefault(kind, list(entries))
            data = policy.choose(game.state, legal_actions(game.state)).to_dict()
            game.record(parse_entry(data))
            entries.append(data)
        if game.state.over:
            found.setdefault("GameOver", list(entries))
    return found


def _import(entries: list[dict], title: str) -> int:
    header = {"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": PLAYERS,
              "seating": "roll", "meta": {"title": title}}
    text = "\n".join([json.dumps(header, ensure_ascii=False)] + [json.dumps(e, ensure_ascii=False) for e in entries])
    return games.import_record(text + "\n", PIN)


def _played(game_id: int, rng: random.Random, entries: int) -> None:
    """Entries played on a tournament's table, the policy choosing, recorded as one run (each checked by the service
    against the table the one before leaves, as a tablet's taps are)."""
    policy = Policy(rng, "random")
    table = folds.load(game_id)
    game, run = table.game.copy(), []
    while len(run) < entries and not game.state.over:
        run.append(policy.choose(game.state, legal_actions(game.state)).to_dict())
        game.record(parse_entry(run[-1]))
    if run:
        games.record_run(game_id, run, table.seq)


@pytest.fixture(scope="module")
def sites(live) -> Sites:
    return build_sites(live[1])


def build_sites(app) -> Sites:
    """The data the sweep visits, made in the app's database, and the addresses to visit."""
    pages: list[tuple[str, str]] = [("home", "/"), ("tournaments", "/tournaments")]
    with app.app_context():
        rng = random.Random(3)
        # a tournament of 3 tables, round 1 played to its end and round 2 in play, with a call for a judge and rulings
        small = tournaments.create_tournament("Layout Cup / レイアウト杯 / 레이아웃 컵 / Layout-Pokal",
                                              "jma-placement", "jma-2006", MANY[:12], DIRECTOR_PIN, [70, 60])
        progress.seat_round(small)
        first = tournaments.round_overview(small, 1)
        for view in first:
            _played(view.game_id, rng, 10_000)
        progress.seat_round(small)
        second = tournaments.round_overview(small, 2)
        for view in second:
            _played(view.game_id, rng, 40)
        playing = second[0].game_id
        rulings.record_ruling(playing, 3, "Spieler 1: the dice left the table", "the roll stands", "dice", "referee")
        rulings.call_judge(playing, 5, folds.load(playing).game.state.players[1].name)
        judges.make_pin(small, judges.JUDGE)
        # a tournament of 16 tables, its first round in play
        big = tournaments.create_tournament("Großes Turnier 64", "jma-placement", "jma-2006", MANY,
                                            DIRECTOR_PIN, [90])
        progress.seat_round(big)
        for view in tournaments.round_overview(big, 1):
            _played(view.game_id, rng, 12)
        finished = first[0].game_id
        # a game of its own at every kind of decision the engine reaches
        decisions = {kind: _import(entries, f"Decision {kind}") for kind, entries in _decision_prefixes().items()}
        panels = {g: ",".join(sorted(panel_names(folds.load(g).game.state))) for g in decisions.values()}
    pages += [("director, 3 tables", f"/tournaments/{small}"), ("director, 16 tables", f"/tournaments/{big}"),
              ("standings", f"/tournaments/{small}/standings"), ("room display", f"/tournaments/{small}/display"),
              ("room display, 16 tables", f"/tournaments/{big}/display"),
              ("judges' screen", f"/tournaments/{small}/judge"),
              ("table in play", f"/games/{playing}?open={panels[decisions['AwaitRoll']]}"),
              ("dispute view", f"/games/{playing}/entries/5"), ("rulings", f"/games/{playing}/rulings"),
              ("result", f"/games/{finished}/result"), ("log", f"/games/{finished}/log"),
              ("rules", f"/games/{playing}/rules"), ("spectators' display", f"/games/{playing}/display"),
              ("finished table", f"/games/{finished}")]
    pages += [(f"decision {kind}", f"/games/{g}?open={panels[g]}") for kind, g in sorted(decisions.items())]
    locked = (("table's PIN screen", f"/games/{playing}/unlock"), ("director's PIN screen", f"/tournaments/{small}/unlock"),
              ("judges' PIN screen", f"/tournaments/{small}/judge/unlock"))
    return Sites(tuple(pages), locked, ((small, DIRECTOR_PIN), (big, DIRECTOR_PIN)),
                 tuple((g, PIN) for g in decisions.values()))


@pytest.fixture(scope="module")
def unlocked(live, chromium, sites) -> dict:
    """A device unlocked as the director of both tournaments and the referee of every game of its own: its cookies
    (each unlock is granted on the server to the device's session), made once per test process and handed to a
    device of each size and language."""
    server, app = live
    context = chromium.new_context()
    page = context.new_page()
    page.goto(server + "/")
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    for tid, pin in sites.director_pins:
        answer = page.request.post(f"{server}/tournaments/{tid}/unlock", form={"pin": pin, "csrf_token": token})
        assert answer.ok, answer.status
    for game_id, pin in sites.table_pins:
        answer = page.request.post(f"{server}/games/{game_id}/unlock", form={"pin": pin, "csrf_token": token})
        assert answer.ok, answer.status
    state = context.storage_state()
    context.close()
    return state


def _device(browser, server, unlocked: dict | None, size: tuple[int, int], lang: str):
    """The device (unlocked as ``unlocked`` says) at the size, in the language its language menu sets (its cookie),
    its pages' policy set aside so that axe-core's script can be added to them: to each page as it opens, the
    script handed to the browser once for the device (rather than once a page, which was a fifth of the sweep's CPU:
    a language's walk 24 CPU-s against 19.5, measured over the whole machine in one process)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True,
                                  storage_state=unlocked)
    context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    context.add_init_script(path=str(AXE))
    return context.new_page()


@pytest.mark.parametrize("lang", NAMES)
def test_every_page_lays_out_without_overlap_sideways_scroll_or_text_out_of_its_box(live, browser, sites, unlocked,
                                                                                    lang):
    """At every size: each page is loaded once in the language and its window then set to each size in turn, as a
    tablet turned or a window resized is (the stylesheet's widths and the script's folding of the top bar and its
    paging of the room display follow a resize, and are measured after the frame that redraws them).  And axe-core
    finds no serious or critical accessibility violation on them: each page in every language, at one size (page k
    at the size k + language counts to, modulo four: a Latin square of sizes and languages), as a run over every
    page at every size in every language takes minutes of the suite's time for the same findings (axe's rules read
    the page's words and colours, which a size does not change, and what a size does change, a colour under a
    text, each size still shows).  Its colour-contrast rule (over half of axe's time) in one language a page: the
    pages taken four at a time, each four in one language (the next four in the next) and so at each of the four
    sizes; the colours are the stylesheet's, the same in every language, and what a language changes, a longer
    text run out of its box onto another colour, is what the layout check above finds."""
    server, app = live
    sizes = list(SIZES.items())
    turn = list(NAMES).index(lang)
    found, violations = [], {}
    visits = [(unlocked, sites.pages), (None, sites.locked)]  # then the PIN screens, as a device not unlocked sees them
    for k, (storage, (name, address)) in enumerate((s, p) for s, pages in visits for p in pages):
        if k in (0, len(sites.pages)):
            page = _device(browser, server, storage, sizes[0][1], lang)
        answer = page.goto(server + address)
        assert answer.status == 200, (name, address, answer.status)
        assert page.url == server + address  # the page itself, not a PIN screen it sent the device to
        assert page.get_attribute("html", "lang") == lang
        for j, (size, (width, height)) in enumerate(sizes):
            turned(page, {"width": width, "height": height})
            found += [f"{size}: {name} ({address}): {p}" for p in layout_problems(page)]
            if (k + turn) % 4 == j:
                contrast = (k // 4 + turn) % 4 == 0
                violations.update({f"{name} ({size})": v for v in [axe_violations(page, contrast)] if v})
    assert not found, f"{lang}: {len(found)} problems:\n" + "\n".join(found[:60])
    assert violations == {}, json.dumps(violations, indent=1, ensure_ascii=False)


def test_the_check_finds_a_top_bar_whose_links_are_forced_to_overlap(live, browser):
    server, app = live
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    page.goto(server + "/tournaments")
    armed(page)
    page.add_style_tag(content="header.bar a { margin-right: -40px; }")
    problems = layout_problems(page)
    assert any(p.startswith("overlap:") and "Tournaments" in p for p in problems), problems
    assert re.search(r"referee", " ".join(problems))
