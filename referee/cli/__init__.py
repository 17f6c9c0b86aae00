"""The ``referee`` command: replay a game record, simulate random games."""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from typing import Callable, Sequence

from ..language import speaking
from ..services import rulesets
from ..services.record_file import split as record_lines
from ..engine import (
    Game, GameOver, GameState, LARGEST, MAX_PLAYERS, MAX_RECORD_BYTES, NotWhole, RecordError, RollOff, RulesetError,
    ended, parse_record, replay, stake_refusal, whole_number, with_options)
from ..engine import winner as game_winner
from ..engine import ranking as final_ranking
from ..screens.decisions import pending_words
from ..screens.refusals import detail as refusal_detail
from ..sim.simulate import CLOCKS, JAIL_MODES, PLAYER_NAMES, simulate


def state_summary(game: Game) -> dict:
    """The final state of a replayed game, as plain data."""
    state: GameState = game.state
    squares = state.ruleset.squares
    players = []
    for i, p in enumerate(state.players):
        deeds = [{
            "square": sq, "id": squares[sq].id, "name": squares[sq].name.get("en", squares[sq].id),
            "mortgaged": state.mortgaged[sq], "houses": state.houses_on(sq), "hotel": bool(state.hotels_on(sq)),
        } for sq in state.deeds_of(i)]
        players.append({
            "name": p.name, "cash": p.cash, "position": p.position,
            "square": squares[p.position].name.get("en", squares[p.position].id),
            "in_jail": p.in_jail, "jail_rolls": p.jail_rolls, "bankrupt": p.bankrupt,
            "deeds": deeds, "jail_cards": list(p.jail_cards),
        })
    winner = game_winner(state)  # known once play is over, even while a roll-off for a lower place is due
    ranking = [{
        "rank": st.rank, "name": st.name, "assets": st.assets.as_dict(), "bankrupt_order": st.bankrupt_order,
        "rolloff": list(st.rolloff), "decided": st.decided,
    } for st in final_ranking(state)] if ended(state) else None
    return {
        "ruleset": state.ruleset.id, "entries": len(game.entries), "effective_entries": len(game.effective),
        "turn": state.turn, "current_player": state.players[state.current].name if state.turn else None,
        "pending": pending_words(state), "game_over": ended(state),
        "rolloff_due": [r["name"] for r in ranking or () if not r["decided"]],  # the places a roll-off still decides
        "winner": state.players[winner].name if winner is not None else None,
        "players": players, "bank": {"houses": state.bank_houses, "hotels": state.bank_hotels},
        "free_parking_pot": state.pot, "time_called": state.time_called,
        "end": state.pending.reason if isinstance(state.pending, (RollOff, GameOver)) else None,  # ended(state)
        "ranking": ranking,
        "bank_money": state.bank_cash,
    }


def _print_summary(summary: dict, money) -> None:
    print(f"ruleset {summary['ruleset']}; {summary['entries']} entries; turn {summary['turn']}; "
          f"{summary['pending']}")
    if summary["winner"]:
        print(f"winner: {summary['winner']}")
    for p in summary["players"]:
        status = "bankrupt" if p["bankrupt"] else ("in jail" if p["in_jail"] else "")
        print(f"{p['name']}: cash {money(p['cash'])}, on {p['position']} {p['square']}"
              + (f" ({status})" if status else ""))
        for d in p["deeds"]:
            marks = []
            if d["mortgaged"]:
                marks.append("mortgaged")
            if d["hotel"]:
                marks.append("hotel")
            elif d["houses"]:
                marks.append(f"{d['houses']} houses")
            print(f"    {d['name']}" + (f" ({', '.join(marks)})" if marks else ""))
        for card in p["jail_cards"]:
            print(f"    card: {card}")
    bank_money = f"; {money(summary['bank_money'])} in cash" if summary["bank_money"] is not None else ""
    print(f"bank: {summary['bank']['houses']} houses, {summary['bank']['hotels']} hotels{bank_money}")
    if summary["ranking"]:
        due = summary["rolloff_due"]
        print(f"ranking ({summary['end']}), a roll-off still due for {', '.join(due)}:" if due
              else f"final ranking ({summary['end']}):")
        for r in summary["ranking"]:
            a = r["assets"]
            gone = f", bankrupt #{r['bankrupt_order']}" if r["bankrupt_order"] else ""
            place = f"{r['rank']}." if r["decided"] else f"{r['rank']}= (roll-off)"
            print(f"  {place} {r['name']}: {money(a['total'])} = cash {money(a['cash'])} + deeds "
                  f"{money(a['deeds'])} + mortgaged deeds {money(a['mortgaged_deeds'])} + {a['houses']} houses and "
                  f"{a['hotels']} hotels {money(a['buildings'])}{gone}")


