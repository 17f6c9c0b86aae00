"""The day's guide, in the device's language: one page per role (the organiser, the director, a table's referee, a
judge) saying what to do in what order, in numbered steps, and the table referee's quick start sheet printed from
the same steps.

Why the guide's words are gettext messages here rather than a template per language:

- one source: each step is one short English sentence in this module, its translations in the catalogues every
  screen's words are in (``referee/language/translations/LANG/LC_MESSAGES/messages.po``), which the translators already keep
  and ``scripts/catalogues`` extracts.  A step added or reworded comes back empty or fuzzy in every language, so no
  language's guide silently lags behind, as a copy of a page per language would; and the page and the printed sheet
  lay out the same steps (``templates/help/_steps.html``).
- the screens' own words: a button or a label a step names is not written into its sentence but put in from the
  very message the screen shows (:func:`word` takes the screen's msgid, e.g. ``"Seat round %(n)s"``, and translates
  it as the screen does), so the guide says 「第1回戦を組む」 exactly as the button does, and follows the button when
  its words change.  Those msgids are deliberately not marked here (``word`` is no keyword of ``pybabel extract``):
  they are in the catalogues only while a screen shows them, and ``tests/test_guide.py`` checks that each is.
- commands and file names (``referee backup``, ``instance/config.py``) are values put into a sentence, never
  translated (:func:`code`).

A translator sees each sentence with its placeholders (``%(button)s``) and words the sentence around them; the
sentence's order of words is the translation's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..language import gettext as _
from .words import per_language

ROLES = ("organiser", "director", "table-referee", "judge")
TEXT, WORD, CODE = "text", "word", "code"  # a part of a step: plain words, a screen's word, a command or file
ANY = "…"  # stands for a number or a name a screen's word carries ("Call a judge on entry …")


@dataclass(frozen=True)
class Part:
    kind: str  # TEXT, WORD or CODE
    text: str
    msgid: str = ""  # a screen's word: the screen's message it is translated from


@dataclass(frozen=True)
class Section:
    title: str
    steps: tuple[tuple[Part, ...], ...]
    printed: bool = True  # on the one printed page of the quick start (the rare case is in the app's guide only)


@dataclass(frozen=True)
class Guide:
    role: str
    title: str  # "The table's referee"
    summary: str  # what the role does on the day, in one sentence
    sections: tuple[Section, ...]

    def words(self) -> list[str]:
        """Every screen's word the guide names, in the device's language, in order."""
        return [p.text for s in self.sections for step in s.steps for p in step if p.kind == WORD]


def word(msgid: str, **values) -> Part:
    """A screen's word (a button, a label, a heading) as the screen shows it in the device's language: ``msgid`` is
    the screen's own message; a number or a name it carries is given in ``values`` (or stands as …)."""
    return Part(WORD, _(msgid, **values) if values else _(msgid), msgid)


def code(text: str) -> Part:
    """A command, a file or a setting, written as typed."""
    return Part(CODE, text)


_PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%")


def step(sentence: str, **parts: Part) -> tuple[Part, ...]:
    """A step: ``sentence`` (translated, its placeholders not yet filled) cut at its placeholders, each filled
    with its part."""
    found: list[Part] = []
    at = 0
    for m in _PLACEHOLDER.finditer(sentence):
        if m.start() > at:
            found.append(Part(TEXT, sentence[at:m.start()]))
        found.append(parts[m.group(1)] if m.group(1) else Part(TEXT, "%"))
        at = m.end()
    if at < len(sentence):
        found.append(Part(TEXT, sentence[at:]))
    return tuple(found)


def guide(role: str) -> Guide:
    """The guide of ``role`` (one of :data:`ROLES`) in the device's language."""
    return _guides()[role]


def guides() -> list[Guide]:
    """Every role's guide, in the order of the day's roles."""
    return [_guides()[role] for role in ROLES]


@per_language
def _guides() -> dict[str, Guide]:
    return {g.role: g for g in (_organiser(), _director(), _table_referee(), _judge())}


