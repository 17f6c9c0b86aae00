"""Languages: English and Japanese, chosen per device (a cookie), else from the browser's languages."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, redirect, request
from flask_babel import Babel, get_locale

LANGUAGES = ("en", "ja")
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
babel = Babel()
bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "en"


def current_language() -> str:
    return str(get_locale() or "en")


def same_site_path(referrer: str | None) -> str:
    """The page the language was chosen on, as a path on this site: a Referer naming another site (or none)
    leads home, so the switch never sends a tablet off-site."""
    from urllib.parse import urlsplit

    if not referrer:
        return "/"
    url = urlsplit(referrer)
    if url.netloc and url.netloc != request.host or url.scheme not in ("", "http", "https"):
        return "/"
    path = url.path if url.path.startswith("/") and not url.path.startswith("//") else "/"
    return path + (f"?{url.query}" if url.query else "")


@bp.get("/lang/<code>")
def choose(code: str):
    response = redirect(same_site_path(request.referrer))
    if code in LANGUAGES:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="Lax")
    return response


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale, default_translation_directories=str(TRANSLATIONS))
    app.register_blueprint(bp)
    app.jinja_env.globals["current_language"] = current_language
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
