"""What the templates may call: the screens' words, registered once on the app's template environment (the one
place a name is given to a template)."""
from __future__ import annotations

from typing import Any

from jinja2 import BaseLoader, Environment, pass_environment, select_autoescape
from markupsafe import Markup

from ..cache import LOG_ROWS
from .backups import backup_lines, disk_lines
from .devices import device_words
from .judge import caller_words
from .holdings import bank_stock_words, board_places, board_tokens
from .log import entry_words
from .rules_page import (clause_label, clause_note, clause_texts, ending_words, house_rules_off, option_value_words,
                         stage_words, time_call_words, variants_on)
from .decisions import pending_words
from .regulations import regulation_field_words
from .sign_offs import sign_off_count
from .sources import source_words
from .words import deck_name, group_name, in_language, level_words, money, ruleset_name, square_name

# The dice pad's 36 buttons, one per throw (doubles marked): the same on every screen, so written once.
DICE_BUTTONS = Markup("".join(
    f'<button type="submit" name="dice" value="{a},{b}" class="{"double" if a == b else ""}">{a}·{b}</button>'
    for a in range(1, 7) for b in range(1, 7)))

# How the templates' tojson writes a value: an entry's lots stay in board order on its button, so in the log's words.
POLICIES = {"json.dumps_kwargs": {"sort_keys": False}}


@pass_environment
def kept_log_rows(env: Environment, lines: list[tuple[int, str, bool]], entry_url: str,
                  current: int | None = None) -> Markup:
    """The rows of a log's ``lines`` (number, words, whether the entry stands), newest first, each drawn by the
    ``log_row`` macro (templates/table/_macros.html) once for all it shows (its number, its words, whether it
    stands, whether it is the entry ``current``, the address ``entry_url`` its words link to) and kept
    (:data:`referee.cache.LOG_ROWS`): a table's screen shows its latest thirty lines at each version, of which an
    entry recorded adds one, the rest drawn for the version before (the rows were a sixth of its live region)."""
    row = env.get_template("table/_macros.html").module.log_row  # type: ignore[attr-defined]  # the macro
    out = []
    for n, words, effective in reversed(lines):
        key = (row, entry_url, n, words, bool(effective), n == current)
        drawn = LOG_ROWS.get(key)
        if drawn is None:
            drawn = LOG_ROWS.keep(key, str(row(n, words, effective, current, entry_url)))
        out.append(drawn)
    return Markup("\n".join(out))


FILTERS = {"square_name": square_name, "entry_words": entry_words, "pending_words": pending_words,
           "level_words": level_words, "group_name": group_name}
GLOBALS = {"money": money, "clause_label": clause_label, "option_value_words": option_value_words,
           "clause_note": clause_note, "ruleset_name": ruleset_name, "in_language": in_language,
           "time_call_words": time_call_words, "house_rules_off": house_rules_off, "variants_on": variants_on,
           "stage_words": stage_words, "bank_stock_words": bank_stock_words, "board_places": board_places,
           "board_tokens": board_tokens, "deck_name": deck_name, "ending_words": ending_words,
           "clause_texts": clause_texts, "device_words": device_words, "source_words": source_words,
           "backup_lines": backup_lines, "disk_lines": disk_lines, "caller_words": caller_words,
           "regulation_field_words": regulation_field_words, "sign_off_count": sign_off_count,
           "dice_buttons": DICE_BUTTONS, "kept_log_rows": kept_log_rows}


# Where the offline kit carries its templates compiled (Jinja's modules, one a template, named by its name's digest:
# jinja2.ModuleLoader), beside their sources in ``templates``.
COMPILED_TEMPLATES = "templates-compiled"


def environment(loader: BaseLoader) -> Environment:
    """The screens' template environment where no Flask app makes one: the tablet's, and the server's as it compiles
    the offline kit's templates for it (so the two must be made alike: made here).  Escaped as Flask escapes its
    templates; a template once compiled is used without its file's time read again (a kit's never change: a new kit
    comes with a new page)."""
    env = Environment(loader=loader, autoescape=select_autoescape(("html", "htm", "xml", "xhtml", "svg"),
                                                                  default_for_string=True), auto_reload=False)
    env.globals.update(GLOBALS)
    env.filters.update(FILTERS)
    env.policies.update(POLICIES)
    return env


def init_app(app: Any) -> None:
    """Register the screens' words on a Flask app's template environment (a tablet's environment is given them as
    it is made: ``referee.tablet.screens``)."""
    app.jinja_env.filters.update(FILTERS)
    app.jinja_env.policies.update(POLICIES)
    app.jinja_env.globals.update(GLOBALS)