def _read_record(path: str, command: str) -> str | None:
    """A record file's text, or None after a line on stderr saying why it cannot be read."""
    try:
        size = os.path.getsize(path)
        if size > MAX_RECORD_BYTES:
            print(f"referee {command}: {path}: {size:,} bytes: a record holds at most {MAX_RECORD_BYTES:,}",
                  file=sys.stderr)
            return None
        with open(path, encoding="utf-8-sig") as fh:
            return fh.read()
    except OSError as exc:
        print(f"referee {command}: cannot read {path}: {exc.strerror}", file=sys.stderr)
    except UnicodeDecodeError:
        print(f"referee {command}: {path} is not UTF-8 text", file=sys.stderr)
    return None


def cmd_replay(args: argparse.Namespace) -> int:
    text = _read_record(args.file, "replay")
    if text is None:
        return 1
    try:
        # its rulings and sign-offs are no facts of play
        header, entries = parse_record(record_lines(text.splitlines())[0])
        ruleset = rulesets.for_header(header)
        game = replay(ruleset, header, entries)
    except RecordError as exc:
        print(f"referee replay: {args.file}: {exc.where(refusal_detail(exc))}", file=sys.stderr)
        return 1
    except RulesetError as exc:
        print(f"referee replay: {args.file}: line 1: {exc}", file=sys.stderr)
        return 1
    summary = state_summary(game)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        _print_summary(summary, ruleset.money_text)
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    try:
        ruleset = with_options(rulesets.load(args.ruleset), dict(args.option), "referee simulate --option")
    except RulesetError as exc:
        print(f"referee simulate: {exc}", file=sys.stderr)
        return 1
    stake = stake_refusal(ruleset, PLAYER_NAMES[:args.players])
    if stake is not None:
        print(f"referee simulate: --players {args.players}: {stake.message}", file=sys.stderr)
        return 1
    if args.own_process:  # what the process made so far is never garbage: the collector no longer goes through the
        # libraries' objects as the games run (never where the command runs among other work, a test's: what is
        # set aside then, that work's garbage among it, would be kept for good)
        gc.freeze()
    stats = simulate(ruleset, args.games, args.seed, args.players, args.jail, args.max_turns, args.clock,
                     args.recount)
    result = stats.as_dict()
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        for key in ("games", "events", "turns", "seconds", "events_per_second", "turns_per_second"):
            print(f"{key}: {result[key]}")
        print("mechanisms:")
        for key, value in result["mechanisms"].items():
            print(f"  {key}: {value}")
        print("events_by_type:")
        for key, value in result["events_by_type"].items():
            print(f"  {key}: {value}")
        print("endings:")
        for key, value in result["endings"].items():
            print(f"  {key}: {value}")
        print("landings:")
        for key, value in result["landings"].items():
            print(f"  {key}: {value}")
        print(f"invariant_violations: {result['invariant_violations']}")
        for line in stats.violations[:10]:
            print(f"  {line}")
    return 0 if stats.invariant_violations == 0 else 1


