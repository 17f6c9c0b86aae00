"""A table's tablet sends the taps it kept while the server could not be reached (JSON, from its script): they are
recorded in order, exactly once each, or not at all (:mod:`referee.services.sync`), and the answer says what
happened, in the device's language: how many were recorded; the server's and the tablet's entries from the first
difference; or the tap the rules refuse, with its clause."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from ...language.i18n import gettext, ngettext
from ...screens.refusals import detail as refusal_detail
from ...screens.kept import choice_ruling
from ...screens.table import refusal
from ...services import entry_keys, errors, folds, rulings, sync
from ..access import referee_required
from ..forms import kept_run

bp = Blueprint("sync", __name__)


@bp.post("/games/<int:game_id>/sync")
@referee_required
def sync_taps(game_id: int):
    try:
        run = kept_run(request.get_data(cache=False))
    except (ValueError, TypeError, RecursionError, UnicodeDecodeError, errors.MalformedEntry) as exc:
        message = refusal_detail(exc) if isinstance(exc, errors.MalformedEntry) else str(exc)[:200]
        return jsonify(refused=gettext("these taps are not as a table screen sends them: nothing was recorded (%(why)s)",
                                       why=message)), 400
    try:
        try:
            synced = sync.sync(game_id, run.taps)
        except sync.SyncConflict as conflict:
            if run.choice is None or run.seen != conflict.after + len(conflict.server):
                raise  # no choice yet, or one made on a table that has moved on since: the conflict as it is now
            claim, ruling = choice_ruling(run.choice, conflict.after, conflict.server, conflict.tablet,
                                          folds.load(game_id).game)
            synced = sync.choose(game_id, run.taps, conflict, run.choice, claim, ruling)
            return jsonify(recorded=synced.recorded, already=0, seq=synced.seq, choice=run.choice,
                           message=_chosen(run.choice, synced.recorded, len(conflict.tablet)))
    except sync.SyncConflict as conflict:
        return jsonify(conflict={"after": conflict.after, "server": conflict.server, "tablet": conflict.tablet},
                       message=refusal_detail(conflict)), 409
    except sync.TapRefused as refused:
        ruleset = folds.load(game_id).game.state.ruleset
        return jsonify(tap=refused.tap, refusal=refusal(refused, ruleset)), 422
    except (errors.StaleEntry, errors.RecordAltered, entry_keys.KeyReused, errors.MalformedEntry,
            rulings.RulingRefused) as exc:
        return jsonify(refused=refusal_detail(exc)), 400 if isinstance(exc, errors.MalformedEntry) else 409
    said = ngettext("%(num)d entry recorded", "%(num)d entries recorded", synced.recorded + synced.already)
    if synced.already:  # a run sent before was recorded, and its answer lost
        said += " " + ngettext("(%(num)d of them when they were sent before: that answer was lost)",
                               "(%(num)d of them when they were sent before: that answer was lost)", synced.already)
    if synced.time_called:
        said += " " + gettext("The director called time while this tablet was cut off: the call applies from now, "
                              "after these entries (the turn in progress ends the game).")
    return jsonify(recorded=synced.recorded, already=synced.already, seq=synced.seq, message=said)


def _chosen(choice: str, recorded: int, kept: int) -> str:
    """What the tablet is told its referee's choice did."""
    if choice == "server":
        return ngettext("The server's record goes on: this tablet's %(num)d entry was discarded (the rulings log says "
                        "it in words).", "The server's record goes on: this tablet's %(num)d entries were discarded "
                        "(the rulings log says them in words).", kept)
    return ngettext("This tablet's record goes on: the server's later entries were voided and %(num)d entry "
                    "recorded.", "This tablet's record goes on: the server's later entries were voided and %(num)d "
                    "entries recorded.", recorded)