def _organiser() -> Guide:
    return Guide("organiser", _("The organiser"), _(
        "Runs the laptop that serves the app, creates the tournament and keeps the backups."), (
        Section(_("The day before"), (
            step(_("Set up the laptop that will serve the venue, and a spare one: %(setup)s."),
                 setup=code("scripts/setup")),
            step(_("Set the organiser password: %(command)s. Without it, anyone on the venue's Wi-Fi may create "
                   "games and tournaments."), command=code("scripts/referee organiser-password")),
            step(_("Start the app: %(command)s. The tablets and phones open its address in their browser, e.g. "
                   "%(address)s."), command=code("scripts/referee serve"), address=code("http://LAPTOP:5000/")),
            step(_("On each tablet, open the address and add it to the home screen (iPad: Share, then Add to Home "
                   "Screen). It then opens full screen, without the browser's bars.")),
        )),
        Section(_("Create the tournament"), (
            step(_("Tap %(tournaments)s in the top bar."), tournaments=word("Tournaments")),
            step(_("Under %(new)s, type its %(name)s and choose the %(scoring)s, the %(format)s and the "
                   "%(ruleset)s."), new=word("New tournament"), name=word("Name"), scoring=word("Scoring"),
                 format=word("Format"), ruleset=word("Ruleset")),
            step(_("Type the players under %(players)s, and any alternates below them."),
                 players=word("Players, one per line")),
            step(_("Under %(regulations)s, tick or type what the tournament's regulations set: fines, two deeds "
                   "dealt, equal turns after time is called."),
                 regulations=word("Tournament regulations (they come before the ruleset)")),
            step(_("Choose the %(pin)s (at least 6 characters) and give it to the director only."),
                 pin=word("Director PIN")),
            step(_("Tap %(create)s. The director's page opens."), create=word("Create the tournament")),
        )),
        Section(_("Backups"), (
            step(_("While a game is in play, the app takes a backup every 5 minutes by itself, in %(folder)s. The "
                   "director's page shows the last one under %(backups)s."),
                 folder=code("instance/backups"), backups=word("Backups")),
            step(_("To take one by hand at any time: %(command)s."), command=code("scripts/referee backup")),
            step(_("Keep a copy off the laptop: set %(setting)s in %(file)s to a USB stick, or copy the backups "
                   "folder now and then."), setting=code("BACKUP_DIR"), file=code("instance/config.py")),
        )),
        Section(_("The restore drill: the laptop dies"), (
            step(_("On the spare, put the last backup back: %(command)s."),
                 command=code("scripts/referee restore FILE --yes")),
            step(_("Start the app on the spare: %(command)s."), command=code("scripts/referee serve")),
            step(_("The director prints the round's slips again: their QR codes carry the spare's address.")),
            step(_("Each tablet opens the spare's address and gives its PIN again (not needed if the dead laptop's "
                   "%(file)s was copied to the spare first)."), file=code("instance/secret_key")),
            step(_("Each table's referee checks the table screen against the board and records what was played "
                   "after the backup.")),
            step(_("A tablet that went on refereeing while the laptop was down keeps its entries under the old "
                   "address: open its table screen there (it opens with no network), tap %(save)s, and the director "
                   "records the file on the spare with %(record)s on the table's card."),
                 save=word("Save this table's record as a file"), record=word("Record entries from a tablet's file…")),
            step(_("Practise the drill once before the day.")),
        )),
    ))


