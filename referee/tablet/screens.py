"""The table screen drawn on the tablet: the project's own templates (``templates/table/``) laid out from the same
values as on the server (:func:`referee.screens.table.table_screen` and :func:`~referee.screens.table.live_view`),
in the same words (the compiled catalogues, the published documents' words) and with the same addresses
(:class:`Addresses`, made from the server's own URL rules).  A tap on that screen is read as the server reads a form
(:func:`referee.screens.forms.entry_from_form`), checked by the engine, and answered with the live region as the
server would answer it: the entries recorded in the log's words, or the refusal with its clause.

Nothing here is a second implementation: the tablet runs the server's screens, templates and engine, and adds what
only the tablet knows (its kept record, its own clock since the server's last screen, its keys)."""
from __future__ import annotations

import json
import math
import secrets
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping
from urllib.parse import quote, urlencode

from jinja2 import ChoiceLoader, FileSystemLoader, ModuleLoader
from markupsafe import Markup

from ..engine import (chain, Clock, Game, IllegalEntry, MalformedEntry, Outcome, parse_entry, RefereeError,
                      run_key, StaleEntry, whole_field)
from ..language import current, current_language, gettext as _, Language, speaking
from ..language.templates import template_words
from ..screens.forms import entry_from_form, following_entry, not_a_table_form
from ..screens.log import log_lines
from ..screens.table import live_view, panel_names, recorded, refusal, table_screen
from ..screens.templating import COMPILED_TEMPLATES, environment
from .table import KeptTable, RulesetFiles

VARIABLE = r"<(?:[a-z]+:)?([a-z_]+)>"  # a variable of a URL rule: <int:game_id>, <name>


class Addresses:
    """The server's addresses, made on the tablet as Flask's ``url_for`` makes them: each endpoint's URL rule
    (``/games/<int:game_id>/panel/<name>``, as the server's URL map has it) with its variables put in, the other
    values as the query string, under the site's root (``/venue`` behind a proxy that mounts the app there)."""

    def __init__(self, rules: Mapping[str, str], root: str = "") -> None:
        import re

        self.rules = dict(rules)
        self.root = root.rstrip("/")
        self._variable = re.compile(VARIABLE)

    def __call__(self, endpoint: str, **values: Any) -> str:
        rule = self.rules.get(endpoint)
        if rule is None:
            raise KeyError(f"the tablet has no address for {endpoint!r}")
        anchor = values.pop("_anchor", None)

        def put(match: Any) -> str:
            return quote(str(values.pop(match.group(1))), safe="")

        path = self._variable.sub(put, rule)
        query = urlencode([(k, v) for k, v in values.items() if v is not None], doseq=True)
        return self.root + path + (f"?{query}" if query else "") + (f"#{quote(str(anchor))}" if anchor else "")


@dataclass(frozen=True)
class TableFacts:
    """What the server's last screen of the table said beyond its record (the live region's ``data-kept``): the
    game's number, its time limit, what its clock had run and whether it ran, the judge's line (rulings recorded,
    a tournament's table, an open call) and the form token the screen's forms carry."""

    game: int
    limit_minutes: int | None
    elapsed: float
    running: bool
    judge: Mapping[str, Any]
    csrf: str

    @classmethod
    def read(cls, facts: Mapping[str, Any]) -> TableFacts:
        return cls(int(facts["game"]), facts.get("limit_minutes"), float(facts["elapsed"]), bool(facts["running"]),
                   dict(facts["judge"]), str(facts["csrf"]))


@dataclass(frozen=True)
class Row:
    """The game's row as the table's templates read it: its number and its time limit."""

    id: int
    time_limit_minutes: int | None


class FormPairs:
    """A form as the browser sends it (its fields in order, a name perhaps repeated), read as the server reads a
    request's form: ``[]``, ``get``, ``getlist`` and ``items`` (the first value of each name)."""

    def __init__(self, pairs: Iterable[tuple[str, str]]) -> None:
        self.pairs = [(str(k), str(v)) for k, v in pairs]

    def __getitem__(self, name: str) -> str:
        for k, v in self.pairs:
            if k == name:
                return v
        raise KeyError(name)

    def get(self, name: str, default: Any = None) -> Any:
        try:
            return self[name]
        except KeyError:
            return default

    def getlist(self, name: str) -> list[str]:
        return [v for k, v in self.pairs if k == name]

    def items(self) -> list[tuple[str, str]]:
        seen: dict[str, str] = {}
        for k, v in self.pairs:
            seen.setdefault(k, v)
        return list(seen.items())


