"""The day's guide in the app (``/help``: the roles; ``/help/ROLE``: what that role does, in what order), the table
referee's quick start sheet (PDF), and the top bar's help link, which leads to the guide of the role the screen is
for.  The guide's words are in :mod:`referee.screens.guide` (its docstring says why they are messages there)."""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request, url_for

from ... import reports
from ...screens.guide import ROLES, guide, guides
from .games import page_size, pdf_response
from .tournaments import public_base

bp = Blueprint("guide", __name__, url_prefix="/help")

TABLE_REFEREE, DIRECTOR, JUDGE = "table-referee", "director", "judge"

# The role a screen is for, by its endpoint, else by its blueprint: the table's screens are its referee's (but its
# spectators' display and a ruleset read before any game), the director's page and what it opens the director's,
# the judges' screens a judge's.  Any other screen's help link leads to the list of roles.
SCREEN_ROLES: dict[str, str | None] = {
    "table": TABLE_REFEREE, "table.display": None, "table.ruleset_rules": None,
    "tournaments.director": DIRECTOR, "tournaments.unlock_form": DIRECTOR, "tournaments.unlock_post": DIRECTOR,
    "tournaments.correct": DIRECTOR,
    "judges": JUDGE,
}


def role_of_screen(endpoint: str | None) -> str | None:
    """The role whose guide a screen's help link opens (None: the list of roles)."""
    if not endpoint:
        return None
    if endpoint in SCREEN_ROLES:
        return SCREEN_ROLES[endpoint]
    return SCREEN_ROLES.get(endpoint.split(".", 1)[0])


@bp.app_template_global()
def help_url() -> str:
    """The top bar's help link: the guide of the role this screen is for, else the list of roles."""
    role = role_of_screen(request.endpoint)
    return url_for("guide.role", role=role) if role else url_for("guide.index")


@bp.get("")
def index():
    return render_template("help/index.html", guides=guides())


@bp.get("/<role>")
def role(role: str):
    if role not in ROLES:
        abort(404)
    return render_template("help/role.html", guide=guide(role), guides=guides())


@bp.get("/table-referee/quick-start.pdf")
def quick_start_pdf():
    """One printed page for the table's referee, in the device's language, A4 or Letter."""
    size = page_size()
    address = public_base() + url_for(".role", role=TABLE_REFEREE).lstrip("/")
    return pdf_response(reports.quick_start_pdf(address, size), f"quick-start-{size}.pdf")