def _director() -> Guide:
    return Guide("director", _("The director"), _(
        "Runs the tournament from the director's page: rounds, PINs, time, disputes, corrections and standings."), (
        Section(_("Open the director's page"), (
            step(_("Tap %(tournaments)s in the top bar, then the tournament's name."),
                 tournaments=word("Tournaments")),
            step(_("Type the %(pin)s and tap %(unlock)s."), pin=word("Director PIN"), unlock=word("Unlock")),
            step(_("Where players check in, tap %(check_in)s by each name under %(players)s as they arrive."),
                 check_in=word("Check in"), players=word("Players between rounds")),
            step(_("Tap %(seat)s. The tables and their players appear below."), seat=word("Seat round %(n)s", n=1)),
        )),
        Section(_("PINs and slips"), (
            step(_("Tap %(slips)s under the round and print it."), slips=word("Table slips (PDF, with each "
                                                                              "table's PIN)")),
            step(_("Cut the slips and lay one on each table: it names the players in their seats and carries the "
                   "table's PIN and a QR code of its screen.")),
            step(_("Under %(judges)s, tap %(judge_pin)s and %(head_pin)s."), judges=word("Judges"),
                 judge_pin=word("Make the judges' PIN"), head_pin=word("Make the head judge's PIN")),
            step(_("Give the judges' PIN to the judges and the head judge's PIN to the head judge only. They scan "
                   "the QR code under %(judges)s with their phones."), judges=word("Judges")),
            step(_("A PIN given to the wrong person: tap %(new)s. The devices the old one opened are locked."),
                 new=word("New judges' PIN")),
        )),
        Section(_("During the round"), (
            step(_("Each table's referee starts the table's clock. Each table's card shows its clock, what it waits "
                   "for and the players' cash.")),
            step(_("A call for a judge shows under %(calls)s: the table, the entry, who called and the minutes "
                   "waited."), calls=word("Calls for a judge")),
            step(_("To rule on it yourself, tap %(answer)s: the entry opens with the ruling form."),
                 answer=word("Answer with a ruling")),
        )),
        Section(_("Calling time"), (
            step(_("When the round's time is up, open %(call)s."), call=word("Call time on every table of this "
                                                                             "round")),
            step(_("Check the tables listed as not started, then tap %(confirm)s."),
                 confirm=word("Confirm: call time on %(n)s tables", n=ANY)),
            step(_("Each table plays on as its ruleset says after time is called, and its card shows the final "
                   "ranking when its game is over.")),
        )),
        Section(_("Corrections"), (
            step(_("A finished table's result is wrong: tap %(correct)s on its card."), correct=word("correct")),
            step(_("Type the places and the totals, give the reason, and tap %(correct)s. The game's record is not "
                   "changed; the standings follow the correction."), correct=word("Correct the result")),
            step(_("The table's players sign the corrected ranking again on the table's tablet: its card says so "
                   "until they have.")),
            step(_("A mistaken correction is withdrawn with its reason (%(withdraw)s), never edited."),
                 withdraw=word("Withdraw correction %(n)s", n=ANY)),
        )),
        Section(_("Standings and the next round"), (
            step(_("The standings are at the foot of the director's page and on the public page %(standings)s, "
                   "live; show %(display)s on the room's screen."), standings=word("standings"),
                 display=word("room display")),
            step(_("When every table of the round is over, tap %(seat)s."), seat=word("Seat round %(n)s", n=ANY)),
            step(_("After the last round, print the standings: %(pdf)s on the standings page."),
                 pdf=word("PDF (A4)")),
            step(_("Watch %(backups)s on the director's page: it names the last backup, or why it failed. Tell the "
                   "organiser at once if it failed."), backups=word("Backups")),
            step(_("At the end of the day, tap %(lock)s."), lock=word("Lock every tablet of this tournament")),
        )),
    ))