@dataclass(frozen=True)
class KeptEntry:
    """An entry recorded on the tablet, as it is kept and sent to the server (``/games/ID/sync``): the key of the
    form it was tapped on (each entry of a run its own), the entry as JSON values, the number of entries before
    it."""

    key: str
    entry: Mapping[str, Any]
    after: int
    at: int | None = None  # when it was tapped, by the tablet's clock (seconds since 1970, UTC)

    def as_dict(self) -> dict[str, Any]:
        made = {"key": self.key, "entry": dict(self.entry), "after": self.after}
        return made if self.at is None else {**made, "at": self.at}


@dataclass(frozen=True)
class Taken:
    """A tap's entries recorded on the tablet: the table's entries before them, what each did, and the entries as
    kept (to send when the server is back)."""

    before: int
    outcomes: list[Outcome]
    entries: list[KeptEntry]


class TabletScreens:
    """The templates and words the tablet draws with: the kit's ``templates`` folder and the same templates compiled
    by the server (``compiled``: Jinja's compiled modules, a fifth of the time of compiling them here, where the
    first screen drawn offline waits for them), the screens' functions and filters, the languages (``code ->
    Language``) and the server's addresses."""

    def __init__(self, templates: Path, addresses: Addresses, languages: Mapping[str, Language],
                 compiled: Path | None = None) -> None:
        self.addresses = addresses
        self.languages = dict(languages)
        self.sources = FileSystemLoader(str(templates))
        env = environment(ChoiceLoader([ModuleLoader(str(compiled)), self.sources]) if compiled else self.sources)
        env.globals.update(template_words(lambda: current().translations))
        env.globals.update(url_for=addresses, current_language=current_language)
        self.env = env
        self._cold: list[str] | None = None  # the templates not compiled yet (:meth:`warm`)

    def language(self, code: str) -> Language:
        return self.languages.get(code) or self.languages["en"]

    def warm(self) -> bool:
        """Compile the next template not compiled yet (a decision's, a kind's panel...), so that the first tap that
        shows it does not wait for it: called while the tablet is idle, one at a time.  False once all are."""
        if self._cold is None:
            self._cold = sorted(name for name in self.sources.list_templates() if name.endswith(".html"))
        if self._cold:
            self.env.get_template(self._cold.pop())
        return bool(self._cold)


def kit_screens(kit: Path, root: str = "") -> TabletScreens:
    """The screens of an offline kit unpacked at ``kit`` (:mod:`referee.web.offline`): its templates, its
    addresses under the site's ``root``, its languages (the compiled catalogues in the kit's
    ``referee/language``, the documents' words in ``languages.json``)."""
    def read(name: str) -> Any:
        return json.loads((kit / name).read_text(encoding="utf-8"))

    languages = {code: Language(code, sources=words["sources"],
                                notes={rid: {key: (texts[0], texts[1]) for key, texts in notes.items()}
                                       for rid, notes in words["notes"].items()})
                 for code, words in read("languages.json").items()}
    compiled = kit / COMPILED_TEMPLATES
    return TabletScreens(kit / "templates", Addresses(read("addresses.json"), root), languages,
                         compiled if compiled.is_dir() else None)


def _seen(value: Any, now: float) -> float:
    """When the tablet saw the facts it kept (seconds, its own clock): ``now`` where it kept no such time, or one
    that is not a time (its storage is the device's: never trusted to be whole)."""
    try:
        seen = float(value)
    except (TypeError, ValueError):
        return now
    return seen if math.isfinite(seen) else now


