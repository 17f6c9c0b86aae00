"""The device's language, the web's: chosen per device (a cookie), else from the browser's languages; bound as a
:class:`~referee.language.Language` value for each request the app answers, which its screens and pages speak."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Callable

from flask import Blueprint, current_app, Flask, g, has_app_context, redirect, request
from flask_babel import Babel, get_locale, get_translations
from babel import Locale
from babel.support import NullTranslations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from . import bind, bound, Language, LANGUAGES, locale, TRANSLATIONS, unbind
from .templates import template_words

babel = Babel()
bp = Blueprint("i18n", __name__)


def requested_code() -> str:
    """The device's language: its choice (a cookie), else the first of its browser's languages we have."""
    return code_of(request.cookies.get("lang"), request.accept_languages)


def code_of(chosen: str | None, accepted: LanguageAccept) -> str:
    """The language of a device whose ``lang`` cookie says ``chosen`` (None: none) and whose browser accepts these
    languages: :func:`requested_code` of a request, and of a poll answered before the app's request."""
    return chosen if chosen in LANGUAGES else accepted.best_match(LANGUAGES) or "en"


def environ_code(environ: dict, cookies: Mapping[str, str]) -> str:
    """:func:`requested_code` of the request ``environ`` whose cookies are ``cookies``, without Flask's request (a
    live poll answered before it: ``referee.web.polls``)."""
    return code_of(cookies.get("lang"), parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept))


def select_locale() -> Locale:
    """The device's language as flask_babel asks for it: a parsed locale, made once per language (flask_babel would
    parse a code, asking the file system whether the locale's data exists, at every request)."""
    return locale(requested_code())


def _found() -> tuple[str, NullTranslations]:
    return str(get_locale() or "en"), get_translations()


def _words() -> tuple[str, NullTranslations]:
    """The language code and translations the page is drawn in: the language bound for the request being answered
    (:func:`init_app`: the same value its screens speak), else, in a context no request of the app's began (a
    command, a test's context), the request's as flask_babel finds it, kept on g."""
    language = bound()
    if language is not None:
        return language.code, language.translations
    if not has_app_context():
        return _found()
    try:
        return g._referee_words  # on g, where flask_babel keeps the locale it found for this context
    except AttributeError:
        found = g._referee_words = _found()
        return found


def language() -> Language:
    """The language value the request's screens speak: the one bound at its start, else (a context no request of
    the app's began) the device's as the app makes it."""
    return bound() or current_app.extensions["referee.language_of"](requested_code())


def current_language() -> str:
    """The language code of this request."""
    return _words()[0]


def catalogue() -> NullTranslations:
    """The translations of this request's language."""
    return _words()[1]


def gettext(string: str, **variables) -> str:
    """flask_babel's gettext, from :func:`catalogue`."""
    text = catalogue().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """flask_babel's ngettext, from :func:`catalogue`."""
    variables.setdefault("num", num)
    text = catalogue().ungettext(singular, plural, num)
    return text % variables if variables else text


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
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="Lax", secure=request.is_secure)
    return response


def init_app(app: Flask, language_of: Callable[[str], Language]) -> None:
    """Languages for ``app``: each request's screens and pages speak ``language_of(code)`` for the device's language
    (a value with the published documents' words, which a service reads), bound from the request's start to its
    teardown."""
    babel.init_app(app, locale_selector=select_locale, default_translation_directories=str(TRANSLATIONS))
    # the templates' words from the request's catalogue too (Jinja's i18n extension, which Flask loads, adds this
    # method to the environment as it is made: the Environment's types do not declare it)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: catalogue().ugettext(s), ngettext=lambda s, p, n: catalogue().ungettext(s, p, n),
        pgettext=lambda c, s: catalogue().upgettext(c, s),
        npgettext=lambda c, s, p, n: catalogue().unpgettext(c, s, p, n), newstyle=True)
    app.jinja_env.globals.update(template_words(catalogue))
    app.extensions["referee.language_of"] = language_of

    def begin() -> None:
        g._referee_speaking = bind(language_of(requested_code()))

    def end(exc: BaseException | None = None) -> None:
        token = g.pop("_referee_speaking", None)
        if token is not None:
            unbind(token)

    app.before_request(begin)
    app.teardown_request(end)
    app.register_blueprint(bp)
    app.jinja_env.globals["current_language"] = current_language
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