def _table_referee() -> Guide:
    return Guide("table-referee", _("The table's referee"), _(
        "Records every fact of the game at one table on its tablet: the app computes every payment and applies the "
        "rules."), (
        Section(_("Before the game"), (
            step(_("Scan the QR code on the table's slip with the tablet's camera, or type the address on the "
                   "slip.")),
            step(_("Type the table's PIN from the slip and tap %(unlock)s."), unlock=word("Unlock")),
            step(_("If the screen asks for the seating roll, tap the two dice on the pad for each player's roll. "
                   "The screen then says who sits where.")),
            step(_("Tap %(start)s when play begins."), start=word("Start the clock")),
        )),
        Section(_("During the game"), (
            step(_("The screen shows what the table waits for, with its buttons. Record each fact as it happens: "
                   "the dice as rolled, a purchase, a bid, a card drawn.")),
            step(_("The app computes every payment and says why, with the rule. Refused: nothing is recorded, and "
                   "the screen says which rule.")),
            step(_("A wrong entry: open %(void)s and tap the button that takes it back. It stays in the record, "
                   "struck through. Then record what happened."), void=word("Void the latest entries…")),
        )),
        Section(_("A dispute"), (
            step(_("Tap %(call)s: the judges' phones and the director's page show the call."),
                 call=word("Call a judge on entry %(n)s", n=ANY)),
            step(_("An earlier entry, or a player calls: %(other)s."), other=word("Another entry, or a player "
                                                                                   "calls…")),
            step(_("To rule yourself, tap the entry in the log, then %(record)s; type %(claim)s and %(ruling)s, "
                   "choose %(clause)s, and tap %(save)s."), record=word("Record a ruling on this entry"),
                 claim=word("Who claimed what"), ruling=word("The ruling"), clause=word("The clause"),
                 save=word("Record the ruling")),
            step(_("A player may appeal: a judge rules, then the head judge, whose ruling is final.")),
        )),
        Section(_("The network or the server fails"), (
            step(_("Go on: %(offline)s The entries are sent when the server answers. If the screen shows %(two)s, "
                   "choose the one the table agrees on."),
                 offline=word("Offline: this tablet referees the table by the same rules."),
                 two=word("Two records of this table")),
        ), printed=False),
        Section(_("Time"), (
            step(_("The director calls time on every table at once, or the screen asks you to when the clock runs "
                   "out: tap %(called)s, then %(yes)s."), called=word("Time called"),
                 yes=word("Yes: call time now")),
            step(_("Play on as the screen says until the game is ranked.")),
        )),
        Section(_("The end of the game"), (
            step(_("The screen shows the final ranking. Each player checks it and taps %(confirms)s."),
                 confirms=word("%(player)s confirms", player=ANY)),
            step(_("A player who disagrees taps %(refuses)s and gives the reason."),
                 refuses=word("%(player)s refuses…", player=ANY)),
            step(_("If the director corrects the result, the screen says the corrected ranking must be signed "
                   "again: each player confirms again.")),
            step(_("Tap %(lock)s in the top bar when you leave the table."), lock=word("Lock")),
        )),
    ))


def _judge() -> Guide:
    return Guide("judge", _("A judge"), _(
        "Answers the tables' calls for a judge on a phone and records a ruling on the entry in dispute."), (
        Section(_("Before the round"), (
            step(_("Scan the QR code under %(judges)s on the director's page with your phone."),
                 judges=word("Judges")),
            step(_("Type the %(pin)s the director gives you (the head judge: the head judge's PIN) and tap "
                   "%(unlock)s."), pin=word("Judges' PIN"), unlock=word("Unlock")),
            step(_("Keep the screen open: the calls show there by themselves.")),
        )),
        Section(_("A call"), (
            step(_("A call shows under %(calls)s: the table, the entry in dispute, who called and the minutes "
                   "waited."), calls=word("Calls for a judge")),
            step(_("Tap it and go to the table: the entry opens with its ruling form.")),
            step(_("Read the entry: what it brought about, and each player's cash before and after it.")),
            step(_("Hear the claim. Type %(claim)s and %(ruling)s, choose %(clause)s, choose %(judge)s under "
                   "%(decided)s, and tap %(save)s."), claim=word("Who claimed what"), ruling=word("The ruling"),
                 clause=word("The clause"), judge=word("a judge"), decided=word("Decided by"),
                 save=word("Record the ruling")),
            step(_("The call is answered and leaves the list. %(print)s makes a sheet of the entry for the "
                   "dispute's file."), print=word("Print this")),
        )),
        Section(_("An appeal"), (
            step(_("A player who disagrees appeals to the head judge.")),
            step(_("The head judge opens the same entry and records a ruling with %(head)s under %(decided)s: it is "
                   "final."), head=word("the head judge"), decided=word("Decided by")),
            step(_("A ruling is never changed: an appeal is a later ruling, and every ruling stays in the "
                   "record.")),
        )),
    ))