class TabletTable:
    """A table refereed on the tablet: its kept record (:class:`KeptTable`), what the server's last screen said of
    it (:class:`TableFacts`, read at ``since``, the tablet's time then: the facts' ``seen`` where the tablet kept
    them from an earlier screen, its game clock running on since; else now) and its screen, drawn in ``code``'s
    language.  ``clock``: the tablet's time in seconds (``time.time``)."""

    def __init__(self, screens: TabletScreens, rulesets: RulesetFiles, record: str, facts: Mapping[str, Any],
                 code: str, clock: Callable[[], float] = time.time, alone: bool = False) -> None:
        self.screens = screens
        self.table = KeptTable(rulesets, record)
        self.clock = clock
        self.code = code
        self.facts = TableFacts.read(facts)
        self.since = min(clock(), _seen(facts.get("seen"), clock()))
        self.kept: list[KeptEntry] = []
        self.alone = alone  # a game on this tablet alone (:mod:`.alone`): no server to send its entries to
        self.waited = False  # taken from the server because it was slow to answer a tap (not cut off): its banner

    def replay(self, kept: Iterable[Mapping[str, Any]]) -> int:
        """The entries this tablet kept after the record it opened (``{key, entry, after}``, as :meth:`tap` gave
        them), recorded again in order: the tablet reopened while the server cannot be reached.  How many entries
        the table has; a kept entry that no longer follows (the record opened is not the one they were tapped on)
        raises :class:`StaleEntry` and records nothing more."""
        for each in kept:
            entry = KeptEntry(str(each["key"]), dict(each["entry"]), int(each["after"]),
                              int(each["at"]) if each.get("at") is not None else None)
            if entry.after != self.table.seq:
                raise StaleEntry.behind(entry.after, self.table.seq)
            self.table.record_run([entry.entry])
            self.kept.append(entry)
        return self.table.seq

    def resume(self, facts: Mapping[str, Any]) -> int:
        """The table taken again from the server's screen (the tablet kept it folded beside that screen, at the same
        entry): what that screen says beyond the record (``facts``, its ``data-kept``) read now, and no entry kept
        (the server has every one).  How many entries it has."""
        self.facts = TableFacts.read(facts)
        self.since = self.clock()
        self.kept = []
        return self.table.seq

    def game_clock(self) -> Clock:
        """The game clock as the tablet runs it: what it had run at the server's last screen, and since then on the
        tablet's own time while it runs (the game's end, or time called, stops it, as on the server)."""
        facts = self.facts
        state = self.table.game.state
        running = facts.running and not state.over and not state.time_called
        elapsed = facts.elapsed + (max(0.0, self.clock() - self.since) if running else 0.0)
        limit = facts.limit_minutes * 60 if facts.limit_minutes else None
        return Clock(limit, elapsed, running)

    def set_clock(self, action: str) -> str:
        """The game clock started (``start``) or paused (``pause``) by the tablet, as the server's ``table.set_clock``
        does, and the live region with it; a game over, or time called, keeps its clock stopped."""
        clock = self.game_clock()
        self.facts = replace(self.facts, elapsed=clock.elapsed_seconds, running=action == "start")
        self.since = self.clock()
        return self.region()

    def clock_json(self) -> str:
        """What the tablet keeps of the game clock: ``{"elapsed": seconds run, "running": ..., "at": now}`` (the
        tablet's time; stopped once the game is over or time is called)."""
        clock = self.game_clock()
        return json.dumps({"elapsed": clock.elapsed_seconds, "running": clock.running, "at": self.clock()})

    def region(self, message: Mapping[str, Any] | None = None, panels: Iterable[str] = (), **parts: Any) -> str:
        """The live region of the table screen (``templates/table/_live.html``) as the tablet has the table, with
        ``message`` at its top (what a tap did), the ``panels`` open on the screen drawn open with their contents,
        and the region's other ``parts`` (a sync's conflict)."""
        kept = ({"tablet_alone": len(self.table.game.entries)} if self.alone
                else {"kept_on_tablet": len(self.kept), "kept_slow": self.waited})
        return self._drawn("table/_live.html", frozenset(panels), region_message=message, **kept, **parts)

    def panel(self, name: str) -> str:
        """One panel's contents (``templates/table/_panel.html``), drawn when the referee opens it offline (the
        server's ``table.panel``); the screen's words for a panel it has not."""
        if name not in panel_names(self.table.game.state):
            with speaking(self.screens.language(self.code)):
                return str(Markup("<p>%s</p>") % _("the table screen has no panel %(name)s", name=name[:40]))
        return self._drawn("table/_panel.html", frozenset([name]), only=name)

    def _drawn(self, template: str, panels: frozenset[str], **parts: Any) -> str:
        language = self.screens.language(self.code)
        with speaking(language):
            screen = table_screen(self.table.game, panels=panels, language=language)
            context = live_view(
                screen, row=Row(self.facts.game, self.facts.limit_minutes), seq=self.table.seq,
                clock=self.game_clock(), version=f"kept-{self.table.seq}", altered=None, sign_offs=None,
                judge=self.facts.judge, csrf=self.facts.csrf, entry_key=secrets.token_urlsafe(18),
                url_for=self.screens.addresses)
            return self.screens.env.get_template(template).render(**parts, **context)

    def tap(self, pairs: Iterable[tuple[str, str]], panels: Iterable[str] = ()) -> tuple[str, list[KeptEntry]]:
        """A form tapped on the tablet's screen (its fields in order): read as the server reads it, its entries
        checked and recorded here or refused with their clause, and the live region that answers it (the
        ``panels`` open on the screen drawn open) with the entries recorded (to keep, and to send when the server
        is back)."""
        language = self.screens.language(self.code)
        with speaking(language):
            message, entries = self._said(self._take(FormPairs(pairs)))
        return self.region(message, panels), entries

    def follow(self, pairs: Iterable[tuple[str, str]]) -> int:
        """A form the server answered (the tablet keeps the table folded beside the server's screen, to take the
        next tap at once if the server is slow to answer it): read and recorded here as the server did, or refused
        as it did, nothing kept, drawn or worded.  How many entries the table has."""
        self._take(FormPairs(pairs))
        self.kept = []
        return self.table.seq

    def redo(self, pairs: Iterable[tuple[str, str]], panels: Iterable[str] = ()) -> tuple[str, list[KeptEntry]]:
        """The redo form tapped (``table.redo`` on the server): the run of entries the latest entry, a void, took
        back, recorded again as new entries, each checked against the table as it now is, all or none."""
        language = self.screens.language(self.code)
        with speaking(language):
            form = FormPairs(pairs)
            try:
                seq = whole_field("seq", form["seq"])
            except (KeyError, ValueError, TypeError, MalformedEntry):
                taken: Taken | RefereeError | None = None
            else:
                run = [entry.to_dict() for entry in self.table.game.redoable()]
                taken = self._take_run(seq, run, form) if run else None
            message, entries = self._said(taken)
        return self.region(message, panels), entries

    def _take(self, form: FormPairs) -> Taken | RefereeError | None:
        """A tap's form read and its entries recorded here (:meth:`_take_run`); the refusal; None for a form that is
        not the table screen's."""
        try:
            data, seq = entry_from_form(form)
            then = following_entry(form)
        except MalformedEntry as exc:  # a number longer than any an entry may carry
            return exc
        except (KeyError, ValueError, TypeError, RecursionError):
            return None
        return self._take_run(seq, [data] + ([then] if then is not None else []), form)

    def _take_run(self, seq: int, run: list[dict[str, Any]], form: FormPairs) -> Taken | RefereeError:
        """A run of entries tapped on a screen that showed ``seq`` entries, recorded here and kept (the table's
        entries before it, what each did, the entries kept), or its refusal."""
        if seq != self.table.seq:
            return StaleEntry.behind(seq, self.table.seq)
        key = form.get("entry_key") or secrets.token_urlsafe(18)
        before = self.table.seq
        clock = self.game_clock()  # as it stood when the tap came
        try:
            outcomes = self.table.record_run(run)
        except (MalformedEntry, IllegalEntry) as exc:
            return exc
        state = self.table.game.state
        if clock.running and (state.over or state.time_called):  # the game clock stops with the game, as the
            # server pauses it when it stores such an entry
            self.facts = replace(self.facts, elapsed=clock.elapsed_seconds, running=False)
            self.since = self.clock()
        at = int(self.clock())
        entries = [KeptEntry(run_key(key, n), self.table.game.entries[before + n].to_dict(),
                             before + n, at) for n in range(len(run))]
        self.kept += entries
        return Taken(before, outcomes, entries)

    def _said(self, taken: Taken | RefereeError | None) -> tuple[dict[str, Any], list[KeptEntry]]:
        """What a tap did, in words for the top of the screen, with the entries it kept."""
        if taken is None:
            return not_a_table_form(), []
        if isinstance(taken, RefereeError):
            return self._refused(taken), []
        return recorded(self.table.game, taken.before, taken.outcomes), taken.entries

    def conflict(self, answer: Mapping[str, Any]) -> str:
        """The live region with the server's refusal of the kept run at its top (``answer``: the sync's 409, its
        ``conflict`` and ``message``): both records from the first difference, each entry in the log's words (the
        server's folded on the record both had), and the referee's two choices."""
        found = answer["conflict"]
        after = int(found["after"])
        server = Game(self.table.game.ruleset, self.table.header, history=True)  # the log says it in words
        for entry in self.table.game.entries[:after]:
            server.record(entry)
        for data in found["server"]:
            server.record(parse_entry(dict(data)))
        language = self.screens.language(self.code)
        with speaking(language):
            view = {"after": after, "seen": len(server.entries), "message": str(answer.get("message", "")),
                    "server": log_lines(server, after, len(server.entries)),
                    "tablet": log_lines(self.table.game, after, self.table.seq)}
        return self.region(None, sync_conflict=view)

    def _refused(self, exc: RefereeError) -> dict[str, Any]:
        """A refusal's words, naming the clauses of the ruleset it was judged by (the table's own, mostly)."""
        ruleset = exc.state.ruleset if exc.state is not None else self.table.game.ruleset
        return {**refusal(exc, ruleset), "game": self.facts.game}

    def not_kept(self) -> str:
        """The live region when the device would not keep an entry the tablet recorded (its storage full, or
        refused): the table as it was before it, and why nothing was recorded."""
        with speaking(self.screens.language(self.code)):
            message = {"kind": "refused", "message": _(
                "This tablet could not keep the entry (its storage is full or refused): nothing was recorded. "
                "Free some space on the tablet, or save this table's record as a file.")}
        return self.region(message)

    def kept_record(self) -> str:
        """The table's record as the engine reads it (its header line, then one line per entry): what the tablet
        keeps as the record its kept entries follow."""
        return "\n".join(self.table.game.to_lines()) + "\n"

    def record_text(self) -> str:
        """The table's record as the tablet has it (the record it opened and every entry recorded on it since), as
        a record file ending on the hash its entries chain to: the server's import replays and checks every entry,
        and that they chain to that hash (a venue whose server is gone for good goes on with it on another; a game
        refereed on the tablet alone is brought to a server)."""
        texts = [chain.entry_text(entry.to_dict()) for entry in self.table.game.entries]
        return self.kept_record() + "\n".join(self.table.sides + [chain.chain_line(self.table.header.to_dict(),
                                                                                    texts)]) + "\n"

    # --- the same, as the tablet's script speaks to its Python: JSON text ---------------------------------------

    def tap_json(self, pairs: str, panels: str = "[]") -> str:
        """:meth:`tap` of a form's fields (``[[name, value], ...]``) and the panels open (``[name, ...]``):
        ``{"region": ..., "kept": [{key, entry, after}, ...]}``."""
        region, entries = self.tap([(str(k), str(v)) for k, v in json.loads(pairs)],
                                   [str(name) for name in json.loads(panels)])
        return json.dumps({"region": region, "kept": [e.as_dict() for e in entries]}, ensure_ascii=False)

    def redo_json(self, pairs: str, panels: str = "[]") -> str:
        """:meth:`redo`, spoken as :meth:`tap_json`."""
        region, entries = self.redo([(str(k), str(v)) for k, v in json.loads(pairs)],
                                    [str(name) for name in json.loads(panels)])
        return json.dumps({"region": region, "kept": [e.as_dict() for e in entries]}, ensure_ascii=False)

    def follow_json(self, pairs: str) -> int:
        return self.follow([(str(k), str(v)) for k, v in json.loads(pairs)])

    def resume_json(self, facts: str) -> int:
        return self.resume(json.loads(facts))

    def replay_json(self, kept: str) -> int:
        return self.replay(json.loads(kept))

    def conflict_json(self, answer: str) -> str:
        return self.conflict(json.loads(answer))
