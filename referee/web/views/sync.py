"""A table's tablet sends the taps it kept while the server could not be reached (JSON, from its script): they are
recorded in order, exactly once each, or not at all (:mod:`referee.services.sync`), and the answer says what
happened, in the device's language: how many were recorded; the server's and the tablet's entries from the first
difference; or the tap the rules refuse, with its clause."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from ...language.i18n import gettext, ngettext
from ...screens.refusals import detail as refusal_detail
from ...screens.table import refusal
from ...services import entry_keys, errors, folds, sync
from ..access import referee_required
from ..forms import kept_taps

bp = Blueprint("sync", __name__)


@bp.post("/games/<int:game_id>/sync")
@referee_required
def sync_taps(game_id: int):
    try:
        taps = kept_taps(request.get_data(cache=False))
    except (ValueError, TypeError, RecursionError, UnicodeDecodeError, errors.MalformedEntry) as exc:
        message = refusal_detail(exc) if isinstance(exc, errors.MalformedEntry) else str(exc)[:200]
        return jsonify(refused=gettext("these taps are not as a table screen sends them: nothing was recorded (%(why)s)",
                                       why=message)), 400
    try:
        synced = sync.sync(game_id, taps)
    except sync.SyncConflict as conflict:
        return jsonify(conflict={"after": conflict.after, "server": conflict.server, "tablet": conflict.tablet},
                       message=refusal_detail(conflict)), 409
    except sync.TapRefused as refused:
        ruleset = folds.load(game_id).game.state.ruleset
        return jsonify(tap=refused.tap, refusal=refusal(refused, ruleset)), 422
    except (errors.StaleEntry, errors.RecordAltered, entry_keys.KeyReused, errors.MalformedEntry) as exc:
        return jsonify(refused=refusal_detail(exc)), 400 if isinstance(exc, errors.MalformedEntry) else 409
    return jsonify(recorded=synced.recorded, already=synced.already, seq=synced.seq,
                   message=ngettext("%(num)d entry recorded", "%(num)d entries recorded", synced.recorded))
