"""The words of entries kept on a tablet when the server and the tablet disagree: the referee's choice of the record
that goes on, as the table's referee's ruling in the game's rulings log (who claimed what, what was decided), each
side's entries said in words, so that nothing a tablet kept is dropped unsaid."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..engine import clip, Game, parse_entry, RefereeError
from ..language import gettext as _, ngettext
from .log import entry_words, log_lines

CLAIM_WORDS = 440  # a ruling's claim holds 500 characters: the entries' words are cut short there


def entries_said(game: Game, after: int, entries: Sequence[Mapping[str, Any]]) -> str:
    """Entries (as JSON values) that follow entry ``after`` of ``game``, each in the log's words, "; " between
    them: folded on the record both sides had, as the conflict's screen showed them (a deed bought by its name and
    price); each on its own where the rules refuse one there."""
    told = Game(game.ruleset, game.header, history=True)
    try:
        for entry in game.entries[:after]:
            told.record(entry)
        for data in entries:
            told.record(parse_entry(dict(data)))
    except RefereeError:
        return "; ".join(entry_words(parse_entry(dict(e)), game.ruleset) for e in entries)
    return "; ".join(words for number, words, effective in log_lines(told, after, len(told.entries)))


def choice_ruling(choice: str, after: int, server: Sequence[Mapping[str, Any]], tablet: Sequence[Mapping[str, Any]],
                  game: Game) -> tuple[str, str]:
    """The claim and the ruling that record the referee's ``choice`` ("server" or "tablet") on a conflict after
    entry ``after`` of ``game`` (the table as the server has it): the side set aside, in words (the tablet's
    entries discarded; the server's entries voided)."""
    if choice == "server":
        claim = ngettext("While the server could not be reached, this tablet recorded %(num)s entry after entry "
                         "%(after)s: %(entries)s", "While the server could not be reached, this tablet recorded "
                         "%(num)s entries after entry %(after)s: %(entries)s", len(tablet), after=after,
                         entries=entries_said(game, after, tablet))
        ruling = _("The table's referee kept the server's record: this tablet's entries were discarded.")
    else:
        claim = ngettext("While the server could not be reached, another device recorded %(num)s entry after entry "
                         "%(after)s: %(entries)s", "While the server could not be reached, another device recorded "
                         "%(num)s entries after entry %(after)s: %(entries)s", len(server), after=after,
                         entries=entries_said(game, after, server))
        ruling = ngettext("The table's referee kept this tablet's record: the server's later entries were voided "
                          "and this tablet's %(num)s entry recorded after them.", "The table's referee kept this "
                          "tablet's record: the server's later entries were voided and this tablet's %(num)s entries "
                          "recorded after them.", len(tablet))
    return clip(claim, CLAIM_WORDS), ruling