def cmd_serve(args: argparse.Namespace) -> int:
    from .. import create_app

    app = create_app()
    if args.dev:  # the debugger runs code: never on the venue network unless told to
        app.run(host=args.host or "127.0.0.1", port=args.port, debug=True)
        return 0
    from ..app.serving import serve
    from ..store.db import db

    args.host = args.host or "0.0.0.0"
    with app.app_context():  # (the app made here checks the settings and migrates: the worker makes its own, and
        db.engine.dispose()  # opens its own connections, none carried across the fork that starts it)

    print(f"referee: serving on http://{args.host}:{args.port}/ (database: {app.config['SQLALCHEMY_DATABASE_URI']})",
          flush=True)
    serve(args.host, args.port)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from .. import create_app
    from ..app.demo import DEMO_PIN, build_demo

    app = create_app()
    with app.app_context():
        tournament_id = build_demo(args.seed, args.max_turns)
    print(f"demo tournament {tournament_id}: one round played; director PIN {DEMO_PIN}")
    print(f"  standings: /tournaments/{tournament_id}/standings   director: /tournaments/{tournament_id}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check every game's stored record: its hash chain, that every entry still replays, and the chains of its
    rulings and sign-offs; or, given record files, each file as an import would check it."""
    if args.files:
        return _verify_files(args.files)
    from .. import create_app
    from ..services import folds, rulings, signoffs

    app = create_app({"SQLALCHEMY_DATABASE_URI": args.database, "SECRET_KEY": "verify"} if args.database else None)
    with app.app_context():
        total, broken = folds.verify_all()
        ruled = [(row.id, row.title, n) for row, n in rulings.verify_all()]
        signed = [(row.id, row.title, n, player) for row, n, player in signoffs.verify_all()]
    for row, altered in broken:
        what = {"changed": "its stored text is not the one recorded", "missing": "a stored entry is missing",
                "inserted": "an entry was inserted", "header": f"the header cannot be read ({altered.detail})"
                }.get(altered.reason, f"it no longer follows the rules ({altered.detail})")
        title = f' "{row.title}"' if row.title else ""
        print(f"game {row.id}{title}: the record was altered at entry {altered.at}: {what}")
    for game_id, title, n in ruled:
        named = f' "{title}"' if title else ""
        print(f"game {game_id}{named}: its rulings were altered at ruling {n}: its stored text is not the one recorded")
    for game_id, title, n, player in signed:
        named, whose = (f' "{title}"' if title else ""), (f" ({player})" if player else "")
        print(f"game {game_id}{named}: its sign-offs were altered at sign-off {n}{whose}: its stored text is not "
              "the one signed")
    print(f"referee verify: {total} game(s) checked, {len(broken)} altered"
          + (f", {len(ruled)} with altered rulings" if ruled else "")
          + (f", {len(signed)} with altered sign-offs" if signed else ""))
    return 1 if broken or ruled or signed else 0


def _verify_files(paths: list[str]) -> int:
    """``referee verify FILE...``: each record file checked as an import checks it (its entries replayed, its
    rulings as if recorded then, its sign-offs' hash chain and what they name), nothing written."""
    from ..services import record_file

    bad = 0
    for path in paths:
        text = _read_record(path, "verify")
        if text is None:
            bad += 1
            continue
        try:
            found = record_file.check(text)
        except RecordError as exc:
            print(f"{path}: {exc.where(refusal_detail(exc))}")
            bad += 1
        except RulesetError as exc:
            print(f"{path}: line 1: {exc}")
            bad += 1
        else:
            title = found.header.meta.get("title")
            named = f' "{title}"' if isinstance(title, str) and title else ""
            print(f"{path}{named}: {len(found.game.entries)} entries, {len(found.sides.rulings)} ruling(s), "
                  f"{len(found.sides.signoffs)} sign-off(s): as written")
    print(f"referee verify: {len(paths)} file(s) checked, {bad} not as written")
    return 1 if bad else 0


def cmd_organiser_password(args: argparse.Namespace) -> int:
    """Set (or, with --remove, take away) the organiser password that closes the creation of games and
    tournaments: its hash goes to instance/organiser_password."""
    from pathlib import Path

    from ..services import pins
    from ..store.backup import instance_folder

    instance = Path(args.instance) if args.instance else instance_folder()
    instance.mkdir(parents=True, exist_ok=True)
    if args.remove:
        pins.remove_organiser_password(instance)
        print("referee organiser-password: removed; anyone who reaches the app may create games and tournaments")
        return 0
    password = _new_secret(args, "organiser password")
    if password is None:
        print("referee organiser-password: the two did not match; nothing was changed", file=sys.stderr)
        return 1
    if len(password) < pins.ORGANISER_PASSWORD_MIN:
        print(f"referee organiser-password: at least {pins.ORGANISER_PASSWORD_MIN} characters, please; "
              "nothing was changed", file=sys.stderr)
        return 1
    path = pins.write_organiser_password(instance, password)
    print(f"referee organiser-password: written to {path}; creating games and tournaments now needs it")
    return 0


def _new_secret(args: argparse.Namespace, prompt: str) -> str | None:
    """A new PIN or password typed twice (or read from the first line of stdin with --stdin); None when the two
    differ."""
    import getpass

    if args.stdin:
        return sys.stdin.readline().rstrip("\n")
    secret = getpass.getpass(f"{prompt}: ")
    return secret if getpass.getpass("again: ") == secret else None


def cmd_director_pin(args: argparse.Namespace) -> int:
    """Set a new director's PIN for a tournament, on the server: the way back in for a director who forgot it or
    whose PIN was guessed at until refused (wrong tries are counted afresh for the new PIN)."""
    from .. import create_app
    from ..engine import RefereeError
    from ..screens.refusals import detail
    from ..services import tournaments

    app = create_app({"SQLALCHEMY_DATABASE_URI": args.database, "SECRET_KEY": "director-pin"}
                     if args.database else None)
    with app.app_context(), app.test_request_context():
        try:
            name = tournaments.get_tournament(args.tournament).name
        except RefereeError as exc:
            print(f"referee director-pin: {detail(exc)}; nothing was changed", file=sys.stderr)
            return 1
        pin = _new_secret(args, f"new director's PIN for tournament {args.tournament} ({name})")
        if pin is None:
            print("referee director-pin: the two did not match; nothing was changed", file=sys.stderr)
            return 1
        try:
            tournaments.set_director_pin(args.tournament, pin)
        except RefereeError as exc:
            print(f"referee director-pin: {detail(exc)}; nothing was changed", file=sys.stderr)
            return 1
    print(f"referee director-pin: tournament {args.tournament} ({name}) has a new director's PIN; the old one opens "
          "nothing more (the devices it unlocked are locked), and the new one opens the director's page at once")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from .. import create_app, reports
    from ..services import errors

    app = create_app()
    with app.app_context(), app.test_request_context():
        try:
            if args.kind == "standings":
                data = reports.standings_pdf(args.tournament, args.size)
            elif args.kind == "game":
                data = reports.game_pdf(args.game, args.size)
            else:
                data = reports.scoresheet_pdf(args.players, args.size)
        except errors.GameNotFound as exc:
            print(f"referee report: {exc}", file=sys.stderr)
            return 1
    with open(args.out, "wb") as fh:
        fh.write(data)
    print(f"referee report: wrote {args.out} ({len(data):,} bytes)")
    return 0


def _backup_url(args: argparse.Namespace) -> str:
    from ..store import backup

    return backup.as_url(args.database) if args.database else backup.database_url()


def cmd_backup(args: argparse.Namespace) -> int:
    """Back the app's database up: SQLite's online backup (safe while serving), or pg_dump for PostgreSQL."""
    from pathlib import Path

    from ..store import backup

    try:
        url = _backup_url(args)
        result = backup.backup(url, Path(args.out) if args.out else None)
    except backup.BackupError as exc:
        print(f"referee backup: {exc}", file=sys.stderr)
        return 1
    kind = "SQLite online backup" if result.kind == "sqlite" else "pg_dump custom format"
    print(f"referee backup: wrote {result.path} ({result.size:,} bytes, {kind})")
    print(f"  check: {result.check}")
    if result.kind == "postgresql":
        print(f"  restore: referee restore {result.path} --yes  (runs {backup.pg_restore_command(url, result.path)})")
    else:
        print(f"  restore: referee restore {result.path} --yes")
    return 0 if result.check.ok else 1


def cmd_restore(args: argparse.Namespace) -> int:
    """Replace the app's database with a backup: only with --yes, and only a backup of a referee database."""
    from pathlib import Path

    from ..store import backup

    try:
        url = _backup_url(args)
        plan = backup.plan_restore(url, Path(args.file))
        now = f"{plan.current}" if plan.current is not None else "no referee database yet"
        if not args.yes:
            print(f"referee restore: would replace the database {plan.target} ({now}) with the backup {plan.source} "
                  f"({plan.backup.counts}); nothing was changed: run again with --yes to restore it", file=sys.stderr)
            return 1
        result = backup.restore(url, Path(args.file))
    except backup.BackupError as exc:
        print(f"referee restore: {exc}", file=sys.stderr)
        return 1
    if result.kept:
        print(f"referee restore: the database it replaced ({now}) is kept in {result.kept}")
    print(f"referee restore: restored {plan.source} into {plan.target}: {result.check}")
    print("  restart the app if it is running, so every screen reads the restored games")
    return 0


def _whole(minimum: int, maximum: int = LARGEST) -> Callable[[str], int]:
    """An argument's type: a whole number from ``minimum`` to ``maximum`` (the engine's reading of every number the
    app is given), refused naming the limits and what was typed."""
    def read(text: str) -> int:
        try:
            return whole_number("value", text, minimum, maximum)
        except NotWhole as exc:
            limits = f"at least {minimum}" if maximum == LARGEST else f"{minimum} to {maximum}"
            raise argparse.ArgumentTypeError(f"must be a whole number {limits}, got {exc.value}") from None
    return read


_positive = _whole(1)
_players = _whole(2, len(PLAYER_NAMES))


def _option(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        return name.strip(), json.loads(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the value of {name.strip()!r} is not JSON (true, 2, \"tax\"): {value!r}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description="Monopoly tournament referee")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a game record and print the final state")
    rp.add_argument("file")
    rp.add_argument("--json", action="store_true", help="print the final state as JSON")
    rp.set_defaults(func=cmd_replay)
    sp = sub.add_parser("simulate", help="play random games and check the invariants")
    sp.add_argument("--games", type=_positive, default=100)
    sp.add_argument("--seed", type=_whole(-LARGEST), default=0)
    sp.add_argument("--players", type=_players, default=4)
    sp.add_argument("--ruleset", default=rulesets.DEFAULT_RULESET)
    sp.add_argument("--jail", choices=JAIL_MODES, default="random")
    sp.add_argument("--max-turns", type=_positive, default=1000,
                    help="time is called when this turn is over, at the latest")
    sp.add_argument("--clock", choices=CLOCKS, default="random",
                    help="random: each game's time is called after a turn drawn from 1 to --max-turns, as a "
                    "round's clock finds its tables at different points; max: always after --max-turns")
    sp.add_argument("--recount", action="store_true",
                    help="also recount the whole board after every event (slower: checks the quick invariants)")
    sp.add_argument("--option", type=_option, action="append", default=[], metavar="NAME=VALUE",
                    help="play an option of the ruleset with another value (VALUE in JSON: true, 2, \"tax\"), "
                    "as a game's header does; repeatable")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_simulate)
    sv = sub.add_parser("serve", help="run the tablet web app (granian; --dev for Flask's reloading server)")
    sv.add_argument("--host", default=None, help="address to listen on (default: every interface, so the tablets on "
                    "the venue network can reach it; with --dev, 127.0.0.1 only: the debugger runs code)")
    sv.add_argument("--port", type=_whole(0, 65535), default=5000)
    sv.add_argument("--dev", action="store_true", help="Flask's development server with the debugger")
    sv.set_defaults(func=cmd_serve)
    dm = sub.add_parser("demo", help="fill the database with a demo tournament: one round of real games")
    dm.add_argument("--seed", type=_whole(-LARGEST), default=1)
    dm.add_argument("--max-turns", type=_positive, default=120, help="turns before time is called on a table")
    dm.set_defaults(func=cmd_demo)
    vf = sub.add_parser("verify", help="check every stored game record (hash chains of its entries, rulings and "
                        "sign-offs, and replay); names each broken game. Given record files, checks those instead")
    vf.add_argument("files", nargs="*", metavar="FILE", help="record files (.jsonl) to check instead of a database")
    vf.add_argument("--database", help="a database URL (default: the app's, as `referee serve` uses)")
    vf.set_defaults(func=cmd_verify)
    op = sub.add_parser("organiser-password", help="close the creation of games and tournaments behind a password "
                        "(its hash is kept in instance/organiser_password)")
    op.add_argument("--stdin", action="store_true", help="read the password from the first line of stdin")
    op.add_argument("--remove", action="store_true", help="open creation to anyone again")
    op.add_argument("--instance", help="the instance folder (default: REFEREE_INSTANCE, else instance/ beside the app)")
    op.set_defaults(func=cmd_organiser_password)
    dp = sub.add_parser("director-pin", help="set a new director's PIN for a tournament (a forgotten PIN, or one "
                        "refused after too many wrong tries)")
    dp.add_argument("--tournament", type=_positive, required=True, help="the tournament's number (its address "
                    "/tournaments/N)")
    dp.add_argument("--stdin", action="store_true", help="read the PIN from the first line of stdin")
    dp.add_argument("--database", help="a database URL (default: the app's, as `referee serve` uses)")
    dp.set_defaults(func=cmd_director_pin)
    rp2 = sub.add_parser("report", help="print a report as PDF: standings, a game's result sheet, a score sheet")
    rp2.add_argument("kind", choices=("standings", "game", "scoresheet"))
    rp2.add_argument("--tournament", type=_positive)
    rp2.add_argument("--game", type=_positive)
    rp2.add_argument("--players", type=_whole(2, MAX_PLAYERS), default=4)
    rp2.add_argument("--size", choices=("A4", "Letter"), default="A4")
    rp2.add_argument("--out", required=True)
    rp2.set_defaults(func=cmd_report)
    bk = sub.add_parser("backup", help="back the database up (SQLite's online backup, safe while serving; pg_dump "
                        "for PostgreSQL)")
    bk.add_argument("--out", help="the backup file, or a folder for it (default: "
                    "instance/backups/referee-YYYYmmdd-HHMMSS.sqlite, or .dump for PostgreSQL)")
    bk.add_argument("--database", help="a database URL or SQLite file (default: the app's, as `referee serve` uses)")
    bk.set_defaults(func=cmd_backup)
    rs = sub.add_parser("restore", help="replace the database with a backup (SQLite's online backup; pg_restore for "
                        "PostgreSQL); the database it replaces is backed up first")
    rs.add_argument("file", help="a file made by `referee backup`")
    rs.add_argument("--yes", action="store_true", help="do it (without: say what would be replaced, change nothing)")
    rs.add_argument("--database", help="a database URL or SQLite file (default: the app's, as `referee serve` uses)")
    rs.set_defaults(func=cmd_restore)
    return parser


def main(argv: Sequence[str] | None = None, own_process: bool = False) -> int:
    """The command line: what it says of a game (a refusal, a pending decision, a report) in English, naming the
    published documents as an English screen does.  ``own_process``: the process runs this command and nothing else
    (:func:`command`)."""
    args = build_parser().parse_args(argv)
    args.own_process = own_process
    with speaking(rulesets.language("en")):
        return args.func(args)


def command() -> int:
    """The ``referee`` command, in a process of its own (its console script, ``python -m referee.cli``)."""
    return main(own_process=True)

